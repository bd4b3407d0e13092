"""Saves carry a chain of entry digests (version 2): an entry edited, removed or added by
hand is refused in one line, and version-1 saves, which have none, load as before
(issue 24, point 3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from fracas.engine import SCHEMA_VERSION, Encounter, SaveError
from fracas.engine.savefile import chain
from fracas.rules import find

Saved = Callable[[str], dict[str, Any]]


def refused(save: dict[str, Any], says: str, ruleset: str = "heimr-classic") -> None:
    with pytest.raises(SaveError) as err:
        Encounter.load(save, find(ruleset))
    message = str(err.value)
    assert "\n" not in message and says in message, message


def wolf_done(save: dict[str, Any]) -> int:
    """The index of a ``wolf done`` entry in the middle of the ford's log."""
    found = [i for i, e in enumerate(save["log"]) if e["action"] == "wolf done"]
    middle = [i for i in found if 0 < i < len(save["log"]) - 1]
    assert middle
    return middle[0]


def test_a_save_is_version_2_with_a_digest_for_each_entry(saved: Saved) -> None:
    save = saved("classic/ford")
    assert save["_v"] == SCHEMA_VERSION == 2
    assert save["digests"] == chain(save["ruleset"], save["setup"], save["log"])
    assert Encounter.load(save, find("heimr-classic")).save() == save


def test_a_save_missing_an_entry_is_refused(saved: Saved) -> None:
    save = saved("classic/ford")
    del save["log"][wolf_done(save)]
    refused(save, "digests for")


def test_a_save_missing_an_entry_and_its_digest_is_refused(saved: Saved) -> None:
    save = saved("classic/ford")
    i = wolf_done(save)
    del save["log"][i]
    del save["digests"][i]
    refused(save, f"log entry {i + 1} does not match its digest")


def test_an_edited_outline_is_refused(saved: Saved) -> None:
    save = saved("heimr/duel")
    entry = next(e for e in save["log"] if any("outline_data" in ev for ev in e["events"]))
    event = next(ev for ev in entry["events"] if "outline_data" in ev)
    event["outline_data"] = {**event["outline_data"], "forged": 1}
    refused(save, "does not match its digest", "heimr")


def test_a_changed_setup_is_refused(saved: Saved) -> None:
    save = saved("heimr/duel")
    save["setup"]["combatants"][0]["hit_points"] = 1
    with pytest.raises(SaveError):
        Encounter.load(save, find("heimr"))


def test_a_version_1_save_without_digests_still_loads(saved: Saved) -> None:
    save = saved("classic/ford")
    old = {k: v for k, v in save.items() if k != "digests"}
    old["_v"] = 1
    again = Encounter.load(old, find("heimr-classic"))
    assert again.save() == save  # saved again as version 2, with its digests
