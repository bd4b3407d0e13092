"""Dice for every rule system fracas plays, each mechanic defined once.

``parse(system, text)`` reads an expression in a system's notation and returns a
:class:`Mechanic`: ``.roll(rng)`` throws it, ``.pmf()`` gives its exact distribution
and ``.evaluate(faces)`` reads faces a person rolled by hand.

=================  ===============================================  ===================
system             notation                                         example
=================  ===============================================  ===================
``heimr``          consistency and potential (H-DICE-1..3)          ``C3P2``, ``c-4p-4``
``heimr-classic``  d20 plus modifier; a bare modifier means d20     ``d20+5``, ``+5``
``sides``          2d6 roll-under a target (attribute - difficulty) ``9``, ``9-1``
``tempo``          the Prismatic Dice Pool plus rating (T-DICE-1)   ``pool+3``
``diestep``        a die of the ladder, shifted, with advantage     ``d8 up 1 adv``
``standard``       Roll20's and Avrae's (docs/dice.md)              ``4d6dl1``, ``3d6!``
=================  ===============================================  ===================

Any of them takes ``A vs B`` for an opposed roll under the system's tie rule.

>>> import random
>>> parse("heimr", "C3P2").roll(random.Random(1)).result
12
>>> parse("sides", "9").pmf()[1]
Fraction(5, 6)
>>> parse("heimr", "C0P0 vs C0P0").p_success()
Fraction(5, 12)
"""

from __future__ import annotations

import re
from functools import lru_cache

from fracas.dice.classic import ClassicRoll
from fracas.dice.core import Mechanic, Rng, Roll
from fracas.dice.diestep import DieStep, successes
from fracas.dice.errors import CostError, DiceError, FacesError, LimitError, NotationError, quote
from fracas.dice.formula import Formula, parse_standard
from fracas.dice.heimr import HeimrChallenge
from fracas.dice.opposed import TIES_TO_FIRST, Opposed
from fracas.dice.sample import Estimate, estimate, wilson
from fracas.dice.scanner import check_length
from fracas.dice.sides import RollUnder
from fracas.dice.standard import StandardExpression
from fracas.dice.tempo import PrismaticCheck

SYSTEMS: tuple[str, ...] = ("heimr", "heimr-classic", "sides", "tempo", "diestep", "standard")
#: The systems whose opposed rolls also count successes (the margin in dice, D-ATK-2).
COUNTING_SUCCESSES: frozenset[str] = frozenset({"diestep"})

__all__ = [
    "COUNTING_SUCCESSES",
    "SYSTEMS",
    "ClassicRoll",
    "CostError",
    "DiceError",
    "DieStep",
    "Estimate",
    "FacesError",
    "Formula",
    "HeimrChallenge",
    "LimitError",
    "Mechanic",
    "NotationError",
    "Opposed",
    "PrismaticCheck",
    "Rng",
    "Roll",
    "RollUnder",
    "StandardExpression",
    "estimate",
    "opposed",
    "parse",
    "successes",
    "wilson",
]

_VS = re.compile(r"\s+vs\.?\s+", re.IGNORECASE)


@lru_cache(maxsize=4096)
def parse(system: str, text: str) -> Mechanic:
    """Read ``text`` in the notation of ``system``; ``A vs B`` gives an :class:`Opposed`.

    Mechanics are immutable, so parses are cached: rolling the same text again is cheap.
    Every failure is a :class:`DiceError` with a one-line message.
    """
    if system not in SYSTEMS:
        raise DiceError(f"unknown dice system {quote(system)}: choose one of {', '.join(SYSTEMS)}")
    check_length(text)
    halves = _VS.split(text)
    if len(halves) == 2:
        return opposed(system, parse(system, halves[0]), parse(system, halves[1]))
    if len(halves) > 2:
        raise DiceError(f"{quote(text)} has more than one 'vs': an opposed roll has two sides")
    if system == "heimr":
        return HeimrChallenge.parse(text)
    if system == "diestep":
        return DieStep.parse(text)
    if system == "tempo":
        return PrismaticCheck.parse(text)
    if system == "heimr-classic":
        return ClassicRoll.parse(text)
    if system == "sides":
        return RollUnder.parse(text)
    return parse_standard(text)


def opposed(system: str, first: Mechanic, second: Mechanic) -> Opposed:
    """``first`` against ``second`` under the tie rule of ``system``."""
    if system not in TIES_TO_FIRST:
        raise DiceError(f"the {system} rules have no opposed rolls")
    return Opposed(first, second, TIES_TO_FIRST[system])
