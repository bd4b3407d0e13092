"""Guarding (H-GUARD-1..4) and forced movement (H-MOVE-1), with scripted dice.

Everyone has dex 0, so initiative is C0P3 on one d6, and a medium weapon attacks with
Dueling C0P3: one d6 + 3, 2 damage. Stance "none" pre-rolls no defence: an attack on
such a character hits without dice for a defence (H-DEF-4).
"""

from __future__ import annotations

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, sheet

SWORD = {"sword": "Medium weapon", "sta": 3, "hp": 6}


def fight(people: list[dict[str, object]], faces: list[int], **kw: object) -> Encounter[HeimrState]:
    stances = {str(p["name"]): "none" for p in people}
    stances.update(kw.pop("stances", {}))  # type: ignore[arg-type]
    enc = encounter(people, faces=faces, stances=stances, **kw)  # type: ignore[arg-type]
    enc.push("gm begin")
    return enc


def hp(enc: Encounter[HeimrState], cid: str) -> int:
    return enc.state.combatants[cid].hp


@pytest.mark.rule("H-GUARD-1", "H-GUARD-2")
def test_an_attack_on_a_guarded_ally_goes_to_the_guard_once() -> None:
    people = [
        sheet("ylva", "north", **SWORD),
        sheet("eirik", "north", sta=3, hp=6),
        sheet("orc", "south", **SWORD),
    ]
    enc = fight(people, [6, 5, 4])  # order: ylva 9, eirik 8, orc 7
    enc.push("ylva guard eirik")
    enc.push("ylva end")
    enc.push("eirik end")
    # The orc attacks Eirik: [4] -> 7, but Ylva steps in and takes the 2 damage.
    enc.dice.add([4])
    enc.push("orc attack eirik")
    assert (hp(enc, "ylva"), hp(enc, "eirik")) == (4, 6)
    # The guard ends once it has intercepted one opponent (H-GUARD-2).
    assert enc.state.combatants["ylva"].guarding is None
    for action in ["orc end", "ylva end", "eirik end"]:
        enc.push(action)
    enc.dice.add([3])
    enc.push("orc attack eirik")
    assert (hp(enc, "ylva"), hp(enc, "eirik")) == (4, 4)


@pytest.mark.rule("H-GUARD-1")
def test_a_shot_the_guard_dodges_goes_on_to_the_one_it_guards() -> None:
    people = [
        sheet("ylva", "north", sta=3, hp=6),
        sheet("eirik", "north", sta=3, hp=6),
        sheet("asa", "south", sword="Bow", sta=3),
    ]
    # Ylva pre-rolls a dodge, Agility C1P0: [1, 9] -> 9, at the start and after her turn.
    enc = fight(people, [6, 5, 4] + [1, 9], squares={"asa": "B3"}, stances={"ylva": "dodge"})
    enc.push("ylva guard eirik")
    enc.dice.add([1, 9])
    enc.push("ylva end")
    enc.push("eirik end")
    # Asa shoots at Eirik; Ylva intercepts. Archery C-1P1 [6, 8] -> 6 + 1 = 7 against her
    # dodge 9: dodged, and she rolls her dodge again (C-1: [1, 9] -> 1). The shot goes on
    # to Eirik, rolled again: [5, 6] -> 6, and Eirik does not defend: 3 damage.
    enc.dice.add([6, 8] + [1, 9] + [5, 6])
    enc.push("asa attack eirik")
    assert (hp(enc, "ylva"), hp(enc, "eirik")) == (6, 3)


@pytest.mark.rule("H-GUARD-1")
def test_a_shot_that_hits_the_guard_stops_there() -> None:
    people = [
        sheet("ylva", "north", sta=3, hp=6),
        sheet("eirik", "north", sta=3, hp=6),
        sheet("asa", "south", sword="Bow", sta=3),
    ]
    enc = fight(people, [6, 5, 4], squares={"asa": "B3"})
    enc.push("ylva guard eirik")
    enc.push("ylva end")
    enc.push("eirik end")
    enc.dice.add([6, 8])  # 7: Ylva does not defend, takes the bow's 3
    enc.push("asa attack eirik")
    assert (hp(enc, "ylva"), hp(enc, "eirik")) == (3, 6)


@pytest.mark.rule("H-GUARD-2")
def test_of_several_guards_the_first_from_the_attacker_in_initiative_order_answers() -> None:
    people = [
        sheet("ylva", "north", **SWORD),
        sheet("bjorn", "north", **SWORD),
        sheet("eirik", "north", sta=3, hp=6),
        sheet("orc", "south", **SWORD),
    ]
    # ylva 6 + 3 = 9, bjorn 3 + 3 = 6, eirik 1 + 3 = 4, orc 5 + 3 = 8:
    # the order is ylva, orc, bjorn, eirik.
    enc = fight(people, [6, 3, 1, 5])
    assert enc.state.order == ["ylva", "orc", "bjorn", "eirik"]
    for action in [
        "ylva guard eirik",
        "ylva end",
        "orc end",
        "bjorn guard eirik",
        "bjorn end",
        "eirik end",
        "ylva end",
    ]:
        enc.push(action)
    # From the orc the order runs orc, bjorn, eirik, ylva: Bjorn answers, not Ylva.
    enc.dice.add([4])
    enc.push("orc attack eirik")
    assert (hp(enc, "bjorn"), hp(enc, "ylva"), hp(enc, "eirik")) == (4, 6, 6)
    assert enc.state.combatants["ylva"].guarding == "person:eirik"


@pytest.mark.rule("H-GUARD-3")
def test_a_border_guarded_from_your_square_cannot_be_crossed() -> None:
    people = [
        sheet("ylva", "north", **SWORD),
        sheet("orc1", "south", **SWORD),
        sheet("orc2", "south", **SWORD),
    ]
    enc = fight(people, [6, 5, 4])  # ylva, orc1, orc2, all in B2
    enc.push("ylva guard B2-B3")
    enc.push("ylva end")
    enc.push("orc1 move B3")  # Ylva stops him: he stays, and her guard ends
    assert enc.state.combatants["orc1"].square == "B2"
    assert enc.state.combatants["ylva"].guarding is None
    enc.push("orc1 end")
    enc.push("orc2 move B3")  # one more attacker than guards gets through
    assert enc.state.combatants["orc2"].square == "B3"


@pytest.mark.rule("H-GUARD-3")
def test_a_border_guarded_from_the_other_square_can_be_crossed_but_not_charged() -> None:
    people = [
        sheet("ylva", "north", **SWORD),
        sheet("eirik", "north", sta=3, hp=6),
        sheet("orc1", "south", **SWORD),
        sheet("orc2", "south", **SWORD),
    ]
    enc = fight(people, [6, 5, 4, 3], squares={"orc1": "B3", "orc2": "B3"})
    enc.push("ylva guard B2-B3")
    enc.push("ylva end")
    enc.push("eirik end")
    # orc1 charges Eirik across the border: the guard on the far side meets the attack.
    enc.dice.add([4])  # C0P3: 7, Ylva takes 2
    enc.push("orc1 charge eirik")
    assert enc.state.combatants["orc1"].square == "B2"
    assert (hp(enc, "ylva"), hp(enc, "eirik")) == (4, 6)
    assert enc.state.combatants["ylva"].guarding is None  # she intercepted one


@pytest.mark.rule("H-GUARD-3")
def test_crossing_a_border_guarded_from_the_far_side_ends_the_guard() -> None:
    people = [sheet("ylva", "north", **SWORD), sheet("orc", "south", **SWORD)]
    enc = fight(people, [6, 5], squares={"orc": "B3"})
    enc.push("ylva guard B2-B3")
    enc.push("ylva end")
    enc.push("orc move B2")
    assert enc.state.combatants["orc"].square == "B2"
    assert enc.state.combatants["ylva"].guarding is None


@pytest.mark.rule("H-GUARD-4")
def test_outmanoeuvring_a_guard_takes_its_attack_dodged_at_minus_one() -> None:
    people = [
        sheet("ylva", "north", **SWORD),
        sheet("orc1", "south", **SWORD),
        sheet("orc2", "south", **SWORD),
    ]
    enc = fight(people, [6, 5, 4])
    enc.push("ylva guard B2-B3")
    enc.push("ylva end")
    # Ylva strikes as a free action: [2] -> 5. The orc dodges, Agility C1 - 1 = C0: [6]
    # -> 6 >= 5: past her. He crosses; crossing a guarded border ends the guard.
    enc.dice.add([2] + [6])
    enc.push("orc1 outmanoeuvre ylva")
    enc.push("orc1 move B3")
    assert enc.state.combatants["orc1"].square == "B3"
    assert enc.state.combatants["ylva"].guarding is None
    assert any("C0P0 (C1P0; C-1 outmanoeuvring)" in e.text for e in enc.log[-2].events)


@pytest.mark.rule("H-GUARD-4")
def test_a_failed_outmanoeuvre_is_hit_and_stopped() -> None:
    people = [sheet("ylva", "north", **SWORD), sheet("orc1", "south", **SWORD)]
    enc = fight(people, [6, 5])
    enc.push("ylva guard B2-B3")
    enc.push("ylva end")
    enc.dice.add([5] + [2])  # 8 against a dodge of 2: a hit for 2
    enc.push("orc1 outmanoeuvre ylva")
    assert hp(enc, "orc1") == 4
    enc.push("orc1 move B3")  # still guarded: stopped
    assert enc.state.combatants["orc1"].square == "B2"


@pytest.mark.rule("H-GUARD-4")
def test_guards_cannot_stop_those_hidden_from_them() -> None:
    people = [sheet("ylva", "north", **SWORD), sheet("orc1", "south", sta=3, hp=6)]
    enc = fight(people, [6, 5], battlefield={"squares": {"B2": {"concealment": ["Shrubbery"]}}})
    enc.push("ylva guard B2-B3")
    enc.push("ylva end")
    enc.dice.add([1])  # Survival C0P0: [1] -> hide CR 1, hidden from the north
    enc.push("orc1 hide")
    enc.push("orc1 move B3")
    assert enc.state.combatants["orc1"].square == "B3"


@pytest.mark.rule("H-MOVE-1")
def test_moving_an_unwilling_character_takes_four() -> None:
    north = [sheet(n, "north", sta=3) for n in ("a", "b", "c", "d")]
    enc = fight([*north, sheet("orc", "south", sta=3)], [6, 5, 4, 3, 1])
    with pytest.raises(IllegalAction, match=r"takes 4; 3 are not enough") as err:
        enc.push("a drag orc to=B3 with=b,c")
    assert err.value.rule == "H-MOVE-1"
    enc.push("a drag orc to=B3 with=b,c,d")
    assert {c.square for c in enc.state.combatants.values()} == {"B3"}


@pytest.mark.rule("H-MOVE-1")
def test_one_unable_to_stand_and_resist_takes_two() -> None:
    north = [sheet(n, "north", sta=3) for n in ("a", "b")]
    enc = fight([*north, sheet("orc", "south", sta=3)], [6, 5, 1])
    enc.push("gm effect orc name=Daze number=4")  # dazed: no actions, no defence
    with pytest.raises(IllegalAction, match=r"unable to stand and resist\) takes 2"):
        enc.push("a drag orc to=B3")
    enc.push("a drag orc to=B3 with=b")
    assert enc.state.combatants["orc"].square == "B3"
