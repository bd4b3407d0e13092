"""Hiding (H-ACT-7), being hidden (H-POS-4) and what each side sees of it, worked by hand
from seed 000 with scripted dice.

See battlefield_builders for the characters: stamina 3 (fatigue 1), dex 0, initiative
one d6 each in setup order, stance "none" (no defence) unless a test names one. Hiding
rolls Survival, C0P3 (sta 3); observing rolls Perception, C0P0, +2 potential on one's
own square and +1 on a bordering one. The shrubbery of B2 and B3 conceals by 1.
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import view

from battlefield_builders import (
    BOW,
    KNIFE,
    State,
    begun,
    challenges,
    person,
    refused,
    rolls,
    said,
    where,
)

SHRUBS = {"squares": {sq: {"concealment": ["Shrubbery"]} for sq in ("B2", "B3")}}


def seen(enc: State, side: str) -> dict[str, Any]:
    """The combatants as ``side`` sees them."""
    found: dict[str, Any] = view(enc, side)["state"]["combatants"]
    return found


def hidden_ylva(ylva: dict[str, Any] | None = None, *others: dict[str, Any], **kw: Any) -> State:
    """Ylva (north, B2) acts first and hides: Survival C0P3, [4] -> CR 7. The ``others``
    (south, C2 unless told, 10 hit points) follow in their order: initiative d6s 6, 4, 3..."""
    people = [person("ylva", "north", hp=10, **(ylva or {})), *others]
    squares = {p["name"]: "C2" for p in others} | kw.pop("squares", {})
    enc = begun(people, [6, 4, 3, 2][: len(people)], squares=squares, battlefield=SHRUBS, **kw)
    enc.dice.add([4])
    enc.push("ylva hide")
    return enc


def south(name: str, **kw: Any) -> dict[str, Any]:
    return person(name, "south", hp=10, **kw)


# -- H-ACT-7: hide ----------------------------------------------------------------------------


@pytest.mark.rule("H-ACT-7")
def test_hiding_needs_concealment_and_a_survival_roll_sets_the_requirement() -> None:
    enc = begun(
        [person("ylva", "north"), south("hrolf")],
        [6, 1],
        squares={"ylva": "A2", "hrolf": "C3"},
        battlefield=SHRUBS,
    )
    assert refused(enc, "ylva hide") == "H-ACT-7"  # nothing conceals her in A2
    enc.push("ylva move B2")
    enc.dice.add([4])
    enc.push("ylva hide")  # a free action, after the move
    assert rolls(enc) == [("ylva hides", "C0P3", [4], 7)]
    ylva = enc.state.combatants["ylva"]
    assert (ylva.hide_cr, ylva.hidden_from) == (7, {"south": "unaware"})


@pytest.mark.rule("H-ACT-7")
def test_no_hiding_in_a_cluster_nor_from_those_in_it_at_the_start_of_the_turn() -> None:
    # Three sides: Hrolf (south, knife) in B2 with Ylva; Eirik (east) in C3.
    # Initiative: ylva 4, hrolf 6, eirik 1: Hrolf 9, Ylva 7, Eirik 4.
    enc = begun(
        [person("ylva", "north", hp=10), south("hrolf", **KNIFE), person("eirik", "east")],
        [4, 6, 1],
        squares={"eirik": "C3"},
        battlefield=SHRUBS,
    )
    # Hrolf's knife against the concealed Ylva: C1 - 1 = C0P2, [5] -> 7, a hit. A cluster.
    enc.dice.add([5])
    enc.push("hrolf attack ylva")
    enc.push("hrolf end")
    assert refused(enc, "ylva hide") == "H-ACT-7"  # in a cluster
    enc.push("ylva move out")
    enc.dice.add([4])
    enc.push("ylva hide")
    ylva = enc.state.combatants["ylva"]
    assert (ylva.hide_cr, ylva.hidden_from) == (7, {"east": "unaware"})
    assert "still seen by south" in said(enc)
    assert "ylva" in seen(enc, "south")
    assert "ylva" not in seen(enc, "east")


@pytest.mark.rule("H-ACT-7")
def test_no_hiding_from_those_who_shot_you_in_their_last_turn() -> None:
    # Eirik (east, bow) in A2 acts first, then Ylva in B2, then Hrolf (south) in C3.
    enc = begun(
        [person("ylva", "north", hp=10), south("hrolf"), person("eirik", "east", **BOW)],
        [4, 1, 6],
        squares={"eirik": "A2", "hrolf": "C3"},
        battlefield=SHRUBS,
    )
    # The bow: C-1, the shrubbery -1: C-2P1, [3, 3, 3] -> 4, a hit in the other arm, 3.
    enc.dice.add([3, 3, 3])
    enc.push("eirik attack ylva")
    assert challenges(enc) == {"eirik attacks ylva with the Bow": "C-2P1"}
    enc.push("eirik end")
    enc.dice.add([4])
    enc.push("ylva hide")  # CR 7, hidden from the south only
    assert enc.state.combatants["ylva"].hidden_from == {"south": "unaware"}
    enc.push("ylva end")
    enc.push("hrolf end")
    enc.push("eirik end")  # Eirik's last turn is now one without a shot
    enc.dice.add([5])
    enc.push("ylva hide")  # [5] -> CR 8, hidden from both
    ylva = enc.state.combatants["ylva"]
    assert (ylva.hide_cr, ylva.hidden_from) == (8, {"south": "unaware", "east": "unaware"})


@pytest.mark.rule("H-ACT-7", "H-POS-4")
def test_a_shot_is_a_soft_sound_lowering_the_hide_requirement_by_2() -> None:
    enc = hidden_ylva(BOW, south("hrolf"))
    # Her bow at Hrolf in C2: C-1, distance 1 (no penalty), +2 potential for shooting
    # one she is hidden from: C-1P3, [5, 5] -> 8, a hit in the torso for 3.
    enc.dice.add([5, 5])
    enc.push("ylva attack hrolf")
    assert challenges(enc) == {"ylva attacks hrolf with the Bow": "C-1P3"}
    ylva = enc.state.combatants["ylva"]
    # Heard: CR 7 - 2 = 5, and the south knows someone is hidden, not where.
    assert (ylva.hide_cr, ylva.hidden_from) == (5, {"south": "aware"})
    assert seen(enc, "south")["ylva"]["square"] is None
    enc.push("ylva end")
    # Hrolf observes B2 from C2: C0P1, [4] -> 5 reaches 5 (not the 7 it was): spotted.
    enc.dice.add([4])
    enc.push("hrolf observe B2")
    assert "hrolf spots ylva in B2" in said(enc)
    assert seen(enc, "south")["ylva"]["square"] == "B2"


@pytest.mark.rule("H-ACT-7")
def test_observing_a_square_spots_whoever_it_reaches_the_hide_requirement_of() -> None:
    enc = hidden_ylva(None, south("hrolf"), squares={"hrolf": "B2"})
    enc.push("ylva end")
    enc.dice.add([4])  # Hrolf in B2 too: C0P2, [4] -> 6 < 7, nothing found
    enc.push("hrolf observe B2")
    assert "ylva" not in seen(enc, "south")
    enc.push("hrolf end")
    enc.push("ylva end")
    enc.dice.add([5])  # [5] -> 7 reaches 7
    enc.push("hrolf observe B2")
    assert seen(enc, "south")["ylva"]["square"] == "B2"


@pytest.mark.rule("H-ACT-7")
def test_speaking_is_a_loud_sound_that_gives_a_hidden_character_away() -> None:
    enc = hidden_ylva(None, south("hrolf"))
    assert "ylva" not in seen(enc, "south")
    enc.push("ylva speak text='over here'")
    assert enc.state.combatants["ylva"].hide_cr is None
    assert seen(enc, "south")["ylva"]["square"] == "B2"


@pytest.mark.rule("H-ACT-7")
def test_a_hide_roll_failing_outright_on_fatigue_hides_nobody() -> None:
    # Fatigue 5: Survival's [4] is below it, so the roll fails outright (H-FAT-1),
    # however far the potential 3 would have taken it.
    enc = begun(
        [person("ylva", "north"), south("hrolf")],
        [6, 1],
        place={"ylva": {"fatigue": 5}},
        battlefield=SHRUBS,
    )
    enc.dice.add([4])
    enc.push("ylva hide")
    assert enc.state.combatants["ylva"].hide_cr is None
    assert "ylva" in seen(enc, "south")


# -- H-POS-4: hidden ----------------------------------------------------------------------------


@pytest.mark.rule("H-POS-4")
def test_those_unaware_of_a_hidden_character_cannot_attack_or_charge_it() -> None:
    enc = hidden_ylva(None, south("hrolf", **BOW), south("gunnar", **KNIFE))
    enc.push("ylva end")
    assert refused(enc, "hrolf attack ylva") == "H-POS-4"
    enc.push("hrolf end")
    assert refused(enc, "gunnar charge ylva") == "H-POS-4"


@pytest.mark.rule("H-POS-4")
def test_those_unaware_of_a_hidden_character_cannot_brawl_it() -> None:
    enc = hidden_ylva(None, south("hrolf"), squares={"hrolf": "B2"})
    enc.push("ylva end")
    assert refused(enc, "hrolf brawl ylva") == "H-POS-4"


@pytest.mark.rule("H-POS-4")
def test_an_aware_opponent_attacks_only_with_a_luck_shot_at_1_plus_the_concealment() -> None:
    enc = hidden_ylva(BOW, south("hrolf", **BOW))
    enc.dice.add([5, 5])  # her shot (C-1P3, 8) hits Hrolf, and the south is aware
    enc.push("ylva attack hrolf")
    enc.push("ylva end")
    # Hrolf's d10 shows 9: no attack roll, and the attack is spent.
    enc.dice.add([9])
    enc.push("hrolf attack ylva")
    assert rolls(enc) == []
    assert "d10 9, no attack" in said(enc)
    assert refused(enc, "hrolf attack ylva") == "H-ACT-1"
    enc.push("hrolf end")
    enc.push("ylva end")
    # A 10: the attack is rolled at C-1, -1 for the luck shot, -1 for the shrubbery:
    # C-3P1, [5, 5, 5, 5] -> 6, a hit in the torso for 3.
    enc.dice.add([10] + [5] * 4)
    enc.push("hrolf attack ylva")
    assert challenges(enc) == {"hrolf attacks ylva with the Bow": "C-3P1"}
    assert "C-1 concealment, C-1 luck shot" in said(enc)
    assert enc.state.combatants["ylva"].hp == 7


@pytest.mark.rule("H-POS-4", "H-ACT-4")
def test_charging_one_you_are_hidden_from_adds_2_potential_and_ends_the_hiding() -> None:
    enc = hidden_ylva(KNIFE, south("hrolf"))
    enc.dice.add([5, 5])  # the knife C1P2, +2: C1P4, [5, 5] -> 9
    enc.push("ylva charge hrolf")
    assert challenges(enc) == {"ylva attacks hrolf with the Light weapon": "C1P4"}
    assert enc.state.combatants["ylva"].hide_cr is None  # in a cluster now
    assert where(enc, "ylva") == ("C2", 0)


@pytest.mark.rule("H-POS-4")
def test_a_plain_melee_attack_by_the_hidden_gets_no_bonus() -> None:
    # Hrolf is in the shrubbery of B2 too, not in a cluster with her: her knife is C1,
    # -1 for his concealment, and no +2 (not a charge, not a shot): C0P2.
    enc = hidden_ylva(KNIFE, south("hrolf"), squares={"hrolf": "B2"})
    enc.dice.add([5])
    enc.push("ylva attack hrolf")
    assert challenges(enc) == {"ylva attacks hrolf with the Light weapon": "C0P2"}


@pytest.mark.rule("H-POS-4")
def test_a_brawling_charge_by_the_hidden_adds_2_potential() -> None:
    enc = hidden_ylva(None, south("hrolf"))
    enc.dice.add([5, 5])  # Brawl C1, P str 0, +2: C1P2
    enc.push("ylva charge hrolf brawl=hit")
    assert challenges(enc) == {"ylva brawls hrolf (hit)": "C1P2"}


@pytest.mark.rule("H-POS-4")
def test_a_sides_view_omits_the_characters_it_is_unaware_of() -> None:
    enc = hidden_ylva(None, south("hrolf"))
    assert "ylva" not in seen(enc, "south")
    assert seen(enc, "north")["ylva"]["hidden"] is True
    assert view(enc, None)["state"]["combatants"]["ylva"]["hide_cr"] == 7
    assert view(enc, "south")["log"][-1] == []  # the hide and its roll
    # Moving from shrubbery to shrubbery she stays hidden (docs/decisions.md), and the
    # south does not see the move.
    enc.push("ylva move B3")
    assert enc.state.combatants["ylva"].hide_cr == 7
    assert view(enc, "south")["log"][-1] == []
    assert [e["kind"] for e in view(enc, "north")["log"][-1]] == ["move"]


@pytest.mark.rule("H-POS-4")
def test_stepping_out_of_concealment_ends_the_hiding() -> None:
    # "You can not be hidden from an opponent unless you are also concealed from them."
    enc = hidden_ylva(None, south("hrolf"))
    enc.push("ylva move A2")  # nothing conceals her there
    assert enc.state.combatants["ylva"].hide_cr is None
    assert seen(enc, "south")["ylva"]["square"] == "A2"


@pytest.mark.rule("H-POS-4")
def test_the_sides_a_character_is_hidden_from_do_not_see_it_climb() -> None:
    # Ylva hides in the thick tree of B2 (concealment 2, top 4, CR 5): [4] -> CR 7. She
    # climbs: Agility C1P0, [2, 5] -> 5, one height up. The south does not see it.
    tree = {"concealment": ["Thick tree"], "top": 4, "climb": "Tree"}
    enc = begun(
        [person("ylva", "north"), south("hrolf")],
        [6, 1],
        squares={"hrolf": "C2"},
        battlefield={"squares": {"B2": tree}},
    )
    enc.dice.add([4, 2, 5])
    enc.push("ylva hide")
    enc.push("ylva climb up")
    assert where(enc, "ylva") == ("B2", 1)
    north = [e["kind"] for e in view(enc, "north")["log"][-1]]
    south_kinds = [e["kind"] for e in view(enc, "south")["log"][-1]]
    assert {"roll", "climb"} <= set(north)
    assert not {"roll", "climb"} & set(south_kinds)
    assert "ylva" not in seen(enc, "south")
