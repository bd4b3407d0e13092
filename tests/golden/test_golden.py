"""Every example played again gives its golden save and log, die for die (record.py)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from fracas.engine import Encounter
from fracas.rules import find


def _record_module() -> ModuleType:
    path = Path(__file__).with_name("record.py")
    spec = importlib.util.spec_from_file_location("golden_record", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


record = _record_module()
SCRIPTS = list(record.scripts())


def test_every_example_has_a_golden_log() -> None:
    assert SCRIPTS
    for script in SCRIPTS:
        ruleset_id, _ = record.play(script)
        assert record.golden_path(ruleset_id, script).is_file(), script


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_example_plays_as_recorded(script: Path) -> None:
    ruleset_id, played = record.play(script)
    golden = json.loads(record.golden_path(ruleset_id, script).read_text(encoding="utf-8"))
    assert played["stopped"] == golden["stopped"]
    assert played["save"]["log"] == golden["save"]["log"]  # actions, events, rolls
    assert played["save"] == golden["save"]
    assert played["log"] == golden["log"]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_save_loads_to_the_same_log(script: Path) -> None:
    ruleset_id, _ = record.play(script)
    golden = json.loads(record.golden_path(ruleset_id, script).read_text(encoding="utf-8"))
    loaded = Encounter.load(golden["save"], find(ruleset_id))
    assert json.loads(json.dumps(record.rules_only(loaded.save()))) == golden["save"]
