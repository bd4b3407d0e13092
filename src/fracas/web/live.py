"""The tables this server process holds: one :class:`~fracas.table.table.Table` per name,
each behind its own lock, so that actions on one table are applied one at a time and a
page is rendered from a table no other request is changing. Another process may change
the same table in the store at any time: every hold first syncs (reloads if the stored
version moved), and a push that loses the race is refused by the store (its version).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from fracas.dice import DiceError
from fracas.engine import Event
from fracas.table.dicemode import AskedDice, RollRequest
from fracas.table.store import Store
from fracas.table.table import Table

__all__ = ["FacesNeeded", "Held", "Tables", "push_with_faces"]


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
            ask = known is None or (table.id, table.version) < known or table.id != known[0]
            with table.synced(ask):
                yield table

    def forget(self, name: str) -> None:
        with self._lock:
            self._held.pop(name, None)


class FacesNeeded(DiceError):
    """A roll of an action pushed with physical dice still needs faces typed in."""

    def __init__(self, request: RollRequest, answers: list[str]) -> None:
        super().__init__(f"{request.purpose}: faces needed")
        self.request = request
        self.answers = answers


def push_with_faces(
    table: Table, action: str, answers: list[str], side: str | None
) -> tuple[Event, ...]:
    """Push ``action`` with the faces typed so far (one answer per roll or throw, in
    order); :class:`FacesNeeded` names the next roll to ask for and the answers worth
    keeping (a refused answer is dropped and its problem shown). The dice's ``evaluate``
    checks every answer, as at the terminal."""
    queue = list(answers)
    kept: list[str] = []

    def ask(request: RollRequest) -> str:
        if request.problem is not None and kept:
            kept.pop()  # the answer just given was refused: ask for it again
        if not queue:
            raise FacesNeeded(request, list(kept))
        answer = queue.pop(0)
        kept.append(answer)
        return answer

    ask_: Callable[[RollRequest], str] = ask
    table.physical_dice(ask_)
    try:
        return table.push(action, side)
    finally:
        table.rolled_dice()


def is_asked(table: Table) -> bool:
    return isinstance(table.encounter.dice, AskedDice)
