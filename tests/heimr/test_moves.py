"""Moving between squares on the combat grid."""

from __future__ import annotations

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, sheet


def begun() -> Encounter[HeimrState]:
    # Initiative C0P3 for both (dex 0): Ylva 6, Brannoc 1. Both pre-roll a dodge, C1P0.
    ylva = sheet("ylva", "north", sta=-1)  # base fatigue 4 - (-1) = 5
    brannoc = sheet("brannoc", "south")
    enc = encounter(
        [ylva, brannoc], faces=[6, 1] + [2, 3] + [2, 3], squares={"ylva": "B2", "brannoc": "A1"}
    )
    enc.push("gm begin")
    return enc


@pytest.mark.rule("H-FAT-4")
def test_moving_between_squares_rolls_nothing_and_raises_no_fatigue() -> None:
    enc = begun()
    ylva = enc.state.combatants["ylva"]
    assert ylva.fatigue == 5
    used = enc.dice.position
    enc.push("ylva move B3")
    assert enc.state.combatants["ylva"].square == "B3"
    # No die was rolled for the move, so fatigue had nothing to rise on.
    assert enc.dice.position == used
    assert enc.state.combatants["ylva"].fatigue == 5


def test_moves_go_to_a_bordering_square_of_the_grid() -> None:
    enc = begun()
    with pytest.raises(IllegalAction, match="does not border"):
        enc.push("ylva move A1")  # diagonal
    with pytest.raises(IllegalAction, match="not a square of the 3x3 grid"):
        enc.push("ylva move D2")
    enc.push("ylva move C2")
    with pytest.raises(IllegalAction, match="already used the standard action"):
        enc.push("ylva move C3")
