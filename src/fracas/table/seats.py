"""Seats: the link through which one side of a table follows it (and, if the game master
allows, acts for its own combatants).

A seat's token is ``secrets.token_urlsafe(32)`` (256 bits), given once when the seat is
opened; the store keeps only its SHA-256, so a copy of the database opens no seat. The
game master may revoke a seat at any time; a revoked token opens nothing.

>>> from fracas.table.store import Store
>>> store = Store.open("sqlite://")
>>> table_id = store.create("duel", "heimr", {"combatants": []})
>>> seats = Seats(store)
>>> token = seats.open(table_id, "north")
>>> len(token) >= 43, seats.find(token).side
(True, 'north')
>>> seats.revoke(table_id, seats.find(token).id)
>>> seats.find(token) is None
True
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, select, update
from sqlalchemy.orm import Mapped, mapped_column

from fracas.table.store import Base, Store, TableRow

__all__ = ["Seat", "Seats"]

#: Random bytes in a token: far above the 128 bits nobody can guess.
TOKEN_BYTES = 32
#: Longest token looked up: anything longer is no token of ours.
MAX_TOKEN = 100


class SeatRow(Base):
    __tablename__ = "fracas_seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("fracas_tables.id", ondelete="CASCADE"))
    side: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    may_act: Mapped[bool] = mapped_column(Boolean)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


@dataclass(frozen=True)
class Seat:
    """An open seat: which table, which side, whether its player may act."""

    id: int
    table_id: int
    table: str
    side: str
    may_act: bool
    created: datetime


def digest(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Seats:
    """The seats of every table in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def open(self, table_id: int, side: str, may_act: bool = False) -> str:
        """A new seat for ``side``; its token (shown once, never stored as such)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with self.store.session() as s:
            s.add(
                SeatRow(
                    table_id=table_id,
                    side=side,
                    token_hash=digest(token),
                    may_act=may_act,
                    created=datetime.now(UTC),
                    revoked=None,
                )
            )
        return token

    def find(self, token: str) -> Seat | None:
        """The open seat this token opens, or ``None``."""
        if not token or len(token) > MAX_TOKEN:
            return None
        with self.store.session() as s:
            found = s.execute(
                select(SeatRow, TableRow.name)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.token_hash == digest(token), SeatRow.revoked.is_(None))
            ).first()
            if found is None:
                return None
            return _seat(found[0], found[1])

    def revoked(self, token: str) -> bool:
        """Whether this token opened a seat the game master has since revoked."""
        if not token or len(token) > MAX_TOKEN:
            return False
        with self.store.session() as s:
            found = s.scalar(
                select(SeatRow.id).where(
                    SeatRow.token_hash == digest(token), SeatRow.revoked.is_not(None)
                )
            )
            return found is not None

    def of_table(self, table_id: int) -> list[Seat]:
        """The table's open seats, oldest first."""
        with self.store.session() as s:
            rows = s.execute(
                select(SeatRow, TableRow.name)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.table_id == table_id, SeatRow.revoked.is_(None))
                .order_by(SeatRow.id)
            ).all()
            return [_seat(row, name) for row, name in rows]

    def revoke(self, table_id: int, seat_id: int) -> None:
        """Close a seat of this table: its link opens nothing from now on."""
        with self.store.session() as s:
            s.execute(
                update(SeatRow)
                .where(SeatRow.id == seat_id, SeatRow.table_id == table_id)
                .values(revoked=datetime.now(UTC))
            )

    def allow(self, table_id: int, seat_id: int, may_act: bool) -> None:
        """Let a seat's player act for its side's combatants, or stop it."""
        with self.store.session() as s:
            s.execute(
                update(SeatRow)
                .where(SeatRow.id == seat_id, SeatRow.table_id == table_id)
                .values(may_act=may_act)
            )


def _seat(row: SeatRow, name: str) -> Seat:
    created = row.created if row.created.tzinfo else row.created.replace(tzinfo=UTC)
    return Seat(row.id, row.table_id, name, row.side, row.may_act, created)
