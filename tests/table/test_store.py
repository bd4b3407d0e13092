"""The store: tables and actions, one transaction each, and racing writers refused."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from fracas.table.store import ConflictError, Store, StoreError


def test_a_table_keeps_its_actions_and_head(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'a.db'}")
    tid = store.create("duel", "heimr", {"x": 1}, title="Duel")
    v = store.push(tid, 0, "gm begin", {"action": "gm begin"}, None)
    v = store.push(tid, v, "ylva end", {"action": "ylva end"}, None)
    v = store.move_head(tid, v, 1)
    again = Store.open(f"sqlite:///{tmp_path / 'a.db'}")
    record = again.table("duel")
    assert (record.head, record.version, record.title) == (1, 3, "Duel")
    assert [a.action for a in again.actions(tid)] == ["gm begin", "ylva end"]
    assert [a.action for a in again.actions(tid, upto=record.head)] == ["gm begin"]
    # A new action after an undo drops the undone one.
    again.push(tid, v, "astrid end", {"action": "astrid end"}, None)
    assert [a.action for a in again.actions(tid)] == ["gm begin", "astrid end"]


def test_a_stale_version_is_refused_and_changes_nothing() -> None:
    store = Store.open("sqlite://")
    tid = store.create("duel", "heimr", {})
    store.push(tid, 0, "gm begin", {}, None)
    with pytest.raises(ConflictError):
        store.push(tid, 0, "ylva end", {}, None)
    assert [a.action for a in store.actions(tid)] == ["gm begin"]


def test_two_racing_writers_cannot_both_win(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'race.db'}"
    tid = Store.open(url).create("duel", "heimr", {})
    results: list[str] = []
    start = threading.Barrier(2)

    def write(name: str) -> None:
        store = Store.open(url, migrate=False)
        start.wait()
        try:
            store.push(tid, 0, name, {}, None)
            results.append("won")
        except ConflictError:
            results.append("refused")

    threads = [threading.Thread(target=write, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["refused", "won"]
    assert len(Store.open(url).actions(tid)) == 1


def test_names_are_checked_and_unknown_tables_suggested() -> None:
    store = Store.open("sqlite://")
    store.create("duel", "heimr", {})
    with pytest.raises(StoreError, match="already a table called 'duel'"):
        store.create("duel", "heimr", {})
    with pytest.raises(StoreError, match="not a table name"):
        store.create("a b/../c", "heimr", {})
    with pytest.raises(StoreError, match="did you mean 'duel'"):
        store.table("dule")


def test_an_unreachable_database_is_one_message(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    with pytest.raises(StoreError, match="cannot"):
        Store.open(f"sqlite:///{tmp_path / 'a-file' / 'tables.db'}")
    with pytest.raises(StoreError, match="cannot open the store"):
        Store.open("nosuchdb://somewhere")
