"""Saves are checked against their schema and their replay before they load.

Each case found by tampering with saves (wrong types in the log, deep nesting,
faces no die shows, forged faces with the events removed, a boolean version) is
refused with one ``SaveError`` line; a log without events loads only when imported
as actions, on purpose.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fracas.engine import Encounter, SaveError
from fracas.engine.actions import MAX_ACTION_CHARS
from fracas.files import MAX_SAVE_DEPTH
from fracas.rules import find
from fracas.table.saves import loads_save, read_save

Saved = Callable[[str], dict[str, Any]]


def load(data: Any, ruleset: str = "heimr", **options: Any) -> Encounter[Any]:
    return Encounter.load(data, find(ruleset), **options)


def refused(data: Any, says: str, ruleset: str = "heimr", **options: Any) -> str:
    with pytest.raises(SaveError) as err:
        load(data, ruleset, **options)
    message = str(err.value)
    assert "\n" not in message, message
    assert says in message, message
    return message


@pytest.mark.parametrize("events", ["x", [1], [[]], None, {}])
def test_events_of_the_wrong_shape_are_refused(saved: Saved, events: Any) -> None:
    data = saved("heimr/duel")
    data["log"][0]["events"] = events
    refused(data, "log entry 1 is not an action with its dice and events")


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"_v": True}, "no schema version '_v'"),
        ({"_v": "1"}, "no schema version '_v'"),
        ({"log": {}}, "missing or malformed 'log'"),
        ({"log": "gm begin"}, "missing or malformed 'log'"),
        ({"setup": []}, "missing or malformed 'setup'"),
        ({"ruleset": 5}, "missing or malformed 'ruleset'"),
        ({"dice": {"kind": "random", "seed": 1, "state": [3, [1.5] * 625, None]}}, "dice"),
    ],
)
def test_top_level_fields_of_the_wrong_type_are_refused(
    saved: Saved, change: dict[str, Any], says: str
) -> None:
    refused({**saved("heimr/duel"), **change}, says)


@pytest.mark.parametrize("face", [1.5, 9.5, True, "8", None, [8]])
def test_a_face_that_is_not_an_integer_never_reaches_the_rules(saved: Saved, face: Any) -> None:
    data = saved("heimr/duel")
    data["log"][1]["rolls"][0]["faces"][1] = face
    for entry in data["log"]:
        entry["events"] = []
    message = refused(data, "log entry 2 is not an action with its dice and events")
    assert "rolls[0].faces[1]" in message
    refused(data, "rolls[0].faces[1]", replay_from_actions=True)


def test_a_face_its_die_cannot_show_does_not_replay(saved: Saved) -> None:
    data = saved("diestep/charge")
    block = data["log"][3]
    assert block["rolls"][1] == {"notation": "d8 adv", "purpose": block["rolls"][1]["purpose"],
                                 "faces": [8, 8]}  # fmt: skip
    for face in (10, 0, -8, 10**30):
        block["rolls"][1]["faces"][0] = face
        message = refused(data, "log entry 4 (sela block) does not replay", "diestep")
        assert f"scripted face {face} cannot be shown by a d8" in message
    for entry in data["log"]:
        entry["events"] = []
    refused(data, "cannot be shown by a d8", "diestep", replay_from_actions=True)


def test_a_forged_face_with_the_events_removed_is_refused(saved: Saved) -> None:
    data = saved("heimr/duel")
    faces = data["log"][1]["rolls"][0]["faces"]
    assert faces[1] == 8
    faces[1] = 10  # a d10 can show it: only the recorded events give the forgery away
    refused(data, "log entry 2 (ylva attack astrid) replays differently")
    for entry in data["log"]:
        entry["events"] = []
    message = refused(data, "log entry 1 (gm begin) records no events to check its replay")
    assert "replay_from_actions=True" in message


def test_a_log_of_actions_loads_when_imported_as_actions(saved: Saved) -> None:
    data = saved("heimr/duel")
    played = load(data)
    for entry in data["log"]:
        entry["events"] = []
    imported = load(data, replay_from_actions=True)
    assert imported.save()["log"] == played.save()["log"]


def test_a_changed_roll_notation_or_purpose_is_refused(saved: Saved) -> None:
    for key in ("notation", "purpose"):
        data = saved("heimr/duel")
        data["log"][1]["rolls"][0][key] = "d20"
        refused(data, "log entry 2 (ylva attack astrid) replays differently: its dice")


def test_an_action_longer_than_the_limit_is_refused(saved: Saved) -> None:
    data = saved("heimr/duel")
    data["log"][1]["action"] = "ylva speak text=" + "a" * MAX_ACTION_CHARS
    refused(data, "log entry 2 is not an action with its dice and events: String should have")


def test_a_deep_setup_is_refused(saved: Saved) -> None:
    data = saved("heimr/duel")
    deep: Any = []
    for _ in range(200):
        deep = [deep]
    data["setup"]["note"] = deep
    refused(data, "the setup is nested deeper than")


def test_every_example_save_still_loads(saved: Saved) -> None:
    for example, ruleset in [
        ("heimr/duel", "heimr"),
        ("classic/ford", "heimr-classic"),
        ("sides/mace", "sides"),
        ("tempo/feint", "tempo"),
        ("diestep/grapple", "diestep"),
    ]:
        data = saved(example)
        assert load(data, ruleset).save()["log"] == data["log"]


# -- reading save files ------------------------------------------------------------------


def test_100000_nested_brackets_are_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    with pytest.raises(SaveError) as err:
        read_save(path)
    assert str(err.value) == (
        f"{path}: not a fracas save: nested deeper than {MAX_SAVE_DEPTH} levels"
    )


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"\xff\xfe{}", "line 1: the save is not UTF-8 text"),
        (b'{"_v": 1,\n "x": "caf\xe9"}', "line 2: the save is not UTF-8 text"),
        (b"{'_v': 1}", "not a fracas save: not JSON (Expecting property name"),
        (b"[1, 2]", "not a fracas save: not a JSON object"),
        (b'{"_v": NaN}', "not JSON (NaN is not a number a save holds)"),
        (b'{"_v": ' + b"9" * 5000 + b"}", "not a fracas save: not JSON (Exceeds the limit"),
        (b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', ""),
    ],
)
def test_a_save_that_is_not_a_json_object_is_one_line(
    tmp_path: Path, content: bytes, says: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    if not says:  # brackets inside a string do not count as nesting
        assert read_save(path) == json.loads(content)
        return
    with pytest.raises(SaveError) as err:
        read_save(path)
    assert "\n" not in str(err.value) and str(err.value).startswith(str(path))
    assert says in str(err.value)


def test_a_missing_file_or_folder_is_one_line(tmp_path: Path) -> None:
    for path in (tmp_path / "none.json", tmp_path):
        with pytest.raises(SaveError) as err:
            read_save(path)
        assert "\n" not in str(err.value) and str(path) in str(err.value)


def test_a_save_over_the_size_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import fracas.files

    monkeypatch.setattr(fracas.files, "MAX_SAVE_BYTES", 1000)
    with pytest.raises(SaveError, match="larger than 1000 bytes"):
        loads_save(b" " * 1001 + b"{}")


def test_read_save_gives_what_encounter_load_takes(saved: Saved, tmp_path: Path) -> None:
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(saved("heimr/duel")), encoding="utf-8")
    assert load(read_save(path)).is_over()


# -- through the CLI -----------------------------------------------------------------------

CLI_CASES = {
    "events-x": lambda d: d["log"][0].update(events="x"),
    "face-9.5": lambda d: d["log"][1]["rolls"][0]["faces"].__setitem__(1, 9.5),
    "v-true": lambda d: d.update(_v=True),
    "log-object": lambda d: d.update(log={}),
    "events-emptied": lambda d: [e.update(events=[]) for e in d["log"]],
}


@pytest.mark.parametrize("case", sorted(CLI_CASES))
def test_fracas_play_of_a_bad_save_exits_2_with_one_line(
    case: str, saved: Saved, tmp_path: Path, fracas_cli: Callable[..., tuple[int, str, str]]
) -> None:
    data = saved("heimr/duel")
    CLI_CASES[case](data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    script = tmp_path / "x.script"
    script.write_text("ylva end\n", encoding="utf-8")
    code, _, err = fracas_cli("play", path, "--script", script)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("fracas: "), err


def test_fracas_play_of_a_deeply_nested_save_exits_2_with_one_line(
    tmp_path: Path, fracas_cli: Callable[..., tuple[int, str, str]]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    script = tmp_path / "x.script"
    script.write_text("ylva end\n", encoding="utf-8")
    code, _, err = fracas_cli("play", path, "--script", script)
    assert code == 2 and err.count("\n") == 1, err
