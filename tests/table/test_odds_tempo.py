"""The exact tempo odds (closed forms over the Prismatic pool, with no re-roll bound)
against the dice layer's bounded distribution, by brute force over every margin."""

from __future__ import annotations

from fractions import Fraction

import pytest

from fracas.dice import PrismaticCheck
from fracas.rules.tempo.attack_odds import at_least, difference_at_least, exchange
from fracas.rules.tempo.checks import read
from fracas.rules.tempo.tables import TempoTables

POOL = PrismaticCheck(0, bound=6)
TAIL = POOL.tail_mass()


@pytest.mark.rule("T-DICE-1")
@pytest.mark.parametrize("t", range(-3, 30))
def test_the_pool_reaches_a_number_as_the_dice_layer_says(t: int) -> None:
    bounded = sum((p for v, p in POOL.pmf().items() if v >= t), Fraction(0))
    assert bounded <= at_least(t) <= bounded + TAIL


@pytest.mark.rule("T-DICE-1", "T-RES-1")
@pytest.mark.parametrize("t", range(-30, 30, 3))
def test_one_pool_beats_another_as_the_dice_layer_says(t: int) -> None:
    pmf = POOL.pmf()
    bounded = sum(
        (p * q for x, p in pmf.items() for y, q in pmf.items() if x - y >= t), Fraction(0)
    )
    # What the bound leaves out is at most the tail of either pool.
    assert bounded <= difference_at_least(t) <= bounded + 2 * TAIL


def brute(own: int, other: int | None, rows: list, named: dict, theirs: list, mine: dict):  # type: ignore[no-untyped-def,type-arg]
    """Every margin the bounded pools give, read on both tables one by one."""
    pmf = POOL.pmf()
    margins: dict[int, Fraction] = {}
    for x, p in pmf.items():
        if other is None:
            margins[x + own] = margins.get(x + own, Fraction(0)) + p
            continue
        for y, q in pmf.items():
            m = x + own - y - other
            margins[m] = margins.get(m, Fraction(0)) + p * q
    lands = Fraction(0)
    for m, p in margins.items():
        row = read(rows, m, named)
        answer = read(theirs, -m, mine) if other is not None else None
        if answer is not None and "cancel" in answer.effects:
            continue
        if {"damage", "damage ignoring armour"} & set(row.effects):
            lands += p
    return lands


@pytest.mark.rule("T-RES-1", "T-RES-2", "T-ACT-2")
@pytest.mark.parametrize("reaction", [None, "Parry", "Evade", "Counter-Attack", "Wind"])
@pytest.mark.parametrize(
    ("own", "other", "cd", "armour"), [(2, 2, 3, 1), (0, 5, 0, 3), (4, 1, 6, 0)]
)
def test_the_exchange_reads_both_tables_at_every_margin(
    reaction: str | None, own: int, other: int, cd: int, armour: int
) -> None:
    tables = TempoTables.load()
    attack = "Press" if reaction == "Wind" else "Melee Attack"
    rows = tables.actions[attack].outcomes
    named = {"Combat Defence": cd, "Combat Defence (Armoured)": cd + armour}
    mine = {"Combat Defence": 1, "Combat Defence (Armoured)": 2}
    theirs = tables.actions[reaction].outcomes if reaction else []
    line = exchange(own, rows, named, other if reaction else None, theirs, mine)
    expected = brute(own, other if reaction else None, rows, named, theirs, mine)
    slack = 2 * TAIL if reaction else TAIL
    assert expected - slack <= line.lands <= expected + slack
    assert 0 <= line.critical <= line.lands <= 1


@pytest.mark.rule("T-RES-2")
def test_a_critical_hit_ignores_armour_and_a_hit_does_not() -> None:
    rows = TempoTables.load().actions["Melee Attack"].outcomes
    named = {"Combat Defence": 0, "Combat Defence (Armoured)": 1}
    line = exchange(0, rows, named)
    # pool+0 >= 1 is 5/6 (a critical hit), = 0 is 1/6 (a hit).
    assert (line.hit, line.critical) == (Fraction(1, 6), Fraction(5, 6))
    damage = dict(line.damage("d4", 3))
    assert damage[0] == Fraction(1, 6) * Fraction(3, 4)  # a hit of 1..3 against armour 3
    assert damage[1] == Fraction(1, 6) * Fraction(1, 4) + Fraction(5, 6) * Fraction(1, 4)
    assert damage[4] == Fraction(5, 6) * Fraction(1, 4)
    assert sum(damage.values()) == 1
