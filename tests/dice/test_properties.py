"""Hypothesis properties of the notations and the mechanics."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from fracas.dice import DiceError, DieStep, HeimrChallenge, StandardExpression, parse
from fracas.dice.diestep import LADDER
from fracas.dice.standard import DiceTerm

terms = st.builds(
    DiceTerm,
    count=st.integers(1, 3),
    sides=st.integers(1, 6),
    keep=st.none(),
    advantage=st.integers(-1, 1),
    sign=st.sampled_from([1, -1]),
)
keep_terms = st.integers(1, 3).flatmap(
    lambda n: st.builds(
        DiceTerm,
        count=st.just(n),
        sides=st.integers(1, 6),
        keep=st.integers(1, n),
        keep_highest=st.booleans(),
        sign=st.sampled_from([1, -1]),
    )
)
expressions = st.builds(
    StandardExpression,
    terms=st.lists(terms | keep_terms, min_size=1, max_size=2).map(tuple),
    constant=st.integers(-20, 20),
    comparison=st.none()
    | st.tuples(st.sampled_from(["<=", ">=", "<", ">", "=="]), st.integers(-5, 30)),
)


@given(expressions)
def test_standard_notation_round_trips(expr: StandardExpression) -> None:
    assert StandardExpression.parse(expr.notation()) == expr


@given(expressions, st.integers(0, 2**32))
def test_standard_rolls_land_in_the_support_and_replay(expr: StandardExpression, seed: int) -> None:
    roll = expr.roll(random.Random(seed))
    assert roll.result in expr.pmf()
    assert expr.evaluate(roll.faces) == roll
    assert sum(expr.pmf().values()) == 1


@given(st.integers(-8, 8), st.integers(-20, 20), st.integers(0, 2**32))
def test_heimr_rolls_land_in_the_support(c: int, p: int, seed: int) -> None:
    ch = HeimrChallenge(c, p)
    roll = ch.roll(random.Random(seed))
    assert ch.pmf()[roll.result] > 0
    assert ch.joint()[roll.parts["raw"], roll.parts["d6"]] > 0
    assert parse("heimr", ch.notation()) == ch


@given(st.sampled_from(LADDER), st.integers(-1, 1), st.integers(0, 2**32))
def test_die_step_rolls_land_in_the_support(sides: int, adv: int, seed: int) -> None:
    die = DieStep(sides, adv)
    assert die.roll(random.Random(seed)).result in die.pmf()
    assert DieStep.parse(die.notation()) == die


@given(
    st.sampled_from(["heimr", "heimr-classic", "sides", "tempo", "diestep", "standard"]),
    st.text(max_size=12),
)
def test_any_text_parses_or_raises_a_dice_error(system: str, text: str) -> None:
    try:
        parse(system, text)
    except DiceError as err:
        assert str(err)
