"""Standard notation, classic d20, roll-under, die-step, the prismatic pool, opposed rolls."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from fracas.dice import (
    DieStep,
    FacesError,
    LimitError,
    NotationError,
    Opposed,
    PrismaticCheck,
    StandardExpression,
    parse,
    successes,
)
from fracas.dice.core import normalize
from fracas.dice.diestep import LADDER, shift
from fracas.dice.pmf import keep_weights


def brute_keep(count: int, sides: int, keep: int, highest: bool) -> dict[int, int]:
    weights: dict[int, int] = {}
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        total = sum(sorted(faces, reverse=highest)[:keep])
        weights[total] = weights.get(total, 0) + 1
    return weights


@pytest.mark.parametrize("highest", [True, False])
@pytest.mark.parametrize(("count", "sides", "keep"), [(4, 6, 3), (3, 4, 1), (5, 3, 2), (2, 10, 2)])
def test_keep_fast_path_matches_brute_force_in_both_orders(
    count: int, sides: int, keep: int, highest: bool
) -> None:
    assert keep_weights(count, sides, keep, highest) == brute_keep(count, sides, keep, highest)


@pytest.mark.parametrize(
    "text",
    [
        "4d6kh3",
        "4d6kl3",
        "3d4+2",
        "d20adv+5",
        "d20dis-1",
        "2d6-1d4+3",
        "2d6<=9",
        "d20+5>=15",
        "3d4kh2adv",
        "d6>3",
        "2d4=5",
        "3d3<4",
    ],
)
def test_standard_fast_path_matches_enumeration(text: str) -> None:
    e = StandardExpression.parse(text)
    assert e.pmf() == e.enumerate_pmf()
    assert sum(e.pmf().values()) == 1
    assert StandardExpression.parse(e.notation()) == e


def test_standard_reads_hand_rolled_faces() -> None:
    assert parse("standard", "4d6kh3").evaluate([6, 1, 4, 5]).result == 15
    assert parse("standard", "4d6kl3").evaluate([6, 1, 4, 5]).result == 10
    assert parse("standard", "d20adv+5").evaluate([3, 17]).result == 22
    assert parse("standard", "d20dis+5").evaluate([3, 17]).result == 8
    check = parse("standard", "d20+5>=15")
    assert check.evaluate([10]).result == 1
    assert check.evaluate([9]).result == 0
    assert check.evaluate([9]).parts["total"] == 14


def test_advantage_on_a_d20() -> None:
    # P(max of two d20 = 20) = 1 - (19/20)^2 = 39/400
    assert parse("standard", "d20adv").pmf()[20] == Fraction(39, 400)
    assert parse("standard", "d20dis").pmf()[1] == Fraction(39, 400)


@pytest.mark.parametrize(
    ("text", "position"),
    [("2d", 2), ("2d6+", 4), ("4d6kh5", 6), ("2d6 >= x", 7), ("3d6 foo", 4), ("", 0), ("2x6", 1)],
)
def test_standard_errors_point_at_the_place(text: str, position: int) -> None:
    with pytest.raises(NotationError) as err:
        StandardExpression.parse(text)
    assert err.value.position == position


def test_standard_limits() -> None:
    with pytest.raises(NotationError, match="beyond the limit"):
        parse("standard", "101d6")
    with pytest.raises(NotationError, match="beyond the limit"):
        parse("standard", "d1001")
    with pytest.raises(LimitError, match="too large for exact odds"):
        parse("standard", "100d1000").pmf()
    assert parse("standard", "100d1000").roll(random.Random(1)).result >= 100


def test_classic_d20_plus_modifier() -> None:
    roll = parse("heimr-classic", "+5")
    assert roll.notation() == "d20+5"
    assert roll.evaluate([12]).result == 17
    assert parse("heimr-classic", "d20+5>=15").pmf()[1] == Fraction(11, 20)


def test_roll_under_reads_target_numbers() -> None:
    # Strength 10, Evasion 1: roll 9 or lower on 2d6; a 7 hits.
    attack = parse("sides", "10-1")
    assert attack.notation() == "2d6<=9"
    assert attack.evaluate([3, 4]).result == 1
    assert attack.evaluate([5, 5]).result == 0
    assert attack.pmf()[1] == Fraction(30, 36)


@pytest.mark.rule("D-DIE-1")
def test_die_step_ladder_shifts_and_advantage() -> None:
    assert LADDER == (2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 30, 36, 48, 60)
    assert shift(8, 2) == 12 and shift(8, -3) == 3
    assert shift(48, 5) == 60 and shift(3, -4) == 2  # the ladder's ends hold
    assert parse("diestep", "d8 up 2").notation() == "d12"
    assert parse("diestep", "d6 adv").evaluate([2, 5]).result == 5
    assert parse("diestep", "d6 dis").evaluate([2, 5]).result == 2
    # Advantage and disadvantage cancel; two advantages roll twice, not three times.
    assert parse("diestep", "d6 adv dis").dice() == (6,)
    assert parse("diestep", "d6 adv adv").dice() == (6, 6)
    # P(higher of two d4 = 4) = 7/16
    assert parse("diestep", "d4 adv").pmf()[4] == Fraction(7, 16)
    for text in ["d4 adv", "d12 dis", "d8"]:
        m = parse("diestep", text)
        assert m.pmf() == m.enumerate_pmf()
    with pytest.raises(NotationError, match="not on the ladder"):
        parse("diestep", "d7")


@pytest.mark.rule("D-ATK-2")
def test_die_step_successes() -> None:
    # The published example: ATT d8 rolls 6 against DEF d6 rolling 4, a hit;
    # had DEF rolled 3, a double success.
    assert successes(6, 4) == 1
    assert successes(6, 3) == 2
    assert successes(4, 4) == 1  # equal succeeds
    assert successes(3, 4) == 0
    assert successes(12, 4) == 3
    duel = parse("diestep", "d8 vs d6")
    assert isinstance(duel, Opposed)
    roll = duel.evaluate([6, 3])
    assert roll.parts["success"] == 1
    brute: dict[int, int] = {}
    for a, b in itertools.product(range(1, 9), range(1, 7)):
        brute[successes(a, b)] = brute.get(successes(a, b), 0) + 1
    assert duel.successes_pmf() == normalize(brute)


@pytest.mark.rule("T-DICE-1")
def test_prismatic_pool_reads_the_first_colour_showing_six() -> None:
    check = PrismaticCheck(3)
    assert check.evaluate([2, 5, 6, 1, 1, 6, 3, 4]).result == 2 + 3  # Orange
    assert check.evaluate([6, 6, 6, 6, 6, 6, 6, 6]).result == 0 + 3  # Black
    no_six = [1, 2, 3, 4, 5, 1, 2, 3]
    # No 6: roll again and add 8.
    assert check.evaluate(no_six + [1, 1, 1, 1, 1, 1, 1, 6]).result == 8 + 7 + 3
    with pytest.raises(FacesError, match="shows no 6"):
        check.evaluate(no_six)
    with pytest.raises(FacesError, match="already shows a 6"):
        check.evaluate([6] * 8 + [6] * 8)
    with pytest.raises(FacesError, match="eight per throw"):
        check.evaluate([6, 1, 1])


@pytest.mark.rule("T-DICE-1")
def test_prismatic_pool_exact_odds_report_the_tail() -> None:
    check = PrismaticCheck(0, bound=2)
    assert check.pmf() == check.enumerate_pmf()
    assert check.pmf()[0] == Fraction(1, 6)  # Black shows 6
    assert check.pmf()[8] == Fraction(5, 6) ** 8 * Fraction(1, 6)  # re-roll, Black
    assert sum(check.pmf().values()) + check.tail_mass() == 1
    assert check.tail_mass() == Fraction(5, 6) ** 24
    assert PrismaticCheck(0).tail_mass() < Fraction(1, 10**8)
    # Rolls follow the same reading and can go past the first throw.
    rng = random.Random(3)
    rolls = [check.roll(rng) for _ in range(500)]
    assert any(r.parts["rerolls"] for r in rolls)
    assert all(check.evaluate(r.faces) == r for r in rolls)


def test_opposed_tie_rules_differ_by_system() -> None:
    heimr = parse("heimr", "C0P0 vs C0P0")
    classic = parse("heimr-classic", "d20 vs d20")
    assert isinstance(heimr, Opposed) and isinstance(classic, Opposed)
    # Heimr: a defence equal to the attack misses, so a tie is no success.
    assert heimr.evaluate([4, 4]).parts["success"] == 0
    assert heimr.p_success() == Fraction(15, 36)
    # Classic: the dodge must be strictly higher, so a tie hits.
    assert classic.evaluate([9, 9]).parts["success"] == 1
    assert classic.p_success() == Fraction(210, 400)
    assert sum(heimr.pmf().values()) == 1
    with pytest.raises(ValueError, match="no opposed rolls"):
        parse("sides", "9 vs 8")


def test_die_step_rejects_malformed_input() -> None:
    with pytest.raises(NotationError):
        DieStep.parse("d8 sideways")
