"""The Heimr dice challenge (H-DICE-1..3): one d6 and |C| d10, highest or lowest, plus P.

- C > 0: keep the highest die; two or more 10s add (number of 10s - 1).
- C = 0: the d6 alone.
- C < 0: keep the lowest die; two or more 1s subtract (number of 1s - 1).
  The d6 counts among the dice showing 1.

The result before potential (``raw``) and the d6 face are kept jointly, because
fatigue (H-FAT-1, H-FAT-2) and body parts (H-ATK-5) read them.

>>> ch = HeimrChallenge(5, 6)
>>> ch.evaluate([1, 3, 5, 7, 10, 10]).result
17
>>> sum(HeimrChallenge(-3, 0).pmf().values())
Fraction(1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from math import comb
from random import Random
from typing import ClassVar

from mypy_extensions import mypyc_attr

from fracas.dice.core import Mechanic, Rng, Roll
from fracas.dice.errors import LimitError
from fracas.dice.scanner import Scanner

#: Largest |consistency| fracas rolls or computes: 100 d10 and the d6.
MAX_CONSISTENCY = 100
#: Largest |potential| accepted.
MAX_POTENTIAL = 1000


@cache
def _raw_weights(consistency: int) -> dict[tuple[int, int], int]:
    """Integer weights of (raw result, d6 face) over all 6 * 10**|C| throws."""
    n = abs(consistency)
    weights: dict[tuple[int, int], int] = {}

    def add(raw: int, d6: int, w: int) -> None:
        if w:
            weights[raw, d6] = weights.get((raw, d6), 0) + w

    for d6 in range(1, 7):
        if n == 0:
            add(d6, d6, 1)
        elif consistency > 0:
            # Highest d10 is m < 10: all d10 at most m, at least one equal to m.
            for m in range(1, 10):
                add(max(d6, m), d6, m**n - (m - 1) ** n)
            # k d10 show 10: the highest is 10 and k - 1 is the bonus.
            for k in range(1, n + 1):
                add(10 + k - 1, d6, comb(n, k) * 9 ** (n - k))
        else:
            # Lowest d10 is m > 1: all d10 at least m, at least one equal to m.
            for m in range(2, 11):
                add(min(d6, m), d6, (11 - m) ** n - (10 - m) ** n)
            # k d10 show 1; the d6 adds to the count of ones when it shows 1 too.
            for k in range(1, n + 1):
                ones = k + (d6 == 1)
                add(1 - (ones - 1), d6, comb(n, k) * 9 ** (n - k))
    return weights


@mypyc_attr(native_class=False)  # cached_property needs an instance __dict__
@dataclass(frozen=True, repr=False)
class HeimrChallenge(Mechanic):
    """A dice challenge with consistency C and potential P (notation ``C3P2``)."""

    consistency: int
    potential: int = 0
    system: ClassVar[str] = "heimr"

    def __post_init__(self) -> None:
        if abs(self.consistency) > MAX_CONSISTENCY:
            raise LimitError(
                f"consistency {self.consistency} is beyond the limit: |C| <= {MAX_CONSISTENCY}"
            )
        if abs(self.potential) > MAX_POTENTIAL:
            raise LimitError(
                f"potential {self.potential} is beyond the limit: |P| <= {MAX_POTENTIAL}"
            )

    @classmethod
    def parse(cls, text: str) -> HeimrChallenge:
        """Read ``C3P2``, ``C-4P-4`` or ``c0p1`` (P may be left out: ``C3`` is ``C3P0``).

        >>> HeimrChallenge.parse("c-4p-4")
        HeimrChallenge('C-4P-4')
        """
        s = Scanner(text)
        if s.at_end():
            raise s.error("empty expression: expected a challenge such as 'C3P2'")
        s.letter("cC", "expected 'C' and the consistency, as in 'C3P2'")
        consistency = s.integer("expected the consistency, a whole number, after 'C'")
        potential = 0
        if not s.at_end():
            s.letter("pP", "expected 'P' and the potential, as in 'C3P2'")
            potential = s.integer("expected the potential, a whole number, after 'P'")
        s.end("unexpected text after the potential")
        return cls(consistency, potential)

    def notation(self) -> str:
        return f"C{self.consistency}P{self.potential}"

    @cached_property
    def _dice(self) -> tuple[int, ...]:
        return (6,) + (10,) * abs(self.consistency)

    @cached_property
    def _d10s(self) -> range:
        """One step a d10 (kept: a simulation rolls the same challenge thousands of times)."""
        return range(abs(self.consistency))

    def dice(self) -> tuple[int, ...]:
        return self._dice

    def die_names(self) -> tuple[str, ...]:
        return ("the d6",) + tuple(f"d10 #{i + 1}" for i in range(abs(self.consistency)))

    def roll(self, rng: Rng) -> Roll:
        """Throw the d6 and the d10s with ``rng``: the draws :func:`draw` makes, read as
        :meth:`read` does, made here without a call a die (a simulation rolls millions).

        >>> import random
        >>> HeimrChallenge(3, 2).roll(random.Random(5)).faces
        (5, 5, 6, 9)
        """
        if not isinstance(rng, Random):
            return super().roll(rng)  # a die at a time (scripted faces)
        getrandbits = rng.getrandbits
        r = getrandbits(3)
        while r >= 6:
            r = getrandbits(3)
        d6 = kept = r + 1
        c = self.consistency
        drawn = [d6]
        # The kept die and the count of 10s (1s) followed as the d10s are drawn.
        same = 0
        if c > 0:
            for _ in self._d10s:
                r = getrandbits(4)
                while r >= 10:
                    r = getrandbits(4)
                if r == 9:
                    same += 1
                    kept = 10
                elif r >= kept:
                    kept = r + 1
                drawn.append(r + 1)
            bonus = same - 1 if same >= 2 else 0
        elif c < 0:
            same = d6 == 1
            for _ in self._d10s:
                r = getrandbits(4)
                while r >= 10:
                    r = getrandbits(4)
                if r == 0:
                    same += 1
                    kept = 1
                elif r < kept - 1:
                    kept = r + 1
                drawn.append(r + 1)
            bonus = 1 - same if same >= 2 else 0
        else:
            bonus = 0
        raw = kept + bonus
        parts = {"raw": raw, "d6": d6, "kept": kept, "bonus": bonus}
        return _new_roll(Roll, (raw + self.potential, tuple(drawn), self._dice, parts, self))

    def read(self, faces: tuple[int, ...]) -> Roll:
        """Read faces; the first is the d6.

        >>> HeimrChallenge(-4, -4).evaluate([1, 1, 1, 4, 9]).explanation
        'lowest 1 - 2 (three 1s) - 4 = -5'
        """
        c = self.consistency
        if c > 0:
            kept = max(faces)
            tens = faces.count(10)
            bonus = tens - 1 if tens >= 2 else 0
        elif c < 0:
            kept = min(faces)
            ones = faces.count(1)
            bonus = 1 - ones if ones >= 2 else 0
        else:
            kept, bonus = faces[0], 0
        raw = kept + bonus
        parts = {"raw": raw, "d6": faces[0], "kept": kept, "bonus": bonus}
        # The tuple made at once (a named tuple's own constructor is a Python call).
        return _new_roll(Roll, (raw + self.potential, faces, self._dice, parts, self))

    def explain(self, roll: Roll) -> str:
        c, kept, bonus = self.consistency, roll.parts["kept"], roll.parts["bonus"]
        text = f"{'d6' if c == 0 else ('highest' if c > 0 else 'lowest')} {kept}"
        if bonus:
            face = 10 if bonus > 0 else 1
            count = roll.faces.count(face)
            words = _COUNT_WORDS.get(count, str(count))
            text += f" {'+' if bonus > 0 else '-'} {abs(bonus)} ({words} {face}s)"
        p = self.potential
        return text + f" {'+' if p >= 0 else '-'} {abs(p)} = {roll.result}"

    def joint(self) -> dict[tuple[int, int], Fraction]:
        """Exact joint distribution of (result before potential, d6 face).

        >>> HeimrChallenge(0, 3).joint()[(4, 4)]
        Fraction(1, 6)
        """
        weights = _raw_weights(self.consistency)
        total = 6 * 10 ** abs(self.consistency)
        return {key: Fraction(w, total) for key, w in sorted(weights.items())}

    def outcomes(self) -> int:
        return abs(self.consistency) + 9

    def steps(self) -> int:
        return 40 * self.outcomes()

    def exact_pmf(self) -> dict[int, Fraction]:
        """Exact distribution of the result, from :func:`raw_weights` (tested against
        :meth:`joint` and brute force)."""
        total = 6 * 10 ** abs(self.consistency)
        p = self.potential
        return {raw + p: Fraction(w, total) for raw, w in raw_weights(self.consistency)}


def raw_weights(consistency: int) -> list[tuple[int, int]]:
    """Weights of each result before potential, over all ``6 * 10**|C|`` throws, ascending.

    Closed forms: with C > 0 the result v <= 6 needs every die at most v and one equal
    (``v**(n+1) - (v-1)**(n+1)``); 7..9 are the d10s alone; k tens give ``9 + k``.
    With C < 0, K dice showing 1 (the d6 among them) give ``2 - K`` when K >= 2, 1 when
    K = 1, and otherwise the lowest die, 2..6.

    >>> raw_weights(1)
    [(1, 1), (2, 3), (3, 5), (4, 7), (5, 9), (6, 11), (7, 6), (8, 6), (9, 6), (10, 6)]
    """
    n = abs(consistency)
    if n == 0:
        return [(v, 1) for v in range(1, 7)]
    out: list[tuple[int, int]] = []
    if consistency > 0:
        for v in range(1, 7):
            out.append((v, v ** (n + 1) - (v - 1) ** (n + 1)))
        for v in range(7, 10):
            out.append((v, 6 * (v**n - (v - 1) ** n)))
        for k in range(1, n + 1):
            out.append((9 + k, 6 * comb(n, k) * 9 ** (n - k)))
        return out
    for ones in range(n + 1, 1, -1):
        # the d6 shows 1 and ones - 1 d10 do, or the d6 does not and ones d10 do
        w = comb(n, ones - 1) * 9 ** (n - ones + 1)
        if ones <= n:
            w += 5 * comb(n, ones) * 9 ** (n - ones)
        out.append((2 - ones, w))
    out.append((1, 9**n + 5 * n * 9 ** (n - 1)))
    for v in range(2, 7):
        out.append((v, (7 - v) * (11 - v) ** n - (6 - v) * (10 - v) ** n))
    return out


_new_roll = tuple.__new__

_COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
