"""SQLite: the writers of actions take their turn through a lock file beside the store
(``FILE-lock``, created 0600), which another process's writer waits on."""

from __future__ import annotations

import fcntl
import os
import stat
from pathlib import Path

import pytest

from fracas.table import encounterfile
from fracas.table.store import Store
from fracas.table.table import Table

DUEL = Path(__file__).resolve().parents[2] / "examples" / "heimr" / "duel.yaml"


def test_an_action_s_writer_holds_the_lock_file_another_process_waits_on(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 't.db'}")
    ruleset, setup, title = encounterfile.load(DUEL)
    table = Table.start(store, "t", ruleset, setup, title, seed=1)
    table.push("gm begin")
    lock = tmp_path / "t.db-lock"
    assert stat.S_IMODE(lock.stat().st_mode) == 0o600
    assert store.writers is not None
    other = os.open(lock, os.O_RDWR)  # another process's open file
    try:
        with store.writers.held(), pytest.raises(BlockingIOError):
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # let go: its turn
        fcntl.flock(other, fcntl.LOCK_UN)
    finally:
        os.close(other)
    assert Store.open("sqlite://").writers is None  # in memory: one process only
