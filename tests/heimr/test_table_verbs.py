"""The game master at a Heimr table: doors and gates (H-GRID-3), newcomers and those who
leave mid-fight (H-INIT-1, H-INIT-2), and notes in the log.

Everyone has dex 0 and stance "none" (battlefield_builders): initiative is C0P3, one d6
each in setup order plus 3, and no defence is pre-rolled.
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction, view
from fracas.rules.heimr import terrain
from fracas.rules.heimr.state import HeimrState

from battlefield_builders import begun, person
from heimr_builders import encounter

PEOPLE = [person("ylva", "north"), person("hrolf", "south")]


def refused(enc: Encounter[HeimrState], action: str) -> str:
    """Why ``action`` is refused, with its rule; the encounter is left as it was."""
    before = len(enc.log)
    with pytest.raises(IllegalAction) as err:
        enc.push(action)
    assert len(enc.log) == before
    return str(err.value)


def door(preset: str = "Single door", **kw: Any) -> dict[str, Any]:
    """A door between B2 and C2 on an open 3x3 grid: round it is B1-C1 or B3-C3."""
    return {"borders": [{"between": ["B2", "C2"], "preset": preset, **kw}]}


# -- doors and gates -----------------------------------------------------------------------


@pytest.mark.rule("H-GRID-3")
def test_a_closed_door_stops_crossing_and_an_open_one_is_a_movement_limit() -> None:
    # Initiative: Ylva 6 + 3 = 9, Hrolf 1 + 3 = 4. Ylva in B2, Hrolf in C2.
    enc = begun(PEOPLE, [6, 1], squares={"ylva": "B2", "hrolf": "C2"}, battlefield=door())
    assert enc.state.open_doors == ["B2-C2"]  # a single door starts open
    enc.push("gm close B2-C2")
    assert "the single door between B2-C2 is closed" in enc.log[-1].events[0].text
    assert "toughness 2" in refused(enc, "ylva move C2")  # a structural barrier now
    enc.push("gm open C2-B2")  # either way round
    enc.push("ylva move C2")
    assert enc.state.combatants["ylva"].square == "C2"
    assert enc.state.crossings == {"B2-C2": ["ylva"]}  # counted against its limit of 2


@pytest.mark.rule("H-GRID-3")
def test_shots_go_round_a_closed_door() -> None:
    # H-ATK-6: open, B2 to C2 is one step; closed, three round it (B2-B1-C1-C2).
    enc = begun(PEOPLE, [6, 1], squares={"ylva": "B2", "hrolf": "C2"}, battlefield=door())
    ylva, hrolf = enc.state.combatants["ylva"], enc.state.combatants["hrolf"]
    assert terrain.shot_distance(enc.state, ylva, hrolf) == 1
    enc.push("gm close B2-C2")
    assert terrain.shot_distance(enc.state, ylva, hrolf) == 3
    assert enc.ruleset.observe(enc.state, None)["battlefield"]["borders"][0]["door"] == "closed"


@pytest.mark.rule("H-GRID-3")
def test_doors_start_as_their_preset_says_unless_the_border_says_otherwise() -> None:
    shut = encounter(PEOPLE, battlefield=door("Regular gate"))
    assert shut.state.open_doors == []
    ajar = encounter(PEOPLE, battlefield=door("Strong door", closed=False))
    assert ajar.state.open_doors == ["B2-C2"]
    border = ajar.state.battlefield.border("B2", "C2")
    assert border is not None and (border.limit, border.toughness) == (2, 4)


@pytest.mark.rule("H-GRID-3")
def test_only_a_door_that_stands_swings() -> None:
    field = {"borders": [*door()["borders"], {"between": ["A1", "B1"], "preset": "Stone wall"}]}
    enc = begun(PEOPLE, [6, 1], battlefield=field)
    assert "no door or gate between A1-B1" in refused(enc, "gm close A1-B1")
    assert "the doors are B2-C2" in refused(enc, "gm close A1-B1")
    assert "open already" in refused(enc, "gm open B2-C2")
    enc.push("gm close B2-C2")
    assert "closed already" in refused(enc, "gm close B2-C2")
    enc.push("gm break B2-C2 number=2")  # H-GRID-3: Break 2 against toughness 2
    assert "is broken" in refused(enc, "gm close B2-C2")
    assert "ylva move C2" in enc.legal_actions()


# -- joining -------------------------------------------------------------------------------


@pytest.mark.rule("H-INIT-1")
def test_a_newcomer_before_the_fight_rolls_initiative_with_everyone() -> None:
    enc = encounter(PEOPLE, faces=[1, 2, 6], stances={"ylva": "none", "hrolf": "none"})
    enc.push("gm add ulf character=ylva square=A1 side=north stance=none")
    enc.push("gm begin")  # Ylva 4, Hrolf 5, Ulf 9
    assert enc.state.order == ["ulf", "hrolf", "ylva"]
    assert enc.state.combatants["ulf"].square == "A1"


@pytest.mark.rule("H-INIT-1")
@pytest.mark.parametrize(
    ("face", "order", "next_up"),
    [
        (6, ["ylva", "ulf", "hrolf"], "ulf"),  # 9 ties Ylva's 9 (same willpower): after her
        (2, ["ylva", "hrolf", "ulf"], "hrolf"),  # 5 ties Hrolf: after him, this round
    ],
)
def test_a_newcomer_mid_fight_takes_its_place_in_the_order(
    face: int, order: list[str], next_up: str
) -> None:
    # Ylva 6 + 3 = 9 acts first, then Hrolf 2 + 3 = 5. The game master brings in Ulf
    # during Ylva's turn: C0P3, one d6.
    enc = begun(PEOPLE, [6, 2])
    enc.dice.add([face])  # type: ignore[attr-defined]
    enc.push("gm add ulf character=hrolf side=north square=A1 stance=none")
    assert "hrolf joins the fight for north in A1" in enc.log[-1].events[0].text
    assert enc.state.order == order and enc.state.current == "ylva"
    enc.push("ylva end")
    assert enc.state.current == next_up


@pytest.mark.rule("H-INIT-1")
def test_a_newcomer_whose_place_has_passed_first_acts_next_round() -> None:
    # Ylva 9, Hrolf 5; in Hrolf's turn Ulf rolls 6 + 3 = 9 > 5: his place is before
    # Hrolf, whose turn is under way, so Ulf's first turn is in round 2.
    enc = begun(PEOPLE, [6, 2])
    enc.push("ylva end")
    enc.dice.add([6])  # type: ignore[attr-defined]
    enc.push("gm add ulf character=ylva side=north square=A1 stance=none")
    assert enc.state.order == ["ylva", "ulf", "hrolf"] and enc.state.current == "hrolf"
    enc.push("hrolf end")
    assert (enc.state.round, enc.state.current) == (2, "ylva")
    enc.push("ylva end")
    assert enc.state.current == "ulf"


def test_a_newcomer_is_checked_like_a_combatant_of_the_encounter_file() -> None:
    enc = begun(PEOPLE, [6, 2])
    assert "did you mean 'ylva'?" in refused(enc, "gm add ulf character=ylvaa square=A1")
    assert "in the fight already" in refused(enc, "gm add hrolf character=ylva")
    assert "off the 3x3 grid" in refused(enc, "gm add ulf character=ylva square=D9")
    assert "stance" in refused(enc, "gm add ulf character=ylva stance=lunge")
    assert "character=" in refused(enc, "gm add ulf square=A1")


# -- leaving -------------------------------------------------------------------------------


@pytest.mark.rule("H-INIT-2")
def test_one_who_leaves_is_gone_from_the_order_clusters_guards_and_grabs() -> None:
    four = [*PEOPLE, person("asa", "north"), person("bo", "south")]
    enc = begun(four, [6, 2, 1, 1])  # Ylva 9, Hrolf 5, Asa 4, Bo 4
    state = enc.state
    state.clusters = [["ylva", "hrolf", "asa"]]
    state.combatants["ylva"].holding, state.combatants["hrolf"].held_by = "hrolf", "ylva"
    state.combatants["asa"].guarding = "person:hrolf"
    enc.push("gm remove hrolf")
    state = enc.state
    assert "hrolf" not in state.combatants and state.order == ["ylva", "asa", "bo"]
    assert state.clusters == [["ylva", "asa"]]
    assert state.combatants["ylva"].holding is None
    assert state.combatants["asa"].guarding is None
    assert "hrolf leaves the fight" in [e.text for e in enc.log[-1].events]
    enc.push("ylva end")
    assert enc.state.current == "asa"


@pytest.mark.rule("H-INIT-2")
def test_one_who_leaves_in_its_own_turn_hands_it_to_the_next() -> None:
    three = [*PEOPLE, person("asa", "north")]
    enc = begun(three, [6, 2, 1])  # Ylva 9, Hrolf 5, Asa 4
    enc.push("ylva end")
    enc.push("gm remove hrolf")
    assert enc.state.current == "asa" and enc.state.round == 1
    enc.push("gm remove asa")
    assert enc.state.current == "ylva" and enc.state.round == 2
    assert enc.is_over() and enc.ruleset.winner(enc.state) == "north"
    assert "no combatant called 'bo'" in refused(enc, "gm remove bo")


# -- notes ---------------------------------------------------------------------------------


def test_a_note_is_seen_by_everyone_or_by_the_side_it_is_for() -> None:
    enc = begun(PEOPLE, [6, 2])
    enc.push("gm note text='The bell tolls.'")
    enc.push("gm note text='Reinforcements come at dusk.' to=north")
    seen = {
        side: [e["text"] for entry in view(enc, side)["log"] for e in entry if e["kind"] == "note"]
        for side in ("north", "south")
    }
    assert seen["north"] == ["The bell tolls.", "Reinforcements come at dusk."]
    assert seen["south"] == ["The bell tolls."]
    assert "did you mean 'south'?" in refused(enc, "gm note text=Hush to=sout")
    assert "needs its text" in refused(enc, "gm note to=north")
