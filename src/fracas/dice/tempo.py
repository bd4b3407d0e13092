"""The tempo check (T-DICE-1): the Prismatic Dice Pool.

Eight d6 of fixed colours are read in order (Black 0, Red 1, Orange 2, Yellow 3,
Green 4, Blue 5, Purple 6, White 7); the result is the value of the first colour
showing a 6. With no 6, the pool is rolled again and 8 is added, without end. The
check total adds the skill rating and modifiers.

Re-rolls have no bound in play. Exact odds stop after :data:`DEFAULT_REROLL_BOUND`
re-rolls (or the bound given); :meth:`PrismaticCheck.tail_mass` is the probability
left beyond it, which :meth:`PrismaticCheck.pmf` leaves out.

Notation: the rating and modifiers, optionally after ``pool``: ``3``, ``pool+3``, ``2-1``.

>>> check = PrismaticCheck.parse("pool+3")
>>> check.evaluate([2, 5, 6, 1, 1, 6, 3, 4]).result
5
>>> sum(check.pmf().values()) + check.tail_mass()
Fraction(1, 1)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from fracas.dice.core import (
    FRACTION_STEP,
    Mechanic,
    Rng,
    Roll,
    bigint_factor,
    capped,
    check_faces,
    draw,
)
from fracas.dice.errors import FacesError, LimitError
from fracas.dice.scanner import Scanner

COLOURS: tuple[str, ...] = ("Black", "Red", "Orange", "Yellow", "Green", "Blue", "Purple", "White")
POOL = len(COLOURS)
#: Re-rolls counted by exact odds unless told otherwise; the tail beyond is (5/6)**(8 * 13).
DEFAULT_REROLL_BOUND = 12
#: Re-rolls a roll or typed-in faces may show before fracas calls the pool implausible.
MAX_REROLLS = 1000


@dataclass(frozen=True, repr=False)
class PrismaticCheck(Mechanic):
    """A check on the Prismatic Dice Pool plus ``modifier`` (rating and modifiers)."""

    modifier: int = 0
    bound: int = DEFAULT_REROLL_BOUND
    system: ClassVar[str] = "tempo"

    def __post_init__(self) -> None:
        if not 0 <= self.bound <= MAX_REROLLS:
            raise LimitError(f"the re-roll bound must be 0 to {MAX_REROLLS}, not {self.bound}")

    @classmethod
    def parse(cls, text: str, bound: int = DEFAULT_REROLL_BOUND) -> PrismaticCheck:
        s = Scanner(text)
        modifier = 0
        if s.accept("pool") is None and s.at_end():
            raise s.error("empty expression: expected a rating such as '3' or 'pool+3'")
        while not s.at_end():
            modifier += s.integer("expected a rating or modifier such as '+3'")
        return cls(modifier, bound)

    def notation(self) -> str:
        return f"pool{self.modifier:+d}" if self.modifier else "pool"

    def dice(self) -> tuple[int, ...]:
        return (6,) * POOL

    def die_names(self) -> tuple[str, ...]:
        return tuple(f"{c} d6" for c in COLOURS)

    def roll(self, rng: Rng) -> Roll:
        getrandbits = getattr(rng, "getrandbits", None)
        faces: list[int] = []
        for _ in range(MAX_REROLLS + 1):
            if getrandbits is None:
                throw = [draw(rng, 6) for _ in range(POOL)]
            else:  # draw's rejection sampling of a d6, each face drawn as it would draw it
                throw = []
                for _ in range(POOL):
                    r = getrandbits(3)
                    while r >= 6:
                        r = getrandbits(3)
                    throw.append(r + 1)
            faces.extend(throw)
            if 6 in throw:
                return self.read(tuple(faces))
        raise LimitError(f"no 6 in {MAX_REROLLS + 1} throws of the pool")

    def take(self, faces: Sequence[int]) -> int:
        """Throws of eight up to and including the first with a 6 (all of them if none)."""
        for end in range(POOL, len(faces) + 1, POOL):
            if 6 in faces[end - POOL : end]:
                return end
        return len(faces)

    def check(self, faces: tuple[int, ...]) -> None:
        """Faces in colour order, eight per throw; every throw but the last has no 6."""
        if not faces or len(faces) % POOL:
            raise FacesError(
                f"expected the pool's faces in colour order, eight per throw "
                f"({', '.join(COLOURS)}), got {len(faces)}"
            )
        throws = [faces[i : i + POOL] for i in range(0, len(faces), POOL)]
        for n, throw in enumerate(throws):
            check_faces(throw, self.dice(), self.die_names())
            if 6 in throw and n < len(throws) - 1:
                raise FacesError(f"throw {n + 1} already shows a 6: the pool is not rolled again")
        if 6 not in throws[-1]:
            raise FacesError(f"throw {len(throws)} shows no 6: roll the pool again and add 8")

    def more_throws(self, faces: Sequence[int]) -> bool:
        """Whole throws, none with a 6: the pool is rolled again (T-DICE-1).

        >>> PrismaticCheck().more_throws([1, 2, 3, 4, 5, 1, 2, 3])
        True
        """
        if not faces or len(faces) % POOL or len(faces) > POOL * (MAX_REROLLS + 1):
            return False
        return all(1 <= f <= 6 for f in faces) and 6 not in faces

    def more_note(self, faces: Sequence[int]) -> str:
        return "the throws before showed no 6"

    def read(self, faces: tuple[int, ...]) -> Roll:
        rerolls = (len(faces) - 1) // POOL
        first = faces.index(6, POOL * rerolls) - POOL * rerolls
        pool = POOL * rerolls + first
        parts = {"pool": pool, "rerolls": rerolls, "colour": first}
        return Roll(pool + self.modifier, faces, (6,) * len(faces), parts, self)

    def explain(self, roll: Roll) -> str:
        rerolls, first = roll.parts["rerolls"], roll.parts["colour"]
        text = f"{COLOURS[first]} shows the first 6: {first}"
        if rerolls:
            text += f" + {POOL * rerolls} ({rerolls} re-roll{'s' if rerolls > 1 else ''})"
        m = self.modifier
        return text + f" {'+' if m >= 0 else '-'} {abs(m)} = {roll.result}"

    def outcomes(self) -> int:
        return POOL * (self.bound + 1)

    def digits(self) -> float:
        return self.outcomes() * math.log10(6)

    def steps(self) -> int:
        return capped(FRACTION_STEP * self.outcomes() * bigint_factor(self.digits()))

    def exact_pmf(self) -> dict[int, Fraction]:
        """Exact odds up to :attr:`bound` re-rolls: the pool value is the number of dice
        before the first 6, read as one long sequence, so it is geometric with p = 1/6."""
        q = Fraction(5, 6)
        return {k + self.modifier: q**k / 6 for k in range(POOL * (self.bound + 1))}

    def tail_mass(self) -> Fraction:
        """The probability of more re-rolls than :attr:`bound`, left out of :meth:`pmf`."""
        return Fraction(5, 6) ** (POOL * (self.bound + 1))

    def enumerate_pmf(self) -> dict[int, Fraction]:
        """Brute force over the first throw only, recursing for re-rolls: the oracle."""
        weights: dict[int, int] = {}
        for throw in itertools.product(range(1, 7), repeat=POOL):
            value = throw.index(6) if 6 in throw else None
            if value is not None:
                weights[value] = weights.get(value, 0) + 1
        total = 6**POOL
        first = {k: Fraction(w, total) for k, w in weights.items()}
        again = Fraction(5**POOL, total)
        out: dict[int, Fraction] = {}
        for r in range(self.bound + 1):
            for k, p in first.items():
                out[POOL * r + k + self.modifier] = again**r * p
        return dict(sorted(out.items()))
