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


def test_a_database_locked_past_the_wait_is_one_message_and_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holding SQLite's write lock longer than the store waits: the
    change is refused with a message (not a database error), the table is as it was,
    and the same change goes through once the lock is let go."""
    import sqlite3

    from fracas.rules.heimr.ruleset import HeimrRules
    from fracas.table import encounterfile
    from fracas.table import store as store_module
    from fracas.table.table import Table

    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "busy.db"
    store = Store.open(f"sqlite:///{path}")
    ruleset, setup, title = encounterfile.load(
        Path(__file__).resolve().parents[2] / "examples/heimr/duel.yaml"
    )
    assert isinstance(ruleset, HeimrRules)
    table = Table.start(store, "busy", ruleset, setup, title, seed=1)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer, holding the lock
    try:
        with pytest.raises(store_module.StoreBusy, match=r"busy with another writer for 0\.05 s"):
            table.push("gm begin")
        assert table.encounter.log == [] and table.head == 0
    finally:
        other.execute("ROLLBACK")
        other.close()
    table.push("gm begin")
    assert [a.action for a in Store.open(f"sqlite:///{path}").actions(table.id)] == ["gm begin"]


def test_reads_are_bounded_by_what_is_asked() -> None:
    store = Store.open("sqlite://")
    tid = store.create("duel", "heimr", {})
    v = 0
    for n in range(1, 8):
        v = store.push(tid, v, f"a{n}", {"action": f"a{n}"}, None)
    v = store.move_head(tid, v, 5)
    assert [a.ply for a in store.actions(tid, after=2, upto=4)] == [3, 4]
    assert [a.ply for a in store.actions(tid, after=5)] == [6, 7]  # undone ones too
    assert store.count_actions(tid) == 7
    found = store.action(tid, 6)
    assert found is not None and found.action == "a6"
    assert store.action(tid, 8) is None
    with pytest.raises(StoreError, match="has 7 actions; cannot move to 8"):
        store.move_head(tid, v, 8)


def test_a_replaced_row_has_another_stamp_even_with_the_same_id() -> None:
    store = Store.open("sqlite://")
    tid = store.create("duel", "heimr", {})
    v, first = store.append(tid, 0, "a", {"action": "a"}, None)
    v, second = store.append(tid, v, "b", {"action": "b"}, None)
    v = store.move_head(tid, v, 1)
    v, again = store.append(tid, v, "b", {"action": "b"}, None)
    assert again != second  # SQLite may give it the id of the row it replaced
    record, kept, added = store.since(tid, [first, second])
    assert (record.head, kept, [a.stamp for a in added]) == (2, 1, [again])
    record, kept, added = store.since(tid, [first, again])
    assert (kept, added) == (2, [])


def test_tables_come_a_page_at_a_time_in_a_stable_order() -> None:
    store = Store.open("sqlite://")
    for n in range(7):
        store.create(f"duel-{n}", "heimr", {})
    store.create("ford", "classic", {})
    pages = [[t.name for t in store.tables(offset=o, limit=3)] for o in (0, 3, 6)]
    assert [n for page in pages for n in page] == [t.name for t in store.tables()]
    assert sorted(n for page in pages for n in page) == sorted(t.name for t in store.tables())
    assert pages[0][0] == "ford"  # the last made (changed) first
    assert store.count_tables() == 8
    assert store.count_tables("DUEL") == 7
    assert [t.name for t in store.tables(name="for")] == ["ford"]
    store.create("ford_2", "classic", {})
    assert store.count_tables("%") == 0  # no wildcards
    assert [t.name for t in store.tables(name="_")] == ["ford_2"]


def test_a_name_taken_between_the_look_and_the_creation_is_chosen_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two `fracas play FILE` at once: the one whose free name was taken meanwhile by the
    other (another process, on the same store) gets the next free name, not an error."""
    from fracas.table import store as store_module
    from fracas.table.store import NameTaken, under_free_name

    url = f"sqlite:///{tmp_path / 'tables.db'}"
    mine, other = Store.open(url), Store.open(url)
    real = store_module.free_name
    looks: list[str] = []

    def racing(store: Store, wanted: str) -> str:
        name = real(store, wanted)
        if not looks:  # the other process creates the name just after we looked
            other.create(name, "heimr", {"combatants": []})
        looks.append(name)
        return name

    monkeypatch.setattr(store_module, "free_name", racing)
    made = under_free_name(mine, "duel", lambda name: mine.create(name, "heimr", {}))
    assert looks == ["duel", "duel-2"]
    assert mine.record(made).name == "duel-2"
    with pytest.raises(NameTaken):
        mine.create("duel", "heimr", {})
