"""The game master at a die-step table: newcomers roll REF for their place in the turn
order (D-ACT-1), those who leave let go of every grab and leave their mounts, and notes.

Every die not given is a d6; ``gm begin`` rolls REF for each combatant in setup order."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction, ScriptedDice, view
from fracas.rules import find
from fracas.rules.diestep.state import DieStepState

from diestep_builders import roll, setup, sheet, texts, who

ANA = sheet("ana", "heroes", att=8, ref=8)
ORC = sheet("orc", "orcs", att=8, ref=6)
BO = sheet("bo", "heroes", att=6, ref=6)


def fight(faces: list[int], begin: bool = True) -> Encounter[DieStepState]:
    """Ana and the orc in the fight; Bo waits in the campaign."""
    data = setup([ANA, ORC, BO])
    data["combatants"] = [p for p in data["combatants"] if p["character"] != "bo"]
    enc = Encounter(find("diestep"), data, ScriptedDice(faces))
    if begin:
        enc.push("gm begin")
    return enc


def refused(enc: Any, action: str) -> str:
    with pytest.raises(IllegalAction) as err:
        enc.push(action)
    return str(err.value)


@pytest.mark.rule("D-ACT-1")
@pytest.mark.parametrize(
    ("face", "order", "next_up"),
    [
        (6, ["ana", "bo", "orc"], "bo"),  # 6 beats the orc's 3: Bo acts after Ana
        (3, ["ana", "orc", "bo"], "orc"),  # 3 ties the orc's 3 and die: after it
    ],
)
def test_a_newcomer_rolls_ref_for_its_place_in_the_turn_order(
    face: int, order: list[str], next_up: str
) -> None:
    # REF: Ana 7, the orc 3. In Ana's turn Bo joins and rolls his REF d6.
    enc = fight([7, 3])
    roll(enc, face)
    enc.push("gm add bo character=bo region=here")
    assert "Bo joins the fight for heroes in here" in texts(enc)
    assert enc.state.order == order and enc.state.current == "ana"
    enc.push("ana end")
    assert enc.state.current == next_up


@pytest.mark.rule("D-ACT-1")
def test_a_newcomer_whose_place_has_passed_first_acts_next_round() -> None:
    enc = fight([7, 3])
    enc.push("ana end")  # the orc's turn
    roll(enc, 6)
    enc.push("gm add bo character=bo region=here")  # 6 beats the orc's 3
    assert enc.state.order == ["ana", "bo", "orc"] and enc.state.current == "orc"
    enc.push("orc end")
    assert (enc.state.round, enc.state.current) == (2, "ana")


def test_a_newcomer_before_the_fight_rolls_with_everyone() -> None:
    enc = fight([2, 3, 6], begin=False)
    enc.push("gm add bo character=bo region=there")
    enc.push("gm begin")
    assert enc.state.order == ["bo", "orc", "ana"]
    assert who(enc, "bo").region == "there"


def test_a_newcomer_is_checked_like_a_combatant_of_the_encounter_file() -> None:
    enc = fight([7, 3])
    assert "did you mean 'bo'?" in refused(enc, "gm add b2 character=boo")
    assert "did you mean 'here'?" in refused(enc, "gm add b2 character=bo region=her")
    assert "on foot" in refused(enc, "gm add b2 character=bo mounted_on=orc")
    assert "in the fight already" in refused(enc, "gm add orc character=bo")


def test_one_who_leaves_lets_go_and_hands_on_its_turn() -> None:
    enc = fight([7, 3])
    state = enc.state
    state.combatants["ana"].holding = "orc"
    state.combatants["orc"].held_by, state.combatants["orc"].hold = "ana", "full"
    enc.push("gm remove ana")
    assert "orc" in enc.state.combatants and "ana" not in enc.state.combatants
    assert who(enc, "orc").held_by is None
    assert "Ana lets go of Orc: Ana leaves the fight" in texts(enc)
    assert enc.is_over() and enc.ruleset.winner(enc.state) == "orcs"


def test_a_note_is_seen_by_everyone_or_by_the_side_it_is_for() -> None:
    enc = fight([7, 3])
    enc.push("gm note text='Thunder.'")
    enc.push("gm note text='The orc is afraid.' to=heroes")
    for side, expected in (("heroes", 2), ("orcs", 1)):
        notes = [e for entry in view(enc, side)["log"] for e in entry if e["kind"] == "note"]
        assert len(notes) == expected
