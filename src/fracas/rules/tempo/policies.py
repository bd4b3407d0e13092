"""The default tactical policy of the action-point tempo rules (tempo).

tempo has no game master's actions: every step is a fighter's. On its turn a fighter
readies itself when off guard, works a bind or a grapple to its advantage (press, pin,
escape), else strikes (now and then a feint, to draw a parry), and recovers its action
points when it can afford nothing more. A blow it answers with a parry, an evasion or
a counter-attack, mixed at random: always parrying lets a feint count on the parry and
the striker drain its action points, always countering favours the one struck (in the
examples' duels this mix wins about as often as it loses either way). It dodges a shot,
keeps control of a bind or grapple, takes the Counter-Attack a parried feint offers
and parries a counter-attack; it lets go only what it cannot answer.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from itertools import accumulate
from typing import Any

import numpy

from fracas.engine import Action
from fracas.engine.capabilities import OwnPolicies, Vocabulary
from fracas.rules.tactics import GameMaster, Tactical, best, combatants, first, with_verb

#: Proactive verbs by preference, from the most pressing.
OWN_TURN = (
    "ready",
    "escape",
    "pin",
    "press",
    "melee-attack",
    "unarmed-attack",
    "ranged-attack",
    "aim",
)
#: Reactions by preference: defend first.
ANSWERS = ("parry", "evade", "dodge", "wind", "struggle", "counter-attack")
#: The answers to a blow, and their weights when all three are open.
BLOW_ANSWERS = {"parry": 0.25, "evade": 0.25, "counter-attack": 0.5}
#: Replacements of the own declared action once it is answered: the Counter-Attack a
#: parried feint turns into, a parry against a counter-attack.
REPLACEMENTS = ("counter-attack", "ct-parry")
#: How often a fighter on guard feints instead of striking.
FEINT_SHARE = 0.2


class DefaultPolicy(Tactical):
    """tempo's default tactical policy (see the module's docstring)."""

    #: Whether there is anything to choose from is asked of these plain actions first.
    probes = ("pass", "recover")
    #: The verbs of one's own turn, listed together when the first is asked for.
    verbs_together = frozenset({"feint", *OWN_TURN, "recover"})

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        state = view["state"]
        if state.get("exchange") is not None:
            ex = state["exchange"]
            if ex.get("phase") == "counter":
                return first(legal, *REPLACEMENTS) or first(legal, "pass") or legal[0]
            return self._answer(legal, rng)
        people = combatants(view)  # read only on one's own turn

        def weakest(action: Action) -> float:
            foe = people.get(action.target or "", {})
            return -float(foe.get("ap") or 0)

        feints = with_verb(legal, "feint")
        if feints and rng.random() < FEINT_SHARE:
            return best(feints, weakest, rng) or feints[0]
        for verb in OWN_TURN:
            found = with_verb(legal, verb)
            if found:
                return best(found, weakest, rng) or found[0]
        return first(legal, "recover") or legal[0]

    @staticmethod
    def _answer(legal: Sequence[Action], rng: numpy.random.Generator) -> Action:
        """A blow is met by a parry, an evasion or a counter-attack, mixed at random so
        that a feint cannot count on drawing the parry; other moves by their answer."""
        blows = [a for a in legal if a.verb in BLOW_ANSWERS]
        if blows:
            return blows[weighted(rng, [BLOW_ANSWERS[a.verb] for a in blows])]
        return first(legal, *ANSWERS) or first(legal, "pass") or legal[0]


def weighted(rng: numpy.random.Generator, weights: Sequence[float]) -> int:
    """An index drawn in proportion to ``weights``: the one ``rng.choice(len(weights),
    p=weights / sum)`` draws, from the same one uniform number, without NumPy's arrays.

    >>> weighted(numpy.random.default_rng(3), [0.25, 0.25, 0.5])
    0
    """
    total = sum(weights)
    cdf = list(accumulate(w / total for w in weights))
    last = cdf[-1]
    return bisect_right([c / last for c in cdf], rng.random())


class GmPolicy(GameMaster):
    """tempo needs no game master's action; given one to choose, it takes the first."""

    verbs = ()


#: The ruleset's policies capability (:class:`fracas.engine.capabilities.Policies`): its
#: verbs as the lab's baselines use them (each list best first), its own policies.
POLICIES = OwnPolicies(
    Vocabulary(
        attacks=(
            "melee-attack",
            "counter-attack",
            "ct-counter-attack",
            "ranged-attack",
            "counter-fire",
            "unarmed-attack",
        ),
        approach=(),
        defences=("parry", "ct-parry", "dodge", "evade", "wind"),
        finish=("pass", "recover"),
        begin=(),
    ),
    {"default": DefaultPolicy},
    GmPolicy,
)
