"""Typed dice asked of the side that owns each roll.

With physical dice (the table's dice mode ``typed``) an action is carried out until a
roll needs faces. The ruleset's ``rolls`` capability names the side that owns that roll
(the side of the combatant who rolls; ``None``: the game master's), and the action waits
for it, kept in the store with its table as a :class:`Pending`, so that any server
process can complete it:

- the side that asked for the action is asked for its own rolls;
- another side is asked when it has a page open (:func:`present`); when it has none, or
  once the table's wait has passed (:func:`expire`), the table's fallback decides
  (:class:`RollSettings`): ``gm``, the game master types the faces; ``roll``, fracas
  rolls them;
- the game master may always answer, and take the action back (``undo``).

Every question has a token: an answer to a roll no longer asked (answered, taken back,
or the table moved on) is :class:`Stale`. The action, once complete, is committed (which
ends the wait in the same transaction) before the answer is acknowledged. What a side is
shown of a roll comes through the presenter (:func:`prompt`).

>>> from fracas.table import encounterfile
>>> from fracas.table.store import Store
>>> from fracas.table.table import Table
>>> store = Store.open("sqlite://")
>>> ruleset, setup, title = encounterfile.load("examples/heimr/duel.yaml")
>>> table = Table.start(store, "duel", ruleset, setup, title, seed=1)
>>> waiting = start(table, "gm begin", None, frozenset())
>>> waiting.owner, waiting.purpose
('shieldwall', "Ylva Shieldbreaker's initiative")
"""

from __future__ import annotations

import random
import secrets
import weakref
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import DateTime, ForeignKey, String, delete, select, update
from sqlalchemy.orm import Mapped, mapped_column

from fracas.dice import DiceError
from fracas.engine import Action, Event
from fracas.table.dicemode import MAX_FACES_TEXT, RollRequest
from fracas.table.presenter import RollPrompt, RollView, roll_prompt
from fracas.table.store import Base, PendingRow, Store, StoreError, TableRow, aware, utc_now
from fracas.table.table import Table, TableError

__all__ = [
    "FALLBACKS",
    "NotYours",
    "Pending",
    "RollSettings",
    "Stale",
    "Waiting",
    "answer",
    "drop",
    "expire",
    "gone",
    "here",
    "pending",
    "present",
    "prompt",
    "rolled_faces",
    "set_settings",
    "settings",
    "start",
]

#: Who throws a roll whose side is away: the game master types it, or fracas rolls it.
FALLBACKS = ("gm", "roll")
#: The longest wait for a side's roll the game master may set, in seconds.
MAX_WAIT = 3600
#: Most answers (rolls and throws) one action may gather.
MAX_ANSWERS = 200


class Stale(TableError):
    """An answer to a roll no longer asked (answered, taken back, or the table moved on)."""


class NotYours(TableError):
    """A side answered a roll that is not its own."""


class Waiting(TableError):
    """A new action while another waits for a roll."""


@dataclass(frozen=True)
class RollSettings:
    """What happens to a roll whose side has no page open, or does not answer within
    ``wait`` seconds: ``gm``, the game master types it; ``roll``, fracas rolls it."""

    fallback: str = "gm"
    wait: int = 60


@dataclass(frozen=True)
class Pending:
    """An action waiting for a roll: what was asked, of whom, and the answers so far."""

    token: str
    #: The table's version while it waits (any other change makes the wait stale).
    version: int
    action: str
    #: The side that asked for the action (``None``: the game master).
    side: str | None
    answers: tuple[str, ...]
    #: The side asked for this roll (``None``: the game master).
    owner: str | None
    purpose: str
    notation: str
    dice: tuple[str, ...]
    throw: int
    problem: str | None
    asked: datetime
    #: The owner had no page open: the game master is asked instead.
    away: bool = False
    #: Why a later throw is asked (a pool without a 6, a die that rerolls or explodes).
    reason: str = ""

    def data(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "action": self.action,
            "side": self.side,
            "answers": list(self.answers),
            "owner": self.owner,
            "purpose": self.purpose,
            "notation": self.notation,
            "dice": list(self.dice),
            "throw": self.throw,
            "problem": self.problem,
            "away": self.away,
            "reason": self.reason,
        }

    @classmethod
    def from_row(cls, row: PendingRow) -> Pending | None:
        """The pending action a stored row holds (``None`` when it is malformed)."""
        d = row.data
        try:
            return cls(
                token=row.token,
                version=int(d["version"]),
                action=str(d["action"]),
                side=None if d["side"] is None else str(d["side"]),
                answers=tuple(str(a) for a in d["answers"]),
                owner=None if d["owner"] is None else str(d["owner"]),
                purpose=str(d["purpose"]),
                notation=str(d["notation"]),
                dice=tuple(str(x) for x in d["dice"]),
                throw=int(d["throw"]),
                problem=None if d["problem"] is None else str(d["problem"]),
                asked=aware(row.asked),
                away=bool(d.get("away")),
                reason=str(d.get("reason") or ""),
            )
        except (KeyError, TypeError, ValueError):
            return None


# -- settings ------------------------------------------------------------------------------


def settings(store: Store, table_id: int) -> RollSettings:
    """The table's choice for rolls whose side is away."""
    with store.session() as s:
        row = s.execute(
            select(TableRow.roll_fallback, TableRow.roll_wait).where(TableRow.id == table_id)
        ).first()
    if row is None:
        raise StoreError("the table no longer exists")
    return RollSettings(row.roll_fallback, row.roll_wait)


def set_settings(store: Store, table_id: int, fallback: str, wait: int) -> None:
    """Set who throws a roll whose side is away (``gm`` or ``roll``), and after how many
    seconds a side that does not answer is passed over (0 to :data:`MAX_WAIT`)."""
    if fallback not in FALLBACKS:
        raise StoreError(
            f"a roll whose side is away is typed ('gm') or rolled ('roll'), not {fallback[:20]!r}"
        )
    if not 0 <= wait <= MAX_WAIT:
        raise StoreError(f"the wait for a side's roll is 0 to {MAX_WAIT} seconds, not {wait}")
    with store.session() as s:
        done = s.execute(
            update(TableRow)
            .where(TableRow.id == table_id)
            .values(roll_fallback=fallback, roll_wait=wait)
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise StoreError("the table no longer exists")


# -- the sides with a page open ------------------------------------------------------------


class PresenceRow(Base):
    """One open page of a side that may act, until it is closed or stops saying so."""

    __tablename__ = "fracas_presence"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("fracas_tables.id", ondelete="CASCADE"), primary_key=True
    )
    side: Mapped[str] = mapped_column(String(40), primary_key=True)
    holder: Mapped[str] = mapped_column(String(40), primary_key=True)
    until: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def here(store: Store, table_id: int, side: str, holder: str, seconds: float) -> None:
    """Side ``side`` has a page open (``holder``, one per page) for ``seconds`` more."""
    with store.session() as s:
        s.execute(
            delete(PresenceRow).where(
                PresenceRow.table_id == table_id,
                PresenceRow.side == side[:40],
                PresenceRow.holder == holder[:40],
            )
        )
        until = utc_now() + timedelta(seconds=seconds)
        s.add(PresenceRow(table_id=table_id, side=side[:40], holder=holder[:40], until=until))


def gone(store: Store, table_id: int, side: str, holder: str) -> None:
    """The page ``holder`` of side ``side`` closed."""
    with store.session() as s:
        s.execute(
            delete(PresenceRow).where(
                PresenceRow.table_id == table_id,
                PresenceRow.side == side[:40],
                PresenceRow.holder == holder[:40],
            )
        )


def present(store: Store, table_id: int) -> frozenset[str]:
    """The sides of the table with a page open now (in any server process)."""
    now = utc_now()
    with store.session() as s:
        rows = s.execute(
            select(PresenceRow.side, PresenceRow.until).where(PresenceRow.table_id == table_id)
        ).all()
    return frozenset(side for side, until in rows if aware(until) > now)


# -- the action waiting ---------------------------------------------------------------------

_read: weakref.WeakKeyDictionary[Table, tuple[int, Pending | None]] = weakref.WeakKeyDictionary()


def pending(table: Table) -> Pending | None:
    """The action the table waits on for a roll, if any (read once per version: every
    change of the wait moves the version)."""
    hit = _read.get(table)
    if hit is not None and hit[0] == table.version:
        return hit[1]
    with table.store.session() as s:
        row = s.get(PendingRow, table.id)
        found = None if row is None else Pending.from_row(row)
    if found is not None and found.version != table.version:
        found = None  # a wait the table moved on from: void
    _read[table] = (table.version, found)
    return found


def start(
    table: Table,
    action: Action | str,
    side: str | None,
    here: Collection[str],
    now: datetime | None = None,
) -> tuple[Event, ...] | Pending:
    """Carry out ``action`` for ``side`` with typed dice: its events when every roll was
    answered (or rolled), or the :class:`Pending` it now waits on (stored). ``here``: the
    sides with a page open."""
    table.sync()
    if pending(table) is not None:
        raise Waiting("an action waits for a roll: answer it, or the game master takes it back")
    if isinstance(action, str):
        action = table.resolve(action, side)
    chosen = settings(table.store, table.id)
    return _attempt(table, action, side, (), here, chosen, now)


def answer(
    table: Table,
    token: str,
    faces: str,
    by: str | None,
    here: Collection[str],
    now: datetime | None = None,
) -> tuple[Event, ...] | Pending | None:
    """``by`` (a side, or ``None``: the game master) answers the roll asked with
    ``token``: the action's events once complete, the next :class:`Pending`, or ``None``
    when the action was taken back (``undo``)."""
    table.sync()
    waiting = pending(table)
    if waiting is None or not secrets.compare_digest(waiting.token, token[:40]):
        raise Stale("that roll was answered or taken back meanwhile: see the table as it is now")
    if faces.strip().lower() in ("undo", "quit"):
        if by is not None and by != waiting.side:
            raise NotYours("only the game master or the side that acted may take it back")
        _drop(table, waiting)
        return None
    if by is not None and by != waiting.owner:
        raise NotYours(f"that roll is not side {by}'s to throw")
    if len(faces) > MAX_FACES_TEXT:
        faces = faces[: MAX_FACES_TEXT + 1]  # refused by the dice as too long
    if len(waiting.answers) >= MAX_ANSWERS:
        raise TableError(f"more than {MAX_ANSWERS} rolls typed for one action")
    action = Action.parse(waiting.action)
    chosen = settings(table.store, table.id)
    answers = (*waiting.answers, faces)
    return _attempt(table, action, waiting.side, answers, here, chosen, now)


def due(waiting: Pending, chosen: RollSettings, here: Collection[str], now: datetime) -> bool:
    """Whether fracas rolls the roll ``waiting`` asks for now: the table rolls for a side
    away, the roll is a side's, and that side closed its pages (another side's) or the
    wait has passed."""
    if chosen.fallback != "roll" or waiting.owner is None:
        return False
    if waiting.owner != waiting.side and waiting.owner not in here:
        return True
    return now - waiting.asked >= timedelta(seconds=chosen.wait)


def expire(
    table: Table, here: Collection[str], now: datetime | None = None
) -> tuple[Event, ...] | Pending | None:
    """Roll the roll the table waits on if it is :func:`due`: the action's events, the
    next :class:`Pending`, or ``None`` when nothing was due."""
    table.sync()
    waiting = pending(table)
    if waiting is None:
        return None
    now = now or utc_now()
    chosen = settings(table.store, table.id)
    if not due(waiting, chosen, here, now):
        return None
    action = Action.parse(waiting.action)
    return _attempt(table, action, waiting.side, waiting.answers, here, chosen, now, roll=True)


def wait_left(waiting: Pending, chosen: RollSettings, now: datetime | None = None) -> float:
    """Seconds until ``waiting`` is rolled by fracas (``inf``: never, the GM types it)."""
    if chosen.fallback != "roll" or waiting.owner is None:
        return float("inf")
    left = waiting.asked + timedelta(seconds=chosen.wait) - (now or utc_now())
    return max(0.0, left.total_seconds())


def rolled_faces(request: RollRequest) -> str:
    """Faces fracas rolls for ``request``, as a person would type them."""
    mechanic = request.mechanic
    if mechanic is None:
        raise DiceError("this roll cannot be rolled by fracas")
    faces: Sequence[int] = mechanic.roll(random.SystemRandom()).faces
    if request.kept:  # a throw after throws typed in: one throw's faces
        faces = faces[: max(1, len(mechanic.dice()))]
    return " ".join(str(f) for f in faces)


class _Asked(DiceError):
    """Inside the dice: a roll nobody has answered yet."""

    def __init__(self, request: RollRequest, owner: str | None, away: bool) -> None:
        super().__init__(f"{request.purpose}: faces needed")
        self.request, self.owner, self.away = request, owner, away


def _attempt(
    table: Table,
    action: Action,
    side: str | None,
    answers: Sequence[str],
    here: Collection[str],
    chosen: RollSettings,
    now: datetime | None,
    roll: bool = False,
) -> tuple[Event, ...] | Pending:
    """Push ``action`` with ``answers`` for its rolls, in order; the first roll beyond
    them is rolled (``roll``, or its side is away and the table rolls for it) or waited on."""
    queue = list(answers)
    kept: list[str] = []
    rolling = [roll]

    def ask(request: RollRequest) -> str:
        if request.problem is not None and kept:
            kept.pop()  # the answer just given was refused: it is asked again
        if queue:
            kept.append(queue.pop(0))
            return kept[-1]
        owner = table.roll_owner(request.purpose)
        away = owner is not None and owner != side and owner not in here
        if rolling[0] or (away and chosen.fallback == "roll"):
            rolling[0] = False
            kept.append(rolled_faces(request))
            return kept[-1]
        raise _Asked(request, owner, away)

    table.physical_dice(ask)
    try:
        return table.push(action, side)
    except _Asked as asked:
        request = asked.request
        waiting = Pending(
            token=secrets.token_urlsafe(18),
            version=table.version,
            action=str(action),
            side=side,
            answers=tuple(kept),
            owner=asked.owner,
            purpose=request.purpose,
            notation=request.notation,
            dice=request.dice,
            throw=request.throw,
            problem=request.problem,
            asked=now or utc_now(),
            away=asked.away,
            reason=request.note,
        )
        return _wait(table, waiting)
    finally:
        table.rolled_dice()


def _wait(table: Table, waiting: Pending) -> Pending:
    """Store ``waiting`` with its table (moving the table's version, so that every page
    hears of it); :class:`~fracas.table.store.ConflictError` if the table moved."""
    with table.store.session() as s:
        row = Store._claim(s, table.id, table.version)
        waiting = replace(waiting, version=row.version)
        stored = s.get(PendingRow, table.id)
        if stored is None:
            s.add(
                PendingRow(
                    table_id=table.id, token=waiting.token, data=waiting.data(), asked=waiting.asked
                )
            )
        else:
            stored.token, stored.data, stored.asked = waiting.token, waiting.data(), waiting.asked
    table.version = waiting.version
    _read[table] = (table.version, waiting)
    return waiting


def drop(table: Table) -> bool:
    """Take back the action the table waits on, if any (the dice are no longer typed):
    whether there was one."""
    table.sync()
    waiting = pending(table)
    if waiting is not None:
        _drop(table, waiting)
    return waiting is not None


def _drop(table: Table, waiting: Pending) -> None:
    """Take the waiting action back: nothing of it stays."""
    with table.store.session() as s:
        row = Store._claim(s, table.id, table.version)
        s.execute(delete(PendingRow).where(PendingRow.table_id == table.id))
        version = row.version
    table.version = version
    _read[table] = (version, None)


# -- what each audience is shown ------------------------------------------------------------


def prompt(table: Table, side: str | None, now: datetime | None = None) -> RollPrompt | None:
    """The roll the table waits on as ``side`` is shown it (``None``: the game master),
    through the presenter; ``None`` when nothing waits."""
    waiting = pending(table)
    if waiting is None:
        return None
    purpose = waiting.purpose
    if side is not None and side == waiting.owner:
        purpose = _seen_only(table, side, purpose)
    waited = int(((now or utc_now()) - waiting.asked).total_seconds())
    return roll_prompt(
        RollView(
            side=side,
            token=waiting.token,
            owner=waiting.owner,
            asker=waiting.side,
            action=waiting.action,
            purpose=purpose,
            notation=waiting.notation,
            dice=waiting.dice,
            throw=waiting.throw,
            problem=waiting.problem,
            away=waiting.away,
            waited=max(0, waited),
            reason=waiting.reason,
        )
    )


def _seen_only(table: Table, side: str, text: str) -> str:
    """``text`` with the name of every combatant ``side`` does not see put as "someone"."""
    everyone = _names(table.ruleset.observe(table.encounter.state, None))
    seen = _names(table.table_view(side, log_tail=1).view.get("state", {}))
    for name in sorted(everyone - seen, key=len, reverse=True):
        text = text.replace(name, "someone")
    return text


def _names(observed: Mapping[str, Any]) -> set[str]:
    people = observed.get("combatants") or {}
    if not isinstance(people, Mapping):
        return set()
    return {str(p.get("name")) for p in people.values() if isinstance(p, Mapping) and p.get("name")}
