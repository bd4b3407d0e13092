"""The store's SQLite file, its ``-wal`` and ``-shm`` files and the folders fracas makes
for them are readable by their owner only."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from fracas.table.store import Store


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("umask", [0o022, 0o002])
def test_a_new_store_and_its_folders_are_the_owner_s_only(tmp_path: Path, umask: int) -> None:
    import os

    db = tmp_path / "made" / "by" / "fracas" / "tables.db"
    before = os.umask(umask)
    try:
        store = Store.open(f"sqlite:///{db}")
        store.create("duel", "heimr", {"combatants": []})  # a write: the WAL files appear
        files = [db, db.with_name("tables.db-wal"), db.with_name("tables.db-shm")]
        assert all(f.exists() for f in files)
        assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
        folders = [tmp_path / "made", tmp_path / "made" / "by", db.parent]
        assert {str(f): mode(f) for f in folders} == {str(f): 0o700 for f in folders}
        store.engine.dispose()
    finally:
        os.umask(before)


def test_an_existing_file_and_folder_keep_their_modes(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o750)
    shared.chmod(0o750)
    db = shared / "tables.db"
    db.touch()
    db.chmod(0o640)
    Store.open(f"sqlite:///{db}").create("duel", "heimr", {"combatants": []})
    assert (mode(shared), mode(db)) == (0o750, 0o640)
