"""Opposed rolls: two mechanics rolled against each other, and who wins a tie.

The margin is the first result minus the second. The tie rule is explicit:
Heimr's defence equal to or higher than the attack misses (ties go to the second,
H-ATK-4); the classic dodge must be strictly higher, so a tie hits (HC-DODGE-1);
die-step succeeds on equal or greater (D-ATK-2).

>>> from fracas.dice.heimr import HeimrChallenge
>>> duel = Opposed(HeimrChallenge(0, 0), HeimrChallenge(0, 0), ties_to_first=False)
>>> duel.p_success(), duel.p_tie()
(Fraction(5, 12), Fraction(1, 6))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from fracas.dice.core import FRACTION_STEP, Mechanic, Rng, Roll, bigint_factor, capped
from fracas.dice.diestep import successes
from fracas.dice.errors import DiceError
from fracas.dice.pmf import as_weights, difference

#: Whether a tie goes to the first side (the attacker), by system.
TIES_TO_FIRST: dict[str, bool] = {
    "heimr": False,  # H-ATK-4: a defence equal to or higher than the attack is a miss
    "heimr-classic": True,  # HC-DODGE-1: the dodge must be strictly higher
    "diestep": True,  # D-ATK-2: equal or greater succeeds
    "tempo": False,  # T-RES-1: a margin of 0 reaches no success threshold of 1 or more
    "standard": False,  # plain notation: the first side must beat the second
}

TIE_RULE_TEXT: dict[bool, str] = {
    True: "a tie goes to the first side",
    False: "a tie goes to the second side",
}


@dataclass(frozen=True, repr=False)
class Opposed(Mechanic):
    """``first`` against ``second``; the result is the margin, first minus second."""

    first: Mechanic
    second: Mechanic
    ties_to_first: bool
    system: ClassVar[str] = "opposed"

    def notation(self) -> str:
        return f"{self.first.notation()} vs {self.second.notation()}"

    def dice(self) -> tuple[int, ...]:
        return self.first.dice() + self.second.dice()

    def die_names(self) -> tuple[str, ...]:
        return tuple(f"first: {n}" for n in self.first.die_names()) + tuple(
            f"second: {n}" for n in self.second.die_names()
        )

    def take(self, faces: Sequence[int]) -> int:
        n = self.first.take(faces)
        return n + self.second.take(faces[n:])

    def check(self, faces: tuple[int, ...]) -> None:
        n = self.first.take(faces)
        self.first.check(faces[:n])
        self.second.check(faces[n:])

    def read(self, faces: tuple[int, ...]) -> Roll:
        n = self.first.take(faces)
        return self.resolve(self.first.read(faces[:n]), self.second.read(faces[n:]))

    def resolve(self, a: Roll, b: Roll) -> Roll:
        """Combine two rolls already made (for example typed in separately)."""
        margin = a.result - b.result
        won = margin > 0 or (margin == 0 and self.ties_to_first)
        parts = {"first": a.result, "second": b.result, "success": int(won), "split": len(a.faces)}
        return Roll(margin, a.faces + b.faces, a.dice + b.dice, parts, self)

    def sides(self, roll: Roll) -> tuple[Roll, Roll]:
        """The two rolls an opposed roll was made of."""
        k = roll.parts["split"]
        return self.first.read(roll.faces[:k]), self.second.read(roll.faces[k:])

    def explain(self, roll: Roll) -> str:
        a, b = self.sides(roll)
        won = "first side wins" if roll.parts["success"] else "second side holds"
        return f"{a.explanation} vs {b.explanation}: margin {roll.result:+d}, {won}"

    def roll(self, rng: Rng) -> Roll:
        return self.resolve(self.first.roll(rng), self.second.roll(rng))

    def outcomes(self) -> int:
        # each side's results lie in a range as wide as its count of outcomes
        a, b = self.first.outcomes(), self.second.outcomes()
        return min(a * b, a + b - 1)

    def digits(self) -> float:
        return self.first.digits() + self.second.digits()

    def steps(self) -> int:
        """Both sides' distributions, every pair of their outcomes, and the margin's."""
        pairs = 1.5 * self.first.outcomes() * self.second.outcomes()
        factor = bigint_factor(self.digits())
        work = pairs * factor + FRACTION_STEP * self.outcomes() * factor
        return capped(self.first.steps() + self.second.steps() + work)

    def exact_pmf(self) -> dict[int, Fraction]:
        """Exact distribution of the margin."""
        return difference(self.first.pmf(), self.second.pmf())

    def p_success(self, margin: Mapping[int, Fraction] | None = None) -> Fraction:
        """The chance that the first side wins under the tie rule (from ``margin``, the
        :meth:`pmf` already worked out, if given)."""
        margin = self.pmf() if margin is None else margin
        return sum(
            (p for m, p in margin.items() if m > 0 or (m == 0 and self.ties_to_first)),
            Fraction(0),
        )

    def p_tie(self, margin: Mapping[int, Fraction] | None = None) -> Fraction:
        return (self.pmf() if margin is None else margin).get(0, Fraction(0))

    def successes_pmf(self) -> dict[int, Fraction]:
        """Distribution of the die-step count of successes (D-ATK-2).

        >>> from fracas.dice.diestep import DieStep
        >>> Opposed(DieStep(8), DieStep(6), True).successes_pmf()[2]
        Fraction(7, 48)
        """
        self.check_steps()
        wa, da = as_weights(self.first.pmf())
        wb, db = as_weights(self.second.pmf())
        out: dict[int, int] = {}
        for b, pb in wb.items():
            if b < 1:
                raise DiceError("successes need an opposing roll of at least 1")
            for a, pa in wa.items():
                k = successes(a, b)
                out[k] = out.get(k, 0) + pa * pb
        return {k: Fraction(w, da * db) for k, w in sorted(out.items())}
