"""A whole expression of the full notation as a mechanic: rolled, read and given odds.

Groups are independent (each throws its own dice), so the exact distribution of the
tree is built from its leaves: each group's weights (:mod:`.groups`), combined pair by
pair at each operator. ``/`` divides exactly (results may be fractions, as in Avrae
where they are decimals); ``//`` divides and rounds down.

>>> f = Formula.parse("(1d4+1)*2")
>>> f.evaluate([3]).result
8
>>> f.pmf()
{4: Fraction(1, 4), 6: Fraction(1, 4), 8: Fraction(1, 4), 10: Fraction(1, 4)}
>>> Formula.parse("1d6e6").cutoff_mass()
Fraction(1, 60466176)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import ClassVar, cast

from fracas.dice import groups
from fracas.dice.core import (
    ENUMERATION_LIMIT,
    FRACTION_STEP,
    Mechanic,
    Rng,
    Roll,
    bigint_factor,
    capped,
    draw,
)
from fracas.dice.errors import DiceError, FacesError, LimitError
from fracas.dice.pmf import convolve
from fracas.dice.standard import plain_sum
from fracas.dice.syntax import Group, Negate, Node, Number, any_of, notation, read
from fracas.dice.syntax import groups as groups_of

Value = int | Fraction
#: Cost of one pair of outcomes combined at an operator, in steps (as for ``standard``).
PAIR_STEP = 2

ARITHMETIC: dict[str, Callable[[Value, Value], Value]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": lambda a, b: Fraction(a) / b,
    "//": operator.floordiv,
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "<=": lambda a, b: int(a <= b),
    ">=": lambda a, b: int(a >= b),
    "<": lambda a, b: int(a < b),
    ">": lambda a, b: int(a > b),
}


def _plain(v: Value) -> Value:
    """A whole fraction as an int, so that ``4/2`` reads 2."""
    return v.numerator if isinstance(v, Fraction) and v.denominator == 1 else v


def _apply(op: str, a: Value, b: Value) -> Value:
    try:
        return _plain(ARITHMETIC[op](a, b))
    except ZeroDivisionError:
        raise DiceError(f"division by zero: the divisor came to 0 in '{a} {op} {b}'") from None


class _NeedMore(Exception):
    """The faces so far end before the roll does; ``choices`` are the next die's faces."""

    def __init__(self, sides: int, choices: Sequence[int]) -> None:
        super().__init__("more faces needed")
        self.sides = sides
        self.choices = choices


class _Random:
    """Faces from a random source, recorded."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.faces: list[int] = []
        self.sides: list[int] = []

    def face(self, sides: int) -> int:
        f = draw(self.rng, sides)
        self.faces.append(f)
        self.sides.append(sides)
        return f

    def face_avoiding(self, sides: int, avoid: frozenset[int]) -> int:
        # one draw among the faces kept: the same odds as throwing again and again
        allowed = [f for f in range(1, sides + 1) if f not in avoid]
        f = allowed[draw(self.rng, len(allowed)) - 1]
        self.faces.append(f)
        self.sides.append(sides)
        return f


class _Typed:
    """Faces a person typed, read in throwing order."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = faces
        self.used = 0
        self.sides: list[int] = []

    def face(self, sides: int) -> int:
        if self.used >= len(self.faces):
            raise _NeedMore(sides, range(1, sides + 1))
        f = self.faces[self.used]
        if not 1 <= f <= sides:
            raise FacesError(f"face {self.used + 1} is {f}, but a d{sides} shows 1 to {sides}")
        self.used += 1
        self.sides.append(sides)
        return f

    def face_avoiding(self, sides: int, avoid: frozenset[int]) -> int:
        for _ in range(groups.MAX_REROLLS + 1):
            f = self.face(sides)
            if f not in avoid:
                return f
        raise FacesError(f"more than {groups.MAX_REROLLS} rerolls of one die")


class _Branch:
    """Every face of each die in turn, for brute force: replays a chosen prefix."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix = prefix
        self.used = 0

    def face(self, sides: int) -> int:
        return self._next(sides, range(1, sides + 1))

    def face_avoiding(self, sides: int, avoid: frozenset[int]) -> int:
        return self._next(sides, [f for f in range(1, sides + 1) if f not in avoid])

    def _next(self, sides: int, choices: Sequence[int]) -> int:
        if self.used >= len(self.prefix):
            raise _NeedMore(sides, choices)
        self.used += 1
        return self.prefix[self.used - 1]


Thrown = list[tuple[Group, list[groups.Die], int]]


def _evaluate(node: Node, source: groups.Source, thrown: Thrown) -> Value:
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Group):
        dice = groups.throw(node, source)
        value = groups.worth(node, dice)
        thrown.append((node, dice, value))
        return value
    if isinstance(node, Negate):
        return -_evaluate(node.operand, source, thrown)
    left = _evaluate(node.left, source, thrown)
    return _apply(node.op, left, _evaluate(node.right, source, thrown))


def _weights(node: Node) -> dict[Value, int]:
    if isinstance(node, Number):
        return {node.value: 1}
    if isinstance(node, Group):
        return {v: n for v, n in groups.weights(node).items()}
    if isinstance(node, Negate):
        return {-v: w for v, w in _weights(node.operand).items()}
    a, b = _weights(node.left), _weights(node.right)
    if node.op in ("+", "-") and all(isinstance(v, int) for v in (*a, *b)):
        ints_b = cast(dict[int, int], b)
        if node.op == "-":
            ints_b = {-v: w for v, w in ints_b.items()}
        return {v: n for v, n in convolve(cast(dict[int, int], a), ints_b).items()}
    if node.op in ("/", "//") and 0 in b:
        raise DiceError(f"{notation(node)!r} can divide by zero: {notation(node.right)} can be 0")
    out: dict[Value, int] = {}
    for x, wx in a.items():
        for y, wy in b.items():
            z = _apply(node.op, x, y)
            out[z] = out.get(z, 0) + wx * wy
    return out


@dataclass(frozen=True)
class _Cost:
    """Estimates for a subtree: distinct values, work, digits of its weights, its range."""

    size: int
    steps: float
    digits: float
    low: Value | None
    high: Value | None


def _cost(node: Node) -> _Cost:
    if isinstance(node, Number):
        return _Cost(1, 1.0, 0.0, node.value, node.value)
    if isinstance(node, Group):
        g_low, g_high = _group_range(node)
        return _Cost(groups.outcomes(node), groups.steps(node), groups.digits(node), g_low, g_high)
    if isinstance(node, Negate):
        c = _cost(node.operand)
        n_low = None if c.high is None else -c.high
        n_high = None if c.low is None else -c.low
        return _Cost(c.size, c.steps + c.size, c.digits, n_low, n_high)
    a, b = _cost(node.left), _cost(node.right)
    pairs = min(a.size * b.size, 10**18)
    digits = a.digits + b.digits
    steps = a.steps + b.steps + PAIR_STEP * pairs * bigint_factor(digits)
    low, high = _range(node.op, a, b)
    size = 2 if node.op in PRECEDENCE_COMPARE else pairs
    if low is not None and high is not None and node.op != "/":
        size = min(size, int(high - low) + 1)
    return _Cost(size, steps, digits, low, high)


PRECEDENCE_COMPARE = frozenset({"==", "!=", "<=", ">=", "<", ">"})


def _range(op: str, a: _Cost, b: _Cost) -> tuple[Value | None, Value | None]:
    if op in PRECEDENCE_COMPARE:
        return 0, 1
    if None in (a.low, a.high, b.low, b.high):
        return None, None
    al, ah, bl, bh = cast(tuple[Value, Value, Value, Value], (a.low, a.high, b.low, b.high))
    if op == "+":
        return al + bl, ah + bh
    if op == "-":
        return al - bh, ah - bl
    if op in ("/", "//") and bl <= 0 <= bh:
        return None, None
    corners = [_apply(op, x, y) for x in (al, ah) for y in (bl, bh)]
    return min(corners), max(corners)


def _group_range(group: Group) -> tuple[int, int]:
    values = group.values()
    low, high = (-1, 1) if group.target is not None else (min(values), max(values))
    reach = group.explode.depth + 1 if group.explode is not None else 1
    low, high = min(low, low * reach), max(high, high * reach)
    if group.keep is not None:
        low, high = min(low, 0), max(high, 0)
    return group.count * low, group.count * high


def _die_name(group: Group) -> str:
    """A die as a person typing its face needs it named."""
    return "dF (1 for -, 2 for blank, 3 for +)" if group.fudge else group.die()


@dataclass(frozen=True, repr=False)
class Formula(Mechanic):
    """An expression of the full notation (see :mod:`fracas.dice.syntax`)."""

    tree: Node
    system: ClassVar[str] = "standard"

    @classmethod
    def parse(cls, text: str) -> Formula:
        return cls(read(text))

    def notation(self) -> str:
        return notation(self.tree)

    @cached_property
    def _groups(self) -> list[Group]:
        return groups_of(self.tree)

    def dice(self) -> tuple[int, ...]:
        """The dice of the first throw; rerolls and explosions ask for more."""
        return tuple(g.sides for g in self._groups for _ in range(g.count))

    def die_names(self) -> tuple[str, ...]:
        return tuple(_die_name(g) for g in self._groups for _ in range(g.count))

    def roll(self, rng: Rng) -> Roll:
        source = _Random(rng)
        value = _evaluate(self.tree, source, [])
        return self._roll(value, source.faces, source.sides)

    def _roll(self, value: Value, faces: Sequence[int], sides: Sequence[int]) -> Roll:
        # a division can leave a fraction; it prints and compares as the number it is
        result = cast(int, _plain(value))
        return Roll(result, tuple(faces), tuple(sides), {}, self)

    def _replay(self, faces: Sequence[int]) -> tuple[Value, _Typed, Thrown]:
        source, thrown = _Typed(faces), cast(Thrown, [])
        value = _evaluate(self.tree, source, thrown)
        return value, source, thrown

    def check(self, faces: tuple[int, ...]) -> None:
        try:
            _, source, _ = self._replay(faces)
        except _NeedMore as more:
            names = ", ".join(self.die_names())
            raise FacesError(
                f"expected more faces: {len(faces)} given, and the roll goes on "
                f"(the first throw is {names}; then each reroll and explosion in turn, "
                f"the next a d{more.sides})"
            ) from None
        if source.used < len(faces):
            raise FacesError(
                f"expected {source.used} faces for these dice, got {len(faces)}: the roll "
                f"ends at face {source.used}"
            )

    def read(self, faces: tuple[int, ...]) -> Roll:
        value, source, _ = self._replay(faces)
        return self._roll(value, faces, source.sides)

    def more_throws(self, faces: Sequence[int]) -> bool:
        """Whether these faces are good so far and the roll asks for more (a reroll or an
        explosion)."""
        try:
            self._replay(faces)
        except _NeedMore:
            return len(faces) >= len(self.dice())
        except DiceError:
            return False
        return False

    def more_note(self, faces: Sequence[int]) -> str:
        try:
            self._replay(faces)
        except _NeedMore as more:
            return f"a die rerolls or explodes: the next face is a d{more.sides}'s"
        except DiceError:
            return ""
        return ""

    def take(self, faces: Sequence[int]) -> int:
        try:
            _, source, _ = self._replay(faces)
        except (_NeedMore, DiceError):
            return len(faces)
        return source.used

    def explain(self, roll: Roll) -> str:
        _, _, thrown = self._replay(roll.faces)
        parts = []
        for group, dice, value in thrown:
            shown = []
            for d in dice:
                text = "→".join(map(str, d.shown)) if len(d.shown) > 1 else str(d.shown[0])
                if len(d.chain) > 1:
                    text += "+" + "+".join(map(str, d.chain[1:]))
                shown.append(text if d.kept else f"({text})")
            what = " successes" if group.target is not None else ""
            parts.append(f"{group.notation()}: [{', '.join(shown)}] = {value}{what}")
        text = "; ".join(parts)
        if len(thrown) == 1 and self.tree is thrown[0][0]:
            return text
        return f"{text} → {roll.result}" if text else str(roll.result)

    def exact_pmf(self) -> dict[int, Fraction]:
        w = _weights(self.tree)
        total = sum(w.values())
        pmf = {_plain(v): Fraction(n, total) for v, n in sorted(w.items()) if n}
        return cast(dict[int, Fraction], pmf)

    @cached_property
    def _cost(self) -> _Cost:
        return _cost(self.tree)

    def steps(self) -> int:
        c = self._cost
        return capped(c.steps + c.size * FRACTION_STEP * bigint_factor(c.digits))

    def outcomes(self) -> int:
        return self._cost.size

    def digits(self) -> float:
        return self._cost.digits

    def cutoff_mass(self) -> Fraction:
        """The chance that some die reached its explosion depth and would have exploded
        again: what exact odds leave to the last die (those dice stop there)."""
        stays = Fraction(1)
        for g in self._groups:
            if g.explode is None or g.explode.depth <= 1:
                continue
            first = groups.die_weights(g)
            picks = g.explode.selectors
            p_first = Fraction(
                sum(n for v, n in first.items() if any_of(picks, v)), sum(first.values())
            )
            values = g.values()
            p = Fraction(sum(1 for v in values if any_of(picks, v)), len(values))
            stays *= (1 - p_first * p**g.explode.depth) ** g.count
        return 1 - stays

    def enumerate_pmf(self) -> dict[int, Fraction]:
        """Every face of every die in turn, as the roll asks for them: the oracle."""
        out: dict[Value, Fraction] = {}
        stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
        visited = 0
        while stack:
            prefix, p = stack.pop()
            visited += 1
            if visited > ENUMERATION_LIMIT:
                raise LimitError(f"{self.notation()} has too many ways to fall to enumerate")
            try:
                value = _plain(_evaluate(self.tree, _Branch(prefix), []))
            except _NeedMore as more:
                share = p / len(more.choices)
                stack.extend((prefix + (f,), share) for f in more.choices)
                continue
            out[value] = out.get(value, Fraction(0)) + p
        return cast(dict[int, Fraction], dict(sorted(out.items())))


def depth_note(mech: Mechanic) -> str | None:
    """A line on exploding dice's depth and the chance cut there, if ``mech`` explodes."""
    if not isinstance(mech, Formula):
        return None
    deep = [g for g in groups_of(mech.tree) if g.explode is not None and g.explode.depth > 1]
    if not deep:
        return None
    cut = mech.cutoff_mass()
    depth = deep[0].explode.depth if deep[0].explode is not None else 0
    shown = f"{float(cut):.2g}" if cut else "0"
    return (
        f"Exploding dice add at most {depth} dice each; the chance that one reached that "
        f"and would have gone on is {shown} (exactly {cut}), counted as if it stopped."
    )


def parse_standard(text: str) -> Mechanic:
    """Read ``text`` in the full notation: a plain sum of dice keeps its fast
    :class:`~fracas.dice.standard.StandardExpression` (its rolls draw as they always
    have); anything more is a :class:`Formula`.

    >>> parse_standard("4d6dl1")
    StandardExpression('4d6kh3')
    >>> parse_standard("2d6r<2")
    Formula('2d6rr<=2')
    """
    tree = read(text)
    return plain_sum(tree) or Formula(tree)
