"""The dice notation of Roll20 and Avrae, read into a tree.

Grammar, loosest first (letters in any case, spaces between tokens)::

    comparison := sum [("==" | "!=" | "<=" | ">=" | "=" | "<" | ">") sum]
    sum        := product (("+" | "-") product)*
    product    := unary (("*" | "//" | "/") unary)*
    unary      := ("+" | "-") unary | atom
    atom       := NUMBER | group | "(" comparison ")"
    group      := [COUNT] "d" (SIDES | "%" | "F") operator* [target [failure]]

Each operator reads ``<`` and ``>`` as the tool it comes from reads them: the operators
Avrae has (``k p rr ro ra e mi ma``) strictly, those only Roll20 has (``r``, ``!``, a
success target and its ``f`` failures) as "or equal". ``<=`` and ``>=`` are always
inclusive. A bare number selects that face, except after ``k`` (``4d6k3`` keeps the
highest three, as in Roll20). The table in docs/dice.md lists every operator.

>>> notation(read("4d6dl1"))
'4d6kh3'
>>> notation(read("8d6ro<2 + 3"))
'8d6ro<2+3'
>>> notation(read("10d10>7f1"))
'10d10>7f1'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from fracas.dice.errors import LimitError
from fracas.dice.scanner import Scanner

#: Most dice in one group, most sides on one die, and most dice one expression starts with.
MAX_DICE = 100
MAX_SIDES = 1000
MAX_THROWN = 1000
#: Deepest nesting of parentheses and unary signs.
MAX_DEPTH = 40
#: Extra dice one die may add by exploding (``e``, ``!``); ``ra`` adds at most one.
EXPLODE_DEPTH = 9

Compare = Literal["==", "!=", "<=", ">=", "<", ">"]
COMPARE_OPS: tuple[Compare, ...] = ("==", "!=", "<=", ">=", "<", ">")


@dataclass(frozen=True)
class Selector:
    """Which dice an operator picks: by value (``=``, ``<``, ``<=`` …) or the ``h``ighest
    or ``l``owest ``value`` of them (keep and drop only).

    >>> Selector("<=", 2).matches(2), Selector("<", 2).matches(2)
    (True, False)
    """

    op: Literal["=", "<", ">", "<=", ">=", "h", "l"]
    value: int

    def matches(self, v: int) -> bool:
        op, x = self.op, self.value
        if op == "=":
            return v == x
        if op == "<":
            return v < x
        if op == ">":
            return v > x
        if op == "<=":
            return v <= x
        if op == ">=":
            return v >= x
        raise ValueError(f"{op}{x} picks dice by rank, not by value")

    def text(self) -> str:
        """Avrae's spelling: ``6``, ``<3``, ``<=2``, ``h1``."""
        return str(self.value) if self.op == "=" else f"{self.op}{self.value}"

    def roll20(self) -> str:
        """Roll20's spelling of an inclusive selector: ``>7`` for ``>=7``."""
        if self.op in ("<=", ">="):
            return f"{self.op[0]}{self.value}"
        return self.text()


def any_of(selectors: tuple[Selector, ...], v: int) -> bool:
    return any(s.matches(v) for s in selectors)


@dataclass(frozen=True)
class FaceOp:
    """An operator on each die, in the order written: ``rr`` (reroll until not picked;
    Roll20's ``r``), ``ro`` (reroll once), ``mi``/``ma`` (a least or greatest face)."""

    name: Literal["rr", "ro", "mi", "ma"]
    selectors: tuple[Selector, ...]

    def text(self) -> str:
        return "".join(self.name + s.text() for s in self.selectors)


@dataclass(frozen=True)
class Explode:
    """Each picked die adds another die, which may add another, at most ``depth`` a die
    (``ra`` is the same with depth 1)."""

    selectors: tuple[Selector, ...]
    depth: int = EXPLODE_DEPTH

    def text(self) -> str:
        name = "ra" if self.depth == 1 else "e"
        return "".join(name + s.text() for s in self.selectors)


@dataclass(frozen=True)
class Keep:
    """Which dice count: the ``n`` highest or lowest, or those a selector picks (or
    those it does not, for ``p``)."""

    mode: Literal["highest", "lowest", "match", "unmatch"]
    n: int = 0
    selector: Selector | None = None

    def keeps(self, v: int) -> bool:
        assert self.selector is not None
        return self.selector.matches(v) == (self.mode == "match")

    def text(self) -> str:
        if self.mode == "highest":
            return f"kh{self.n}"
        if self.mode == "lowest":
            return f"kl{self.n}"
        assert self.selector is not None
        return ("k" if self.mode == "match" else "p") + self.selector.text()


@dataclass(frozen=True)
class Group:
    """``count`` dice of ``sides`` (``dF``: three faces read -1, 0, 1) and their operators."""

    count: int
    sides: int
    fudge: bool = False
    percent: bool = False
    face_ops: tuple[FaceOp, ...] = ()
    explode: Explode | None = None
    keep: Keep | None = None
    advantage: int = 0
    target: Selector | None = None
    failure: Selector | None = None

    def value(self, face: int) -> int:
        """What a face reads: a Fudge die's 1, 2, 3 read -1, 0, +1."""
        return face - 2 if self.fudge else face

    def values(self) -> tuple[int, ...]:
        return tuple(self.value(f) for f in range(1, self.sides + 1))

    def counts(self, v: int) -> int:
        """A die's worth in a success count: +1 a success, -1 a failure."""
        assert self.target is not None
        if self.target.matches(v):
            return 1
        return -1 if self.failure is not None and self.failure.matches(v) else 0

    def die(self) -> str:
        return "dF" if self.fudge else "d%" if self.percent else f"d{self.sides}"

    def notation(self) -> str:
        text = ("" if self.count == 1 else str(self.count)) + self.die()
        text += "".join(op.text() for op in self.face_ops)
        if self.explode is not None:
            text += self.explode.text()
        if self.keep is not None:
            text += self.keep.text()
        if self.advantage:
            text += "adv" if self.advantage > 0 else "dis"
        if self.target is not None:
            text += self.target.roll20()
            if self.failure is not None:
                text += "f" + self.failure.roll20()
        return text


@dataclass(frozen=True)
class Number:
    value: int


@dataclass(frozen=True)
class Negate:
    operand: Node


@dataclass(frozen=True)
class Binary:
    """``left op right``: arithmetic (``+ - * / //``) or a comparison (1 or 0)."""

    op: str
    left: Node
    right: Node


Node = Number | Group | Negate | Binary

#: How tightly each operator binds, for printing with only the parentheses needed.
PRECEDENCE: dict[str, int] = {
    **dict.fromkeys(COMPARE_OPS, 1),
    **{"+": 2, "-": 2, "*": 3, "/": 3, "//": 3},
}


def notation(node: Node, outer: int = 0, right: bool = False) -> str:
    """The tree written back, with only the parentheses it needs.

    >>> notation(read("(1d4+1)*2"))
    '(d4+1)*2'
    """
    if isinstance(node, Number):
        return str(node.value)
    if isinstance(node, Group):
        return node.notation()
    if isinstance(node, Negate):
        return "-" + notation(node.operand, 4)
    level = PRECEDENCE[node.op]
    left = notation(node.left, level)
    text = f"{left} {node.op} " if level == 1 else left + node.op
    text += notation(node.right, level, right=True)
    return f"({text})" if level < outer or (right and level == outer) else text


def groups(node: Node) -> list[Group]:
    """The dice groups of the tree, in the order they are rolled."""
    if isinstance(node, Group):
        return [node]
    if isinstance(node, Negate):
        return groups(node.operand)
    if isinstance(node, Binary):
        return groups(node.left) + groups(node.right)
    return []


@dataclass
class _Reader:
    s: Scanner
    successes: bool = True
    depth: int = 0
    thrown: int = 0

    def nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.s.error(f"more than {MAX_DEPTH} levels of parentheses or signs")

    def comparison(self) -> Node:
        left = self.sum()
        op = self.s.accept("==", "!=", "<=", ">=", "=", "<", ">")
        if op is None:
            return left
        right = self.sum()
        if self.s.peek() in ("<", ">", "=", "!"):
            raise self.s.error("one comparison at a time: put the first in parentheses")
        return Binary("==" if op == "=" else op, left, right)

    def sum(self) -> Node:
        node = self.product()
        while (op := self.s.accept("+", "-")) is not None:
            node = Binary(op, node, self.product())
        return node

    def product(self) -> Node:
        node = self.unary()
        while (op := self.s.accept("//", "*", "/")) is not None:
            node = Binary(op, node, self.unary())
        if self.s.peek() == "%":
            raise self.s.error("'%' (a remainder) is not supported")
        if self.s.peek() == "[":
            raise self.s.error("labels '[…]' are not supported")
        return node

    def unary(self) -> Node:
        sign = self.s.accept("-", "+")
        if sign is None:
            return self.atom()
        self.nest()
        operand = self.unary()
        self.depth -= 1
        return Negate(operand) if sign == "-" else operand

    def atom(self) -> Node:
        s = self.s
        if s.accept("("):
            self.nest()
            node = self.comparison()
            if s.peek() == ",":
                raise s.error("sets such as '(1d6, 2)' are not supported")
            if s.accept(")") is None:
                raise s.error("expected ')'")
            self.depth -= 1
            return node
        if s.peek() in ("{", "["):
            what = "group rolls '{…}'" if s.peek() == "{" else "labels '[…]'"
            raise s.error(f"{what} are not supported")
        count = s.optional_integer()
        if s.peek() == ".":
            raise s.error("decimal numbers are not supported: write a fraction such as 1/2")
        if not s.accept("d"):
            if count is None:
                raise s.error("expected dice such as '2d6', a number or '('")
            return Number(count)
        group = self.group(1 if count is None else count)
        self.thrown += group.count
        if self.thrown > MAX_THROWN:
            raise LimitError(
                f"{s.text!r} throws {self.thrown:,} dice; one expression throws at most "
                f"{MAX_THROWN:,}"
            )
        return group

    def group(self, count: int) -> Group:
        s = self.s
        fudge = percent = False
        if s.accept("%"):
            sides, percent = 100, True
        elif s.accept("f"):
            sides, fudge = 3, True
        else:
            sides = s.integer("expected the number of sides after 'd' (or '%' or 'F')", False)
        if not 1 <= count <= MAX_DICE:
            raise s.error(f"{count} dice is beyond the limit of 1 to {MAX_DICE} dice in one group")
        if not 1 <= sides <= MAX_SIDES:
            raise s.error(f"a d{sides} is beyond the limit of 1 to {MAX_SIDES} sides")
        g = _GroupReader(self.s, count, sides, fudge)
        g.operators(self.successes)
        return g.build(percent)


@dataclass
class _GroupReader:
    s: Scanner
    count: int
    sides: int
    fudge: bool
    face_ops: list[FaceOp] = field(default_factory=list)
    explode: Explode | None = None
    keep: Keep | None = None
    advantage: int = 0
    target: Selector | None = None
    failure: Selector | None = None

    def selector(self, name: str, roll20: bool, ranks: bool = False) -> Selector:
        """A selector after ``name``: a face, a comparison, or ``h``/``l`` and a count."""
        s = self.s
        if ranks and (rank := s.accept("h", "l")) is not None:
            n = s.integer(f"expected how many dice after '{name}{rank}'", False)
            return Selector("h" if rank == "h" else "l", n)
        op = s.accept("<=", ">=", "<", ">", "=")
        value = s.integer(f"expected a face or a comparison such as '<3' after '{name}'")
        if op is None or op == "=":
            return Selector("=", value)
        if roll20 and op in ("<", ">"):
            return Selector("<=" if op == "<" else ">=", value)
        return Selector(op, value)  # type: ignore[arg-type]

    def operators(self, successes: bool) -> None:
        s = self.s
        while True:
            mark = s.pos
            if mark < len(s.text) and s.text[mark].isspace():
                break  # a group's operators follow its dice without a space
            if s.peek(2) == "!=":
                break
            if s.accept("!!", "!p") is not None:
                raise s.error("compounding and penetrating explosions are not supported")
            if s.accept("cs", "cf") is not None:
                raise s.error("critical markers 'cs' and 'cf' are not supported")
            op = s.accept("kh", "kl", "dh", "dl", "rr", "ro", "ra", "mi", "ma", "adv", "dis")
            op = op or s.accept("k", "p", "r", "e", "!", "d")
            if op is None:
                break
            self.operator(op.lower())
        # a target written right after the dice (no space) counts successes, as in Roll20
        text = s.text
        if (
            successes
            and mark < len(text)
            and text[mark] in "<>"
            and text[mark + 1 : mark + 2] != "="
        ):
            self.target = self.selector("", roll20=True)
            if s.accept("f") is not None:
                self.failure = self.selector("f", roll20=True)

    def operator(self, op: str) -> None:
        s = self.s
        if op in ("adv", "dis"):
            self.advantage = 1 if op == "adv" else -1
            return
        if op == "d":
            raise s.error("expected 'dl' or 'dh' (drop the lowest or highest dice)")
        if op in ("kh", "kl", "dh", "dl"):
            n = s.integer(f"expected how many dice after '{op}'", False)
            if not 0 <= n <= self.count:
                raise s.error(
                    f"cannot {'keep' if op[0] == 'k' else 'drop'} {n} of {self.count} dice"
                )
            kept = n if op[0] == "k" else self.count - n
            self.set_keep(Keep("highest" if op in ("kh", "dl") else "lowest", kept))
            return
        if op in ("k", "p"):
            sel = self.selector(op, roll20=False, ranks=True)
            self.set_keep(self.rank_keep(op, sel))
            return
        if op in ("e", "!", "ra"):
            self.set_explode(op)
            return
        if self.explode is not None or self.keep is not None:
            raise s.error(f"put '{op}' before explosions and keep or drop")
        name = "rr" if op == "r" else op
        sel = self.selector(op, roll20=op == "r")
        if name in ("mi", "ma"):
            if sel.op != "=":
                raise s.error(f"'{op}' takes a face, such as '{op}2'")
            self.face_ops.append(FaceOp(name, (sel,)))  # type: ignore[arg-type]
            return
        last = self.face_ops[-1] if self.face_ops else None
        if last is not None and last.name == name:  # 'r1r2': one reroll of 1s and 2s
            self.face_ops[-1] = FaceOp(last.name, (*last.selectors, sel))
        else:
            self.face_ops.append(FaceOp(name, (sel,)))  # type: ignore[arg-type]
        if name == "rr" and all(any_of(self.face_ops[-1].selectors, v) for v in self.values()):
            raise s.error("every face would be rerolled, without end")

    def values(self) -> tuple[int, ...]:
        return tuple(f - 2 if self.fudge else f for f in range(1, self.sides + 1))

    def rank_keep(self, op: str, sel: Selector) -> Keep:
        if sel.op in ("h", "l"):
            if not 0 <= sel.value <= self.count:
                raise self.s.error(f"cannot pick {sel.value} of {self.count} dice")
            if op == "p":  # drop the n highest = keep the rest lowest
                return Keep("lowest" if sel.op == "h" else "highest", self.count - sel.value)
            return Keep("highest" if sel.op == "h" else "lowest", sel.value)
        if op == "k" and sel.op == "=":  # Roll20 and fracas: 'k3' keeps the highest three
            if not 0 <= sel.value <= self.count:
                raise self.s.error(f"cannot keep {sel.value} of {self.count} dice")
            return Keep("highest", sel.value)
        return Keep("match" if op == "k" else "unmatch", selector=sel)

    def set_keep(self, keep: Keep) -> None:
        if self.keep is not None:
            raise self.s.error("one keep or drop a group: combine them in one")
        if self.explode is not None:
            raise self.s.error("keep or drop after an explosion is not supported")
        self.keep = keep

    def set_explode(self, op: str) -> None:
        s = self.s
        if self.keep is not None:
            raise s.error("put explosions before keep or drop")
        if op == "!" or (op == "e" and s.peek() not in tuple("<>=0123456789")):
            at = s.peek()
            sel = (
                self.selector("!", roll20=True)
                if op == "!" and at and at in "<>=0123456789"
                else Selector("=", max(self.values()))
            )
        else:
            sel = self.selector(op, roll20=False)
        depth = 1 if op == "ra" else EXPLODE_DEPTH
        if self.explode is not None:
            if self.explode.depth != depth:
                raise s.error("'ra' and 'e' cannot be mixed in one group")
            self.explode = Explode((*self.explode.selectors, sel), depth)
        else:
            self.explode = Explode((sel,), depth)

    def build(self, percent: bool) -> Group:
        if self.advantage and (self.face_ops or self.explode or self.target):
            raise self.s.error("adv and dis go with plain dice only: write 2d20kh1")
        if self.explode is not None:
            values = self.values()
            if all(any_of(self.explode.selectors, v) for v in values) and self.explode.depth > 1:
                raise self.s.error("every face explodes, without end")
        return Group(
            self.count,
            self.sides,
            self.fudge,
            percent,
            tuple(self.face_ops),
            self.explode,
            self.keep,
            self.advantage,
            self.target,
            self.failure,
        )


def read(text: str, successes: bool = True) -> Node:
    """Read ``text`` into a tree; :class:`NotationError` says what and where. Without
    ``successes``, ``2d6<9`` compares the total, as every other system reads it."""
    s = Scanner(text)
    if s.at_end():
        raise s.error("empty expression: expected dice such as '2d6+3'")
    reader = _Reader(s, successes)
    node = reader.comparison()
    if not s.at_end():
        if s.peek() in ("<", ">", "=", "!"):
            raise s.error("one comparison at a time: put the first in parentheses")
        raise s.error("expected an operator such as '+', a comparison such as '>=15', or the end")
    return node
