"""Standard dice notation: ``NdM``, ``+k``/``-k``, keep (``4d6kh3``), ``adv``/``dis``, comparisons.

- ``3d6+2``: sum of three d6 plus 2.
- ``4d6kh3`` / ``4d6kl3`` (``k3`` is ``kh3``): keep the highest or lowest dice.
- ``d20adv`` / ``d20dis``: roll the term twice, keep the higher or lower total.
- ``2d6<=9``, ``d20+5>=15``: a check; the result is 1 (success) or 0.

>>> e = StandardExpression.parse("4d6kh3")
>>> e.evaluate([6, 1, 4, 5]).result
15
>>> StandardExpression.parse("2d6<=9").pmf()[1]
Fraction(5, 6)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from fracas.dice.core import Mechanic, Roll, check_faces, normalize
from fracas.dice.errors import LimitError
from fracas.dice.pmf import Weights, best_of_two, convolve, keep_weights, power, transform, uniform
from fracas.dice.scanner import Scanner

#: Most dice in one term, and most sides on one die.
MAX_DICE = 100
MAX_SIDES = 1000
#: Exact odds refuse expressions whose estimated work exceeds this many steps.
MAX_WORK = 30_000_000

COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "==": operator.eq,
    "=": operator.eq,
    "<": operator.lt,
    ">": operator.gt,
}


@dataclass(frozen=True)
class DiceTerm:
    """``count`` d``sides``, optionally keeping some, optionally with advantage (+1) or not (-1)."""

    count: int
    sides: int
    keep: int | None = None
    keep_highest: bool = True
    advantage: int = 0
    sign: int = 1

    def dice(self) -> tuple[int, ...]:
        return (self.sides,) * (self.count * (2 if self.advantage else 1))

    def _total(self, faces: Sequence[int]) -> int:
        if self.keep is None:
            return sum(faces)
        ordered = sorted(faces, reverse=self.keep_highest)
        return sum(ordered[: self.keep])

    def read(self, faces: Sequence[int]) -> int:
        """The signed value of this term from its faces."""
        if self.advantage:
            a, b = self._total(faces[: self.count]), self._total(faces[self.count :])
            value = max(a, b) if self.advantage > 0 else min(a, b)
        else:
            value = self._total(faces)
        return self.sign * value

    def work(self) -> int:
        n, m = self.count, self.sides
        return n * n * m * m * (self.keep or 1) if self.keep is not None else n * n * m * m

    def weights(self) -> Weights:
        """Exact weights of :meth:`read` over ``sides ** len(dice())`` throws."""
        if self.keep is not None:
            w = keep_weights(self.count, self.sides, self.keep, self.keep_highest)
        else:
            w = power(uniform(self.sides), self.count)
        if self.advantage:
            w = best_of_two(w, highest=self.advantage > 0)
        return transform(w, lambda x: self.sign * x) if self.sign < 0 else w

    def notation(self) -> str:
        text = f"{self.count if self.count != 1 else ''}d{self.sides}"
        if self.keep is not None:
            text += f"{'kh' if self.keep_highest else 'kl'}{self.keep}"
        if self.advantage:
            text += "adv" if self.advantage > 0 else "dis"
        return text


@dataclass(frozen=True, repr=False)
class StandardExpression(Mechanic):
    """A sum of dice terms and a constant, optionally compared with a target."""

    terms: tuple[DiceTerm, ...]
    constant: int = 0
    comparison: tuple[str, int] | None = None
    system: ClassVar[str] = "standard"

    @classmethod
    def parse(cls, text: str) -> StandardExpression:
        """Read an expression; :class:`NotationError` points at the first bad part."""
        s = Scanner(text)
        if s.at_end():
            raise s.error("empty expression: expected dice such as '2d6+3'")
        terms: list[DiceTerm] = []
        constant = 0
        sign = -1 if s.accept("-") else 1
        if sign > 0:
            s.accept("+")
        while True:
            term, value = _term(s, sign)
            if term is None:
                constant += value
            else:
                terms.append(term)
            op = s.accept("+", "-")
            if op is None:
                break
            sign = 1 if op == "+" else -1
        comparison = None
        op = s.accept(*COMPARISONS)
        if op is not None:
            comparison = (
                "==" if op == "=" else op,
                s.integer("expected a whole number to compare with"),
            )
        s.end("expected '+', '-', a comparison such as '>=15', or the end")
        return cls(tuple(terms), constant, comparison)

    def notation(self) -> str:
        parts: list[str] = []
        for t in self.terms:
            text = t.notation()
            parts.append(text if not parts and t.sign > 0 else ("+" if t.sign > 0 else "-") + text)
        if self.constant or not parts:
            parts.append(f"{self.constant:+d}" if parts else str(self.constant))
        text = "".join(parts)
        if self.comparison:
            text += f"{self.comparison[0]}{self.comparison[1]}"
        return text

    def dice(self) -> tuple[int, ...]:
        return tuple(s for t in self.terms for s in t.dice())

    def total(self, faces: Sequence[int]) -> int:
        """The sum before any comparison."""
        value, i = self.constant, 0
        for t in self.terms:
            n = len(t.dice())
            value += t.read(faces[i : i + n])
            i += n
        return value

    def evaluate(self, faces: Sequence[int]) -> Roll:
        faces = tuple(faces)
        check_faces(faces, self.dice())
        total = self.total(faces)
        explanation = f"{list(faces)} -> {total}"
        result = total
        if self.comparison:
            op, target = self.comparison
            result = int(COMPARISONS[op](total, target))
            explanation += f" {op} {target}: {'success' if result else 'failure'}"
        return Roll(result, faces, self.dice(), {"total": total}, explanation)

    def total_weights(self) -> Weights:
        work = sum(t.work() for t in self.terms)
        if work > MAX_WORK:
            raise LimitError(
                f"{self.notation()} is too large for exact odds (about {work:,} steps; "
                f"the limit is {MAX_WORK:,}): roll it instead"
            )
        w: Weights = {self.constant: 1}
        for t in self.terms:
            w = convolve(w, t.weights())
        return w

    def pmf(self) -> dict[int, Fraction]:
        w = self.total_weights()
        if self.comparison:
            op, target = self.comparison
            w = transform(w, lambda x: int(COMPARISONS[op](x, target)))
            w.setdefault(0, 0)
            w.setdefault(1, 0)
            total = sum(w.values())
            return {k: Fraction(v, total) for k, v in sorted(w.items())}
        return normalize(w)

    def total_pmf(self) -> dict[int, Fraction]:
        """The distribution of the sum, before any comparison."""
        return normalize(self.total_weights())


def _term(s: Scanner, sign: int) -> tuple[DiceTerm | None, int]:
    """One term: a dice group or a constant (returned as ``(None, value)``)."""
    count = s.optional_integer()
    if not s.accept("d"):
        if count is None:
            raise s.error("expected dice such as '2d6' or a whole number")
        return None, sign * count
    n = 1 if count is None else count
    sides = s.integer("expected the number of sides after 'd'", signed=False)
    if not 1 <= n <= MAX_DICE:
        raise s.error(f"{n} dice is beyond the limit of 1 to {MAX_DICE} dice in one term")
    if not 1 <= sides <= MAX_SIDES:
        raise s.error(f"a d{sides} is beyond the limit of 1 to {MAX_SIDES} sides")
    keep, highest, advantage = None, True, 0
    token = s.accept("kh", "kl", "k")
    if token is not None:
        highest = token != "kl"
        keep = s.integer(f"expected how many dice to keep after '{token}'", signed=False)
        if not 1 <= keep <= n:
            raise s.error(f"cannot keep {keep} of {n} dice")
    while (mode := s.accept("adv", "dis")) is not None:
        advantage += 1 if mode == "adv" else -1
    advantage = (advantage > 0) - (advantage < 0)
    return DiceTerm(n, sides, keep, highest, advantage, sign), 0
