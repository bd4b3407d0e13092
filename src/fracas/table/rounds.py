"""Rounds declared by post: every side posts its declarations through its link, hidden
from the others, and the round resolves when the game master closes it (HC-ROUND-1).

The game master opens a round for posting (a deadline if wanted, and per side a
default declaration for those who do not post). A side's post is a text in the action
notation, one line an action; it is checked when posted, pushed line by line on a copy
of the encounter, and refused whole with ``line N: <reason>`` at the first bad line. A
post is stored in its own transaction, outside the encounter's log, so no side's view
can hold another's post; posting again replaces it until the round closes.

Closing (the game master, or anyone once the deadline has passed) pushes through
:meth:`Table.push` every side's declarations in the order of :meth:`Table.sides`, the
default for a side (or a character) that posted nothing, finishes each character's
post and pushes the ruleset's close: the log, undo and the store treat them as any
action. The closing list is stored before the first push, so a close cut short (a
killed server) goes on where it stopped when closed again.

>>> from fracas.table import encounterfile
>>> from fracas.table.store import Store
>>> ruleset, setup, title = encounterfile.load("examples/classic/ford.yaml")
>>> table = Table.start(Store.open("sqlite://"), "ford", ruleset, setup, title, seed=14)
>>> rounds = Rounds(table.store)
>>> rounds.open(table).round
1
>>> rounds.post(table, "wolves", "wolf attack brannoc\\nwolf fly").side
Traceback (most recent call last):
...
fracas.table.rounds.RoundError: line 2: 'fly' is not an action of Heimr Tabletop Rulebook: ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    delete,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from fracas.engine import Action, Encounter, EngineError, RandomDice
from fracas.engine.capabilities import ByPost, posts
from fracas.rules import offering
from fracas.table.notation import resolve
from fracas.table.posts import PostError, round_post
from fracas.table.store import Base, Store, announce_round, aware, utc_now
from fracas.table.table import GM, Table

__all__ = [
    "ByPost",
    "Post",
    "PostedRound",
    "RoundError",
    "Rounds",
    "by_post",
    "live_refusal",
    "plays_by_post",
    "results",
]

#: Longest post read, and most lines in it: a round's declarations for a side.
MAX_POST = 10_000
MAX_POST_LINES = 100
#: The default declaration's keyword: each character takes the ruleset's defensive stance.
DEFEND = "defend"


class RoundError(ValueError):
    """A posting request refused: no round open, a bad line (named), a closed round."""


class RoundRow(Base):
    __tablename__ = "fracas_rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("fracas_tables.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    defaults: Mapped[Any] = mapped_column(JSON)
    opened: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    changes: Mapped[int] = mapped_column(Integer, default=0)
    closing: Mapped[Any] = mapped_column(JSON(none_as_null=True), nullable=True)
    close_from: Mapped[int | None] = mapped_column(Integer, nullable=True)
    closed: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PostRow(Base):
    __tablename__ = "fracas_round_posts"
    __table_args__ = (UniqueConstraint("round_id", "side"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("fracas_rounds.id", ondelete="CASCADE"))
    side: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    posted: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class Post:
    """One side's post: its text as typed, and when it was stored."""

    side: str
    text: str
    posted: datetime


@dataclass(frozen=True)
class PostedRound:
    """A round opened for posting, with the posts stored so far."""

    id: int
    round: int
    deadline: datetime | None
    defaults: Mapping[str, str]
    opened: datetime
    closed: datetime | None
    posts: tuple[Post, ...]
    changes: int = 0

    def post_of(self, side: str) -> Post | None:
        return next((p for p in self.posts if p.side == side), None)

    def posted(self) -> list[str]:
        return [p.side for p in self.posts]

    def due(self, now: datetime | None = None) -> bool:
        """Whether the deadline has passed (never, without one)."""
        return self.deadline is not None and (now or utc_now()) >= self.deadline

    def stamp(self) -> str:
        """Changes whenever the round does (a post, a close): for pages polling it."""
        return f"{self.id}-{int(self.closed is None)}-{self.changes}"


class Rounds:
    """The posted rounds of every table in one store."""

    def __init__(self, store: Store, clock: Callable[[], datetime] | None = None) -> None:
        self.store = store
        self.clock = clock or utc_now

    # -- reading -----------------------------------------------------------------------

    def current(self, table: Table) -> PostedRound | None:
        """The round open for posting at ``table``, if any. A round the table has left
        (closed at the table, undone past its start, or the fight over) is closed."""
        found = self._open(table.id)
        if found is None:
            return None
        if table.is_over() or table.ruleset.round_number(table.encounter.state) != found.round:
            self._mark_closed(found.id)
            return None
        return found

    def _open(self, table_id: int) -> PostedRound | None:
        with self.store.session() as s:
            query = select(RoundRow).where(RoundRow.table_id == table_id, RoundRow.closed.is_(None))
            row = s.scalars(query.order_by(RoundRow.id.desc())).first()
            if row is None:
                return None
            posts = s.scalars(
                select(PostRow).where(PostRow.round_id == row.id).order_by(PostRow.id)
            ).all()
            return PostedRound(
                row.id,
                row.round,
                None if row.deadline is None else aware(row.deadline),
                dict(row.defaults),
                aware(row.opened),
                None if row.closed is None else aware(row.closed),
                tuple(Post(p.side, p.text, aware(p.posted)) for p in posts),
                row.changes,
            )

    # -- the game master -----------------------------------------------------------------

    def open(
        self,
        table: Table,
        deadline: datetime | None = None,
        defaults: Mapping[str, str] | None = None,
        lenient: bool = False,
    ) -> PostedRound:
        """Open the table's present round for posting (opening the fight first, when the
        ruleset has not opened its first round yet). ``defaults`` maps a side to its
        default post: ``defend`` (the default) or lines in the notation, checked now (a
        default that does not check is refused, or dropped when ``lenient``)."""
        rules = by_post(table)
        table.sync()
        if self.current(table) is not None:
            raise RoundError("a round is open for posts already: close it first")
        if table.is_over():
            raise RoundError("the fight is over: there is no round to post")
        if deadline is not None and deadline.tzinfo is None:
            raise RoundError("a deadline needs its time zone (UTC)")
        if deadline is not None and deadline <= self.clock():
            raise RoundError("the deadline has passed already: choose a later one")
        opener = Action.parse(rules.open)
        opens = table.encounter.is_legal(opener)
        opened = _copy(table.encounter)
        if opens:
            opened.push(opener)
        kept: dict[str, str] = {}
        for side, text in (defaults or {}).items():
            table.check_side(side)
            if side == GM:
                raise RoundError("the game master posts no declarations")
            text = text.strip()
            if text and text.lower() != DEFEND:
                try:
                    _check(opened, side, text, rules)
                except RoundError as err:
                    if lenient:
                        continue
                    raise RoundError(f"the default for {side}, {err}") from None
                kept[side] = text
        if opens:
            table.push(opener)
        with self.store.session() as s:
            announce_round(s, table.id)
            s.add(
                RoundRow(
                    table_id=table.id,
                    round=table.ruleset.round_number(table.encounter.state),
                    deadline=deadline,
                    defaults=kept,
                    opened=self.clock(),
                    changes=0,
                    closing=None,
                    close_from=None,
                    closed=None,
                )
            )
        found = self.current(table)
        assert found is not None
        return found

    # -- a side --------------------------------------------------------------------------

    def post(self, table: Table, side: str, text: str) -> Post:
        """Store ``side``'s post (replacing its earlier one) once every line is found
        legal; :class:`RoundError` names the first bad line, and nothing is stored."""
        table.sync()
        found = self.current(table)
        if found is None:
            raise RoundError("no round is open for posts: wait for the game master")
        if found.due(self.clock()):
            raise RoundError("the round's deadline has passed: it closes with what was posted")
        self.check(table, side, text)
        now = self.clock()
        try:
            with self.store.session() as s:
                # Counted on the round's row, which a close claims: a post either comes
                # before the close reads the posts, or is refused.
                counted = s.execute(
                    update(RoundRow)
                    .where(RoundRow.id == found.id, RoundRow.closing.is_(None))
                    .values(changes=RoundRow.changes + 1)
                )
                if counted.rowcount != 1:  # type: ignore[attr-defined]
                    raise RoundError("the round is closing: this post came too late")
                announce_round(s, table.id)
                s.execute(delete(PostRow).where(PostRow.round_id == found.id, PostRow.side == side))
                s.add(PostRow(round_id=found.id, side=side, text=text.strip(), posted=now))
        except IntegrityError:
            raise RoundError(f"{side} posted at the same moment elsewhere: reload") from None
        return Post(side, text.strip(), now)

    def check(self, table: Table, side: str, text: str) -> list[Action]:
        """The actions ``side``'s post means, each found legal on a copy of the
        encounter after the ones before it."""
        if table.check_side(side) is None:
            raise RoundError("the game master posts no declarations")
        return _check(table.encounter, side, text, by_post(table))

    # -- closing -------------------------------------------------------------------------

    def close(self, table: Table, then_open: bool = True) -> list[str]:
        """Close the round open for posting: every side's declarations, the defaults,
        then the ruleset's close, each pushed and committed; the actions pushed. Then,
        unless the fight is over or ``then_open`` is false, the next round opens for
        posts with the same defaults and as long a deadline."""
        table.sync()
        found = self.current(table)
        if found is None:
            raise RoundError("no round is open for posts")
        plan, start = self._claim(table, found)
        pushed = []
        log = [str(entry.action) for entry in table.encounter.log]
        for index, (side, text) in enumerate(plan):
            at = start + index
            if at < len(log):
                if log[at] != text:
                    raise RoundError(
                        f"the table moved on while round {found.round} closed (action "
                        f"{at + 1} is {log[at]!r}, not {text!r}): close it at the table"
                    )
                continue
            table.push(Action.parse(text), side or None)
            pushed.append(text)
        self._mark_closed(found.id)
        if then_open:
            self._open_next(table, found)
        return pushed

    def _open_next(self, table: Table, last: PostedRound) -> PostedRound | None:
        """The round after ``last``, opened for posts as ``last`` was: its defaults (those
        still legal) and a deadline as far from now as ``last``'s was from its opening;
        ``None`` when the fight is over or another process opened it first."""
        if table.is_over():
            return None
        deadline = None
        if last.deadline is not None:
            deadline = self.clock() + max(last.deadline - last.opened, timedelta(minutes=1))
        try:
            return self.open(table, deadline, last.defaults, lenient=True)
        except RoundError:  # opened meanwhile (another process closed it too)
            return None

    def _claim(self, table: Table, found: PostedRound) -> tuple[list[list[str]], int]:
        """The closing list and the table's head it starts at: stored by the first close
        (only if no post came in since its posts were read), read by any later one."""
        for _ in range(5):
            with self.store.session() as s:
                row = s.get(RoundRow, found.id)
                assert row is not None
                if row.closing is not None and row.close_from is not None:
                    return list(row.closing), row.close_from
            plan = self._plan(table, found)
            with self.store.session() as s:
                claimed = s.execute(
                    update(RoundRow)
                    .where(
                        RoundRow.id == found.id,
                        RoundRow.closing.is_(None),
                        RoundRow.changes == found.changes,
                    )
                    .values(closing=plan, close_from=table.head)
                )
                if claimed.rowcount == 1:  # type: ignore[attr-defined]
                    return plan, table.head
            again = self.current(table)  # a post came in meanwhile: read the posts again
            if again is None:
                raise RoundError("the round was closed meanwhile")
            found = again
        raise RoundError("posts keep coming in while the round closes: close it again")

    def close_if_due(self, table: Table) -> bool:
        """Close the open round if its deadline has passed; whether it closed now."""
        found = self.current(table)
        if found is None or not found.due(self.clock()):
            return False
        self.close(table)
        return True

    def _plan(self, table: Table, found: PostedRound) -> list[list[str]]:
        """Every action the close pushes, as ``[side, action]`` (side ``""``: the GM)."""
        rules = by_post(table)
        copy = _copy(table.encounter)
        plan: list[list[str]] = []
        for side in table.sides():
            post = found.post_of(side)
            text = post.text if post is not None else found.defaults.get(side, "")
            skipped: list[list[str]] = []
            actions = _side_actions(copy, side, text, rules, strict=False, skipped=skipped)
            plan += skipped + [[side, str(a)] for a in actions]
        plan.append(["", rules.close])
        return plan

    def _mark_closed(self, round_id: int) -> None:
        with self.store.session() as s:
            done = s.execute(
                update(RoundRow)
                .where(RoundRow.id == round_id, RoundRow.closed.is_(None))
                .values(closed=self.clock())
                .returning(RoundRow.table_id)
            ).first()
            if done is not None:
                announce_round(s, int(done[0]))

    def stamps(self, table_ids: Sequence[int]) -> dict[int, tuple[str, datetime | None]]:
        """The stamp (:meth:`PostedRound.stamp`) and deadline of the round open for posts
        at each of these tables that has one, in one query: how the live pages learn that
        a post came or a round opened or closed, without asking for each table."""
        if not table_ids:
            return {}
        with self.store.session() as s:
            query = (
                select(RoundRow.table_id, RoundRow.id, RoundRow.changes, RoundRow.deadline)
                .where(RoundRow.table_id.in_(list(table_ids)), RoundRow.closed.is_(None))
                .order_by(RoundRow.id)
            )
            return {
                table_id: (f"{id_}-1-{changes}", None if deadline is None else aware(deadline))
                for table_id, id_, changes, deadline in s.execute(query)
            }


# -- helpers ---------------------------------------------------------------------------------


def by_post(table: Table) -> ByPost:
    """How ``table``'s ruleset plays by post; :class:`RoundError` if it does not."""
    found = posts(table.ruleset)
    if found is None:
        known = ", ".join(offering("posts")) or "none installed"
        raise RoundError(f"{table.ruleset.name} has no declared rounds to post: only {known}")
    return found


def plays_by_post(table: Table) -> bool:
    """Whether ``table``'s ruleset is played by post (its ``posts`` capability)."""
    return posts(table.ruleset) is not None


def live_refusal(table: Table, side: str | None) -> str | None:
    """Why ``side`` may not act at ``table`` now, outside the round's posts: while a
    posted round is open, a side's declarations are its post, resolved when the game
    master closes the round (HC-ROUND-1); the game master still acts. ``None``: it may."""
    if side is None or not plays_by_post(table):
        return None
    found = Rounds(table.store).current(table)
    if found is None:
        return None
    return (
        f"round {found.round} is being played by post: post this side's declarations, "
        "resolved when the game master closes the round"
    )


def results(table: Table, fmt: str, round_: int | None = None) -> str | None:
    """The forum post of a round's results (:func:`fracas.table.posts.round_post`: what
    every side may see), or ``None`` while nothing has happened."""
    try:
        return round_post(table.encounter, table.title, round_, fmt)
    except PostError:
        return None


def _check(encounter: Encounter[Any], side: str, text: str, rules: ByPost) -> list[Action]:
    if len(text) > MAX_POST:
        raise RoundError(f"the post is {len(text):,} characters long; at most {MAX_POST:,}")
    lines = text.splitlines()
    if len(lines) > MAX_POST_LINES:
        raise RoundError(f"the post has {len(lines)} lines; at most {MAX_POST_LINES}")
    actions = _side_actions(_copy(encounter), side, text, rules, strict=True)
    if not actions:
        raise RoundError("the post is empty: one action a line, e.g. 'ylva attack wolf'")
    return actions


def _copy(encounter: Encounter[Any]) -> Encounter[Any]:
    # Dice of its own: checking a post must not draw on the table's dice.
    return encounter.copy(stack=False, dice=RandomDice(0))


def _numbered(text: str) -> list[tuple[int, str]]:
    """The post's actions with their line numbers: blank lines and ``#`` comments skipped."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append((number, line))
    return out


def _side_people(encounter: Encounter[Any], side: str) -> list[str]:
    people = encounter.ruleset.observe(encounter.state, None).get("combatants", {})
    return [cid for cid, c in people.items() if c.get("side") == side]


def _to_post(encounter: Encounter[Any], side: str, rules: ByPost) -> list[str]:
    """The side's characters whose post is not finished yet and who can do something."""
    state = encounter.state
    return [
        cid
        for cid in _side_people(encounter, side)
        if encounter.is_legal(Action(cid, rules.done))
        and encounter.ruleset.why_no_actions(state, cid) is None
    ]


def _push_lines(
    copy: Encounter[Any],
    side: str,
    lines: Sequence[tuple[int, str]],
    strict: bool,
    skipped: list[list[str]] | None = None,
) -> list[Action]:
    """Push each line on ``copy`` as ``side``. ``strict``: the first bad line raises
    :class:`RoundError`; otherwise it is left out (and, with ``skipped``, the side is
    told so by a note in the plan)."""
    own = set(_side_people(copy, side)) | {side}
    done: list[Action] = []
    for number, line in lines:
        try:
            action = resolve(line, copy, side)
            if action.actor not in own:
                raise RoundError(f"{side} cannot act for {action.actor}")
            copy.push(action)
        except (EngineError, RoundError) as err:
            if strict:
                raise RoundError(f"line {number}: {err}") from None
            if skipped is not None:
                text = f"line {number} of the post ({line[:60]}) was refused at the close: {err}"
                skipped.append(["", str(Action.of(GM, "note", text=text[:300], to=side))])
            continue
        done.append(action)
    return done


def _side_actions(
    copy: Encounter[Any],
    side: str,
    text: str,
    rules: ByPost,
    strict: bool,
    skipped: list[list[str]] | None = None,
) -> list[Action]:
    """Push ``side``'s post on ``copy``, each character's post finished right after its
    last line (as a script does); unless ``strict``, a character the post does not name
    gets the default declaration (HC-ROUND-1). The actions pushed."""
    trial = _copy(copy)
    lines = _push_lines(trial, side, _numbered(text), strict, skipped)
    unfinished = _to_post(trial, side, rules)
    last = {action.actor: index for index, action in enumerate(lines)}
    planned: list[Action] = []
    for index, action in enumerate(lines):
        planned.append(action)
        if last[action.actor] == index and action.actor in unfinished:
            planned.append(Action(action.actor, rules.done))
    if not strict:
        for who in unfinished:
            if who not in last:
                planned += [Action.parse(f"{who} {words}") for words in rules.defend]
                planned.append(Action(who, rules.done))
    pushed = []
    for action in planned:
        try:
            copy.push(action)
        except EngineError as err:
            if strict:
                raise RoundError(f"{action.actor}'s post cannot be finished: {err}") from None
            continue  # a default the character cannot take: it does without
        pushed.append(action)
    return pushed
