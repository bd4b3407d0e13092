"""Die-step dice (D-DIE-1): an attribute is a die on a ladder of ranks.

Rules shift a die up or down the ladder; advantage rolls it twice and keeps the
higher, disadvantage the lower. Advantage and disadvantage cancel one for one and
never stack beyond one re-roll (docs/decisions.md, D-DIE-1). A shift past either end
of the ladder stops at that end.

Notation: ``d8``, ``d8 up 1``, ``d12 down 2``, ``d6 adv``, ``d10 dis``.

>>> DieStep.parse("d8 up 1 adv").notation()
'd10 adv'
>>> DieStep.parse("d4").pmf()[4]
Fraction(1, 4)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from fracas.dice.core import Mechanic, Rng, Roll, normalize
from fracas.dice.errors import DiceError
from fracas.dice.pmf import best_of_two, uniform
from fracas.dice.scanner import Scanner

#: The ladder of ranks, from the published Sea of Shadows rules.
LADDER: tuple[int, ...] = (2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 30, 36, 48, 60)


def shift(sides: int, ranks: int) -> int:
    """The die ``ranks`` steps up (or down, when negative) the ladder, stopping at its ends.

    >>> shift(8, -2), shift(4, 3), shift(60, 1), shift(3, -5)
    (4, 10, 60, 2)
    """
    i = LADDER.index(sides) + ranks
    return LADDER[max(0, min(len(LADDER) - 1, i))]


@dataclass(frozen=True, repr=False)
class DieStep(Mechanic):
    """One die of the ladder, with net advantage +1, 0 or -1."""

    sides: int
    advantage: int = 0
    system: ClassVar[str] = "diestep"

    def __post_init__(self) -> None:
        if self.sides not in LADDER:
            raise DiceError(f"d{self.sides} is not on the ladder {LADDER}")

    @classmethod
    def parse(cls, text: str) -> DieStep:
        s = Scanner(text)
        if s.at_end():
            raise s.error("empty expression: expected a die of the ladder such as 'd8'")
        s.letter("dD", "expected a die such as 'd8'")
        start = s.pos
        sides = s.integer("expected the number of sides after 'd'", signed=False)
        if sides not in LADDER:
            s.pos = start
            ladder = ", ".join(f"d{x}" for x in LADDER)
            raise s.error(f"d{sides} is not on the ladder ({ladder})")
        advantage = 0
        while (word := s.accept("up", "down", "adv", "dis")) is not None:
            if word in ("up", "down"):
                ranks = s.integer(f"expected how many ranks after '{word}'", signed=False)
                sides = shift(sides, ranks if word == "up" else -ranks)
            else:
                advantage += 1 if word == "adv" else -1
        s.end("expected 'up N', 'down N', 'adv', 'dis' or the end")
        return cls(sides, (advantage > 0) - (advantage < 0))

    def notation(self) -> str:
        return f"d{self.sides}{_SUFFIX[self.advantage]}"

    def dice(self) -> tuple[int, ...]:
        return (self.sides,) * (2 if self.advantage else 1)

    def shifted(self, ranks: int) -> DieStep:
        """The same roll with the die moved ``ranks`` along the ladder."""
        return DieStep(shift(self.sides, ranks), self.advantage)

    def roll(self, rng: Rng) -> Roll:
        """:meth:`Mechanic.roll` read straight off one die, or two kept high or low: the
        faces :func:`~fracas.dice.core.draw` gives, drawn here by the same rejection."""
        sides = self.sides
        getrandbits = getattr(rng, "getrandbits", None)
        if getrandbits is None:
            return super().roll(rng)
        k = sides.bit_length()
        first = getrandbits(k)
        while first >= sides:
            first = getrandbits(k)
        first = int(first) + 1
        advantage = self.advantage
        if not advantage:
            return Roll(first, (first,), (sides,), {}, self)
        second = getrandbits(k)
        while second >= sides:
            second = getrandbits(k)
        second = int(second) + 1
        kept = max(first, second) if advantage > 0 else min(first, second)
        return Roll(kept, (first, second), (sides, sides), {}, self)

    def read(self, faces: tuple[int, ...]) -> Roll:
        if self.advantage > 0:
            result = max(faces)
        elif self.advantage < 0:
            result = min(faces)
        else:
            result = faces[0]
        return Roll(result, faces, self.dice(), {}, self)

    def explain(self, roll: Roll) -> str:
        how = {1: "higher of", -1: "lower of", 0: f"d{self.sides}"}[self.advantage]
        return f"{how} {list(roll.faces)} = {roll.result}"

    def outcomes(self) -> int:
        return self.sides

    def steps(self) -> int:
        return 40 * self.sides

    def exact_pmf(self) -> dict[int, Fraction]:
        w = uniform(self.sides)
        if self.advantage:
            w = best_of_two(w, highest=self.advantage > 0)
        return normalize(w)


#: The notation's word for each net advantage.
_SUFFIX = {1: " adv", -1: " dis", 0: ""}


def successes(attack: int, defence: int) -> int:
    """Successes of an opposed die-step roll (D-ATK-2).

    Equal or greater succeeds; double the opposing roll or more is a double success,
    triple a triple, and so on.

    >>> successes(6, 4), successes(6, 3), successes(3, 4), successes(4, 4)
    (1, 2, 0, 1)
    """
    return attack // defence if attack >= defence else 0
