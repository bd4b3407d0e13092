"""Loading compares every saved event with the replayed one, without building events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.engine import Encounter, RandomDice, SaveError
from fracas.table import encounterfile

DUEL = Path(__file__).resolve().parents[2] / "examples" / "heimr" / "duel.yaml"


def saved() -> tuple[dict[str, Any], Any]:
    ruleset, setup, _ = encounterfile.load(DUEL)
    enc = Encounter(ruleset, setup, RandomDice(4))
    for action in ("gm begin", "ylva attack astrid"):
        enc.push(action)
    return enc.save(), ruleset


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda e: e["data"].update(extra=1), "replays differently"),
        (lambda e: e.update(kind="other"), "replays differently"),
        (lambda e: e.pop("text"), r"Field required at events\[0\]\.text"),
    ],
)
def test_a_changed_event_does_not_load(change: Any, message: str) -> None:
    # Who may see an event is not compared: the rules of the replaying fracas say it.
    data, ruleset = saved()
    change(data["log"][1]["events"][0])
    with pytest.raises(SaveError, match=message):
        Encounter.load(data, ruleset)


def test_an_event_that_is_no_object_does_not_load() -> None:
    data, ruleset = saved()
    data["log"][1]["events"][0] = "ylva hits"
    with pytest.raises(SaveError, match=r"log entry 2 .* valid dictionary at events\[0\]"):
        Encounter.load(data, ruleset)


def test_a_save_loads_to_the_same_log() -> None:
    data, ruleset = saved()
    assert Encounter.load(data, ruleset).save() == data
