"""Live pages: each table page opens one Server-Sent Events stream (``…/events?v=N``, N
the version it shows) and is sent what changed; no page polls.

**The hub.** Each server process has one :class:`Hub`. It learns that a table changed
once for all its pages: from its own process right after each commit (the store's
listeners: never before the commit), from other processes by PostgreSQL
``LISTEN/NOTIFY`` (the store's ``pg_notify`` says "table T is at version N", never any
data, and is delivered on commit), and on SQLite, only while streams are open and at
most ten times a second, by SQLite's ``data_version`` (it moves when another connection
commits) and, when it moved, one query of the open tables' versions and one of their
posted rounds. A deleted table closes its streams in every process.

**Rounds played by post.** A post, or a round opened or closed, does not change the
table's version: it is announced as :data:`~fracas.table.store.ROUND` (the same
channels), and the groups of that table are drawn again with the round's "who has
posted" part; a page is sent that part alone, or, when the round opened or closed, told
to load itself afresh (the round's forms come with the page). A process with pages of
a table whose posted round has a deadline closes the round then (a timer, not a poll);
the first process to do it wins, the others find it closed. No page polls.

**What is sent.** The open pages of a table are grouped by audience (the game master, or
a side with or without the right to act). For each group and version the update is drawn
once, from that audience's screen through the presenter (as the page is:
:func:`fracas.web.render.draw_parts`), and the same bytes go to every stream of the
group. Drawing stays out of the requests' way: it starts a few milliseconds after the
commit (the request that made the change answers first), runs in one worker thread a
process (one group at a time), and holds the table only while it takes the snapshot it
draws from (:func:`fracas.web.render.snapshot`), not while the parts are rendered; a
held table that has the version the hub was told of is not asked of the store again.
A serving process switches threads every :data:`SWITCH_INTERVAL` (1 ms, not Python's
5 ms), so that a request waiting for the interpreter after a query gets it back soon. A page
one change behind gets only the parts that changed (rows, battlefield ground or tokens,
status, the actions offered, the odds...) as out-of-band morphs (idiomorph) and the new
log lines appended; a page further behind, or reconnecting, gets
every part and the log's last entries. The event's id is the version, so a browser that
reconnects (to any process) says where it was with ``Last-Event-ID``, and the page keeps
its stream URL on the version it shows.

**Nothing a person is doing is swapped away.** The parts sent never include the typed
*Action* form, the player links, the dice mode or any form's CSRF field: those are never
replaced, so what is typed there, the focus and the scroll stay. The roll an action
waits for (typed dice, :mod:`fracas.table.rollcall`) is a part: the side that owns it is
asked for it as soon as it is asked; it changes only when another roll is asked.

**Sides with a page open.** A side's stream that may act notes in the store that the
side has a page open (every :attr:`LiveSettings.present_seconds`, and no longer once it
closes), so that whichever process carries out an action asks that side for its rolls.
Idiomorph keeps the focused element and, in a part that is replaced, the value a person
is changing. Versions: the *Action* box and the faces prompt carry a hidden ``version``
that *follows* the table (the page sets it to each version it receives), so an action
typed while another side acted is not refused as "already applied"; it is checked when it
arrives, and refused if the table cannot take it then. The offered-action buttons, Undo
and Redo carry the version they were drawn at inside the parts that are redrawn with every
change: a button drawn at an older version (a second click, or a click on a page that had
not yet received the change) is still refused as "already applied".

**Bounds.** Streams are asynchronous (no thread held per open page), at most
:attr:`LiveSettings.per_link` per link and :attr:`LiveSettings.per_address` per client
address (429 past that), and closed after :attr:`LiveSettings.idle_seconds` without a
change: the page then says it paused and reconnects when its reader comes back to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import anyio.to_thread
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import PlainTextResponse, Response
from sse_starlette import EventSourceResponse, ServerSentEvent

from fracas.table import rollcall
from fracas.table.rounds import Rounds, live_refusal, plays_by_post
from fracas.table.seats import Seat
from fracas.table.store import CHANNEL, DELETED, ROUND, Store, StoreError, utc_now
from fracas.table.table import Table
from fracas.web.deps import GmAuth, GmTable, SideSeat, tables
from fracas.web.live import Tables
from fracas.web.render import LOG_PAGE, Drawn, Page, Snapshot, draw_snapshot, oob, snapshot

__all__ = ["Hub", "LiveSettings", "Update", "events_router"]

log = logging.getLogger(__name__)
events_router = APIRouter()


#: A page that takes longer than this (seconds) to take in one event is dropped (it will
#: reconnect): a reader that stopped reading holds nothing for long.
SEND_TIMEOUT = 30.0


#: Seconds a change waits before its groups are drawn: the request that made it answers
#: first, and changes that come together are drawn once.
DRAW_AFTER = 0.005
#: The interpreter's switch interval in a serving process (seconds): see :class:`Hub`.
SWITCH_INTERVAL = 0.001
#: Seconds after a posted round's deadline its close is tried again when another
#: process's change came in the way.
CLOSE_AGAIN = 0.25


@dataclass(frozen=True)
class LiveSettings:
    """The bounds of live pages (:class:`Hub`)."""

    #: Streams open at once through one link (a player's, or the GM's for one table).
    per_link: int = 12
    #: Streams open at once from one client address.
    per_address: int = 200
    #: A stream that carried no change for this long is closed (the page resumes it).
    idle_seconds: float = 1800.0
    #: A comment sent this often keeps proxies from closing a quiet stream.
    ping_seconds: float = 20.0
    #: SQLite: seconds between two queries of the open tables' versions (at least 0.1).
    watch_seconds: float = 0.1
    #: How soon a browser reconnects a lost stream, in milliseconds.
    retry_ms: int = 1000
    #: How often a side's open page that may act says so in the store (so that a roll of
    #: that side is asked of it, whichever process holds the page); a page gone without
    #: closing counts as open for three times this long.
    present_seconds: float = 30.0


@dataclass(frozen=True)
class Update:
    """A group's parts at one version: ``whole`` for any page, ``step`` for a page at
    version ``since`` (``None`` when only ``whole`` will do)."""

    drawn: Drawn
    since: int | None = None
    step: str | None = None
    #: A side's group: its seats still open (by id), with whether each may act.
    seats: Mapping[int, bool] | None = None
    #: The posted round's stamp in the parts ``step`` starts from.
    since_rounds: str | None = None

    @functools.cached_property
    def whole(self) -> str:
        """Every part: brings any page of the audience to this version. Drawn when first
        asked (a page that connects, or one that fell behind), not for every change."""
        return self.drawn.whole()

    @property
    def version(self) -> int:
        return self.drawn.version

    @property
    def rounds(self) -> str | None:
        return self.drawn.rounds

    def newer(self, other: Update | None) -> bool:
        """Whether this update brings more than ``other``: a later version, or the same
        with the posted round changed (a post, a round opened or closed)."""
        if other is None or self.version > other.version:
            return True
        return self.version == other.version and self.rounds != other.rounds


#: Draws a group's update in a worker thread, from its previous parts (``None`` at first)
#: and the table's id and newest version the hub knows of (a held table that has it asks the
#: store nothing).
Draw = Callable[[Drawn | None, tuple[int, int]], Update]
GroupKey = tuple[int, str | None, bool]


@dataclass(eq=False)
class Stream:
    """One open page."""

    group: Group
    version: int
    link: str
    address: str
    seat: int | None = None
    #: Its name in the store's pages open (:func:`fracas.table.rollcall.here`).
    holder: str = field(default_factory=lambda: secrets.token_hex(8))
    #: The posted round's stamp the page shows (``None``: not known yet).
    rounds: str | None = None


@dataclass(eq=False)
class Group:
    """The open pages of one table for one audience, and its latest update."""

    key: GroupKey
    draw: Draw
    streams: set[Stream] = field(default_factory=set)
    update: Update | None = None
    closed: str | None = None
    #: Set (and replaced) each time there is news for the streams.
    news: asyncio.Event = field(default_factory=asyncio.Event)
    busy: bool = False
    again: bool = False
    #: The newest version of the table this process has heard of.
    known: int = -1

    @property
    def table_id(self) -> int:
        return self.key[0]

    def wake(self) -> None:
        news, self.news = self.news, asyncio.Event()
        news.set()


class Busy(Exception):
    """Too many streams for a link or an address."""


class Hub:
    """This process's live pages: their streams, grouped, and what it knows of changes."""

    def __init__(
        self, store: Store, settings: LiveSettings | None = None, tables: Tables | None = None
    ) -> None:
        self.store = store
        self.settings = settings or LiveSettings()
        #: The process's held tables: a round played by post is closed at its deadline
        #: through them.
        self.tables = tables or Tables(store)
        #: The stamp of the posted round of each table with open streams (absent: none).
        self.rounds: dict[int, str] = {}
        #: A timer a table whose posted round has a deadline: it closes the round then.
        self.deadlines: dict[int, asyncio.TimerHandle] = {}
        #: Deadline closes made (for the tests).
        self.closes = 0
        self.groups: dict[GroupKey, Group] = {}
        #: The groups of each table.
        self.of_table: dict[int, set[Group]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.per_link: dict[str, int] = {}
        self.per_address: dict[str, int] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._watcher: asyncio.Task[None] | None = None
        #: Draws run one at a time, in one worker thread: the requests keep the others.
        self._lane: anyio.CapacityLimiter | None = None
        #: Draws made (one per group and version, however many streams): for the tests.
        self.draws = 0
        #: What the sides' draws of a table read besides the table (whether players see
        #: odds, the open seats), read once a version for all its sides: by table id,
        #: (version, player odds, seats). Neither moves the version: a change of them
        #: reaches the pages with the table's next change.
        self.sides: dict[int, tuple[int, bool, list[Seat]]] = {}
        #: Set while this process listens for PostgreSQL's notices.
        self.listening = asyncio.Event()
        #: Told of every table's new version as the hub learns it (the GM's odds).
        self.watchers: list[Callable[[int, int], None]] = []
        store.listeners.append(self._committed)
        # Draws run in a worker thread while requests are answered in others: a request
        # waiting to take the interpreter back from a draw (after each query) waits for
        # the switch interval, 5 ms by default; 1 ms keeps an action's answer quick.
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))

    # -- news of changes ----------------------------------------------------------------------

    def _committed(self, table_id: int, version: int) -> None:
        """A change committed in this process (called from the thread that made it)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop is shutting down
                loop.call_soon_threadsafe(self.changed, table_id, version)

    def changed(self, table_id: int, version: int) -> None:
        """Table ``table_id`` is at ``version`` (:data:`DELETED`: gone): redraw its groups
        that are behind, or close them."""
        for watcher in self.watchers:
            watcher(table_id, version)
        if version == ROUND:
            if table_id in self.of_table:
                self._task(self._round_news([table_id]))
            return
        for group in list(self.of_table.get(table_id, ())):
            if version == DELETED:
                self._close(group, "gone")
            elif version > group.known:
                group.known = version
                if group.update is None or group.update.version < version:
                    self.refresh(group)

    def refresh(self, group: Group) -> None:
        """Draw the group's update anew (once, however often asked meanwhile)."""
        if group.busy:
            group.again = True
            return
        group.busy = True
        self._task(self._draw(group))

    def _task(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``work`` in the event loop, holding on to it until it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _draw(self, group: Group) -> None:
        try:
            # The request that made the change answers first (and changes that follow
            # at once are drawn together).
            await asyncio.sleep(DRAW_AFTER)
            while True:
                group.again = False
                before = None if group.update is None else group.update.drawn
                if self._lane is None:
                    self._lane = anyio.CapacityLimiter(1)
                try:
                    update = await anyio.to_thread.run_sync(
                        group.draw, before, (group.table_id, group.known), limiter=self._lane
                    )
                except StoreError as err:  # the table is gone (or renamed)
                    log.info("closing the live pages of table %s: %s", group.table_id, err)
                    self._close(group, "gone")
                    return
                self.draws += 1
                if update.newer(group.update):
                    group.update = update
                    group.wake()
                if not group.again:
                    return
        except Exception:  # never leave a group stuck busy
            log.exception("drawing the live update of table %s failed", group.table_id)
            self._close(group, "error")
        finally:
            group.busy = False

    def _close(self, group: Group, why: str) -> None:
        group.closed = why
        self._forget(group)
        group.wake()

    def _forget(self, group: Group) -> None:
        if self.groups.get(group.key) is group:
            del self.groups[group.key]
            same = self.of_table[group.table_id]
            same.discard(group)
            if not same:
                del self.of_table[group.table_id]
                self.rounds.pop(group.table_id, None)
                timer = self.deadlines.pop(group.table_id, None)
                if timer is not None:
                    timer.cancel()

    # -- rounds played by post ----------------------------------------------------------------

    async def _round_news(self, table_ids: list[int]) -> None:
        """The posted rounds of these tables may have changed: ask the store (one query)."""
        try:
            found = await anyio.to_thread.run_sync(Rounds(self.store).stamps, table_ids)
        except Exception:
            log.exception("reading the posted rounds failed")
            return
        self._rounds_now(table_ids, found)

    def _rounds_now(self, table_ids: list[int], found: Mapping[int, tuple[str, Any]]) -> None:
        """Redraw the groups of a table whose posted round changed (a post, a round opened
        or closed), and set the timer that closes a round at its deadline."""
        for table_id in table_ids:
            if table_id not in self.of_table:
                continue
            stamp, deadline = found.get(table_id, ("none", None))
            if self.rounds.get(table_id, "none") != stamp:
                self.rounds[table_id] = stamp
                for group in list(self.of_table[table_id]):
                    self.refresh(group)
            self._deadline(table_id, deadline)

    def _deadline(self, table_id: int, deadline: Any) -> None:
        timer = self.deadlines.pop(table_id, None)
        if timer is not None:
            timer.cancel()
        if deadline is not None:
            delay = max(0.0, (deadline - utc_now()).total_seconds())
            self.deadlines[table_id] = asyncio.get_running_loop().call_later(
                delay, lambda: self._task(self._close_due(table_id))
            )

    async def _close_due(self, table_id: int) -> None:
        """Close the table's posted round, its deadline passed: once, in whichever
        process comes first (the others find it closed, or go on with the same close)."""
        self.deadlines.pop(table_id, None)
        for _ in range(5):
            try:
                closed = await anyio.to_thread.run_sync(self._close_if_due, table_id)
            except StoreError as err:  # a lost race with another process: again
                log.info("closing the posted round of table %s: %s", table_id, err)
                await asyncio.sleep(CLOSE_AGAIN)
                continue
            except Exception:
                log.exception("closing the posted round of table %s failed", table_id)
                return
            self.closes += int(closed)
            return

    def _close_if_due(self, table_id: int) -> bool:
        record = self.store.record(table_id)
        with self.tables.hold(record.name) as table:
            return plays_by_post(table) and Rounds(self.store).close_if_due(table)

    # -- watching other processes -----------------------------------------------------------

    def _watch(self) -> None:
        if self._watcher is None or self._watcher.done():
            postgres = self.store.engine.dialect.name == "postgresql"
            self._watcher = self._task(self._listen() if postgres else self._poll())

    async def _check(self) -> None:
        """One query of the open tables' versions, one of their posted rounds: what
        changed or went meanwhile."""
        ids = sorted(self.of_table)
        if not ids:
            return

        def read() -> tuple[dict[int, int], dict[int, tuple[str, Any]]]:
            return self.store.versions(ids), Rounds(self.store).stamps(ids)

        found, rounds = await anyio.to_thread.run_sync(read)
        for table_id in ids:
            self.changed(table_id, found.get(table_id, DELETED))
        self._rounds_now(ids, rounds)

    async def _poll(self) -> None:
        """SQLite: while streams are open, at most every ``watch_seconds``, SQLite's
        ``data_version`` (which moves when another connection commits: microseconds, no
        table read) and, when it moved, the versions of the tables with open streams."""
        pause = max(0.1, self.settings.watch_seconds)
        probe = _data_version(self.store)
        seen: int | None = None
        try:
            while self.groups:
                try:
                    now = probe() if probe is not None else None
                    if now is None or now != seen:
                        await self._check()
                        seen = now
                except Exception:
                    log.exception("checking the tables' versions failed")
                await asyncio.sleep(pause)
        finally:
            if probe is not None:
                probe.close()

    async def _listen(self) -> None:
        """PostgreSQL: every change announced on :data:`CHANNEL`, for as long as the
        process serves; after (re)connecting, one check of what changed meanwhile."""
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        pause = 0.5
        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
                async with connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    pause = 0.5
                    await self._check()
                    self.listening.set()
                    async for notice in connection.notifies():
                        table_id, _, version = notice.payload.partition(":")
                        if table_id.isdigit() and version.lstrip("-").isdigit():
                            self.changed(int(table_id), int(version))
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("listening for table changes: %s (again in %g s)", err, pause)
            self.listening.clear()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 10.0)

    # -- streams ------------------------------------------------------------------------------

    def open(
        self,
        key: GroupKey,
        draw: Draw,
        version: int,
        current: int,
        link: str,
        address: str,
        seat: int | None = None,
    ) -> Stream:
        """A new stream of the group ``key`` for a page at ``version`` (the table being at
        ``current``); :class:`Busy` past the caps."""
        self.loop = asyncio.get_running_loop()
        if self.per_link.get(link, 0) >= self.settings.per_link:
            raise Busy(f"{self.settings.per_link} live pages are open through this link already")
        if self.per_address.get(address, 0) >= self.settings.per_address:
            raise Busy(f"{self.settings.per_address} live pages are open from this address")
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = Group(key, draw)
            self.of_table.setdefault(key[0], set()).add(group)
        # A page cannot be ahead of the store: that version is another table's (one
        # deleted, and made again under its name) or made up; the page gets every part.
        stream = Stream(group, version if version <= current else -1, link, address, seat)
        group.streams.add(stream)
        self.per_link[link] = self.per_link.get(link, 0) + 1
        self.per_address[address] = self.per_address.get(address, 0) + 1
        group.known = max(group.known, current)
        if group.update is None or group.update.version < group.known:
            self.refresh(group)
        if len(self.of_table[key[0]]) == 1 and len(group.streams) == 1:
            self._task(self._round_news([key[0]]))  # its first page: its posted round
        self._watch()
        return stream

    def shut(self, stream: Stream) -> None:
        group = stream.group
        group.streams.discard(stream)
        if not group.streams:
            self._forget(group)
        for counts, key in ((self.per_link, stream.link), (self.per_address, stream.address)):
            counts[key] -= 1
            if not counts[key]:
                del counts[key]

    def streams(self) -> int:
        return sum(len(g.streams) for g in self.groups.values())

    async def events(self, stream: Stream) -> AsyncIterator[ServerSentEvent]:
        """What ``stream``'s page is sent, until it closes, goes idle or its table goes."""
        group = stream.group
        idle = self.settings.idle_seconds
        loop = asyncio.get_running_loop()
        quiet_until = loop.time() + idle
        # A side's page that may act is asked for that side's rolls (typed dice).
        here = stream.seat is not None and group.key[1] is not None and group.key[2]
        every = max(0.05, self.settings.present_seconds) if here else idle
        try:
            if here:
                await self._here(stream)
            yield ServerSentEvent(comment="fracas", retry=self.settings.retry_ms)
            while True:
                update = group.update
                why = group.closed or _seat_closed(update, stream)
                if why:
                    yield ServerSentEvent(why, event="close")
                    return
                if update is not None and _turned(stream.rounds, update.rounds):
                    # A round played by post opened or closed: its forms come with the page.
                    yield ServerSentEvent("reload", event="close")
                    return
                if update is not None and update.version > stream.version:
                    data = update.whole
                    if update.since == stream.version and update.step is not None:
                        data = update.step
                        if stream.rounds != update.since_rounds:
                            data += "\n" + _status_part(update)
                    stream.version, stream.rounds = update.version, update.rounds
                    quiet_until = loop.time() + idle
                    yield ServerSentEvent(data, event="update", id=str(update.version))
                    continue
                if update is not None and update.rounds != stream.rounds:
                    # Someone posted (the version stays): who has posted, anew. (A page
                    # that has just connected shows the round as it was drawn.)
                    known, stream.rounds = stream.rounds, update.rounds
                    if known is not None and update.version == stream.version:
                        data = _status_part(update)
                        yield ServerSentEvent(data, event="update", id=str(update.version))
                    continue
                try:
                    left = quiet_until - loop.time()
                    await asyncio.wait_for(group.news.wait(), timeout=max(0.0, min(left, every)))
                except TimeoutError:
                    if loop.time() >= quiet_until:
                        yield ServerSentEvent("idle", event="close")
                        return
                    await self._here(stream)
        finally:
            self.shut(stream)
            if here:
                with contextlib.suppress(RuntimeError):  # the loop is closing
                    self._task(anyio.to_thread.run_sync(self._gone, stream))

    async def _here(self, stream: Stream) -> None:
        """Say in the store that ``stream``'s side has this page open (for a while)."""
        table_id, side, _ = stream.group.key
        assert side is not None
        ttl = 3 * max(0.05, self.settings.present_seconds)
        try:
            await anyio.to_thread.run_sync(
                rollcall.here, self.store, table_id, side, stream.holder, ttl
            )
        except Exception:  # the page works on; its side's rolls may go to the GM
            log.warning("could not note a page of side %s open", side, exc_info=True)

    def _gone(self, stream: Stream) -> None:
        table_id, side, _ = stream.group.key
        try:
            rollcall.gone(self.store, table_id, str(side), stream.holder)
        except Exception:  # it lapses by itself
            log.info("could not note a page of side %s closed", side, exc_info=True)


class _Probe:
    """A connection of its own to a SQLite file, asking only ``PRAGMA data_version``."""

    def __init__(self, path: str) -> None:
        self.connection = sqlite3.connect(path, check_same_thread=False)

    def __call__(self) -> int:
        return int(self.connection.execute("PRAGMA data_version").fetchone()[0])

    def close(self) -> None:
        self.connection.close()


def _data_version(store: Store) -> _Probe | None:
    """A probe of the store's SQLite file (``None`` for another database or in memory:
    then the versions are queried every time)."""
    url = store.engine.url
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    try:
        return _Probe(url.database)
    except sqlite3.Error:
        return None


def _turned(shown: str | None, now: str | None) -> bool:
    """Whether a posted round opened or closed between the stamps ``shown`` (a page's)
    and ``now`` (``None``: unknown, or not played by post).

    >>> _turned("4-1-0", "4-1-2"), _turned("4-1-2", "none"), _turned(None, "5-1-0")
    (False, True, False)
    """
    if shown is None or now is None:
        return False
    return shown.split("-")[:2] != now.split("-")[:2]


def _status_part(update: Update) -> str:
    """The update's "who has posted" part, as an out-of-band morph."""
    html = update.drawn.parts.get("round-status")
    return "" if html is None else oob(html)


def _seat_closed(update: Update | None, stream: Stream) -> str | None:
    """``reload`` when the stream's seat was revoked or changed what it may do (as the
    latest update found them)."""
    if stream.seat is None or update is None or update.seats is None:
        return None
    if update.seats.get(stream.seat) != stream.group.key[2]:
        return "reload"
    return None


def hub(request: Request) -> Hub:
    return request.app.state.hub  # type: ignore[no-any-return]


def address(request: Request) -> str:
    """The client's address, as the streams are counted by."""
    return request.client.host if request.client else "unknown"


def _asked_version(request: Request, v: int) -> int:
    last = request.headers.get("last-event-id", "").strip()
    return int(last) if last.isdigit() and len(last) < 12 else v


@dataclass(frozen=True)
class _Taken:
    """What a group's update is drawn from, taken while its table is held: the snapshot,
    and the log lines added since the group's previous parts (``None``: send them whole)."""

    snapshot: Snapshot
    appended: tuple[str, ...] | None


def _take(page: Page, before: Drawn | None) -> _Taken:
    """The snapshot of ``page``'s audience (its table held), with the lines its log gained
    since ``before``."""
    table = page.table
    assert table is not None
    taken = snapshot(page)
    appended: tuple[str, ...] | None = None
    if before is not None and table.version == before.version + 1:
        if taken.head == before.head + 1:  # one action pushed, or redone
            appended = table.log_lines(page.side, before.head, taken.head)
        elif taken.head == before.head and tuple(taken.context["log"]) == before.log:
            appended = ()  # the dice saved, say
        # else an undo: the log lost lines
    return _Taken(taken, appended)


def _update(taken: _Taken, before: Drawn | None) -> Update:
    """The update drawn from ``taken`` (the table need not be held), from the group's
    parts ``before``."""
    drawn = draw_snapshot(taken.snapshot)
    if before is None or taken.appended is None or drawn.version != before.version + 1:
        return Update(drawn)
    step = drawn.step(before, taken.appended)
    return Update(drawn, before.version, step, since_rounds=before.rounds)


def _gm_draw(app: FastAPI, name: str) -> Draw:
    def draw(before: Drawn | None, known: tuple[int, int]) -> Update:
        with app.state.tables.hold(name, known) as table:
            page = Page(
                kind="gm",
                csrf="",
                table=table,
                base=f"/gm/t/{name}",
                may_act=True,
                head=table.head,
                total=table.stored(),
            )
            taken = _take(page, before)
        return _update(taken, before)

    return draw


def _side_draw(app: FastAPI, table_name: str, side: str, may_act: bool) -> Draw:
    def draw(before: Drawn | None, known: tuple[int, int]) -> Update:
        with app.state.tables.hold(table_name, known) as table:
            refused = live_refusal(table, side) if may_act else None
            page = Page(kind="side", csrf="", table=table, side=side)
            page.may_act = may_act and refused is None
            page.player_odds, open_seats = _sides_settings(app, table)
            seats = {s.id: s.may_act for s in open_seats if s.side == side}
            taken = _take(page, before)
        return replace(_update(taken, before), seats=seats)

    return draw


def _sides_settings(app: FastAPI, table: Table) -> tuple[bool, list[Seat]]:
    """Whether the table's players see odds, and its open seats (the table held): read
    once a version for the draws of all its sides (:attr:`Hub.sides`)."""
    cache = app.state.hub.sides
    known = cache.get(table.id)
    if known is None or known[0] != table.version:
        if len(cache) > 4096:
            cache.clear()
        shown = table.store.player_odds(table.id)
        known = (table.version, shown, app.state.seats.of_table(table.id))
        cache[table.id] = known
    return known[1], known[2]


async def _open(
    request: Request,
    key: GroupKey,
    draw: Draw,
    v: int,
    current: int,
    link: str,
    seat: int | None = None,
) -> Response:
    live = hub(request)
    version = _asked_version(request, v)
    try:
        stream = live.open(key, draw, version, current, link, address(request), seat)
    except Busy as err:
        return PlainTextResponse(f"{err}: close some", status_code=429)
    return EventSourceResponse(
        live.events(stream),
        ping=live.settings.ping_seconds,
        send_timeout=SEND_TIMEOUT,
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@events_router.get("/gm/t/{name}/events")
async def gm_events(request: Request, name: GmTable, _: GmAuth, v: int = -1) -> Response:
    """The GM's page of table ``name`` (at version ``v``): its stream of changes."""
    record = await anyio.to_thread.run_sync(request.app.state.store.table, name)
    draw = _gm_draw(request.app, name)
    return await _open(request, (record.id, None, True), draw, v, record.version, f"gm/{name}")


@events_router.get("/p/{token}/events")
async def side_events(request: Request, seat: SideSeat, token: str, v: int = -1) -> Response:
    """A side's page through its link (at version ``v``): its stream of changes."""
    record = await anyio.to_thread.run_sync(request.app.state.store.table, seat.table)
    key = (record.id, seat.side, seat.may_act)
    group = hub(request).groups.get(key)
    draw = group.draw if group else _side_draw(request.app, seat.table, seat.side, seat.may_act)
    return await _open(request, key, draw, v, record.version, f"p/{seat.id}", seat.id)


# -- earlier lines of the log ------------------------------------------------------------------


def _earlier(table: Table, side: str | None, end: int) -> Response:
    end = max(0, min(end, table.head))
    start = max(0, end - LOG_PAGE)
    lines = table.log_lines(side, start, end)
    return PlainTextResponse(
        "".join(line + "\n" for line in lines),
        headers={"X-Log-Start": str(start), "Cache-Control": "no-store"},
    )


@events_router.get("/gm/t/{name}/log")
def gm_log(request: Request, name: GmTable, _: GmAuth, end: int = 0) -> Response:
    """The log lines of the :data:`LOG_PAGE` entries before entry ``end``."""
    with tables(request).hold(name) as table:
        return _earlier(table, None, end)


@events_router.get("/p/{token}/log")
def side_log(request: Request, seat: SideSeat, end: int = 0) -> Response:
    """The side's log lines of the :data:`LOG_PAGE` entries before entry ``end``."""
    with tables(request).hold(seat.table) as table:
        return _earlier(table, seat.side, end)
