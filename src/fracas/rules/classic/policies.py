"""The default tactical policy of the Heimr Tabletop Rulebook (heimr-classic), and its DM.

A round is declared, post by post, then resolved at once (HC-ROUND-1). A fighter's
post: stand up if prone; with a bow in hand (a held weapon named a bow, for which an
arrow may be drawn), draw an arrow before each shot; attack the enemy with the lowest
defence it can reach (the defence every side sees, HC-CS-1), as long as its half
actions last; if no enemy is within reach, move toward the nearest one and attack
there; then ``done``. The DM opens the fight and closes each round when every post is
in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy

from fracas.engine import Action
from fracas.engine.capabilities import OwnPolicies, PlainStats, Vocabulary
from fracas.rules.tactics import (
    GameMaster,
    Tactical,
    best,
    distances,
    find,
    first,
    undirected,
    with_verb,
)


class DefaultPolicy(Tactical):
    """heimr-classic's default tactical policy (see the module's docstring)."""

    #: Whether there is anything to choose from is asked of a plain ``done`` first.
    probes = ("done",)

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action:
        actor, me, people = self.acting(view, legal)
        declared = [Action.parse(t) for t in view["state"].get("declared", {}).get(actor, ())]
        return self._post(view, legal, rng, me, people, declared) or legal[0]

    @staticmethod
    def _post(
        view: Mapping[str, Any],
        legal: Sequence[Action],
        rng: numpy.random.Generator,
        me: Mapping[str, Any],
        people: Mapping[str, Mapping[str, Any]],
        declared: Sequence[Action],
    ) -> Action | None:
        if me.get("prone") and not any(a.verb == "stand" for a in declared):
            stand = find(legal, "stand")
            if stand is not None:
                return stand
        attacks = with_verb(legal, "attack")
        held = " ".join(str(w) for w in me.get("weapons", ())).lower()
        archer = "bow" in held and find(legal, "draw", "arrow") is not None
        if archer:  # a shot is offered only with a missile drawn (HC-AGI-1)
            drawn = sum(1 for a in declared if a.verb == "draw" and a.target == "arrow")
            shots = sum(1 for a in declared if a.verb == "attack")
            if drawn <= shots:
                return find(legal, "draw", "arrow")
        if attacks:

            def weakest(action: Action) -> float:
                target = people.get(action.target or "", {})
                defence = (target.get("defence") or {}).get("result", 0)
                return -float(defence) + (0.5 if target.get("injury") is not None else 0.0)

            if len(attacks) == 1:  # no choice: nothing to weigh, no tie to break
                return attacks[0]
            return best(attacks, weakest, rng)
        if any(a.verb == "attack" for a in declared):
            return first(legal, "done")
        step = _toward_enemy(view, legal, rng, me, people, declared)
        return step or first(legal, "done")


def _toward_enemy(
    view: Mapping[str, Any],
    legal: Sequence[Action],
    rng: numpy.random.Generator,
    me: Mapping[str, Any],
    people: Mapping[str, Mapping[str, Any]],
    declared: Sequence[Action],
) -> Action | None:
    """A move to the bordering position nearest to an enemy (HC-MOVE-1)."""
    here = me.get("square")
    for action in declared:
        if action.verb in ("move", "crawl") and action.target is not None:
            here = action.target
    enemies = [
        p.get("square")
        for p in people.values()
        if p.get("side") != me.get("side") and not p.get("dead")
    ]
    graph = undirected(view["state"].get("positions", {}))
    away = distances(graph, [e for e in enemies if e is not None])
    now = away.get(str(here), 1 << 30)

    def nearer(a: Action) -> bool:
        return away.get(a.target or "", 1 << 30) < now

    # Plain moves first (asked by their verb alone); else every nearer move or crawl in
    # the order the rules list them (read from the whole listing only when there is one).
    walks = [a for a in with_verb(legal, "move") if not a.options and nearer(a)]
    if not walks and any(nearer(a) for v in ("move", "crawl") for a in with_verb(legal, v)):
        walks = [a for a in legal if a.verb in ("move", "crawl") and nearer(a)]
    return best(walks, lambda a: -away.get(a.target or "", now), rng)


class GmPolicy(GameMaster):
    """heimr-classic's DM opens the fight and closes each round once all have posted."""

    verbs = ("open", "close")
    probes = ("close", "open")


class Stats(PlainStats):
    """The lab's reading of a heimr-classic fight
    (:class:`fracas.engine.capabilities.LabStats`): the dying and helpless are out of
    it; an injury level reached counts one."""

    def standing(self, seen: Mapping[str, Any]) -> bool:
        if not super().standing(seen):
            return False
        return not ({"dying", "helpless"} & set(seen.get("effects") or ()))

    def injuries(self, seen: Mapping[str, Any]) -> int:
        return 1 if seen.get("injury") else 0


#: The ruleset's policies capability (:class:`fracas.engine.capabilities.Policies`): its
#: verbs as the lab's baselines use them (each list best first), its own policies.
POLICIES = OwnPolicies(
    Vocabulary(
        attacks=("attack",),
        approach=("move",),
        defences=("tactic defensive",),
        finish=("done",),
        begin=("open", "close"),
    ),
    {"default": DefaultPolicy},
    GmPolicy,
)
STATS = Stats()
