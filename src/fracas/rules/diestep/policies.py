"""The default tactical policy of the diestep rules, and its game master.

On its turn a fighter breaks free when held, keeps up and crushes a hold it has, gets
its weapon ready and stands up, attacks the enemy it is likeliest to beat (a weapon
attack, else a grab or an unarmed strike), moves toward the nearest enemy while it has
action points, and ends its turn. Attacked, it defends with its best die (a block with a
shield rolls DEF with advantage; otherwise parry with ATT or dodge with REF, whichever
die is larger); it takes every opportunity attack offered. The game master begins the
fight.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache, partial
from typing import Any

import numpy

from fracas.engine import Action
from fracas.engine.capabilities import OwnPolicies, PlainStats, Vocabulary
from fracas.engine.legal import Legal, actor_of
from fracas.rules.tactics import (
    GameMaster,
    Tactical,
    best,
    combatants,
    distances,
    find,
    first,
    undirected,
)


def die(person: Mapping[str, Any], attribute: str) -> int:
    """The size of ``person``'s die for ``attribute`` (``d8`` -> 8), 6 when unknown.

    >>> die({"dice": {"att": "d10"}}, "att"), die({}, "ref")
    (10, 6)
    """
    return _sides(str((person.get("dice") or {}).get(attribute, "d6")))


@lru_cache(maxsize=64)
def _sides(text: str) -> int:
    """The sides of a die as the view names it (``"d8"`` -> 8), 6 when unreadable."""
    try:
        return int(text.lstrip("d"))
    except ValueError:
        return 6


def _listed(legal: Sequence[Action], verb: str) -> Sequence[Action]:
    """The actions of ``legal`` with ``verb``, as ``tactics.with_verb`` gives them."""
    return [a for a in legal if a.verb == verb]


def _lister(legal: Sequence[Action]) -> Callable[[str], Sequence[Action]]:
    """:func:`_listed` of ``legal``, asked of a :class:`Legal` straight: the policy asks
    a dozen verbs a choice."""
    if type(legal) is Legal:
        return legal.verb
    return partial(_listed, legal)


def _end(listed: Callable[[str], Sequence[Action]]) -> Action | None:
    """The first legal ``end`` (``first(legal, "end")``), of a :func:`_lister`."""
    found = listed("end")
    return found[0] if found else None


class DefaultPolicy(Tactical):
    """diestep's default tactical policy (see the module's docstring)."""

    #: Whether there is anything to choose from is asked of these plain actions first:
    #: ``end`` in a turn; a window's answers are listed then, and again by the rules from
    #: what they kept when the policy asks for them.
    probes = ("end",)
    #: Listed together when the first of them is asked: the answers to a window (only
    #: they are offered while one is open), and the turn's actions looked at when there
    #: is no weapon attack to make (one listing, not one a verb).
    verbs_together = frozenset(
        {"take", "pass", "opportunity", "block", "parry", "dodge"}
        | {"strike", "move", "run", "crawl", "end"}
    )

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        listed: Callable[[str], Sequence[Action]]
        if type(legal) is Legal:  # asked straight: the policy asks a dozen verbs a choice
            actor, listed = legal.actor, legal.verb
        else:
            actor, listed = actor_of(legal), partial(_listed, legal)
        if self._answering(legal, actor, listed):  # a window to answer
            return self._answer(legal, lambda: combatants(view).get(actor, {}), listed)
        people = view["state"]["combatants"]  # (tactics.combatants)
        me = people.get(actor, {})
        found = self._turn(view, legal, rng, me, people, listed)
        if found is None:
            ends = listed("end")  # (_end)
            found = ends[0] if ends else legal[0]
        return found

    @staticmethod
    def _answering(
        legal: Sequence[Action], actor: str, listed: Callable[[str], Sequence[Action]]
    ) -> bool:
        """Whether ``actor`` answers a window: ``take`` or ``pass`` is legal. Not while
        ``end`` is (D-ACT-1: nothing but the answers while a window is open), which is
        asked first of all (:attr:`probes`), so a turn asks nothing more."""
        if legal.plain("end") if type(legal) is Legal else Action(actor, "end") in legal:
            return False
        # listed with the other answers (verbs_together), which an answer reads next
        return bool(listed("take") or listed("pass"))

    @staticmethod
    def _answer(
        legal: Sequence[Action],
        me: Mapping[str, Any] | Callable[[], Mapping[str, Any]],
        listed: Callable[[str], Sequence[Action]] | None = None,
    ) -> Action:
        """The answer to a window; ``me`` (what the view shows of the one answering, or a
        function giving it) is read only to choose between a parry and a dodge;
        ``listed`` is the :func:`_lister` of ``legal``."""
        if listed is None:
            listed = _lister(legal)
        opportunity = listed("opportunity")
        if opportunity:
            return opportunity[0]
        block = listed("block")
        if block:
            return block[0]
        parries, dodges = listed("parry"), listed("dodge")
        parry = parries[0] if parries else None
        dodge = dodges[0] if dodges else None
        if parry is not None and dodge is not None:
            person = me() if callable(me) else me
            if die(person, "att") >= die(person, "ref"):
                return parry
        elif parry is not None:
            return parry
        return dodge or first(legal, "take", "pass") or legal[0]

    @staticmethod
    def _turn(
        view: Mapping[str, Any],
        legal: Sequence[Action],
        rng: numpy.random.Generator,
        me: Mapping[str, Any],
        people: Mapping[str, Mapping[str, Any]],
        listed: Callable[[str], Sequence[Action]],
    ) -> Action | None:
        if me.get("held_by") and (found := first(legal, "escape")) is not None:
            return found
        if me.get("hold"):
            found = first(legal, "hold", "crush", "throw")
            if found is not None:
                return found
        unready = "weapon not ready" in me.get("effects", ())
        if unready and (found := find(legal, "draw")):
            return found
        if me.get("prone") and (found := find(legal, "stand")) is not None:
            return found
        # D-ATK-1: no weapon attack without a weapon ready (not even asked for)
        armed = me.get("weapon") is not None
        for verb in ("attack" if armed and not unready else "", "" if armed else "grab", "strike"):
            found_all = listed(verb) if verb else []
            if len(found_all) == 1:  # no choice: nothing to weigh, no tie to break
                return found_all[0]
            if found_all:
                return best(found_all, partial(_weakness, _enemies(me, people)), rng)
        steps = listed("move")
        others = [*listed("run"), *listed("crawl")]
        if not steps and not others:
            return _end(listed)  # nowhere to go: the map is not even read
        here = me.get("region")
        theirs = [str(p.get("region")) for p in _enemies(me, people).values()]
        if str(here) in theirs:
            return _end(listed)  # an enemy here: no step brings one nearer (the map unread)
        graph = undirected(view["state"].get("regions", {}))
        away = distances(graph, theirs)
        now = away.get(str(here), 1 << 30)

        def nearer(a: Action) -> bool:
            return not a.options and away.get(a.target or "", 1 << 30) < now

        # Moves first; else runs and crawls in the order the rules list them (read from
        # the whole listing only when one of them would do).
        moves = [a for a in steps if nearer(a)]
        if not moves and any(nearer(a) for a in others):
            moves = [a for a in legal if a.verb in ("run", "crawl") and nearer(a)]
        if moves:
            return best(moves, lambda a: -away.get(a.target or "", now), rng)
        return _end(listed)


def _enemies(
    me: Mapping[str, Any], people: Mapping[str, Mapping[str, Any]]
) -> dict[str, Mapping[str, Any]]:
    """Those the view shows on another side than ``me``, neither dead nor unconscious."""
    mine = me.get("side")
    return {
        cid: p
        for cid, p in people.items()
        if p.get("side") != mine and not p.get("dead") and not p.get("unconscious")
    }


def _weakness(foes: Mapping[str, Mapping[str, Any]], action: Action) -> float:
    """How weak the target of ``action`` looks among ``foes``: its wounds and stuns, and
    whether it is down."""
    foe = foes.get(action.target or "", {})
    hurt = sum(1 for e in foe.get("effects", ()) if "wounded" in e or "stunned" in e)
    return hurt + (1.0 if foe.get("prone") else 0.0)


class GmPolicy(GameMaster):
    """diestep's game master begins the fight; it never ends one by fiat."""

    verbs = ("begin",)
    probes = ("begin",)


class Stats(PlainStats):
    """The lab's reading of a diestep fight (:class:`fracas.engine.capabilities.LabStats`):
    the helpless are out of it; wounds and a permanent injury count."""

    def standing(self, seen: Mapping[str, Any]) -> bool:
        return super().standing(seen) and "helpless" not in (seen.get("effects") or ())

    def injuries(self, seen: Mapping[str, Any]) -> int:
        effects = seen.get("effects") or ()
        wounds = sum(1 for e in effects if e in ("badly wounded", "mortally wounded"))
        return wounds + (1 if seen.get("permanent_injury") else 0)


#: The ruleset's policies capability (:class:`fracas.engine.capabilities.Policies`): its
#: verbs as the lab's baselines use them (each list best first), its own policies.
POLICIES = OwnPolicies(
    Vocabulary(
        attacks=("attack", "opportunity", "strike"),
        approach=("move",),
        defences=("parry", "block", "dodge", "take"),
        finish=("end", "pass", "take"),
        begin=("begin",),
    ),
    {"default": DefaultPolicy},
    GmPolicy,
)
STATS = Stats()
