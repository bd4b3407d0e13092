"""Views: the game master sees everything; a side sees only what it may.

Heimr hides what a character notices (an observation's roll) and a readied action
(H-INIT-4) from the other side: the engine's view must filter both.
"""

from __future__ import annotations

import json

import pytest

from fracas.engine import Encounter, view
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, sheet

# Both dex 0, willpower 3: initiative C0P3, one d6 each; then each pre-rolls a dodge, C1P0.
BEGIN = [5, 2] + [3, 4] + [3, 2]  # Ylva 8, Brannoc 5: Ylva acts first


def begun(*faces: int) -> Encounter[HeimrState]:
    enc = encounter([sheet("ylva", "north"), sheet("brannoc", "south")], faces=[*BEGIN, *faces])
    enc.push("gm begin")
    assert enc.to_move == "ylva"
    return enc


def last_entry(enc: Encounter[HeimrState], side: str | None) -> list[dict[str, object]]:
    entry: list[dict[str, object]] = view(enc, side)["log"][-1]
    return entry


@pytest.mark.rule("H-ACT-3")
def test_what_a_character_observes_is_seen_by_its_side_and_the_game_master_only() -> None:
    enc = begun(4)  # Perception C0, +2 potential on its own square: d6 4 + 2 = 6
    (roll,) = enc.push("ylva observe B2")
    assert roll.seen_by == frozenset({"north"})
    assert roll.data["result"] == 6
    assert last_entry(enc, None) == [roll.to_dict()]
    assert last_entry(enc, "north") == [roll.to_dict()]
    assert last_entry(enc, "south") == []
    # Every side's view has one list per log entry, so entries still line up.
    assert len(view(enc, "south")["log"]) == len(enc.log)


@pytest.mark.rule("H-INIT-4")
def test_a_readied_action_is_known_to_its_side_and_the_game_master_only() -> None:
    enc = begun()
    (readied,) = enc.push("ylva ready 'action=attack brannoc' 'trigger=brannoc moves'")
    assert readied.seen_by == frozenset({"north"})
    assert last_entry(enc, "south") == []
    assert last_entry(enc, "north") == [readied.to_dict()]
    expected = {"action": "attack brannoc", "trigger": "brannoc moves"}
    assert view(enc, None)["state"]["combatants"]["ylva"]["readied"] == expected
    assert view(enc, "north")["state"]["combatants"]["ylva"]["readied"] == expected
    assert "readied" not in view(enc, "south")["state"]["combatants"]["ylva"]


def test_a_side_does_not_see_the_other_sides_hit_points() -> None:
    enc = begun()
    south = view(enc, "south")["state"]["combatants"]
    assert south["brannoc"]["hp"] == 4
    assert "hp" not in south["ylva"]
    assert view(enc, None)["state"]["combatants"]["ylva"]["hp"] == 4


def test_a_view_says_whose_turn_it_is_and_is_plain_json() -> None:
    enc = begun()
    for side in (None, "north", "south"):
        seen = view(enc, side)
        assert seen["ruleset"] == "heimr"
        assert seen["side"] == side
        assert seen["to_move"] == "ylva"
        assert seen["over"] is False
        assert json.loads(json.dumps(seen)) == seen
