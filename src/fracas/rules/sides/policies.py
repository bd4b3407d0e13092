"""The default tactical policy of the side-initiative skirmish rules (sides), and its GM.

The winner of the initiative acts first. In its side's phase a fighter picks up a
dropped weapon, stays put when already in melee, charges an enemy it can reach (First
Strike), else shoots if it can, else moves toward the nearest enemy, and is done. In
the melee it strikes the enemy it is likeliest to hurt (the lowest Evasion; between
equals, one who dropped its weapon); it takes every opportunity attack offered. The
GM begins the fight and moves the round on when nobody else is waited for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy

from fracas.engine import Action
from fracas.engine.capabilities import Kernel, OwnPolicies, Vocabulary
from fracas.rules.tactics import (
    GameMaster,
    Tactical,
    acting,
    best,
    find,
    first,
    with_verb,
)

#: S-MELEE-1: enemies this close are in melee.
MELEE_RANGE = 5.0


class DefaultPolicy(Tactical):
    """sides' default tactical policy (see the module's docstring)."""

    #: Whether there is anything to choose from is asked of these plain actions first.
    probes = ("done", "pass", "hold", "act")

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action:
        actor, people = acting(view, legal)
        if actor not in people:  # the initiative winner's side chooses
            return find(legal, "act") or legal[0]
        me = people[actor]
        foes = {
            cid: p
            for cid, p in people.items()
            if p.get("side") != me.get("side") and not p.get("dead")
        }

        def apart(cid: str | None) -> float:
            foe = foes.get(cid or "", {})
            return abs(float(foe.get("position", 0)) - float(me.get("position", 0)))

        def weakest(action: Action) -> float:
            foe = foes.get(action.target or "", {})
            unarmed = 0.5 if "dropped weapon" in foe.get("effects", ()) else 0.0
            return -float(foe.get("evasion") or 0) + unarmed

        attacks = with_verb(legal, "attack")
        if attacks:  # an opportunity attack, or the melee
            return best(attacks, weakest, rng) or attacks[0]
        if find(legal, "hold") is not None:
            return find(legal, "hold") or legal[0]
        pickup = find(legal, "pickup")
        if pickup is not None:
            return pickup
        engaged = any(apart(cid) <= MELEE_RANGE + 1e-6 for cid in foes)
        if not engaged:
            charges = with_verb(legal, "charge")
            if charges:
                return best(charges, weakest, rng) or charges[0]
            shots = with_verb(legal, "shoot")
            if shots:
                return best(shots, weakest, rng) or shots[0]
            closing = [a for a in with_verb(legal, "move") if not a.options]
            if closing:
                return best(closing, lambda a: -apart(a.target), rng) or closing[0]
        return first(legal, "done", "pass") or legal[0]


class GmPolicy(GameMaster):
    """sides' GM begins the fight and moves each round on; it never ends it by fiat."""

    verbs = ("begin", "next")
    probes = ("next", "begin")


def _kernel() -> Kernel:
    from fracas.rules.sides.kernel import KERNEL  # NumPy, loaded when asked

    return KERNEL


#: The ruleset's policies capability (:class:`fracas.engine.capabilities.Policies`): its
#: verbs as the lab's baselines use them (each list best first), its own policies.
POLICIES = OwnPolicies(
    Vocabulary(
        attacks=("attack", "charge", "shoot"),
        approach=("move",),
        defences=(),
        finish=("act", "done", "hold", "pass"),
        begin=("begin", "next"),
        approach_foe=True,
        never=(("dir", "away"),),
    ),
    {"default": DefaultPolicy},
    GmPolicy,
    kernel_of=_kernel,
)
