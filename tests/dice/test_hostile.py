"""Hostile dice input: every failure is a one-line ``DiceError``, nothing runs for minutes.

The cases reproduce what fuzzing found (issue 13): numbers of thousands of digits,
numbers that overflowed a float, and expressions whose exact odds ran for minutes.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.dice import (
    SYSTEMS,
    CostError,
    DiceError,
    LimitError,
    Mechanic,
    NotationError,
    PrismaticCheck,
    estimate,
    parse,
    wilson,
)
from fracas.dice.core import MAX_STEPS
from fracas.dice.pmf import as_weights, difference, power, uniform, uniform_sum
from fracas.dice.scanner import MAX_NUMBER, MAX_TEXT

HUGE = "1" + "0" * 5000  # past Python's 4,300-digit limit on reading integers
FLOAT_BUSTER = str(10**309)  # past the largest float

EXAMPLE = {
    "heimr": "C3P{}",
    "heimr-classic": "d20+{}",
    "sides": "9-{}",
    "tempo": "pool+{}",
    "diestep": "d8 up {}",
    "standard": "d20+{}",
}


def one_line(err: BaseException) -> bool:
    message = str(err)
    return bool(message) and len(message.splitlines()) == 1


@pytest.mark.parametrize("system", SYSTEMS)
def test_numbers_of_thousands_of_digits_are_refused_unread(system: str) -> None:
    # the whole text is too long before the number is even reached
    with pytest.raises(NotationError, match=r"of 5,0\d\d characters is beyond") as err:
        parse(system, EXAMPLE[system].format(HUGE))
    assert one_line(err.value) and len(str(err.value)) < 300
    with pytest.raises(NotationError, match="a number of 900 digits is too long") as err:
        parse(system, EXAMPLE[system].format("9" * 900))
    assert one_line(err.value) and len(str(err.value)) < 300


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("number", [FLOAT_BUSTER, str(MAX_NUMBER + 1)])
def test_numbers_past_the_limits_are_refused_where_they_are_read(system: str, number: str) -> None:
    text = EXAMPLE[system].format(number)
    with pytest.raises(NotationError) as err:
        parse(system, text)
    assert one_line(err.value)
    at = text.index(number)  # the number's sign, or its first digit, is named
    assert f"at position {at} " in str(err.value) or f"at position {at + 1} " in str(err.value)
    assert len(str(err.value)) < 300  # the number is not repeated in full


def test_a_number_at_the_limit_is_read() -> None:
    assert parse("tempo", f"pool+{MAX_NUMBER}").pmf()[MAX_NUMBER] == Fraction(1, 6)
    assert parse("standard", f"d20-{MAX_NUMBER}>=-{MAX_NUMBER}").pmf()[1] == 1


def test_long_expressions_are_refused_before_reading() -> None:
    with pytest.raises(NotationError, match="characters is beyond the limit") as err:
        parse("standard", "d6+" * MAX_TEXT + "1")
    assert one_line(err.value)
    assert len(parse("standard", "+".join(["d6"] * 300)).dice()) == 300


def test_messages_stay_on_one_line_whatever_the_text() -> None:
    for text in ["C3\nP2", "d6 vs d6 vs d6", "\u2028", "d8\r\nup 1"]:
        for system in SYSTEMS:
            try:
                parse(system, text)
            except DiceError as err:
                assert one_line(err), (system, text, str(err))


@pytest.mark.parametrize(
    "text", ["5d1000 vs 5d1000", "3d1000kh3", "100d1000", "d1000+d1000+d1000+d1000 vs 9d1000"]
)
def test_exact_odds_too_costly_are_refused_before_any_work(text: str) -> None:
    mech = parse("standard", text)
    assert mech.steps() > MAX_STEPS
    with pytest.raises(CostError, match="too large for exact odds") as err:
        mech.pmf()
    assert one_line(err.value)
    assert "estimate it from random rolls" in str(err.value)


@pytest.mark.parametrize("text", ["29d1000", "2d1000 vs 2d1000", "2d1000adv", "3d100kh3"])
def test_big_but_fine_expressions_still_have_exact_odds(text: str) -> None:
    mech = parse("standard", text)
    assert mech.steps() <= MAX_STEPS
    assert sum(mech.pmf().values()) == 1


def test_the_largest_heimr_and_tempo_duels_are_exact() -> None:
    duel = parse("heimr", "C100P0 vs C-100P0")
    assert sum(duel.pmf().values()) == 1
    tempo = parse("tempo", "pool vs pool")
    assert 1 - sum(tempo.pmf().values()) < Fraction(1, 10**6)


@pytest.mark.parametrize(("count", "sides"), [(1, 6), (3, 6), (5, 2), (4, 7), (2, 1), (0, 6)])
def test_running_sums_match_repeated_squaring(count: int, sides: int) -> None:
    assert uniform_sum(count, sides) == power(uniform(sides), count)


def test_margins_in_integer_weights_match_fractions() -> None:
    a = parse("standard", "2d6kh1").pmf()
    b = parse("heimr", "C-2P1").pmf()
    direct: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            direct[x - y] = direct.get(x - y, Fraction(0)) + px * py
    assert difference(a, b) == dict(sorted(direct.items()))
    weights, den = as_weights(b)
    assert {k: Fraction(w, den) for k, w in weights.items()} == b


def test_an_opposed_tempo_roll_reads_back_from_its_faces() -> None:
    duel = parse("tempo", "pool+1 vs pool")
    faces = [1] * 8 + [2, 6, 1, 1, 1, 1, 1, 1] + [6, 1, 1, 1, 1, 1, 1, 1]
    roll = duel.evaluate(faces)
    assert (roll.parts["first"], roll.parts["second"]) == (8 + 1 + 1, 0)
    for seed in range(40):
        rolled = duel.roll(random.Random(seed))
        assert duel.evaluate(rolled.faces) == rolled


def test_an_estimate_is_reproducible_and_its_interval_holds_the_exact_chance() -> None:
    duel = parse("heimr", "C3P2 vs C2P1")
    first = estimate(duel, 4000, random.Random(5))
    assert estimate(duel, 4000, random.Random(5)) == first
    low, high = first.interval(first.successes)
    assert low < duel.p_success() < high
    assert sum(first.counts.values()) == 4000


def test_estimates_are_bounded_too() -> None:
    with pytest.raises(LimitError, match="take at most") as err:
        estimate(parse("standard", "100d1000"), 1_000_000, random.Random(1))
    assert one_line(err.value)
    with pytest.raises(LimitError, match="1 to"):
        estimate(parse("standard", "d6"), 0, random.Random(1))


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 100)[0] == 0 and wilson(100, 100)[1] == 1


# --- property: any text, plausible or hostile, in any system -----------------------------

small = st.integers(0, 12).map(str)
numbers = st.one_of(
    small,
    st.integers(0, 1000).map(str),
    st.sampled_from(["100", "101", "1000", "1001", "1000000", "1000001", "99999999"]),
    st.integers(7, 400).map(lambda k: "9" * k),
    st.sampled_from([HUGE, FLOAT_BUSTER]),
)
signs = st.sampled_from(["", "+", "-"])
dice_terms = st.builds(
    lambda n, m, keep, adv: f"{n}d{m}{keep}{adv}",
    st.sampled_from(["", "1", "2", "3", "10", "100"]) | numbers,
    st.sampled_from(["2", "6", "10", "20", "100", "1000"]) | numbers,
    st.sampled_from(["", "", "kh1", "kl2", "k3", "kh9"]),
    st.sampled_from(["", "", "adv", "dis", "adv dis"]),
)
standard_text = st.builds(
    lambda first, rest, cmp: first + "".join(rest) + cmp,
    dice_terms | numbers,
    st.lists(st.tuples(st.sampled_from("+-"), dice_terms | numbers).map("".join), max_size=3),
    st.sampled_from(["", "", ">=", "<=", "=", ">"]).flatmap(
        lambda op: st.just("") if not op else small.map(lambda n: op + n)
    ),
)
plausible = {
    "heimr": st.builds(lambda s, c, p: f"C{s}{c}P{p}", signs, numbers, numbers),
    "heimr-classic": st.one_of(numbers.map(lambda n: f"+{n}"), standard_text),
    "sides": st.one_of(st.lists(numbers, min_size=1, max_size=3).map("-".join), standard_text),
    "tempo": st.builds(lambda s, n: f"pool{s}{n}", signs, numbers),
    "diestep": st.builds(
        lambda d, w: f"d{d} {w}",
        st.sampled_from(["4", "6", "8", "60", "7"]) | numbers,
        st.sampled_from(["", "up 1", "down 2 adv", "adv dis", "up"]),
    ),
    "standard": standard_text,
}
hostile_chars = st.text(alphabet="dDkKhlcCpP+-<>=vs 0123456789\n\u2028é٣", max_size=30)


@st.composite
def dice_text(draw: st.DrawFn) -> tuple[str, str]:
    """A system and text in its notation, opposed, mangled or random."""
    system = draw(st.sampled_from(SYSTEMS))
    text = draw(plausible[system])
    kind = draw(st.integers(0, 4))
    if kind == 1:
        text = f"{text} vs {draw(plausible[system])}"
    elif kind == 2:
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(hostile_chars) + text[at:]
    elif kind == 3:
        text = draw(hostile_chars)
    return system, text


@given(dice_text())
def test_any_dice_text_parses_or_raises_one_line_dice_error(case: tuple[str, str]) -> None:
    system, text = case
    try:
        mech = parse(system, text)
    except DiceError as err:
        assert one_line(err)
        return
    assert isinstance(mech, Mechanic)
    steps = mech.steps()
    if steps > MAX_STEPS:
        with pytest.raises(LimitError):
            mech.pmf()
    elif steps <= 300_000:  # computed here; larger accepted ones are timed in docs/reliability.md
        pmf = mech.pmf()
        total = sum(pmf.values(), Fraction(0))
        tempo = isinstance(mech, PrismaticCheck) or isinstance(
            getattr(mech, "first", None), PrismaticCheck
        )
        assert total == 1 or (tempo and total < 1)


def test_one_expression_throws_at_most_a_thousand_dice() -> None:
    assert len(parse("standard", "+".join(["100d6"] * 10)).dice()) == 1000
    with pytest.raises(LimitError, match="throws 1,100 dice") as err:
        parse("standard", "+".join(["100d6"] * 11))
    assert one_line(err.value)
