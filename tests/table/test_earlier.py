"""The table as it was at an earlier action (the GM's timeline): the same as a replay of
the log to that action, built from the nearest kept state (a keyframe's span replayed at
most, whatever the log's length), with the rules' version checked as a resume does."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import update

from fracas.engine import Encounter, EngineError
from fracas.table import encounterfile
from fracas.table.scripts import Script
from fracas.table.store import Store, StoreError, TableRow
from fracas.table.table import Table

DUEL = Path(__file__).resolve().parents[2] / "examples" / "heimr" / "duel.yaml"


def played(store: Store) -> Table:
    ruleset, setup, title = encounterfile.load(DUEL)
    script = Script.read(DUEL.with_suffix(".script"))
    table = Table.start(store, "duel", ruleset, setup, title, seed=script.seed)
    for _, line in script.lines:
        table.push(line)
    return table


def test_an_earlier_state_is_the_log_replayed_to_it_with_few_actions_replayed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Keyframes every 4 actions and 2 recent states: the duel's log crosses several.
    monkeypatch.setattr(Encounter, "KEYFRAME", 4)
    monkeypatch.setattr(Encounter, "RECENT", 2)
    store = Store.open("sqlite://")
    table = played(store)
    replays: list[int] = []
    real = Encounter._replay

    def counted(self: Encounter, state: object, entry: object) -> None:  # type: ignore[type-arg]
        replays.append(1)
        real(self, state, entry)  # type: ignore[arg-type]

    monkeypatch.setattr(Encounter, "_replay", counted)
    for at in range(table.head + 1):
        replays.clear()
        view = table.earlier(at)
        assert len(replays) < Encounter.KEYFRAME  # from the nearest kept state
        assert view.head == at
        resumed = Table.resume(store, "duel")
        while resumed.head > at:
            resumed.encounter.pop()
        assert view.screen(None) == resumed.screen(None), f"at {at}"
    assert table.earlier(table.head + 5).head == table.head  # bounded
    with pytest.raises(EngineError):
        table.encounter.earlier(table.head + 1)


def test_an_earlier_state_checks_the_rules_version() -> None:
    store = Store.open("sqlite://")
    table = played(store)
    with store.session() as s:
        s.execute(update(TableRow).values(ruleset_version="999.0"))
    with pytest.raises(StoreError, match=r"made with heimr 999\.0"):
        table.earlier(3)
