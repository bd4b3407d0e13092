"""The store: every table (an encounter at the table) and every action pushed to it.

SQLite in the user's data folder by default (platformdirs), any SQLAlchemy URL otherwise
(``postgresql://…`` for many tables). Alembic owns the columns; the JSON inside them
(setups, events, rolls, dice states) is the engine's save format and carries its own
version.

A table row holds the setup, the *head* (how many of its actions are in play: an undo
moves it back, a redo forward, a new action after an undo drops the ones above) and a
``version`` that every change increments, so that two writers racing on one table
cannot both win (optimistic concurrency). Each change is one transaction: the action row
and the head move together or not at all.

>>> store = Store.open("sqlite://")
>>> store.create("duel", "heimr", {"combatants": []}, title="Duel")
1
>>> [t.name for t in store.tables()]
['duel']

Every read is bounded by what it needs: :meth:`Store.actions` reads a range of plies,
:meth:`Store.action` one, :meth:`Store.count_actions` counts them from the index, and
:meth:`Store.tables` reads a page of tables (:meth:`Store.count_tables` says how many).
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import platformdirs
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from fracas import names

__all__ = [
    "BUSY_TIMEOUT_MS",
    "DICE_MODES",
    "ROUND",
    "ActionRecord",
    "ConflictError",
    "NameTaken",
    "Progress",
    "Stamp",
    "Store",
    "StoreBusy",
    "StoreError",
    "TableRecord",
    "announce_round",
    "default_url",
    "free_name",
    "under_free_name",
]

#: Longest table name: names appear in commands and URLs.
MAX_NAME = 80
#: How long a change waits for another process's write to finish (SQLite), in ms: many
#: tables played at once through several server processes queue for the one writer.
BUSY_TIMEOUT_MS = 20_000
#: How far below its head a table catching up looks for the last action it still holds
#: (:meth:`Store.since`); a table changed further back than that is replayed whole.
LOOK_BACK = 64
#: How a table's dice are thrown: by fracas, or physical dice whose faces are typed in.
DICE_MODES = ("rolled", "typed")
#: PostgreSQL channel announcing every change of a table as ``"ID:VERSION"`` (delivered on
#: commit; never any data): how the other server processes learn of it.
CHANNEL = "fracas_tables"
#: The version a deleted table is announced at.
DELETED = -1
#: What is announced (instead of a version) when a table's round played by post changed: a
#: post, a round opened or closed (:mod:`fracas.table.rounds`); the version stays.
ROUND = -2


class StoreError(ValueError):
    """A store problem a person can act on: an unknown table, a taken name, no database."""


class NameTaken(StoreError):
    """A new table's name that another table has (perhaps taken a moment ago)."""


class ConflictError(StoreError):
    """Another writer changed the table first; reload it and try again."""


class StoreBusy(StoreError):
    """The database stayed locked by another writer (another process) too long."""


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "fracas_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(MAX_NAME), unique=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    ruleset: Mapped[str] = mapped_column(String(40))
    setup: Mapped[Any] = mapped_column(JSON)
    dice: Mapped[Any] = mapped_column(JSON, nullable=True)
    head: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    changed: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    dice_mode: Mapped[str] = mapped_column(String(10), default="rolled", server_default="rolled")
    ruleset_version: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # Who throws a typed roll whose side is away, and after how many seconds (0009).
    roll_fallback: Mapped[str] = mapped_column(String(10), default="gm", server_default="gm")
    roll_wait: Mapped[int] = mapped_column(Integer, default=60, server_default="60")
    player_odds: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    archived: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PendingRow(Base):
    """The action a table waits on for a roll's faces (:mod:`fracas.table.rollcall`)."""

    __tablename__ = "fracas_pending"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("fracas_tables.id", ondelete="CASCADE"), primary_key=True
    )
    token: Mapped[str] = mapped_column(String(40))
    data: Mapped[Any] = mapped_column(JSON)
    asked: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ActionRow(Base):
    __tablename__ = "fracas_actions"
    __table_args__ = (UniqueConstraint("table_id", "ply"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("fracas_tables.id", ondelete="CASCADE"))
    ply: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    entry: Mapped[Any] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class TableRecord:
    """A table as the store has it (without its actions)."""

    id: int
    name: str
    title: str
    ruleset: str
    setup: dict[str, Any]
    dice: dict[str, Any] | None
    head: int
    version: int
    created: datetime
    changed: datetime
    dice_mode: str = "rolled"  # or "typed": the faces of physical dice, typed in
    ruleset_version: str | None = None  # the rules' version it was made with (None: before 0008)
    archived: datetime | None = None  # when the game master put it away (None: in play)


@dataclass(frozen=True)
class Progress:
    """Where a table stands, as a reader catching up needs it (:meth:`Store.since`): its
    version, head, dice, dice mode, and how many actions are stored (undone ones too)."""

    version: int
    head: int
    dice: dict[str, Any] | None
    dice_mode: str
    total: int


@dataclass(frozen=True)
class ActionRecord:
    """One pushed action: its ply (1 for the first) and its log entry (engine format)."""

    ply: int
    action: str
    entry: dict[str, Any]
    at: datetime
    id: int = 0

    @property
    def stamp(self) -> Stamp:
        """What tells this row from another stored at the same ply later (see :data:`Stamp`)."""
        return (self.id, self.at)


#: A stored action row's identity: its id and the moment it was stored. An undo followed
#: by a new action replaces the rows above the head; SQLite may give a replacing row the
#: id of the row it replaces, never the same moment as well.
Stamp = tuple[int, datetime]


def _action(row: ActionRow) -> ActionRecord:
    return ActionRecord(row.ply, row.action, row.entry, aware(row.at), row.id)


def default_url() -> str:
    """``FRACAS_DB`` if set, else the SQLite file in the user's data folder: the store the
    terminal and the web share."""
    if os.environ.get("FRACAS_DB"):
        return os.environ["FRACAS_DB"]
    folder = Path(platformdirs.user_data_dir("fracas", appauthor=False))
    return f"sqlite:///{folder / 'tables.db'}"


def utc_now() -> datetime:
    """The moment, in UTC, as everything the store keeps is dated."""
    return datetime.now(UTC)


def _record(row: TableRow) -> TableRecord:
    return TableRecord(
        row.id,
        row.name,
        row.title,
        row.ruleset,
        row.setup,
        row.dice,
        row.head,
        row.version,
        aware(row.created),
        aware(row.changed),
        row.dice_mode,
        row.ruleset_version,
        aware(row.archived) if row.archived else None,
    )


def aware(moment: datetime) -> datetime:
    """A moment read back from the store, in UTC (SQLite hands back naive datetimes; all
    that is stored is UTC)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class WriterLock:
    """SQLite: the writers of one store file, every process's, take their turn through
    an advisory lock on a file beside it (``FILE-lock``, 0600), and a process's threads
    through a lock of their own. A writer waiting for SQLite's own lock sleeps in growing
    steps (1, 2, 5, 10... ms) however soon the lock is let go; one waiting here wakes as
    it is let go. The SQLite lock still guards the file: a writer that does not take this
    one (the terminal, an older server) only waits as before."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._threads = threading.Lock()
        self._fd: int | None = None
        self._pid = 0

    @contextmanager
    def held(self) -> Iterator[None]:
        with self._threads:
            fd = self._open()
            if fd is None:
                yield
                return
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def _open(self) -> int | None:
        # Each process opens the file itself: a lock is held by an open file, which a
        # process forked after the opening would share.
        if self._fd is None or self._pid != os.getpid():
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError:  # a folder not ours to write in: SQLite's lock alone
                return None
            self._pid = os.getpid()
        return self._fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class Store:
    """Tables and their actions in one database; every change is one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        #: SQLite files: the lock writers of actions take their turn through.
        self.writers: WriterLock | None = None
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        #: Called with (table id, new version) after each change is committed, never before
        #: (:data:`DELETED` for a deleted table): the live pages of this process.
        self.listeners: list[Callable[[int, int], None]] = []

    @classmethod
    def open(cls, url: str | None = None, migrate: bool = True) -> Store:
        """Open (and create or upgrade, with Alembic) the store at ``url``."""
        url = url or default_url()
        try:
            if url.startswith("sqlite:///"):
                _private_file(Path(url.removeprefix("sqlite:///").split("?", 1)[0]))
        except OSError as err:
            raise StoreError(f"cannot open the store {url!r}: {err.strerror}") from None
        try:
            engine = create_engine(url, json_serializer=_dumps)
        except Exception as err:  # a malformed URL or a missing driver
            raise StoreError(f"cannot open the store {url!r}: {err}") from None
        store = cls(engine)
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
            database = engine.url.database
            if database and database != ":memory:" and not database.startswith("file:"):
                store.writers = WriterLock(Path(f"{database}-lock"))
        if migrate:
            store.upgrade()
        return store

    def upgrade(self) -> None:
        """Bring the database's tables to the newest revision (``alembic upgrade head``)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(resources.files("fracas.table") / "alembic"))
        try:
            with self.engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        except OperationalError as err:
            raise StoreError(f"cannot use the store {self.engine.url!r}: {err.orig}") from None

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """:meth:`session` for a change of play, taken in turn with the other writers
        (:class:`WriterLock`, on SQLite files)."""
        if self.writers is None:
            with self.session() as s:
                yield s
            return
        with self.writers.held(), self.session() as s:
            yield s

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One transaction: committed when the block ends, rolled back on any error. A
        database another writer keeps locked longer than :data:`BUSY_TIMEOUT_MS` is
        :class:`StoreBusy`, with nothing changed."""
        try:
            with self._sessions() as session:
                with session.begin():
                    yield session
                changed = session.info.pop(_CHANGED, ())
        except OperationalError as err:
            if not _busy(err):
                raise
            raise StoreBusy(
                f"the store stayed busy with another writer for {BUSY_TIMEOUT_MS / 1000:g} s: "
                "nothing was changed, try again"
            ) from None
        for table_id, version in changed:  # committed: now it may be told
            for listener in self.listeners:
                try:
                    listener(table_id, version)
                except Exception:  # the change stands: a listener's fault is only logged
                    logging.getLogger(__name__).exception("a store listener failed")

    # -- tables -----------------------------------------------------------------------

    def create(
        self,
        name: str,
        ruleset: str,
        setup: dict[str, Any],
        title: str = "",
        dice: Any = None,
        then: Callable[[Session, int], None] | None = None,
        ruleset_version: str | None = None,
    ) -> int:
        """A new table; :class:`StoreError` if the name is taken or not a name. ``then``
        is called with the transaction and the new table's id, to store what belongs
        with the table (its campaign's link): all of it is kept, or none."""
        name = check_name(name, others=self._names())
        now = utc_now()
        with self.session() as s:
            row = TableRow(
                name=name,
                title=title,
                ruleset=ruleset,
                ruleset_version=ruleset_version,
                setup=setup,
                dice=dice,
                head=0,
                version=0,
                created=now,
                changed=now,
            )
            s.add(row)
            try:
                s.flush()
            except IntegrityError:
                raise NameTaken(
                    f"there is already a table called {name!r}: resume it with --table {name}, "
                    "or choose another name"
                ) from None
            if then is not None:
                then(s, row.id)
            return row.id

    def tables(
        self, offset: int = 0, limit: int | None = None, name: str = "", archived: bool = False
    ) -> list[TableRecord]:
        """The tables, the last changed first (ties by newest id, so pages never overlap):
        ``limit`` of them from ``offset``, those whose name contains ``name`` if given;
        the archived ones instead with ``archived``."""
        with self.session() as s:
            # The page's ids first: sorting the narrow columns, not every table's setup.
            query = _named(select(TableRow.id), name, archived)
            query = query.order_by(TableRow.changed.desc(), TableRow.id.desc())
            ids = s.scalars(query.offset(max(0, offset)).limit(limit)).all()
            rows = {r.id: r for r in s.scalars(select(TableRow).where(TableRow.id.in_(ids)))}
            return [_record(rows[i]) for i in ids if i in rows]

    def count_tables(self, name: str = "", archived: bool = False) -> int:
        """How many tables there are (whose name contains ``name``, if given; archived
        ones with ``archived``)."""
        with self.session() as s:
            return s.scalar(_named(select(func.count(TableRow.id)), name, archived)) or 0

    def table(self, name: str) -> TableRecord:
        name = names.normal(name)  # kept in NFKC form (check_name)
        with self.session() as s:
            row = s.scalars(select(TableRow).where(TableRow.name == name)).first()
            if row is None:
                raise StoreError(_unknown(name, [r.name for r in s.scalars(select(TableRow))]))
            return _record(row)

    def record(self, table_id: int) -> TableRecord:
        """The table with id ``table_id`` (a name may change; an id never does)."""
        with self.session() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                raise StoreError("the table no longer exists")
            return _record(row)

    def actions(self, table_id: int, upto: int | None = None, after: int = 0) -> list[ActionRecord]:
        """The table's actions in order, from ply ``after + 1`` up to ply ``upto`` (all,
        when ``None``)."""
        with self.session() as s:
            query = select(ActionRow).where(ActionRow.table_id == table_id)
            if upto is not None:
                query = query.where(ActionRow.ply <= upto)
            if after > 0:
                query = query.where(ActionRow.ply > after)
            rows = s.scalars(query.order_by(ActionRow.ply)).all()
            return [_action(r) for r in rows]

    def action(self, table_id: int, ply: int) -> ActionRecord | None:
        """The action stored at ``ply`` (1 for the first), in play or undone; ``None``
        if there is none."""
        with self.session() as s:
            query = select(ActionRow).where(ActionRow.table_id == table_id, ActionRow.ply == ply)
            row = s.scalars(query).first()
            return None if row is None else _action(row)

    def count_actions(self, table_id: int) -> int:
        """How many actions are stored, in play or undone (read from the index)."""
        with self.session() as s:
            return _count(s, table_id)

    def since(
        self, table_id: int, held: Sequence[Stamp], look_back: int = LOOK_BACK
    ) -> tuple[Progress, int | None, list[ActionRecord]]:
        """What a reader holding the rows ``held`` (the :data:`Stamp` of each action it
        holds, in order) needs to catch up, read at one moment: where the table stands;
        how many of its actions are still the stored ones in play (``kept``: the rows
        above were undone or replaced; ``None`` when that is further back than
        ``look_back`` actions below the reader's head or the stored head); and the actions
        in play after those. Two queries when the reader's last row is still in play (a
        table that only grew since), more when it must look back."""
        with self.session() as s:
            highest = (
                select(func.max(ActionRow.ply))
                .where(ActionRow.table_id == table_id)
                .scalar_subquery()
            )
            query = select(
                TableRow.version, TableRow.head, TableRow.dice, TableRow.dice_mode, highest
            ).where(TableRow.id == table_id)
            found = s.execute(query).first()
            if found is None:
                raise StoreError("the table no longer exists")
            version, head, dice, mode, total = found
            progress = Progress(version, head, dice, mode, total or 0)
            top = min(len(held), head)
            # The reader's last row in play and every row in play above it, at once: when
            # that row is still the same (the common case), they are all that is needed.
            above = select(ActionRow).where(
                ActionRow.table_id == table_id, ActionRow.ply >= top, ActionRow.ply <= head
            )
            rows = [_action(r) for r in s.scalars(above.order_by(ActionRow.ply))]
            if top == 0 or (rows and rows[0].ply == top and rows[0].stamp == held[top - 1]):
                return progress, top, [r for r in rows if r.ply > top]
            low = max(1, top - look_back + 1)
            query = select(ActionRow.ply, ActionRow.id, ActionRow.at).where(
                ActionRow.table_id == table_id, ActionRow.ply >= low, ActionRow.ply <= top
            )
            stored = {ply: (id_, aware(at)) for ply, id_, at in s.execute(query)}
            # A row replaced at some ply replaces every row above it: the rows the reader
            # still holds are those below the highest that is still the same.
            kept = next((p for p in range(top, low - 1, -1) if stored.get(p) == held[p - 1]), None)
            if kept is None and low == 1:
                kept = 0
            if kept is None:
                return progress, None, []
            after = select(ActionRow).where(
                ActionRow.table_id == table_id, ActionRow.ply > kept, ActionRow.ply <= head
            )
            added = [_action(r) for r in s.scalars(after.order_by(ActionRow.ply))]
            return progress, kept, added

    def _names(self) -> list[str]:
        """The names of every table, to tell a new one apart from."""
        with self.session() as s:
            return list(s.scalars(select(TableRow.name)))

    def rename(self, name: str, new: str) -> None:
        new = check_name(new, others=[n for n in self._names() if n != name])
        try:
            with self.session() as s:
                s.execute(update(TableRow).where(TableRow.name == name).values(name=new))
        except IntegrityError:
            raise StoreError(f"there is already a table called {new!r}") from None

    def archive(self, name: str, archived: bool = True) -> None:
        """Put a table away (``archived``) or back in play. Its live pages close in every
        process when it is put away, as for a deleted table; its version moves, so that
        no form drawn before is taken."""
        record = self.table(name)
        with self.session() as s:
            version = record.version + 1
            s.execute(
                update(TableRow)
                .where(TableRow.id == record.id)
                .values(archived=utc_now() if archived else None, version=version)
            )
            _changed(s, record.id, DELETED if archived else version)

    def delete(self, name: str) -> None:
        record = self.table(name)
        with self.session() as s:
            s.execute(delete(ActionRow).where(ActionRow.table_id == record.id))
            s.execute(delete(TableRow).where(TableRow.id == record.id))
            _changed(s, record.id, DELETED)

    # -- changes (each one transaction, checked against the version read) --------------

    def push(
        self, table_id: int, version: int, action: str, entry: dict[str, Any], dice: Any
    ) -> int:
        """Append an action at ``head + 1`` (dropping any undone ones above); the new version."""
        return self.append(table_id, version, action, entry, dice)[0]

    def append(
        self, table_id: int, version: int, action: str, entry: dict[str, Any], dice: Any
    ) -> tuple[int, Stamp]:
        """:meth:`push`, giving the new version and the stored row's :data:`Stamp`."""
        now = utc_now()
        with self.writing() as s:
            # One statement claims the table (its version, as _claim does) and moves its
            # head: no read of the table's row (its setup) on the way.
            claimed = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.version == version)
                .values(version=version + 1, head=TableRow.head + 1, dice=dice, changed=now)
                .returning(TableRow.head),
                execution_options={"synchronize_session": False},
            ).first()
            if claimed is None:
                raise ConflictError("the table was changed meanwhile (another screen?): reloaded")
            _changed(s, table_id, version + 1)
            ply = int(claimed[0])
            s.execute(
                delete(ActionRow).where(ActionRow.table_id == table_id, ActionRow.ply >= ply),
                execution_options={"synchronize_session": False},
            )
            added = s.execute(
                insert(ActionRow)
                .values(table_id=table_id, ply=ply, action=action, entry=entry, at=now)
                .returning(ActionRow.id)
            ).scalar_one()
            _done_waiting(s, table_id)
            return version + 1, (int(added), now)

    def move_head(self, table_id: int, version: int, head: int, dice: Any = None) -> int:
        """Undo or redo: set how many actions are in play; the new version."""
        with self.writing() as s:
            row = self._claim(s, table_id, version)
            count = _count(s, table_id)
            if not 0 <= head <= count:
                raise StoreError(f"the table has {count} actions; cannot move to {head}")
            row.head, row.changed = head, utc_now()
            _done_waiting(s, table_id)
            if dice is not None:
                row.dice = dice
            return row.version

    def set_dice(self, table_id: int, version: int, dice: Any) -> int:
        with self.writing() as s:
            row = self._claim(s, table_id, version)
            row.dice = dice
            return row.version

    def set_dice_mode(self, table_id: int, mode: str) -> None:
        """Dice ``rolled`` by fracas or ``typed`` in, for every screen and process. The
        version stays (it counts the changes of play): an action is pushed in the mode
        the table has when it arrives, whatever the page showed."""
        if mode not in DICE_MODES:
            raise StoreError(f"the dice are {' or '.join(DICE_MODES)}, not {mode[:20]!r}")
        with self.session() as s:
            done = s.execute(update(TableRow).where(TableRow.id == table_id).values(dice_mode=mode))
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise StoreError("the table no longer exists")

    def dice_mode(self, table_id: int) -> str:
        """How the table's dice are thrown now: ``rolled`` or ``typed``."""
        with self.session() as s:
            mode = s.scalar(select(TableRow.dice_mode).where(TableRow.id == table_id))
            if mode is None:
                raise StoreError("the table no longer exists")
            return mode

    def set_player_odds(self, table_id: int, shown: bool) -> None:
        """Whether the players' pages show the odds of their own attacks (the game
        master's choice, for every process); like the dice mode, not a change of play."""
        with self.session() as s:
            done = s.execute(
                update(TableRow).where(TableRow.id == table_id).values(player_odds=shown)
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise StoreError("the table no longer exists")

    def player_odds(self, table_id: int) -> bool:
        """Whether the players' pages of the table show odds."""
        with self.session() as s:
            shown = s.scalar(select(TableRow.player_odds).where(TableRow.id == table_id))
            if shown is None:
                raise StoreError("the table no longer exists")
            return bool(shown)

    @staticmethod
    def _claim(s: Session, table_id: int, version: int) -> TableRow:
        """Take the table for this change: bump its version only if nobody else did."""
        bumped = s.execute(
            update(TableRow)
            .where(TableRow.id == table_id, TableRow.version == version)
            .values(version=version + 1)
        )
        if bumped.rowcount != 1:  # type: ignore[attr-defined]
            raise ConflictError("the table was changed meanwhile (another screen?): reloaded")
        _changed(s, table_id, version + 1)
        row = s.get(TableRow, table_id, populate_existing=True)
        assert row is not None
        return row

    def state(self, table_id: int) -> tuple[int, str]:
        """The table's version and dice mode, in one query (what a held table checks)."""
        with self.session() as s:
            query = select(TableRow.version, TableRow.dice_mode).where(TableRow.id == table_id)
            found = s.execute(query).first()
            if found is None:
                raise StoreError("the table no longer exists")
            return int(found[0]), str(found[1])

    def version(self, table_id: int) -> int:
        with self.session() as s:
            version = s.scalar(select(TableRow.version).where(TableRow.id == table_id))
            if version is None:
                raise StoreError("the table no longer exists")
            return version

    def versions(self, table_ids: Sequence[int]) -> dict[int, int]:
        """The version of each of these tables that still exists, in one query."""
        with self.session() as s:
            query = select(TableRow.id, TableRow.version).where(TableRow.id.in_(table_ids))
            return {row.id: row.version for row in s.execute(query)}


_CHANGED = "fracas_changed"


def _done_waiting(s: Session, table_id: int) -> None:
    """An action pushed, undone or redone ends the wait for a roll, in its transaction."""
    s.execute(delete(PendingRow).where(PendingRow.table_id == table_id))


def _changed(s: Session, table_id: int, version: int) -> None:
    """Note a change of the table, to be announced once the transaction commits: to this
    process's :attr:`Store.listeners`, and on PostgreSQL to every process listening on
    :data:`CHANNEL` (``pg_notify`` inside the transaction is delivered on commit only)."""
    s.info.setdefault(_CHANGED, []).append((table_id, version))
    if s.get_bind().dialect.name == "postgresql":
        s.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": f"{table_id}:{version}"})


def announce_round(s: Session, table_id: int) -> None:
    """Note that the table's round played by post changed in this transaction, announced
    (as :data:`ROUND`) once it commits, as a table's change is."""
    _changed(s, table_id, ROUND)


#: How often a name is chosen again when other writers keep taking the one chosen.
NAME_TRIES = 20
_Made = TypeVar("_Made")


def free_name(store: Store, wanted: str) -> str:
    """``wanted`` (made a name), or ``wanted-2``, ``wanted-3``... whichever the store does
    not hold now.

    >>> store = Store.open("sqlite://")
    >>> store.create("duel", "heimr", {"combatants": []})
    1
    >>> free_name(store, "duel"), free_name(store, "my duel")
    ('duel-2', 'my-duel')
    """
    base = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "-" for c in wanted)
    base = base.strip(".")[:70] or "table"
    taken = {t.name for t in store.tables(name=base)}
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    return name


def under_free_name(store: Store, wanted: str, make: Callable[[str], _Made]) -> _Made:
    """``make(name)``, which creates a table called ``name``, under the first name free
    for ``wanted`` (:func:`free_name`): chosen again when another writer took it between
    the look and the creation (two ``fracas play FILE`` started at once), so that each
    gets a table of its own."""
    for _ in range(NAME_TRIES):
        try:
            return make(free_name(store, wanted))
        except NameTaken:
            continue
    raise StoreError(f"no free name for {wanted[:40]!r} after {NAME_TRIES} tries: try again")


def valid_name(name: str) -> bool:
    """A name for what the store keeps (a table, a campaign...): 1 to 80 letters, digits,
    ``-``, ``_`` or ``.``, not starting with ``.``, in NFKC form, its letters of one script
    (:mod:`fracas.names`).

    >>> valid_name("ford-2"), valid_name(".hidden"), valid_name("a b"), valid_name("ylvа")
    (True, False, False, False)
    """
    return (
        0 < len(name) <= MAX_NAME
        and name[0] != "."
        and all(c.isalnum() or c in "-_." for c in name)
        and names.normal(name) == name
        and names.mixed_scripts(name) is None
    )


def check_name(name: str, what: str = "table", others: Iterable[str] = ()) -> str:
    """``name`` in NFKC form (``ｆｏｒｄ`` is ``ford``); :class:`StoreError` if it is not a
    :func:`valid_name`, saying what a ``what`` name may be, or looks like one of ``others``."""
    name = names.normal(name)
    try:
        names.check(name, what, others)
    except names.NameError_ as err:
        raise StoreError(str(err)) from None
    if not valid_name(name):
        raise StoreError(
            f"{name[:40]!r} is not a {what} name: use 1 to {MAX_NAME} letters, digits, '-', "
            "'_' or '.'"
        )
    return name


def _named(query: Any, name: str, archived: bool = False) -> Any:
    """``query`` kept to the tables in play (or the archived ones) whose name contains
    ``name`` (any case), if given."""
    query = query.where(TableRow.archived.is_not(None) if archived else TableRow.archived.is_(None))
    name = name.strip()[:MAX_NAME]
    if not name:
        return query
    escaped = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return query.where(TableRow.name.ilike(f"%{escaped}%", escape="\\"))


def _count(s: Session, table_id: int) -> int:
    """How many actions ``table_id`` has stored: its highest ply (they are 1, 2, ...)."""
    top = s.scalar(select(func.max(ActionRow.ply)).where(ActionRow.table_id == table_id))
    return top or 0


def _unknown(name: str, names: Sequence[str]) -> str:
    import difflib

    text = f"no table called {name[:40]!r}"
    close = difflib.get_close_matches(name, names, n=1)
    if close:
        return f"{text}: did you mean {close[0]!r}?"
    if names:
        return f"{text}: the tables are {', '.join(sorted(names)[:10])}"
    return f"{text}: there are no tables yet (start one with fracas play FILE)"


def _private_file(path: Path) -> None:
    """Create the SQLite file ``path`` readable by its owner only (0600), and each folder
    made for it 0700, when they do not exist yet; SQLite gives its ``-wal`` and ``-shm``
    files the database file's permissions. What exists already is left as it is."""
    if str(path) in ("", ":memory:") or str(path).startswith("file:"):
        return
    missing = [folder for folder in (path.parent, *path.parent.parents) if not folder.exists()]
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            continue  # made meanwhile by another process: its own choice
        folder.chmod(0o700)  # whatever the umask
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return
    path.chmod(0o600)  # an empty file is an empty SQLite database


def _busy(err: OperationalError) -> bool:
    """Whether ``err`` is SQLite's lock held by another connection past the wait."""
    text = str(err.orig).lower()
    return "database is locked" in text or "database table is locked" in text


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    # WAL lets the terminal and a web server read while one writes; FULL sync makes a
    # commit survive a power cut, which is what acknowledging an action promises.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_MS)}")
    cursor.close()
