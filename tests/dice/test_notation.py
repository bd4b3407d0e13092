"""The full dice notation (Roll20's and Avrae's) against icepool, by hand, and refused.

The generated expressions are built twice from one description: written out as text
(read by fracas) and built as an icepool die (icepool's own pools, rerolls, explosions
and arithmetic), so the parser and the odds are checked together.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.dice import DiceError, FacesError, Formula, LimitError, NotationError, parse
from fracas.dice.syntax import EXPLODE_DEPTH

Check = Callable[[int], bool]
STRICT: dict[str, Callable[[int, int], bool]] = {
    "=": operator.eq,
    "<": operator.lt,
    ">": operator.gt,
    "<=": operator.le,
    ">=": operator.ge,
}


@dataclass(frozen=True)
class Pick:
    """A selector as written, and whether the operator reads '<'/'>' as "or equal"."""

    op: str
    value: int

    def text(self) -> str:
        return str(self.value) if self.op == "=" else f"{self.op}{self.value}"

    def check(self, roll20: bool) -> Check:
        op = self.op
        if roll20 and op in ("<", ">"):
            op += "="
        compare, x = STRICT[op], self.value
        return lambda v: compare(v, x)


@dataclass(frozen=True)
class Dice:
    count: int
    sides: int | str  # an int, "%" or "F"
    face_ops: tuple[tuple[str, Pick], ...] = ()
    explode: tuple[str, Pick | None] | None = None
    keep: tuple[str, Any] | None = None
    target: tuple[Pick, Pick | None] | None = None

    def values(self) -> list[int]:
        if self.sides == "F":
            return [-1, 0, 1]
        return list(range(1, (100 if self.sides == "%" else int(self.sides)) + 1))

    def text(self) -> str:
        out = f"{self.count}d{self.sides}"
        for name, pick in self.face_ops:
            out += name + pick.text()
        if self.explode is not None:
            name, pick = self.explode
            out += name + ("" if pick is None else pick.text())
        if self.keep is not None:
            name, arg = self.keep
            out += name + (arg.text() if isinstance(arg, Pick) else str(arg))
        if self.target is not None:
            hit, miss = self.target
            out += hit.text() + ("" if miss is None else "f" + miss.text())
        return out

    def die(self) -> icepool.Die[Any]:
        raw = icepool.Die(self.values())
        die = raw
        for name, pick in self.face_ops:
            if name in ("mi", "ma"):
                pick_op = max if name == "mi" else min
                die = die.map(lambda v, x=pick.value, f=pick_op: f(v, x), star=False)
                continue
            hit = pick.check(roll20=name == "r")
            if name == "ro":
                die = die.map(lambda v, h=hit: raw if h(v) else v, star=False)
            else:
                fresh = raw.reroll(hit, depth="inf")
                die = die.map(lambda v, h=hit, f=fresh: f if h(v) else v, star=False)
        if self.explode is not None:
            name, pick = self.explode
            hit = pick.check(roll20=name == "!") if pick else (lambda v: v == max(self.values()))
            depth = 1 if name == "ra" else EXPLODE_DEPTH
            if not self.face_ops:
                die = raw.explode(hit, depth=depth)
            else:
                tail = raw.explode(hit, depth=depth - 1)
                die = die.map(lambda v, h=hit, t=tail: v + t if h(v) else v, star=False)
        score: Callable[[int], int] = lambda v: v  # noqa: E731
        if self.target is not None:
            success = self.target[0].check(roll20=True)
            failure = self.target[1].check(roll20=True) if self.target[1] else (lambda v: False)
            score = lambda v: 1 if success(v) else (-1 if failure(v) else 0)  # noqa: E731
        if self.keep is None:
            return self.count @ die.map(score, star=False)
        name, arg = self.keep
        if isinstance(arg, Pick) and arg.op not in ("h", "l"):
            hit = arg.check(roll20=False)
            if name == "k" and arg.op == "=":  # 'k3' keeps the highest three
                return self._ranked(die, "kh", arg.value, score)
            keeps = hit if name == "k" else (lambda v, h=hit: not h(v))
            return self.count @ die.map(lambda v, k=keeps: score(v) if k(v) else 0, star=False)
        if isinstance(arg, Pick):  # kh/kl/ph/pl written with a selector
            kind = {"kh": "kh", "kl": "kl", "ph": "dh", "pl": "dl"}[name + arg.op]
            return self._ranked(die, kind, arg.value, score)
        return self._ranked(die, name, int(arg), score)

    def _ranked(self, die: icepool.Die[Any], kind: str, n: int, score: Check) -> Any:
        pool = die.pool(self.count)
        kept = {
            "kh": lambda: pool.highest(n),
            "kl": lambda: pool.lowest(n),
            "dh": lambda: pool.lowest(self.count - n),
            "dl": lambda: pool.highest(self.count - n),
        }[kind]()
        if self.target is None:
            return kept.sum()
        return kept.expand().map(lambda t: sum(score(v) for v in t), star=False)


@dataclass(frozen=True)
class Const:
    value: int

    def text(self) -> str:
        return str(self.value)

    def die(self) -> icepool.Die[Any]:
        return icepool.Die([self.value])


@dataclass(frozen=True)
class Op:
    op: str
    left: Any
    right: Any

    def text(self) -> str:
        def wrap(e: Any) -> str:
            return f"({e.text()})" if isinstance(e, Op) else e.text()

        spaced = f" {self.op} " if self.op in STRICT or self.op in ("==", "!=") else self.op
        return wrap(self.left) + spaced + wrap(self.right)

    def die(self) -> icepool.Die[Any]:
        ops: dict[str, Callable[[Any, Any], Any]] = {
            "+": operator.add,
            "-": operator.sub,
            "*": operator.mul,
            "/": lambda a, b: Fraction(a) / b,
            "//": operator.floordiv,
            "<": lambda a, b: int(a < b),
            ">": lambda a, b: int(a > b),
            "<=": lambda a, b: int(a <= b),
            ">=": lambda a, b: int(a >= b),
            "==": lambda a, b: int(a == b),
            "!=": lambda a, b: int(a != b),
        }
        return icepool.map(ops[self.op], self.left.die(), self.right.die())


def _picks(values: list[int]) -> st.SearchStrategy[Pick]:
    return st.builds(Pick, st.sampled_from(["=", "<", ">", "<=", ">="]), st.sampled_from(values))


@st.composite
def dice_groups(draw: st.DrawFn) -> Dice:
    sides = draw(st.sampled_from([2, 3, 4, 6, 8, 10, 20, 20, "F", "%"]))
    big = sides in (20, "%")
    count = draw(st.integers(1, 2 if big else 4))
    probe = Dice(count, sides)
    values = probe.values()
    picks = _picks(values if not big else [1, 2, 5, 10, 19, 20])
    face_ops: list[tuple[str, Pick]] = []
    for _ in range(draw(st.integers(0, 2))):
        name = draw(st.sampled_from(["r", "rr", "ro", "mi", "ma"]))
        pick = Pick("=", draw(st.sampled_from(values))) if name in ("mi", "ma") else draw(picks)
        if name in ("r", "rr") and all(pick.check(name == "r")(v) for v in values):
            continue
        if face_ops and face_ops[-1][0] == name:
            continue
        face_ops.append((name, pick))
    extra = draw(st.sampled_from(["none", "keep", "explode"]))
    explode = keep = None
    if extra == "explode" and not big:
        name = draw(st.sampled_from(["!", "e", "ra"]))
        pick = draw(st.none() | picks) if name == "!" else draw(picks)
        hit = pick.check(name == "!") if pick else (lambda v: v == max(values))
        if name == "ra" or not all(hit(v) for v in values):
            explode = (name, pick)
    elif extra == "keep":
        name = draw(st.sampled_from(["kh", "kl", "dh", "dl", "k", "p"]))
        if name in ("k", "p"):
            arg: Any = draw(
                picks | st.builds(Pick, st.sampled_from(["h", "l"]), st.integers(0, count))
            )
            if name == "k" and arg.op == "=" and arg.value > count:
                arg = Pick("=", count)
        else:
            arg = draw(st.integers(0, count))
        keep = (name, arg)
    target = None
    if explode is None and draw(st.booleans()):
        hit = Pick(draw(st.sampled_from(["<", ">"])), draw(st.sampled_from(values)))
        miss = draw(
            st.none() | st.builds(Pick, st.sampled_from(["=", "<", ">"]), st.sampled_from(values))
        )
        target = (hit, miss)
    return Dice(count, sides, tuple(face_ops), explode, keep, target)


leaves = st.one_of(dice_groups(), st.integers(0, 9).map(Const))
divisors = st.one_of(
    st.integers(1, 4).map(Const), st.builds(Dice, st.integers(1, 2), st.sampled_from([3, 4, 6]))
)


@st.composite
def expressions(draw: st.DrawFn) -> Any:
    expr = draw(dice_groups())
    for _ in range(draw(st.integers(0, 2))):
        op = draw(st.sampled_from(["+", "-", "*", "/", "//"]))
        right = draw(divisors if op in ("/", "//") else leaves)
        expr = (
            Op(op, expr, right) if draw(st.booleans()) or op in ("/", "//") else Op(op, right, expr)
        )
    if draw(st.integers(0, 3)) == 0:
        expr = Op(
            draw(st.sampled_from(["<", ">", "<=", ">=", "==", "!="])),
            expr,
            Const(draw(st.integers(0, 12))),
        )
    return expr


def icepool_pmf(expr: Any) -> dict[Any, Fraction]:
    die = expr.die()
    den = die.denominator()
    return {o: Fraction(q, den) for o, q in die.items() if q}


@settings(
    max_examples=220, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
)
@given(expressions())
def test_standard_agrees_exactly_with_icepool(expr: Any) -> None:
    text = expr.text()
    mech = parse("standard", text)
    ours = {v: p for v, p in mech.pmf().items() if p}  # a check lists 0 and 1 always
    assert ours == icepool_pmf(expr), text
    roll = mech.roll(random.Random(len(text)))
    assert roll.result in mech.pmf()
    assert mech.evaluate(roll.faces).result == roll.result
    assert parse("standard", mech.notation()).pmf() == mech.pmf()


@pytest.mark.parametrize(
    ("text", "mean"),
    [
        ("4d6dl1", Fraction(15869, 1296)),
        ("4d6p1", Fraction(40, 3)),  # Avrae: p1 drops the dice showing 1
        ("1d20ro1", Fraction(439, 40)),
        ("2d6r1", Fraction(8)),  # 1s rerolled until they are not: 2..6
        ("8d6ro<2", Fraction(94, 3)),  # 1s rerolled once: 8 * (20 + 3.5) / 6
        ("1d20mi10", Fraction(255, 20)),
        ("(1d4+1)*2", Fraction(7)),
        ("d%", Fraction(101, 2)),
        ("4dF", Fraction(0)),
        ("1d6/2", Fraction(7, 4)),
    ],
)
def test_the_expressions_people_type(text: str, mean: Fraction) -> None:
    pmf = parse("standard", text).pmf()
    assert sum(pmf.values()) == 1
    assert sum(v * p for v, p in pmf.items()) == mean


def test_d_percent_and_fudge_faces() -> None:
    assert set(parse("standard", "d%").pmf()) == set(range(1, 101))
    four_f = parse("standard", "4dF").pmf()
    assert min(four_f) == -4 and max(four_f) == 4 and four_f[0] == Fraction(19, 81)
    assert parse("standard", "dF").evaluate([1]).result == -1


def test_less_and_greater_read_as_each_tool_reads_them() -> None:
    # Roll20's r and success targets: "or equal"; Avrae's ro and k: strict
    assert parse("standard", "1d6r<2").pmf() == parse("standard", "1d6rr<=2").pmf()
    assert parse("standard", "1d6ro<2").pmf() == parse("standard", "1d6ro1").pmf()
    one = parse("standard", "1d20>15").pmf()  # a success: 15 or more
    assert one[1] == Fraction(6, 20)
    total = parse("standard", "1d20 > 15").pmf()  # spaced: the total, strictly
    assert total[1] == Fraction(5, 20)
    assert parse("standard", "3d6 <= 9").pmf()[1] == Fraction(81, 216)


def test_success_counting_with_failures() -> None:
    pmf = parse("standard", "1d10>8f1").pmf()
    assert pmf == {-1: Fraction(1, 10), 0: Fraction(6, 10), 1: Fraction(3, 10)}
    roll = parse("standard", "3d10>8f1").evaluate([9, 1, 10])
    assert roll.result == 1
    assert "successes" in roll.explanation


def test_division_is_exact_and_floor_division_rounds_down() -> None:
    assert parse("standard", "7/2").pmf() == {Fraction(7, 2): 1}
    assert parse("standard", "7//2").pmf() == {3: 1}
    assert parse("standard", "-7//2").pmf() == {-4: 1}
    assert parse("standard", "1d4/2").evaluate([3]).result == Fraction(3, 2)
    with pytest.raises(DiceError, match="divide by zero"):
        parse("standard", "6/(1d2-1)").pmf()


def test_explosions_are_exact_to_their_depth_and_say_what_is_cut() -> None:
    f = parse("standard", "1d6!")
    assert isinstance(f, Formula)
    pmf = f.pmf()
    assert sum(pmf.values()) == 1
    assert max(pmf) == 6 * (EXPLODE_DEPTH + 1)
    assert f.cutoff_mass() == Fraction(1, 6 ** (EXPLODE_DEPTH + 1))
    assert pmf == f.enumerate_pmf()
    roll = f.evaluate([6, 6, 2])
    assert roll.result == 14 and roll.explanation == "d6e6: [6+6+2] = 14"
    assert f.more_throws([6]) and f.more_throws([6, 6]) and not f.more_throws([6, 2])
    with pytest.raises(FacesError, match="expected more faces"):
        f.evaluate([6])
    with pytest.raises(FacesError, match="expected 2 faces"):
        f.evaluate([6, 2, 3])


def test_rerolls_read_typed_faces_in_throwing_order() -> None:
    f = parse("standard", "2d6rr1")
    assert f.evaluate([1, 1, 4, 5]).result == 9
    assert f.more_throws([1, 1]) and not f.more_throws([2, 3])
    assert f.evaluate([1, 1, 4, 5]).explanation == "2d6rr1: [1→4, 1→5] = 9"
    assert f.evaluate([1, 5, 1, 4]).explanation == "2d6rr1: [1→4, 5] = 9"  # 1 again, then 4
    ro = parse("standard", "1d20ro1")
    assert ro.evaluate([1, 1]).result == 1  # once only


def test_explode_with_successes_matches_brute_force() -> None:
    f = parse("standard", "2d4!>4")
    assert isinstance(f, Formula)
    assert f.pmf() == f.enumerate_pmf()
    counts = parse("standard", "2d4e4>3")
    assert counts.pmf() == counts.enumerate_pmf()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("1d6!!", "compounding and penetrating explosions are not supported"),
        ("1d6!p", "compounding and penetrating explosions are not supported"),
        ("2d6%3", "'%' (a remainder) is not supported"),
        ("{1d20+5}>15", "group rolls '{…}' are not supported"),
        ("1d20[fire]", "labels '[…]' are not supported"),
        ("1.5d6", "decimal numbers are not supported"),
        ("(1d6, 2)", "sets such as '(1d6, 2)' are not supported"),
        ("4d6kh3ro1", "put 'ro' before explosions and keep or drop"),
        ("1d6rr<7", "every face would be rerolled, without end"),
        ("1d6e>0", "every face explodes, without end"),
        ("3d6cs>5", "critical markers 'cs' and 'cf' are not supported"),
        ("2d20adv", None),
        ("1d2 < 2 < 3", "one comparison at a time"),
        ("101d6", "beyond the limit of 1 to 100 dice"),
        ("d1001", "beyond the limit of 1 to 1000 sides"),
    ],
)
def test_what_is_not_supported_is_refused_in_one_line(text: str, says: str | None) -> None:
    if says is None:
        parse("standard", text).pmf()
        return
    with pytest.raises(DiceError) as err:
        parse("standard", text)
    message = str(err.value)
    assert says in message and "\n" not in message


def test_limits_hold_for_rolls_and_odds() -> None:
    with pytest.raises(LimitError):
        parse("standard", "+".join(["100d6r1"] * 11))
    with pytest.raises(LimitError, match="too large for exact odds"):
        parse("standard", "100d1000e1000*100d1000").pmf()
    assert len(parse("standard", "10d6!").roll(random.Random(1)).faces) >= 10


def test_errors_point_at_the_place() -> None:
    with pytest.raises(NotationError, match="position 5"):
        parse("standard", "4d6 kh3")


def test_a_person_typing_dice_is_asked_for_rerolls_and_explosions() -> None:
    from fracas.table.dicemode import AskedDice, RollRequest

    answers = iter(["6 6", "2 6", "3"])
    asked: list[RollRequest] = []

    def ask(request: RollRequest) -> str:
        asked.append(request)
        return next(answers)

    roll = AskedDice(ask).roll(parse("standard", "2d6!"), "damage")
    assert roll.faces == (6, 6, 2, 6, 3) and roll.result == 23  # 6+2, 6+6+3
    assert (
        asked[1].prompt().endswith("(a die rerolls or explodes: the next face is a d6's); faces: ")
    )
