"""A table: one encounter at the table, kept in the store, shown to each side by the
presenter. The terminal tracker, the web pages and play by post all stand on it.

Every action is committed to the store in its own transaction before :meth:`Table.push`
returns, so an acknowledged action is never lost; undo and redo move the table's head in
the store the same way. The live :class:`~fracas.engine.Encounter` never leaves the
table: interfaces get :class:`~fracas.table.presenter.Screen` values, exports and events
shaped for their audience.

A table another screen or process changed catches up incrementally (:meth:`Table.sync`):
it takes back the actions undone or replaced since (an undo, then a new action) and
applies those added, with their recorded dice; the whole log is replayed only when the
change reaches further below its head than :data:`~fracas.table.store.LOOK_BACK`
actions. Nothing an action costs grows with the log: its text is read from the side's
observation, and a screen builds only the log entries its last lines come from.

>>> from fracas.table import encounterfile
>>> from fracas.table.store import Store
>>> store = Store.open("sqlite://")
>>> ruleset, setup, title = encounterfile.load("examples/heimr/duel.yaml")
>>> table = Table.start(store, "duel", ruleset, setup, title, seed=1)
>>> table.push("gm begin")[0].kind
'initiative'
>>> Table.resume(store, "duel").head
1
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from sqlalchemy.orm import Session

from fracas.dice import DiceError
from fracas.engine import (
    Action,
    DiceSource,
    Encounter,
    EngineError,
    Event,
    RandomDice,
    Ruleset,
    SaveError,
    ScriptedDice,
    view,
)
from fracas.engine.capabilities import rolls
from fracas.engine.encounter import _same_events, _same_rolls
from fracas.engine.views import check_side, offered, side_entry, side_log
from fracas.rules import check_version, find
from fracas.table.dicemode import AskedDice, RollRequest
from fracas.table.notation import resolve
from fracas.table.outcome import Outcome, outcome
from fracas.table.presenter import Screen, TableView, labels, log_text, present, round_before
from fracas.table.store import (
    LOOK_BACK,
    ActionRecord,
    Progress,
    Stamp,
    Store,
    StoreError,
    TableRecord,
)

__all__ = ["Table", "TableError"]

GM = "gm"
#: How many log entries a side's screen looks back for each log line it shows, at most
#: (entries a side sees nothing of show no line).
LOOK_BACK_LINES = 4


class TableError(ValueError):
    """A request the table refuses (an unknown side, nothing to redo...); nothing changes."""


class Table:
    """An encounter at the table: the encounter, its store, its dice mode and presenter."""

    def __init__(
        self,
        store: Store,
        record: TableRecord,
        encounter: Encounter[Any],
        stamps: list[Stamp] | None = None,
    ) -> None:
        self.store = store
        self.id = record.id
        self.name = record.name
        self.title = record.title or record.name
        self.version = record.version
        self.encounter = encounter
        self.rolled: DiceSource = encounter.dice
        self._outcome: tuple[int, int, Outcome] | None = None
        # The stored rows of the log's entries, one each, to tell when the store replaced
        # one (None: unknown, so :meth:`sync` replays the whole log).
        self._stamps = stamps
        # The action being carried out, and the game master's observation before it: who
        # owns each roll it asks for (:meth:`roll_owner`).
        self._acting: tuple[Action, Mapping[str, Any] | None] | None = None
        #: How the dice are thrown (``rolled`` or ``typed``), as of the last sync.
        self.dice_mode = record.dice_mode
        # True while held (:meth:`synced`): synced when the hold began, so a change made
        # within it need not ask the store again (a race is still refused by its version).
        self._fresh = False
        # How many actions the store holds (undone ones too), at a version: (version, n).
        self._total: tuple[int, int] | None = None

    # -- opening ------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        store: Store,
        name: str,
        ruleset: Ruleset[Any],
        setup: Mapping[str, Any],
        title: str = "",
        seed: int | None = None,
        then: Callable[[Session, int], None] | None = None,
    ) -> Table:
        """A new table in the store, before its first action; ``then`` stores what
        belongs with it in the same transaction (:meth:`Store.create`)."""
        encounter: Encounter[Any] = Encounter(ruleset, setup, RandomDice(seed))
        dice = _dice_state(encounter.dice)
        store.create(
            name,
            ruleset.id,
            encounter.setup,
            title=title,
            dice=dice,
            then=then,
            ruleset_version=ruleset.version or None,
        )
        return cls(store, store.table(name), encounter, [])

    @classmethod
    def resume(cls, store: Store, name: str, dice: DiceSource | None = None) -> Table:
        """The table as it was stored: every action up to its head, replayed."""
        return cls._replayed(store, store.table(name), dice)

    @classmethod
    def _replayed(cls, store: Store, record: TableRecord, dice: DiceSource | None) -> Table:
        rows = store.actions(record.id, upto=record.head)
        entries = [a.entry for a in rows]
        name = record.name
        save = {
            "_v": 1,
            "ruleset": record.ruleset,
            "setup": record.setup,
            "log": entries,
            "dice": record.dice,
        }
        try:
            ruleset = check_version(record.ruleset, record.ruleset_version)
        except EngineError as err:
            raise StoreError(f"table {name!r}: {err}") from None
        try:
            encounter = Encounter.load(save, ruleset, dice)
        except SaveError as err:
            raise StoreError(f"table {name!r} does not replay: {err}") from None
        return cls(store, record, encounter, [a.stamp for a in rows])

    @classmethod
    def import_save(
        cls, store: Store, name: str, save: Mapping[str, Any], title: str = ""
    ) -> Table:
        """A new table from a save file (``fracas export``'s or ``--save``'s JSON)."""
        if not isinstance(save, Mapping) or ("view" in save and "log" not in save):
            raise SaveError("this is one side's view, not a save: only a GM export imports")
        encounter = Encounter.load(save, find(str(save.get("ruleset"))))
        store.create(
            name,
            encounter.ruleset.id,
            encounter.setup,
            title=title,
            dice=_dice_state(encounter.dice),
            ruleset_version=encounter.ruleset.version or None,
        )
        record = store.table(name)
        fresh = Encounter(encounter.ruleset, encounter.setup, encounter.dice)
        table = cls(store, record, fresh, [])
        for entry in encounter.log:
            table._commit(entry.action, replaying=entry)
        return table

    # -- playing -------------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset[Any]:
        return self.encounter.ruleset

    @property
    def head(self) -> int:
        return len(self.encounter.log)

    def sides(self) -> list[str]:
        return self.ruleset.sides(self.encounter.state)

    def check_side(self, side: str | None) -> str | None:
        """``side`` if the encounter has it (``None`` and ``gm`` are the game master)."""
        if side is None or side == GM:
            return None
        try:
            check_side(self.encounter, side[:40])
        except ValueError as err:
            raise TableError(str(err)) from None
        return side

    def resolve(self, text: str, side: str | None = None) -> Action:
        """Read a typed action as ``side`` would mean it (see :mod:`fracas.table.notation`)."""
        return resolve(text, self.encounter, side)

    def push(self, action: Action | str, side: str | None = None) -> tuple[Event, ...]:
        """Apply an action and commit it; refused actions change nothing.

        A side may only act for its own combatants, and only through what it is offered.
        """
        self.sync()
        if isinstance(action, str):
            action = self.resolve(action, side)
        if side is not None and self._owner(action.actor) != side:
            raise TableError(f"side {side} cannot act for {action.actor}")
        return self._commit(action)

    def _commit(self, action: Action, replaying: Any = None) -> tuple[Event, ...]:
        enc = self.encounter
        mark = enc.dice.mark()
        saved = enc.dice
        if replaying is not None:
            enc.dice = ScriptedDice([f for roll in replaying.rolls for f in roll.faces])
        self._acting = (action, None)
        try:
            events = enc.push(action)
        finally:
            enc.dice = saved
            self._acting = None
        try:
            self.version, stamp = self.store.append(
                self.id,
                self.version,
                str(action),
                enc.log[-1].to_dict(),
                _dice_state(self.rolled),
            )
        except BaseException:
            enc.pop()
            enc.dice.rewind(mark)
            self._fresh = False  # lost a race, perhaps: the next change asks the store
            raise
        self._stamped(stamp)
        self._total = (self.version, self.head)  # the undone rows above are dropped
        return events

    def stored(self) -> int:
        """How many actions the store holds for the table, undone ones too (those Redo
        may bring back): asked of the store once a version at most."""
        known = self._total
        if known is None or known[0] != self.version:
            known = (self.version, self.store.count_actions(self.id))
            self._total = known
        return known[1]

    def _moved(self, before: int) -> None:
        """The head moved from version ``before`` (undo, redo): the stored rows stay."""
        if self._total is not None and self._total[0] == before:
            self._total = (self.version, self._total[1])

    def undo(self) -> Action:
        """Take back the last action (as far back as the start); the action undone."""
        self.sync()
        if not self.encounter.log:
            raise TableError("nothing to undo: the encounter is at its start")
        entry = self.encounter.pop()
        stamp = self._stamps.pop() if self._stamps is not None else None
        before = self.version
        try:
            self.version = self.store.move_head(self.id, self.version, self.head)
        except BaseException:
            self._replay_one(entry.action, [f for r in entry.rolls for f in r.faces])
            if stamp is not None:
                self._stamped(stamp)
            self._fresh = False
            raise
        self._moved(before)
        return entry.action

    def redo(self) -> Action:
        """Put back the last action undone, with the dice it rolled."""
        self.sync()
        record = self.store.action(self.id, self.head + 1)
        if record is None:
            raise TableError("nothing to redo")
        faces = [f for roll in record.entry.get("rolls", []) for f in roll["faces"]]
        action = Action.parse(record.action)
        self._replay_one(action, faces)
        before = self.version
        try:
            self.version = self.store.move_head(self.id, self.version, self.head)
        except BaseException:
            self.encounter.pop()
            self._fresh = False
            raise
        self._stamped(record.stamp)
        self._moved(before)
        return action

    def earlier(self, at: int) -> Table:
        """The table as it was after its first ``at`` actions, to look at (never to play
        on): from the nearest state the encounter kept (:meth:`Encounter.earlier`: its
        cost does not grow with the log), the rules' version checked as a resume does."""
        record = self.store.record(self.id)
        try:
            check_version(record.ruleset, record.ruleset_version)
        except EngineError as err:
            raise StoreError(f"table {self.name!r}: {err}") from None
        at = max(0, min(at, self.head))
        return Table(self.store, replace(record, head=at), self.encounter.earlier(at))

    def _replay_one(self, action: Action, faces: list[int]) -> None:
        enc = self.encounter
        saved, enc.dice = enc.dice, ScriptedDice(faces)
        try:
            enc.push(action)
        finally:
            enc.dice = saved

    def _stamped(self, stamp: Stamp) -> None:
        """Note the stored row of the entry just added to the log."""
        if self._stamps is not None:
            self._stamps.append(stamp)
            if len(self._stamps) != self.head:
                self._stamps = None

    @contextmanager
    def synced(self, ask: bool = True, behind: bool = False) -> Iterator[Table]:
        """The table synced once for the block (whoever holds it alone, as
        :class:`fracas.web.live.Tables` does): its changes within the block do not ask
        the store's version again; one refused as a lost race syncs the next one. With
        ``ask`` false it is taken as it is (the caller knows it is new enough); with
        ``behind``, the caller knows it is behind (its version is not asked first)."""
        if ask:
            self.sync(behind)
        self._fresh = True
        try:
            yield self
        finally:
            self._fresh = False

    def sync(self, behind: bool = False) -> None:
        """Catch up if another screen or process changed the table since we read it: the
        actions undone or replaced since are taken back, those added applied with their
        recorded dice, and the dice go on from the stored state; the whole log is
        replayed only when the change reaches more than
        :data:`~fracas.table.store.LOOK_BACK` actions below our head. ``behind``: the
        caller knows the store is ahead (its version is not asked first)."""
        if self._fresh:
            return
        catching_up = behind and self._stamps is not None and len(self._stamps) == self.head
        if not catching_up:
            version, self.dice_mode = self.store.state(self.id)
            if version == self.version:
                return
        asked = self.encounter.dice if self.asks_dice else None
        if self._stamps is not None and len(self._stamps) == self.head:
            progress, kept, added = self.store.since(self.id, self._stamps)
            self.dice_mode = progress.dice_mode
            if progress.version == self.version:
                return
            self._total = (progress.version, progress.total)
            # Taking back many entries costs more than a replay (undo rebuilds states).
            near = kept is not None and self.head - kept <= LOOK_BACK
            if near and kept is not None and self._catch_up(progress, kept, added):
                self._dice_from(progress.dice, asked)
                return
        fresh = Table._replayed(self.store, self.store.record(self.id), None)
        self.encounter, self.version = fresh.encounter, fresh.version
        self._stamps = fresh._stamps
        self.dice_mode = fresh.dice_mode
        self.rolled = self.encounter.dice
        if asked is not None:
            self.encounter.dice = asked

    def _catch_up(self, record: Progress, kept: int, added: list[ActionRecord]) -> bool:
        """Keep the first ``kept`` entries and apply ``added`` after them; ``False`` when
        one does not replay as recorded (the table is then left for a whole replay)."""
        stamps = self._stamps
        assert stamps is not None
        if [a.ply for a in added] != list(range(kept + 1, record.head + 1)):
            return False
        enc = self.encounter
        while len(enc.log) > kept:
            enc.pop()
            stamps.pop()
        for row in added:
            if not self._apply_stored(row.entry):
                return False
            stamps.append(row.stamp)
        self.version = record.version
        return True

    def _apply_stored(self, entry: Any) -> bool:
        """Apply a stored log entry with its recorded faces: whether it replays as recorded
        (as :meth:`Encounter.load` checks each entry)."""
        enc = self.encounter
        try:
            faces = [f for roll in entry.get("rolls", []) for f in roll["faces"]]
            scripted = ScriptedDice(faces)
            saved, enc.dice = enc.dice, scripted
            try:
                enc.push(Action.parse(entry["action"]))
            finally:
                enc.dice = saved
        except (EngineError, DiceError, KeyError, TypeError, AttributeError):
            return False
        done = enc.log[-1]
        return (
            not scripted.remaining()
            and _same_events(done.events, entry.get("events", []))
            and _same_rolls(done.rolls, entry)
        )

    def _dice_from(self, dice: Mapping[str, Any] | None, asked: DiceSource | None) -> None:
        """Roll on from the stored dice (as a resumed table would)."""
        self.rolled = _stored_dice(dice)
        self.encounter.dice = self.rolled if asked is None else asked

    # -- dice ----------------------------------------------------------------------------

    def physical_dice(self, ask: Callable[[RollRequest], str]) -> None:
        """From now on, every roll's faces are asked through ``ask``."""
        if not isinstance(self.encounter.dice, AskedDice):
            self.rolled = self.encounter.dice
        self.encounter.dice = AskedDice(ask)

    def rolled_dice(self) -> None:
        """From now on, fracas rolls (going on from the stored dice)."""
        self.encounter.dice = self.rolled

    def roll_owner(self, purpose: str) -> str | None:
        """The side that owns the roll ``purpose`` asked for while an action is carried
        out (the ruleset's ``rolls`` capability); ``None``: the game master's."""
        if self._acting is None:
            return None
        action, seen = self._acting
        if seen is None:
            seen = self.ruleset.observe(self.encounter.state, None)
            self._acting = (action, seen)
        return rolls(self.ruleset).owner(seen, action, purpose)

    @property
    def asks_dice(self) -> bool:
        return isinstance(self.encounter.dice, AskedDice)

    # -- what each side sees ---------------------------------------------------------------

    def table_view(self, side: str | None, log_tail: int | None = None) -> TableView:
        """What the presenter needs for ``side`` (``None``: the game master); with
        ``log_tail``, only the log entries its last ``log_tail`` lines come from are built
        (0 or ``None``: the whole log)."""
        side = self.check_side(side)
        enc = self.encounter
        seen = view(enc, side, 0)  # the state only: the log is built below, from the end
        start, seen["log"] = self._log_tail(side, log_tail or 0)
        seen["log_start"] = start
        kwargs = {} if log_tail is None else {"log_tail": log_tail}
        return TableView(
            title=self.title,
            ruleset=self.ruleset.name,
            side=side,
            view=seen,
            offered=tuple(str(a) for a in self.offered(side)),
            typed=tuple(str(e.action) for e in enc.log[start:]) if side is None else (),
            outcome=self.outcome(side),
            note=self._note(side, seen),
            **kwargs,
        )

    def _log_tail(self, side: str | None, lines: int) -> tuple[int, list[list[Any]]]:
        """Where the log entries that give its last ``lines`` lines for ``side`` begin, and
        those entries as the side sees them (all of them when ``lines`` is 0). Built from
        the end: an entry a side sees nothing of gives no line, so a side's window looks
        back further, up to :data:`LOOK_BACK_LINES` entries a line."""
        log = self.encounter.log
        if not lines:
            return 0, side_log(self.encounter, side)
        entries: list[list[Any]] = []
        shown = 0
        start = len(log)
        floor = max(0, start - LOOK_BACK_LINES * lines)
        while start > floor and shown < lines:
            start -= 1
            entry = side_entry(log[start].events, side)
            entries.append(entry)
            shown += len(entry) + (side is None)  # the game master sees each action typed
        entries.reverse()
        return start, entries

    def screen(self, side: str | None, log_tail: int | None = None) -> Screen:
        return present(self.table_view(side, log_tail))

    def offered(self, side: str | None) -> list[Action]:
        """The actions ``side`` may take now (see :func:`fracas.engine.views.offered`)."""
        return offered(self.encounter, side)

    def _owner(self, actor: str) -> str | None:
        """The side a combatant fights for (``None`` for the game master)."""
        if actor == GM:
            return None
        if actor in self.sides():  # a whole side acting (sides' initiative, declarations)
            return actor
        people = self.ruleset.observe(self.encounter.state, None).get("combatants", {})
        person = people.get(actor)
        return None if person is None else person.get("side")

    def outcome(self, side: str | None = None) -> str | None:
        """Who won, or that the fight has stalled (:mod:`fracas.table.outcome`); ``None``
        while it simply goes on. Worked out once per change of the table."""
        key = (self.version, self.head)
        if self._outcome is None or self._outcome[:2] != key:
            self._outcome = (*key, outcome(self.encounter))
        return self._outcome[2].describe()

    def _note(self, side: str | None, seen: Mapping[str, Any]) -> str | None:
        actor = self.encounter.to_move
        if actor is None or seen.get("to_move") != actor:
            return None
        if side is not None and self._owner(actor) != side:
            return None
        return self.ruleset.why_no_actions(self.encounter.state, actor)

    # -- files ---------------------------------------------------------------------------

    def export(self, side: str | None = None) -> dict[str, Any]:
        """The save (the game master's), or one side's view of the table: never more
        than that side may know."""
        side = self.check_side(side)
        if side is None:  # the title rides along, for the import that reads it back
            return {**self.encounter.save(), **({"title": self.title} if self.title else {})}
        return {
            "fracas": "side view",
            "ruleset": self.ruleset.id,
            "title": self.title,
            "side": side,
            "view": view(self.encounter, side),
        }

    def dumps(self, side: str | None = None) -> str:
        return json.dumps(self.export(side), indent=1)

    def is_over(self) -> bool:
        return self.encounter.is_over()

    # -- the log in pages --------------------------------------------------------------------

    def log_lines(self, side: str | None, start: int, end: int | None = None) -> tuple[str, ...]:
        """The log lines of entries ``start`` to ``end`` (the head when ``None``) as
        ``side`` is shown them by the presenter (the game master's with each action as
        typed): a page of the log, costing only its entries."""
        side = self.check_side(side)
        log = self.encounter.log
        end = len(log) if end is None else max(0, min(end, len(log)))
        start = max(0, min(start, end))
        typed = tuple(str(e.action) for e in log[start:end]) if side is None else ()
        seen = {"log": side_log(self.encounter, side, start, end)}
        people = view(self.encounter, side, 0)["state"].get("combatants", {})
        back = max(0, start - 20)  # the round in force before the page: a turn or so back
        before = round_before([side_entry(e.events, side) for e in log[back:start]])
        return tuple(log_text(_log_view(side, seen, typed), labels(people), before))


def _log_view(side: str | None, seen: Mapping[str, Any], typed: tuple[str, ...]) -> TableView:
    """A view holding only log entries, for the presenter's :func:`log_text`."""
    return TableView("", "", side, seen, (), typed, None, None)


def _dice_state(dice: DiceSource) -> dict[str, Any] | None:
    return dice.snapshot() if isinstance(dice, RandomDice) else None


def _stored_dice(spec: Any) -> DiceSource:
    """The dice a stored state describes (as :meth:`Encounter.load` restores them)."""
    if isinstance(spec, dict) and spec.get("kind") == "random":
        try:
            return RandomDice.restore(spec)
        except (KeyError, TypeError, ValueError):
            pass
    return RandomDice()
