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

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import ClassVar

from fracas.dice.core import Mechanic, Roll, check_faces
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

    def dice(self) -> tuple[int, ...]:
        return (6,) + (10,) * abs(self.consistency)

    def die_names(self) -> tuple[str, ...]:
        return ("the d6",) + tuple(f"d10 #{i + 1}" for i in range(abs(self.consistency)))

    def read(self, faces: Sequence[int]) -> tuple[int, int, int]:
        """The kept die, the bonus (or minus the penalty) and the raw result, before potential."""
        c = self.consistency
        if c == 0:
            return faces[0], 0, faces[0]
        if c > 0:
            kept = max(faces)
            tens = faces.count(10)
            bonus = tens - 1 if tens >= 2 else 0
        else:
            kept = min(faces)
            ones = faces.count(1)
            bonus = -(ones - 1) if ones >= 2 else 0
        return kept, bonus, kept + bonus

    def evaluate(self, faces: Sequence[int]) -> Roll:
        """Read hand-rolled faces; the first is the d6.

        >>> print(HeimrChallenge(-4, -4).evaluate([1, 1, 1, 4, 9]).explanation)
        lowest 1 - 2 (three 1s) - 4 = -5
        """
        faces = tuple(faces)
        check_faces(faces, self.dice(), self.die_names())
        kept, bonus, raw = self.read(faces)
        result = raw + self.potential
        return Roll(
            result=result,
            faces=faces,
            dice=self.dice(),
            parts={"raw": raw, "d6": faces[0], "kept": kept, "bonus": bonus},
            explanation=self._explain(kept, bonus, faces, result),
        )

    def _explain(self, kept: int, bonus: int, faces: Sequence[int], result: int) -> str:
        c = self.consistency
        head = "d6" if c == 0 else ("highest" if c > 0 else "lowest")
        text = f"{head} {kept}"
        if bonus:
            face = 10 if bonus > 0 else 1
            words = _COUNT_WORDS.get(faces.count(face), str(faces.count(face)))
            text += f" {'+' if bonus > 0 else '-'} {abs(bonus)} ({words} {face}s)"
        p = self.potential
        text += f" {'+' if p >= 0 else '-'} {abs(p)} = {result}"
        return text

    def joint(self) -> dict[tuple[int, int], Fraction]:
        """Exact joint distribution of (result before potential, d6 face).

        >>> HeimrChallenge(0, 3).joint()[(4, 4)]
        Fraction(1, 6)
        """
        weights = _raw_weights(self.consistency)
        total = 6 * 10 ** abs(self.consistency)
        return {key: Fraction(w, total) for key, w in sorted(weights.items())}

    def pmf(self) -> dict[int, Fraction]:
        weights: dict[int, int] = {}
        for (raw, _d6), w in _raw_weights(self.consistency).items():
            r = raw + self.potential
            weights[r] = weights.get(r, 0) + w
        total = 6 * 10 ** abs(self.consistency)
        return {r: Fraction(w, total) for r, w in sorted(weights.items())}


_COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
