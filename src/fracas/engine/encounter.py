"""The encounter: a setup, a state and an append-only log, with push, pop and copy.

Modelled on python-chess's ``Board``: :meth:`Encounter.push` applies an action and
returns its events (or refuses it with :class:`IllegalAction`, changing nothing),
:meth:`Encounter.pop` undoes, all the way back, and :meth:`Encounter.copy` clones.
The log is the save file: :meth:`Encounter.save` writes JSON with a schema version
and :meth:`Encounter.load` replays it to the identical state.

Undo keeps whole states only every :attr:`Encounter.KEYFRAME` actions and for the last
:attr:`Encounter.RECENT`; :meth:`Encounter.pop` replays the logged actions, with their
logged dice, from the nearest state kept (so a change made to ``state`` by hand, not by
an action, is undone with the action before it once it is that far back). A playout
(``record=False``, or ``copy(playout=True)``) keeps no log and no undo, for simulations.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic

from fracas.dice import DiceError
from fracas.engine import collector
from fracas.engine.actions import Action, excerpt
from fracas.engine.dicesource import DiceSource, DrawnRoll, RandomDice, ScriptedDice
from fracas.engine.errors import EngineError, SaveError
from fracas.engine.events import Event
from fracas.engine.ruleset import Ruleset, S
from fracas.engine.setups import check_names
from fracas.yamlfile import CampaignError

#: The version of the save format written by :meth:`Encounter.save`.
SCHEMA_VERSION = 2
#: Upgrades of older saves: version n -> n + 1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: lambda data: data,  # version 2 adds the digests, which a version-1 save has none of
}


@dataclass(frozen=True)
class Entry:
    """One line of the log: the action, what it caused, and the dice it rolled."""

    action: Action
    events: tuple[Event, ...]
    rolls: tuple[DrawnRoll, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": str(self.action),
            "events": [e.to_dict() for e in self.events],
            "rolls": [
                {"notation": r.notation, "purpose": r.purpose, "faces": list(r.faces)}
                for r in self.rolls
            ],
        }


class LegalActions(Generic[S]):
    """A lazy view of the legal actions: iterate, test with ``in``, count, print."""

    def __init__(
        self, encounter: Encounter[S], actor: str | None, verbs: Collection[str] | None = None
    ) -> None:
        self.encounter = encounter
        self.actor = actor
        self.verbs = None if verbs is None else frozenset(verbs)

    def __iter__(self) -> Iterator[Action]:
        enc = self.encounter
        # Only the asked actor's, as with ``in``, whatever the ruleset proposes.
        return enc.ruleset.legal(enc.state, self.actor, self.verbs)

    def __contains__(self, action: object) -> bool:
        if isinstance(action, str):
            action = Action.parse(action)
        if not isinstance(action, Action):
            return False
        return (
            (self.actor is None or action.actor == self.actor)
            and (self.verbs is None or action.verb in self.verbs)
            and self.encounter.is_legal(action)
        )

    def count(self) -> int:
        """How many legal actions there are (not ``len``: ``list()`` would check twice)."""
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(str(a) for a in self)})>"


class Encounter(Generic[S]):
    """An encounter under one ruleset, played action by action.

    With ``record=False`` it is a playout: no log, no undo, for simulations.
    """

    #: A whole state is kept for undo before every action whose index is a multiple of this.
    KEYFRAME = 64
    #: The states before the last this many actions are kept too: a short undo replays none.
    RECENT = 16

    def __init__(
        self,
        ruleset: Ruleset[S],
        setup: Mapping[str, Any],
        dice: DiceSource | None = None,
        *,
        record: bool = True,
    ) -> None:
        self.ruleset = ruleset
        self.setup: dict[str, Any] = json.loads(json.dumps(setup))
        check_names(self.setup)
        self.dice: DiceSource = dice if dice is not None else RandomDice()
        self.state: S = ruleset.start(self.setup)
        self.record = record
        self._spoilt: str | None = None  # why a playout may go no further
        self.log: list[Entry] = []
        # The state before each logged action, where kept (see KEYFRAME and RECENT).
        self._stack: list[S | None] = []

    # -- playing --------------------------------------------------------------

    @property
    def to_move(self) -> str | None:
        return self.ruleset.to_move(self.state)

    def is_over(self) -> bool:
        return self.ruleset.is_over(self.state)

    def legal_actions(
        self, actor: str | None = None, verbs: Collection[str] | None = None
    ) -> LegalActions[S]:
        """The legal actions of ``actor`` (everyone's when ``None``); with ``verbs``, only
        those verbs' (``verbs={"attack", "end"}``), which is quicker to work out."""
        return LegalActions(self, actor, verbs)

    def is_legal(self, action: Action) -> bool:
        return self.ruleset.is_legal(self.state, action)

    def push(self, action: Action | str) -> tuple[Event, ...]:
        """Apply ``action``; on any refusal the encounter is left exactly as it was.

        A playout changes its state in place, unsaved: should the rules refuse an action
        half way through (after :meth:`legal_actions` offered it), the playout is spoilt
        and refuses everything after, rather than play on from half an action."""
        if isinstance(action, str):
            action = Action.parse(action)
        self.ruleset.check(self.state, action)
        return self._apply(action)

    def push_legal(self, action: Action) -> tuple[Event, ...]:
        """Apply ``action``, just taken from :meth:`legal_actions` of the present state,
        without checking it a second time: the quick path for simulations."""
        return self._apply(action)

    def _apply(self, action: Action) -> tuple[Event, ...]:
        dice = self.dice
        if not self.record:
            if self._spoilt is not None:
                raise EngineError(f"this playout was spoilt by a refused action: {self._spoilt}")
            recording, dice.recording = dice.recording, False  # a playout keeps no rolls
            try:
                return tuple(self.ruleset.apply(self.state, action, dice))
            except (EngineError, DiceError) as err:
                self._spoilt = f"{action}: {err}"
                raise
            finally:
                dice.recording = recording
        before = len(dice.drawn)
        mark = dice.mark()
        new = self.state.clone()
        try:
            events = tuple(self.ruleset.apply(new, action, dice))
        except (EngineError, DiceError):
            dice.rewind(mark)
            raise
        self._keep(self.state)
        self.log.append(Entry(action, events, tuple(dice.drawn[before:])))
        self.state = new
        return events

    def pop(self) -> Entry:
        """Undo the last action and return its log entry. The dice are not rewound: the
        same action pushed again rolls afresh, as at a table."""
        if not self.log:
            if not self.record:
                raise EngineError("nothing to undo: a playout keeps no log")
            raise EngineError("nothing to undo: the encounter is at its start")
        entry = self.log.pop()
        state = self._stack.pop()
        self.state = state if state is not None else self._rebuild(len(self.log))
        return entry

    def copy(
        self, stack: bool = True, dice: DiceSource | None = None, *, playout: bool = False
    ) -> Encounter[S]:
        """An independent copy; with ``stack=False`` it cannot undo past the present, and
        with ``playout=True`` it is a playout (no log, no undo) from the present.

        The copy rolls with ``dice``, or shares this encounter's dice source when none is
        given (a simulation from one position gives each copy its own seeded dice).
        """
        other: Encounter[S] = Encounter.__new__(Encounter)
        other.ruleset = self.ruleset
        other.setup = self.setup
        other.dice = self.dice if dice is None else dice
        other.state = self.state.clone()
        other.record = not playout
        other._spoilt = self._spoilt
        keep = stack and other.record
        other.log = list(self.log) if keep else []
        other._stack = list(self._stack) if keep else []  # kept states are never changed
        return other

    def earlier(self, n: int) -> Encounter[S]:
        """A copy as it was after its first ``n`` logged actions, to look at: built from
        the nearest state kept before it (at most :attr:`KEYFRAME` actions replayed,
        however long the log), never by replaying the log from its start."""
        if not 0 <= n <= len(self.log):
            raise EngineError(f"the log has {len(self.log)} actions; there is no action {n}")
        other = self.copy()
        if n == len(self.log):
            return other
        kept = self._stack[n]
        state = kept if kept is not None else other._rebuild(n)
        other.state = state.clone()
        other.log = other.log[:n]
        other._stack = other._stack[:n]
        return other

    # -- undo -----------------------------------------------------------------------------

    def _keep(self, state: S) -> None:
        """Keep ``state``, the one before the action about to be logged, and let go of
        the one that has just left the recent window unless it is a keyframe."""
        self._stack.append(state)
        old = len(self._stack) - 1 - self.RECENT
        if old > 0 and old % self.KEYFRAME:
            self._stack[old] = None

    def _rebuild(self, n: int) -> S:
        """The state after the first ``n`` logged actions, replayed from the nearest state
        kept before it; the recent states it passes are kept again."""
        start = n - 1
        while self._stack[start] is None:
            start -= 1
        state = self._stack[start]
        assert state is not None
        for i in range(start, n):
            state = state.clone()
            self._replay(state, self.log[i])
            if n - self.RECENT <= i + 1 < n:
                self._stack[i + 1] = state
        return state

    def _push_in_place(self, action: Action) -> None:
        """:meth:`push` for a replay that is thrown away should it fail (:meth:`load`):
        the state changes in place, and only keyframes are kept for undo."""
        self.ruleset.check(self.state, action)
        kept = self.state.clone() if len(self.log) % self.KEYFRAME == 0 else None
        self._stack.append(kept)
        before = len(self.dice.drawn)
        events = tuple(self.ruleset.apply(self.state, action, self.dice))
        self.log.append(Entry(action, events, tuple(self.dice.drawn[before:])))

    def _replay(self, state: S, entry: Entry) -> None:
        """Apply a logged action again to ``state`` with the dice it rolled."""
        dice = ScriptedDice([face for roll in entry.rolls for face in roll.faces])
        self.ruleset.apply(state, entry.action, dice)

    def events(self) -> Iterator[Event]:
        for entry in self.log:
            yield from entry.events

    # -- saving ---------------------------------------------------------------

    def save(self) -> dict[str, Any]:
        """The save file: setup and log, with a schema version (``_v``)."""
        data: dict[str, Any] = {
            "_v": SCHEMA_VERSION,
            "ruleset": self.ruleset.id,
            "setup": self.setup,
            "log": [entry.to_dict() for entry in self.log],
        }
        from fracas.engine import savefile  # its schema is built only where saves are

        data["digests"] = savefile.chain(self.ruleset.id, self.setup, data["log"])
        if self.ruleset.version:  # the rules' version, checked when the save is loaded
            data["ruleset_version"] = self.ruleset.version
        if isinstance(self.dice, RandomDice):
            data["dice"] = self.dice.snapshot()
        return data

    def dumps(self) -> str:
        return json.dumps(self.save(), indent=1)

    @classmethod
    def load(
        cls,
        data: Mapping[str, Any],
        ruleset: Ruleset[S],
        dice: DiceSource | None = None,
        *,
        replay_from_actions: bool = False,
    ) -> Encounter[S]:
        """Replay a save; :class:`SaveError` (one line) if it is malformed or does not replay.

        The save is checked against its schema (:mod:`fracas.engine.savefile`) first, and
        every entry's recorded events must be what its replay causes. A save whose entries
        record no events is only read with ``replay_from_actions=True``: an import of a
        list of actions and their dice, with nothing to check the replay against.
        """
        with collector.paused():  # everything the replay builds is kept
            return cls._load(data, ruleset, dice, replay_from_actions)

    @classmethod
    def _load(
        cls,
        data: Mapping[str, Any],
        ruleset: Ruleset[S],
        dice: DiceSource | None,
        replay_from_actions: bool,
    ) -> Encounter[S]:
        from fracas.engine import savefile

        data = savefile.check_version(data)
        chained = data["_v"] >= 2  # a version-1 save has no digests
        data = migrate(data)
        savefile.check(data)
        if data["ruleset"] != ruleset.id:
            raise SaveError(f"this save is for {excerpt(data['ruleset'])}, not {ruleset.id!r}")
        made = data.get("ruleset_version")
        if made and ruleset.version and _major(made) != _major(ruleset.version):
            raise SaveError(
                f"this save was made with {ruleset.id} {excerpt(made)}, but {ruleset.id} "
                f"{ruleset.version} is installed (another major version: its rules may differ)"
            )
        try:
            setup, log = data["setup"], data["log"]
            try:
                enc = cls(ruleset, setup, ScriptedDice())
            except (EngineError, CampaignError) as err:
                lines = str(err).splitlines() or [""]
                more = f" (and {len(lines) - 1} more problems)" if len(lines) > 1 else ""
                raise SaveError(f"the save's setup does not start: {lines[0]}{more}") from None
            parsed: dict[str, Action] = {}  # a fight says the same actions again and again
            for n, raw in enumerate(log, 1):
                if not isinstance(raw, Mapping) or not isinstance(raw.get("action"), str):
                    raise SaveError(f"log entry {n} is not an action with its dice and events")
                faces = [f for r in raw.get("rolls", []) for f in r["faces"]]
                scripted = ScriptedDice(faces)
                enc.dice = scripted
                try:
                    action = parsed.get(raw["action"])
                    if action is None:
                        action = parsed[raw["action"]] = Action.parse(raw["action"])
                    enc._push_in_place(action)
                except (EngineError, DiceError) as err:
                    raise SaveError(f"{_entry(n, raw)} does not replay: {err}") from None
                if scripted.remaining():
                    raise SaveError(
                        f"{_entry(n, raw)} replays differently: "
                        f"{scripted.remaining()} of its recorded faces are never rolled"
                    )
                recorded = raw.get("events", [])
                if not recorded and enc.log[-1].events and not replay_from_actions:
                    raise SaveError(
                        f"{_entry(n, raw)} records no events to check its replay against; to "
                        "import a list of actions, load it with replay_from_actions=True"
                    )
                if recorded and not _same_events(enc.log[-1].events, recorded):
                    raise SaveError(f"{_entry(n, raw)} replays differently")
                if not replay_from_actions and not _same_rolls(enc.log[-1].rolls, raw):
                    raise SaveError(
                        f"{_entry(n, raw)} replays differently: its dice are not those recorded"
                    )
        except (KeyError, TypeError) as err:
            raise SaveError(f"not a fracas save file: missing or malformed {err}") from None
        # After the replay, whose refusals say more; an import of actions is written by hand.
        if chained and not replay_from_actions:
            savefile.check_chain(data)
        try:
            enc.dice = dice if dice is not None else _saved_dice(data.get("dice"))
        except (KeyError, TypeError, ValueError) as err:
            raise SaveError(f"not a fracas save file: malformed dice {err}") from None
        return enc


def _same_events(events: tuple[Event, ...], recorded: list[Any]) -> bool:
    """Whether a save's events (JSON) say what ``events`` say, compared without building
    them. Who may see each event is the rules' to say, so a save from before a side was
    shown less replays the same."""
    if len(events) != len(recorded):
        return False
    for event, raw in zip(events, recorded, strict=True):
        if not isinstance(raw, Mapping):
            return False
        if (
            event.kind != raw["kind"]
            or event.text != raw["text"]
            or event.data != raw.get("data", {})
        ):
            return False
    return True


def _same_rolls(rolls: tuple[DrawnRoll, ...], raw: Mapping[str, Any]) -> bool:
    """Whether a save's rolls (JSON) are the ones its replay drew, faces grouped alike."""
    recorded = raw.get("rolls", [])
    return len(rolls) == len(recorded) and all(
        roll.notation == r["notation"]
        and roll.purpose == r["purpose"]
        and list(roll.faces) == r["faces"]
        for roll, r in zip(rolls, recorded, strict=True)
    )


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    """Bring an older save up to :data:`SCHEMA_VERSION`."""
    version = data.get("_v")
    if not isinstance(version, int):
        raise SaveError("not a fracas save file: no schema version '_v'")
    if version > SCHEMA_VERSION:
        raise SaveError(
            f"this save has schema version {version}; this fracas reads up to "
            f"{SCHEMA_VERSION}: upgrade fracas"
        )
    while version < SCHEMA_VERSION:
        if version not in MIGRATIONS:
            raise SaveError(f"this save has schema version {version}, which no migration upgrades")
        data = MIGRATIONS[version](data)
        version += 1
        data["_v"] = version
    return data


def _entry(n: int, raw: Mapping[str, Any]) -> str:
    """How a message names log entry ``n``: its number and a short excerpt of its action."""
    return f"log entry {n} ({excerpt(raw['action'], quoted=False)})"


def _saved_dice(spec: Any) -> DiceSource:
    if isinstance(spec, dict) and spec.get("kind") == "random":
        return RandomDice.restore(spec)
    return RandomDice()


def _major(version: str) -> str:
    """A version's major part (``"2"`` of ``"2.1.0"``)."""
    return version.split(".", 1)[0].strip()
