"""Fatigue (H-FAT-1..3) in play, with scripted dice worked out by hand.

Base fatigue is max(1, 4 - sta) (H-FAT-3): sta 3 gives 1, so neither fails outright nor
tires; sta 0 gives 4, sta -1 gives 5. Initiative is C0P3 for dex 0 and willpower 3: one
d6. Dueling with a medium weapon is C0P3 (dex 0, +3 weapon): one d6, whose face is also
the result before potential that fatigue is set against (H-FAT-1).
"""

from __future__ import annotations

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, sheet, texts


def fatigue(enc: Encounter[HeimrState], who: str) -> int:
    return enc.state.combatants[who].fatigue


# -- H-FAT-1: a physical roll below fatigue fails outright -----------------------------------


@pytest.mark.rule("H-FAT-1")
def test_an_attack_failing_outright_on_fatigue_needs_no_defence() -> None:
    ylva = sheet("ylva", "north", sta=-1, sword="Medium weapon")  # fatigue 5
    brannoc = sheet("brannoc", "south", sta=3, hp=10)
    enc = encounter(
        [ylva, brannoc],
        faces=[6, 1]  # initiative: Ylva 9, Brannoc 4
        + [2, 6],  # Brannoc pre-rolls his dodge, Agility C1P0: highest 6
        stances={"ylva": "none"},
    )
    enc.push("gm begin")
    enc.dice.add([4])  # 4 + 3 = 7 beats his dodge 6, but 4 is below fatigue 5
    enc.push("ylva attack brannoc")
    b = enc.state.combatants["brannoc"]
    assert b.hp == 10
    assert b.defence is not None and b.defence.result == 6  # his dodge was not used
    assert b.uses == {}
    assert "ylva's attack fails outright on fatigue: brannoc need not defend" in texts(enc, 1)
    assert fatigue(enc, "ylva") == 6  # and the d6 4 < 5 raised her fatigue (H-FAT-2)
    enc.push("ylva end")
    enc.dice.add([2, 6])  # Brannoc ends his turn: his dodge is pre-rolled again, 6
    enc.push("brannoc end")
    enc.dice.add([6] + [1, 1])  # 6 is not below fatigue 6: 9 > 6, a hit for 2
    enc.push("ylva attack brannoc")
    assert enc.state.combatants["brannoc"].hp == 8
    assert fatigue(enc, "ylva") == 6


@pytest.mark.rule("H-FAT-1", "H-DEF-2")
def test_a_defence_failing_outright_on_fatigue_is_no_defence() -> None:
    ylva = sheet("ylva", "north", sta=3, sword="Medium weapon")
    brannoc = sheet("brannoc", "south", sta=-2, hp=10)  # fatigue 6
    enc = encounter(
        [ylva, brannoc],
        faces=[6, 1] + [5, 4],  # his dodge C1P0: highest 5, below fatigue 6: fails
        stances={"ylva": "none"},
    )
    enc.push("gm begin")
    dodge = enc.state.combatants["brannoc"].defence
    assert dodge is not None and dodge.failed
    enc.dice.add([1] + [6, 10])  # Ylva's 1 + 3 = 4 is below his 5, but it hits
    enc.push("ylva attack brannoc")
    assert "brannoc's dodge 5 failed outright on fatigue against 4: hit" in texts(enc, 1)
    assert enc.state.combatants["brannoc"].hp == 8


@pytest.mark.rule("H-FAT-1", "H-CHAR-4")
def test_only_rolls_on_physical_attributes_fail_on_fatigue() -> None:
    ylva = sheet("ylva", "north", sta=-1, str=2, int=2)  # fatigue 5
    enc = encounter([ylva])
    enc.dice.add([4])  # str C0P2: 4 + 2 = 6 >= CR 3, but 4 is below fatigue 5
    enc.push("gm challenge ylva attribute=str consistency=0 cr=3")
    assert "ylva fails CR 3" in texts(enc, 1)
    enc.dice.add([4])  # int is mental: 6 >= 3 passes, and fatigue is not touched
    before = fatigue(enc, "ylva")
    enc.push("gm challenge ylva attribute=int consistency=0 cr=3")
    assert "ylva passes CR 3" in texts(enc, 1)
    assert fatigue(enc, "ylva") == before


@pytest.mark.rule("H-FAT-1", "H-INIT-1")
def test_initiative_is_not_a_physical_roll() -> None:
    # docs/decisions.md: initiative's potential is willpower, not an attribute; a d6 of 1
    # against fatigue 6 neither fails it nor tires.
    ylva = sheet("ylva", "north", sta=-2)
    brannoc = sheet("brannoc", "south", sta=3)
    enc = encounter([ylva, brannoc], faces=[1, 2], stances={"ylva": "none", "brannoc": "none"})
    enc.push("gm begin")
    assert enc.state.initiative == {"ylva": 4, "brannoc": 5}
    assert fatigue(enc, "ylva") == 6


# -- H-FAT-2: a low d6 raises fatigue ---------------------------------------------------------


@pytest.mark.rule("H-FAT-2")
def test_a_d6_below_fatigue_raises_it_by_one_and_never_above_twenty() -> None:
    brannoc = sheet("brannoc", "south", sta=0)  # fatigue 4
    enc = encounter([brannoc])
    # The seed's example: fatigue four, the d6 shows three: fatigue five.
    enc.dice.add([3])
    enc.push("gm challenge brannoc attribute=str consistency=0 cr=1")
    assert fatigue(enc, "brannoc") == 5
    # Out of combat there are no turns: every low d6 counts (docs/decisions.md).
    enc.dice.add([3])
    enc.push("gm challenge brannoc attribute=dex consistency=0 cr=1")
    assert fatigue(enc, "brannoc") == 6
    enc.dice.add([6])  # not lower than 6: unchanged
    enc.push("gm challenge brannoc attribute=sta consistency=0 cr=1")
    assert fatigue(enc, "brannoc") == 6
    enc.dice.add([1])  # a mental roll does not tire
    enc.push("gm challenge brannoc attribute=soc consistency=0 cr=1")
    assert fatigue(enc, "brannoc") == 6

    worn = sheet("worn", "south", sta=-16)  # base fatigue 4 + 16 = 20
    enc = encounter([worn])
    enc.dice.add([1])
    enc.push("gm challenge worn attribute=str consistency=0 cr=1")
    assert fatigue(enc, "worn") == 20


@pytest.mark.rule("H-FAT-2", "H-DEF-2")
def test_in_combat_fatigue_rises_once_a_turn_counting_defences_until_the_next_turn() -> None:
    ylva = sheet("ylva", "north", sta=3, sword="Medium weapon")
    cato = sheet("cato", "north", sta=3, sword="Medium weapon")
    brannoc = sheet("brannoc", "south", sta=0, hp=20, sword="Medium weapon")  # fatigue 4
    enc = encounter(
        [ylva, cato, brannoc],
        faces=[6, 5, 1]  # initiative 9, 8, 4: Ylva, Cato, Brannoc
        + [3, 9],  # Brannoc pre-rolls a dodge, C1P0: highest 9 (d6 3)
        stances={"ylva": "none", "cato": "none", "brannoc": "dodge"},
    )
    enc.push("gm begin")
    assert fatigue(enc, "brannoc") == 4  # pre-rolling changes nothing (H-DEF-2)
    # Ylva 6 + 3 = 9 against the dodge 9: a miss. The used dodge's d6 3 < 4: fatigue 5.
    # The next dodge is C1-2 = C-1: lowest of [2, 8] = 2, below fatigue 5: it fails.
    enc.dice.add([6] + [2, 8])
    enc.push("ylva attack brannoc")
    assert fatigue(enc, "brannoc") == 5
    enc.push("ylva end")
    # Cato's 9 hits through the failed dodge. Its d6 2 < 5, but fatigue has risen in
    # this window already. The next dodge is C-3: lowest of [6, 10, 10, 10] = 6.
    enc.dice.add([6] + [6, 10, 10, 10])
    enc.push("cato attack brannoc")
    assert enc.state.combatants["brannoc"].hp == 18
    assert fatigue(enc, "brannoc") == 5
    enc.push("cato end")
    # His own turn opens a new window: his attack's d6 3 < 5 fails outright and tires.
    enc.dice.add([3])
    enc.push("brannoc attack ylva")
    assert fatigue(enc, "brannoc") == 6
    enc.dice.add([2, 10])  # his dodge pre-rolled at the end of the turn, C1: 10
    enc.push("brannoc end")
    # Ylva's 9 against 10 misses. The used dodge's d6 2 < 6, but this defence belongs to
    # the window of his last turn, in which fatigue has risen already.
    enc.dice.add([6] + [6, 10])
    enc.push("ylva attack brannoc")
    assert fatigue(enc, "brannoc") == 6
    enc.push("ylva end")
    enc.push("cato end")
    enc.dice.add([1])  # his next turn: a new window, the d6 1 < 6
    enc.push("brannoc attack ylva")
    assert fatigue(enc, "brannoc") == 7


# -- H-FAT-3: base fatigue and the breather ---------------------------------------------------


@pytest.mark.rule("H-FAT-3")
def test_base_fatigue_is_four_minus_stamina_and_never_below_one() -> None:
    weak = sheet("weak", "north", sta=-2)
    tough = sheet("tough", "south", sta=4)
    enc = encounter([weak, tough])
    assert (fatigue(enc, "weak"), fatigue(enc, "tough")) == (6, 1)  # 4 + 2; 4 - 4 = 0 -> 1


@pytest.mark.rule("H-FAT-3", "H-ACT-1")
def test_a_breather_lowers_fatigue_by_two_but_not_below_base() -> None:
    ylva = sheet("ylva", "north", sta=3)
    brannoc = sheet("brannoc", "south", sta=0)  # base fatigue 4
    enc = encounter([ylva, brannoc], stances={"ylva": "none", "brannoc": "none"})
    for _ in range(3):  # three low d6s out of combat: 4 -> 7
        enc.dice.add([1])
        enc.push("gm challenge brannoc attribute=str consistency=0 cr=1")
    assert fatigue(enc, "brannoc") == 7
    enc.dice.add([6, 1])
    enc.push("gm begin")
    enc.push("ylva end")
    enc.push("brannoc breather")  # 7 - 2 = 5; an ongoing action: it ends his turn
    assert fatigue(enc, "brannoc") == 5
    assert enc.to_move == "ylva"
    assert enc.state.combatants["brannoc"].ongoing
    enc.push("ylva end")
    enc.push("brannoc breather")  # 5 - 2 = 3, below base 4: 4
    assert fatigue(enc, "brannoc") == 4
    enc.push("ylva end")
    enc.push("brannoc breather")
    assert fatigue(enc, "brannoc") == 4
    with pytest.raises(IllegalAction):
        enc.push("brannoc breather")  # not his turn
