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

import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import ClassVar

from fracas.dice.core import (
    FRACTION_STEP,
    Mechanic,
    Rng,
    Roll,
    bigint_factor,
    capped,
    normalize,
)
from fracas.dice.errors import NotationError
from fracas.dice.pmf import Weights, best_of_two, convolve, keep_weights, transform, uniform_sum
from fracas.dice.syntax import Binary, Group, Negate, Node, Number, read

#: Cost of one step of :func:`~fracas.dice.pmf.keep_weights`, and of one multiply-add of
#: :func:`~fracas.dice.pmf.convolve` between terms, in steps (measured).
KEEP_STEP = 12
CONVOLVE_STEP = 2

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

    def outcomes(self) -> int:
        """The number of values this term can take."""
        return (self.count if self.keep is None else self.keep) * (self.sides - 1) + 1

    def digits(self) -> float:
        """Decimal digits of the number of face combinations of this term's dice."""
        return len(self.dice()) * math.log10(self.sides)

    def steps(self) -> float:
        """Estimated work of :meth:`weights` (see :data:`fracas.dice.core.MAX_STEPS`)."""
        n, m = self.count, self.sides
        if self.keep is None:
            work = float(_sum_steps(n, m))
        else:
            k = self.keep
            pairs = sum((min(p, k) * m * (m - 1) // 2 + m) * (n - p + 1) for p in range(n + 1))
            work = KEEP_STEP * float(pairs)
        return work * bigint_factor(n * math.log10(m)) + 4 * self.outcomes()

    def weights(self) -> Weights:
        """Exact weights of :meth:`read` over ``sides ** len(dice())`` throws."""
        if self.keep is not None:
            w = keep_weights(self.count, self.sides, self.keep, self.keep_highest)
        else:
            w = uniform_sum(self.count, self.sides)
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
        """Read a plain sum of dice, compared with a number or not (``2d6<9`` compares the
        total); :class:`NotationError` points at the first bad part. Anything more
        (``2d6r1``) is refused: :func:`fracas.dice.formula.parse_standard` reads it."""
        plain = plain_sum(read(text, successes=False))
        if plain is None:
            raise NotationError(text, 0, "expected a plain sum of dice such as '2d6+3'")
        return plain

    def notation(self) -> str:
        parts: list[str] = []
        for t in self.terms:
            text = t.notation()
            parts.append(text if not parts and t.sign > 0 else ("+" if t.sign > 0 else "-") + text)
        if self.constant or not parts:
            parts.append(f"{self.constant:+d}" if parts else str(self.constant))
        text = "".join(parts)
        if self.comparison:
            op, target = self.comparison
            # spaced, '>' and '<' compare the total; right after dice they would count successes
            text += f" {op} {target}" if op in ("<", ">") else f"{op}{target}"
        return text

    @cached_property
    def _dice(self) -> tuple[int, ...]:
        return tuple(s for t in self.terms for s in t.dice())

    @cached_property
    def _plain(self) -> tuple[int, ...] | None:
        """The sign of each die when no term keeps dice or rolls twice: the fast path."""
        if any(t.keep is not None or t.advantage for t in self.terms):
            return None
        return tuple(t.sign for t in self.terms for _ in range(t.count))

    @cached_property
    def _fast(self) -> tuple[tuple[int, int, int], ...] | None:
        """(sides, bits, sign) of each die for :meth:`roll`'s fast path."""
        signs = self._plain
        if signs is None:
            return None
        return tuple((d, d.bit_length(), sg) for d, sg in zip(self._dice, signs, strict=True))

    def dice(self) -> tuple[int, ...]:
        return self._dice

    def roll(self, rng: Rng) -> Roll:
        """Throw the dice; plain sums drawn from a ``random.Random`` take a fast path
        that draws exactly as :func:`~fracas.dice.core.draw` does."""
        fast = self._fast
        getrandbits = getattr(rng, "getrandbits", None)
        if fast is None or getrandbits is None:
            return super().roll(rng)
        faces = []
        total = self.constant
        for sides, bits, sign in fast:
            r = getrandbits(bits)
            while r >= sides:
                r = getrandbits(bits)
            faces.append(r + 1)
            total += sign * (r + 1)
        result = total
        if self.comparison is not None:
            op, target = self.comparison
            result = int(COMPARISONS[op](total, target))
        # tuple.__new__ skips the named tuple's argument handling on this hot path
        return tuple.__new__(Roll, (result, tuple(faces), self._dice, {"total": total}, self))

    def total(self, faces: Sequence[int]) -> int:
        """The sum before any comparison."""
        signs = self._plain
        if signs is not None:
            if len(signs) == 1:
                return self.constant + signs[0] * faces[0]
            return self.constant + sum(f * s for f, s in zip(faces, signs, strict=True))
        value, i = self.constant, 0
        for t in self.terms:
            n = len(t.dice())
            value += t.read(faces[i : i + n])
            i += n
        return value

    def read(self, faces: tuple[int, ...]) -> Roll:
        total = self.total(faces)
        if self.comparison is None:
            return Roll(total, faces, self._dice, {"total": total}, self)
        op, target = self.comparison
        return Roll(int(COMPARISONS[op](total, target)), faces, self._dice, {"total": total}, self)

    def explain(self, roll: Roll) -> str:
        text = f"{list(roll.faces)} -> {roll.parts['total']}"
        if self.comparison:
            op, target = self.comparison
            text += f" {op} {target}: {'success' if roll.result else 'failure'}"
        return text

    def outcomes(self) -> int:
        if self.comparison is not None:
            return 2
        return 1 + sum(t.outcomes() - 1 for t in self.terms)

    def steps(self) -> int:
        """Each term's weights, their convolution and the ``Fraction`` of each outcome."""
        work, values, digits = 0.0, 1, 0.0
        for t in self.terms:
            digits += t.digits()
            work += t.steps() + CONVOLVE_STEP * values * t.outcomes() * bigint_factor(digits)
            values += t.outcomes() - 1
        return capped(work + values * FRACTION_STEP * bigint_factor(digits))

    def total_weights(self) -> Weights:
        """Integer weights of the sum before any comparison, over every face combination."""
        self.check_steps()
        w: Weights = {self.constant: 1}
        for t in self.terms:
            w = convolve(w, t.weights())
        return w

    def exact_pmf(self) -> dict[int, Fraction]:
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


def _sum_steps(count: int, sides: int) -> int:
    """Steps of :func:`~fracas.dice.pmf.uniform_sum`: two per value, one die at a time.

    >>> _sum_steps(1, 6), _sum_steps(2, 6)
    (14, 38)
    """
    return sum(2 * ((k - 1) * (sides - 1) + sides) + 2 for k in range(1, count + 1))


def _term(group: Group, sign: int) -> DiceTerm | None:
    plain = not (group.fudge or group.face_ops or group.explode or group.target)
    keep = group.keep
    if not plain or (keep is not None and keep.mode not in ("highest", "lowest")):
        return None
    if keep is not None and not keep.n >= 1:
        return None
    n = None if keep is None else keep.n
    highest = keep is None or keep.mode == "highest"
    return DiceTerm(group.count, group.sides, n, highest, group.advantage, sign)


def _flatten(node: Node, sign: int, terms: list[DiceTerm], constant: list[int]) -> bool:
    """Collect a sum of plain terms; False as soon as something else is met."""
    if isinstance(node, Number):
        constant[0] += sign * node.value
        return True
    if isinstance(node, Group):
        term = _term(node, sign)
        if term is not None:
            terms.append(term)
        return term is not None
    if isinstance(node, Negate):
        return _flatten(node.operand, -sign, terms, constant)
    if node.op not in ("+", "-"):
        return False
    right = sign if node.op == "+" else -sign
    return _flatten(node.left, sign, terms, constant) and _flatten(
        node.right, right, terms, constant
    )


def _number(node: Node) -> int | None:
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Negate) and isinstance(node.operand, Number):
        return -node.operand.value
    return None


def plain_sum(tree: Node) -> StandardExpression | None:
    """``tree`` as a plain sum of dice with an optional comparison against a number."""
    comparison = None
    if isinstance(tree, Binary) and tree.op in COMPARISONS:
        target = _number(tree.right)
        if target is None:
            return None
        comparison, tree = (tree.op, target), tree.left
    terms: list[DiceTerm] = []
    constant = [0]
    if not _flatten(tree, 1, terms, constant):
        return None
    return StandardExpression(tuple(terms), constant[0], comparison)
