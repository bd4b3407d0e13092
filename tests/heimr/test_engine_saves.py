"""Saves: the log is the save file; loading replays it, or refuses with a SaveError.

Played on the Heimr duel of tests/heimr/test_smoke.py, with scripted dice.
"""

from __future__ import annotations

import copy
import json
import shlex
from typing import Any

import pytest

import fracas.engine.encounter as encounter_module
from fracas.engine import (
    SCHEMA_VERSION,
    Encounter,
    RandomDice,
    SaveError,
    ScriptedDice,
    view,
)
from fracas.rules import find
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, setup, sheet

HEIMR = find("heimr")


def duelists() -> list[dict[str, Any]]:
    ylva = sheet("ylva", "north", abilities={"Dueling": (2, 1)}, sword="Medium weapon")
    return [ylva, sheet("brannoc", "south")]


def played() -> Encounter[HeimrState]:
    """Ylva hits Brannoc for 2, as in tests/heimr/test_smoke.py."""
    begin = [5, 2] + [4, 3, 3] + [3, 2]  # initiative Ylva 8, Brannoc 5; parry 8; dodge 3
    attack = [4, 2, 1] + [6, 1]  # Ylva hits (8 > 3); Brannoc re-rolls his dodge
    enc = encounter(duelists(), faces=begin + attack)
    enc.push("gm begin")
    enc.push("ylva attack brannoc")
    return enc


def reloaded(data: Any) -> Encounter[HeimrState]:
    return Encounter.load(json.loads(json.dumps(data)), HEIMR)


def test_a_save_is_json_with_a_schema_version_the_ruleset_setup_and_log() -> None:
    data = json.loads(played().dumps())
    assert data["_v"] == SCHEMA_VERSION
    assert data["ruleset"] == "heimr"
    assert data["setup"] == setup(duelists())
    assert [entry["action"] for entry in data["log"]] == ["gm begin", "ylva attack brannoc"]
    assert data["log"][1]["rolls"][0] == {
        "notation": "C2P4",
        "purpose": "ylva attacks brannoc with the Medium weapon",
        "faces": [4, 2, 1],
    }


def test_loading_a_save_replays_it_to_the_same_state_log_and_views() -> None:
    enc = played()
    loaded = reloaded(enc.save())
    assert loaded.state == enc.state
    assert loaded.log == enc.log
    assert loaded.to_move == enc.to_move
    for side in (None, "north", "south"):
        assert view(loaded, side) == view(enc, side)


def test_a_loaded_encounter_can_be_undone_to_its_start() -> None:
    loaded = reloaded(played().save())
    loaded.pop()
    loaded.pop()
    assert loaded.state == Encounter(HEIMR, setup(duelists())).state


def test_seeded_dice_roll_on_after_a_load_as_they_would_have() -> None:
    enc = Encounter(HEIMR, setup(duelists()), RandomDice(2024))
    enc.push("gm begin")
    loaded = reloaded(enc.save())
    assert isinstance(loaded.dice, RandomDice)
    assert loaded.dice.seed == 2024
    actor = enc.to_move
    other = "brannoc" if actor == "ylva" else "ylva"
    assert enc.push(f"{actor} attack {other}") == loaded.push(f"{actor} attack {other}")
    assert loaded.state == enc.state


def test_dice_given_to_load_are_the_ones_played_on() -> None:
    dice = ScriptedDice([1, 2])
    assert Encounter.load(played().save(), HEIMR, dice).dice is dice


# -- refusals --------------------------------------------------------------------------


def refused(data: Any, says: str) -> None:
    with pytest.raises(SaveError) as err:
        reloaded(data)
    assert says in str(err.value)


def test_a_save_of_another_ruleset_is_refused() -> None:
    refused({**played().save(), "ruleset": "tempo"}, "this save is for 'tempo', not 'heimr'")


@pytest.mark.parametrize("version", [None, "1", 1.0])
def test_a_save_without_an_integer_schema_version_is_refused(version: object) -> None:
    data = played().save()
    if version is None:
        del data["_v"]
    else:
        data["_v"] = version
    refused(data, "not a fracas save file: no schema version '_v'")


def test_a_save_from_a_newer_fracas_is_refused() -> None:
    refused(
        {**played().save(), "_v": SCHEMA_VERSION + 1},
        f"this save has schema version {SCHEMA_VERSION + 1}; this fracas reads up to "
        f"{SCHEMA_VERSION}: upgrade fracas",
    )


def test_a_save_older_than_any_migration_is_refused() -> None:
    refused({**played().save(), "_v": 0}, "schema version 0, which no migration upgrades")


@pytest.mark.parametrize("data", [[1, 2], "a save", None])
def test_something_that_is_not_a_json_object_is_refused(data: Any) -> None:
    refused(data, "not a fracas save file")


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"log": None}, "not a fracas save file: missing or malformed"),
        ({"setup": {"combatants": []}}, "the save's setup does not start: encounter setup"),
        ({"log": ["gm begin"]}, "log entry 1 is not an action"),
        ({"log": [{"action": 5}]}, "log entry 1 is not an action"),
        ({"log": [{"action": "gm begin", "rolls": [{}]}]}, "Field required at rolls[0]"),
        ({"dice": {"kind": "random", "seed": 1, "state": [3]}}, "malformed dice"),
    ],
)
def test_a_malformed_save_is_refused(change: dict[str, Any], says: str) -> None:
    refused({**played().save(), **change}, says)


def test_a_save_without_setup_is_refused() -> None:
    data = played().save()
    del data["setup"]
    refused(data, "not a fracas save file: missing or malformed 'setup'")


def test_a_log_with_an_illegal_action_does_not_replay() -> None:
    data = played().save()
    data["log"][1]["action"] = "brannoc attack ylva"
    refused(data, "log entry 2 (brannoc attack ylva) does not replay: it is ylva's turn")


def attack_faces(data: dict[str, Any]) -> list[int]:
    """The faces of Ylva's attack roll as recorded in the save (changed in place)."""
    faces: list[int] = data["log"][1]["rolls"][0]["faces"]
    return faces


def test_a_changed_face_replays_differently() -> None:
    data = played().save()
    attack_faces(data)[1] = 9  # a better d10 than Ylva rolled
    refused(data, "log entry 2 (ylva attack brannoc) replays differently")


def test_a_face_the_die_cannot_show_does_not_replay() -> None:
    data = played().save()
    attack_faces(data)[0] = 7  # the d6 of the challenge
    refused(data, "log entry 2 (ylva attack brannoc) does not replay: ylva attacks brannoc")


def test_a_missing_face_does_not_replay() -> None:
    data = played().save()
    attack_faces(data).pop()
    refused(data, "the script has run out of dice: a d10 is needed")


def test_an_extra_face_replays_differently() -> None:
    data = played().save()
    data["log"][1]["rolls"][-1]["faces"].append(10)  # after Brannoc's new dodge
    refused(data, "log entry 2 (ylva attack brannoc) replays differently: 1 of its recorded")


def test_a_changed_event_replays_differently() -> None:
    data = played().save()
    data["log"][1]["events"][0]["text"] = "ylva misses"
    refused(data, "log entry 2 (ylva attack brannoc) replays differently")


def test_a_hand_written_log_without_events_replays_only_when_imported_as_actions() -> None:
    data = played().save()
    begin = {"action": "gm begin", "rolls": data["log"][0]["rolls"]}
    data["log"] = [begin, {"action": "ylva prone"}]
    refused(data, "log entry 1 (gm begin) records no events to check its replay against")
    imported = Encounter.load(data, HEIMR, replay_from_actions=True)
    assert imported.state.combatants["ylva"].prone


# -- migrations ------------------------------------------------------------------------


def upgrade_from_words(old: dict[str, Any]) -> dict[str, Any]:
    """A fake version 1 wrote each action as a list of words; version 2 writes text."""
    new = copy.deepcopy(old)
    for entry in new["log"]:
        entry["action"] = shlex.join(entry["action"])
    return new


def test_an_older_save_is_migrated_on_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encounter_module, "SCHEMA_VERSION", 2)
    monkeypatch.setattr(encounter_module, "MIGRATIONS", {1: upgrade_from_words})
    enc = played()
    old = enc.save()
    assert old["_v"] == 2
    old["_v"] = 1
    for entry in old["log"]:
        entry["action"] = shlex.split(entry["action"])
    loaded = reloaded(old)
    assert loaded.state == enc.state
    assert loaded.log == enc.log
    assert loaded.save()["_v"] == 2
    assert isinstance(old["log"][0]["action"], list)  # the caller's data is left alone


def test_without_the_migration_the_older_save_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encounter_module, "SCHEMA_VERSION", 2)
    monkeypatch.setattr(encounter_module, "MIGRATIONS", {})
    refused({**played().save(), "_v": 1}, "schema version 1, which no migration upgrades")
