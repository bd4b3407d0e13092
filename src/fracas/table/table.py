"""A table: one encounter at the table, kept in the store, shown to each side by the
presenter. The terminal tracker, the web pages and play by post all stand on it.

Every action is committed to the store in its own transaction before :meth:`Table.push`
returns, so an acknowledged action is never lost; undo and redo move the table's head in
the store the same way. The live :class:`~fracas.engine.Encounter` never leaves the
table: interfaces get :class:`~fracas.table.presenter.Screen` values, exports and events
shaped for their audience.

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
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.orm import Session

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
from fracas.engine.views import check_side, offered
from fracas.rules import check_version, find
from fracas.table.dicemode import AskedDice, RollRequest
from fracas.table.notation import resolve
from fracas.table.outcome import Outcome, outcome
from fracas.table.presenter import Screen, TableView, present
from fracas.table.store import Store, StoreError, TableRecord

__all__ = ["Table", "TableError"]

GM = "gm"


class TableError(ValueError):
    """A request the table refuses (an unknown side, nothing to redo...); nothing changes."""


class Table:
    """An encounter at the table: the encounter, its store, its dice mode and presenter."""

    def __init__(self, store: Store, record: TableRecord, encounter: Encounter[Any]) -> None:
        self.store = store
        self.id = record.id
        self.name = record.name
        self.title = record.title or record.name
        self.version = record.version
        self.encounter = encounter
        self.rolled: DiceSource = encounter.dice
        self._outcome: tuple[int, int, Outcome] | None = None

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
        return cls(store, store.table(name), encounter)

    @classmethod
    def resume(cls, store: Store, name: str, dice: DiceSource | None = None) -> Table:
        """The table as it was stored: every action up to its head, replayed."""
        record = store.table(name)
        entries = [a.entry for a in store.actions(record.id, upto=record.head)]
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
        return cls(store, record, encounter)

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
        table = cls(store, record, Encounter(encounter.ruleset, encounter.setup, encounter.dice))
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
        try:
            events = enc.push(action)
        finally:
            enc.dice = saved
        try:
            self.version = self.store.push(
                self.id,
                self.version,
                str(action),
                enc.log[-1].to_dict(),
                _dice_state(self.rolled),
            )
        except BaseException:
            enc.pop()
            enc.dice.rewind(mark)
            raise
        return events

    def undo(self) -> Action:
        """Take back the last action (as far back as the start); the action undone."""
        self.sync()
        if not self.encounter.log:
            raise TableError("nothing to undo: the encounter is at its start")
        entry = self.encounter.pop()
        try:
            self.version = self.store.move_head(self.id, self.version, self.head)
        except BaseException:
            self._replay_one(entry.action, [f for r in entry.rolls for f in r.faces])
            raise
        return entry.action

    def redo(self) -> Action:
        """Put back the last action undone, with the dice it rolled."""
        self.sync()
        above = self.store.actions(self.id)[self.head :]
        if not above:
            raise TableError("nothing to redo")
        record = above[0]
        faces = [f for roll in record.entry.get("rolls", []) for f in roll["faces"]]
        self._replay_one(Action.parse(record.action), faces)
        self.version = self.store.move_head(self.id, self.version, self.head)
        return Action.parse(record.action)

    def _replay_one(self, action: Action, faces: list[int]) -> None:
        enc = self.encounter
        saved, enc.dice = enc.dice, ScriptedDice(faces)
        try:
            enc.push(action)
        finally:
            enc.dice = saved

    def sync(self) -> None:
        """Reload if another screen or process changed the table since we read it."""
        if self.store.version(self.id) == self.version:
            return
        asked = self.encounter.dice if self.asks_dice else None
        fresh = Table.resume(self.store, self.name)
        self.encounter, self.version = fresh.encounter, fresh.version
        self.rolled = self.encounter.dice
        if asked is not None:
            self.encounter.dice = asked

    # -- dice ----------------------------------------------------------------------------

    def physical_dice(self, ask: Callable[[RollRequest], str]) -> None:
        """From now on, every roll's faces are asked through ``ask``."""
        if not isinstance(self.encounter.dice, AskedDice):
            self.rolled = self.encounter.dice
        self.encounter.dice = AskedDice(ask)

    def rolled_dice(self) -> None:
        """From now on, fracas rolls (going on from the stored dice)."""
        self.encounter.dice = self.rolled

    @property
    def asks_dice(self) -> bool:
        return isinstance(self.encounter.dice, AskedDice)

    # -- what each side sees ---------------------------------------------------------------

    def table_view(self, side: str | None, log_tail: int | None = None) -> TableView:
        """What the presenter needs for ``side`` (``None``: the game master)."""
        side = self.check_side(side)
        enc = self.encounter
        # Entries with nothing for this side show no line: look back further than asked.
        seen = view(enc, side, None if not log_tail else 4 * log_tail)
        start = seen["log_start"]
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
        if side is None:
            return self.encounter.save()
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


def _dice_state(dice: DiceSource) -> dict[str, Any] | None:
    return dice.snapshot() if isinstance(dice, RandomDice) else None
