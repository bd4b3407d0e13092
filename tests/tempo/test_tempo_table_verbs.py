"""The game master at a tempo table: newcomers take the last place in the order
(T-ROUND-1), those who leave free whom they held, and notes."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, ScriptedDice, view
from fracas.rules import find

from tempo_builders import State, pool, refused, setup, sheet, texts

YLVA = sheet("ylva", "north", melee=2)
ASTRID = sheet("astrid", "south", melee=2)
BO = sheet("bo", "south", melee=1)


def fight(faces: list[int] | None = None, **place: Any) -> State:
    """Ylva and Astrid in the fight; Bo waits in the campaign."""
    data = setup([YLVA, ASTRID, BO], place=place)
    data["combatants"] = [p for p in data["combatants"] if p["character"] != "bo"]
    return Encounter(find("tempo"), data, ScriptedDice(faces or []))


@pytest.mark.rule("T-ROUND-1")
def test_a_newcomer_takes_the_last_place_in_the_order() -> None:
    # Ylva's turn: Bo joins, Off Guard unless prepared. Ylva recovers (a pool of 0),
    # then Astrid's turn, then Bo's.
    enc = fight(pool(0) * 2)
    enc.push("gm add bo character=bo")
    assert texts(enc, 1) == ["Bo joins the fight for south, last in the order (Off Guard)"]
    assert enc.state.order == ["ylva", "astrid", "bo"]
    enc.push("ylva recover")
    enc.push("astrid recover")
    assert enc.to_move == "bo"


def test_a_newcomer_is_checked_like_a_combatant_of_the_encounter_file() -> None:
    enc = fight()
    assert "did you mean 'bo'?" in str(refused(enc, "gm add b2 character=boo"))
    assert "in the fight already" in str(refused(enc, "gm add ylva character=bo"))
    assert "unengaged" in str(refused(enc, "gm add b2 character=bo engaged_with=ylva"))
    assert "status" in str(refused(enc, "gm add b2 character=bo status=Dancing"))


@pytest.mark.rule("T-ROUND-1")
def test_one_who_leaves_in_its_own_turn_hands_it_on_and_frees_its_opponent() -> None:
    enc = fight()
    enc.push("gm add cato character=ylva side=north prepared=true")
    state = enc.state
    state.combatants["ylva"].status, state.combatants["ylva"].engaged_with = "Bound", "astrid"
    state.combatants["astrid"].status, state.combatants["astrid"].engaged_with = "Bound", "ylva"
    enc.push("gm remove ylva")
    assert enc.state.order == ["astrid", "cato"] and enc.to_move == "astrid"
    astrid = enc.state.combatants["astrid"]
    assert (astrid.status, astrid.engaged_with) == ("On Guard", None)
    enc.push("gm remove cato")
    assert enc.is_over() and enc.ruleset.winner(enc.state) == "south"
    assert "The encounter is over: the south side stands" in texts(enc, 1)


def test_no_one_joins_or_leaves_in_the_middle_of_an_exchange() -> None:
    enc = fight()
    enc.push("ylva melee-attack astrid")
    assert refused(enc, "gm remove astrid").rule == "T-ROUND-2"
    enc.push("gm note text='Steel rings.'")  # a note may come at any time


def test_a_note_is_seen_by_everyone_or_by_the_side_it_is_for() -> None:
    enc = fight()
    enc.push("gm note text='Night falls.'")
    enc.push("gm note text='Your friends are near.' to=south")
    for side, expected in (("south", 2), ("north", 1)):
        notes = [e for entry in view(enc, side)["log"] for e in entry if e["kind"] == "note"]
        assert len(notes) == expected
