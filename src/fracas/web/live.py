"""The tables this server process holds: one :class:`~fracas.table.table.Table` per name,
each behind its own lock, so that actions on one table are applied one at a time and a
page is rendered from a table no other request is changing. Another process may change
the same table in the store at any time: every hold first syncs (reloads if the stored
version moved), and a push that loses the race is refused by the store (its version).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from fracas.dice import DiceError
from fracas.engine import Event
from fracas.table import rollcall
from fracas.table.store import Store
from fracas.table.table import Table

__all__ = ["Held", "Tables", "overdue", "sides_here", "typed"]


@dataclass
class Held:
    lock: threading.RLock = field(default_factory=threading.RLock)
    table: Table | None = None


class Tables:
    """One live table per name in this process."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._held: dict[str, Held] = {}
        self._lock = threading.Lock()

    @contextmanager
    def hold(self, name: str, known: tuple[int, int] | None = None) -> Iterator[Table]:
        """The table, synced with the store and locked while the block runs; with
        ``known`` (a table's id and a version), the table of that id at that version or
        later is taken as it is, without asking the store (a live page's draw, told of
        that version)."""
        with self._lock:
            held = self._held.setdefault(name, Held())
        with held.lock:
            if held.table is None:
                held.table = Table.resume(self.store, name)
            # Synced once: what the block changes asks the store no more (its version
            # still refuses a lost race).
            table = held.table
            behind = known is not None and table.id == known[0] and table.version < known[1]
            ask = known is None or behind or table.id != known[0]
            with table.synced(ask, behind):
                yield table

    def forget(self, name: str) -> None:
        with self._lock:
            self._held.pop(name, None)


def sides_here(table: Table) -> frozenset[str]:
    """The sides of ``table`` with a page open that may act (in any server process)."""
    return rollcall.present(table.store, table.id)


def typed(
    app: Any, name: str, table: Table, done: tuple[Event, ...] | rollcall.Pending | None
) -> None:
    """After a typed action or answer: when it now waits on a roll that fracas rolls once
    its side has waited too long, come back then (in a timer thread)."""
    if not isinstance(done, rollcall.Pending):
        return
    left = rollcall.wait_left(done, rollcall.settings(table.store, table.id))
    if left == float("inf"):
        return
    timer = threading.Timer(left + 0.05, _expire, (app, name))
    timer.daemon = True
    timer.start()


def overdue(app: Any, name: str, table: Table) -> None:
    """Roll, now, a roll ``table`` waits on whose side has gone or waited too long (a page
    drawn does not wait for the timer, which another process may hold)."""
    if rollcall.pending(table) is None:
        return
    try:
        typed(app, name, table, rollcall.expire(table, sides_here(table)))
    except (ValueError, DiceError):  # another process answered first: drawn as it is
        table.sync()


def _expire(app: Any, name: str) -> None:
    """Roll the roll ``name`` waits on if its wait has passed (any process may)."""
    try:
        with app.state.tables.hold(name) as table:
            done = rollcall.expire(table, sides_here(table))
            typed(app, name, table, done)
    except Exception:  # the table went, or another process answered first
        logging.getLogger(__name__).info("no roll rolled for table %s", name, exc_info=True)
