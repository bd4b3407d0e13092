"""The blind spots module in play (H-MOD-1): a defended shot leaves a blind spot."""

from __future__ import annotations

import pytest

from fracas.engine import Encounter
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, sheet, texts


def shot_at() -> Encounter[HeimrState]:
    """Asa (B3) and Bjorn (B1) with bows; Hrolf between them in B2, pre-rolling dodges.

    Initiative C0P3 (dex 0): Asa 6, Bjorn 5, Hrolf 1. Hrolf's dodge is Agility C1P0:
    [6, 8] -> 8. Asa shoots, Archery C-1 P0 + 1 for the bow, C-1P1: [4, 9] -> lowest
    4 + 1 = 5 against 8, a miss. The used dodge is rolled again, C-1 for one dodge:
    [6, 7] -> lowest 6. The shot came from B3, north: the blind spot is A1, B1, C1.
    """
    people = [
        sheet("asa", "north", sword="Bow", sta=3),
        sheet("bjorn", "north", sword="Bow", sta=3),
        sheet("hrolf", "south", sta=3, hp=10),
    ]
    enc = encounter(
        people,
        faces=[6, 5, 1] + [6, 8],
        squares={"asa": "B3", "bjorn": "B1", "hrolf": "B2"},
        stances={"asa": "none", "bjorn": "none", "hrolf": "dodge"},
    )
    enc.push("gm begin")
    enc.dice.add([4, 9] + [6, 7])
    enc.push("asa attack hrolf")
    assert enc.state.blind_spots["hrolf"].squares == {"A1", "B1", "C1"}
    enc.push("asa end")
    return enc


@pytest.mark.rule("H-MOD-1")
def test_a_shot_from_the_blind_spot_is_defended_at_minus_five() -> None:
    enc = shot_at()
    # Bjorn shoots from B1, in the blind spot: C-1P1, [5, 9] -> 5 + 1 = 6. Hrolf defends
    # with a dodge rolled now: C1, -2 for his earlier dodge, -5 for the blind spot: C-6,
    # seven dice [6, 9, 9, 9, 9, 9, 9] -> lowest 6. 6 >= 6: a miss.
    enc.dice.add([5, 9] + [6] + [9] * 6)
    enc.push("bjorn attack hrolf")
    lines = texts(enc, last=1)
    assert any(
        "hrolf's dodge: C-6P0 (C1P0; C-2 1 earlier dodge, C-5 blind spot)" in t for t in lines
    )
    # The pre-rolled dodge (6) was not used: it waits for the next attack.
    hrolf = enc.state.combatants["hrolf"]
    assert hrolf.defence is not None and hrolf.defence.result == 6
    assert hrolf.hp == 10


@pytest.mark.rule("H-MOD-1")
def test_the_blind_spot_lasts_until_the_defenders_next_turn() -> None:
    enc = shot_at()
    assert "hrolf" in enc.state.blind_spots  # through Bjorn's turn
    enc.push("bjorn end")  # Hrolf's turn begins: the blind spot is gone
    assert enc.state.current == "hrolf"
    assert "hrolf" not in enc.state.blind_spots


@pytest.mark.rule("H-MOD-1", "H-DEF-4")
def test_an_undefended_shot_makes_no_blind_spot() -> None:
    people = [sheet("asa", "north", sword="Bow", sta=3), sheet("hrolf", "south", sta=3)]
    enc = encounter(
        people,
        faces=[6, 1] + [6, 8],
        squares={"asa": "B3", "hrolf": "B2"},
        stances={"asa": "none", "hrolf": "dodge"},
    )
    enc.push("gm begin")
    enc.dice.add([4, 9])
    enc.push("asa attack hrolf defence=none")  # Hrolf takes the hit rather than defend
    assert "hrolf" not in enc.state.blind_spots


def test_the_module_can_be_switched_off() -> None:
    people = [sheet("asa", "north", sword="Bow", sta=3), sheet("hrolf", "south", sta=3)]
    enc = encounter(
        people,
        faces=[6, 1] + [6, 8],
        squares={"asa": "B3", "hrolf": "B2"},
        stances={"asa": "none", "hrolf": "dodge"},
        modules={"blind_spots": False},
    )
    enc.push("gm begin")
    enc.dice.add([4, 9] + [6, 7])
    enc.push("asa attack hrolf")
    assert "hrolf" not in enc.state.blind_spots
