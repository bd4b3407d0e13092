"""The encounter: a setup, a state and an append-only log, with push, pop and copy.

Modelled on python-chess's ``Board``: :meth:`Encounter.push` applies an action and
returns its events (or refuses it with :class:`IllegalAction`, changing nothing),
:meth:`Encounter.pop` undoes, all the way back, and :meth:`Encounter.copy` clones.
The log is the save file: :meth:`Encounter.save` writes JSON with a schema version
and :meth:`Encounter.load` replays it to the identical state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic

from fracas.dice import DiceError
from fracas.engine import savefile
from fracas.engine.actions import Action, excerpt
from fracas.engine.dicesource import DiceSource, DrawnRoll, RandomDice, ScriptedDice
from fracas.engine.errors import EngineError, SaveError
from fracas.engine.events import Event
from fracas.engine.ruleset import Ruleset, S

#: The version of the save format written by :meth:`Encounter.save`.
SCHEMA_VERSION = 1
#: Upgrades of older saves: version n -> n + 1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


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

    def __init__(self, encounter: Encounter[S], actor: str | None) -> None:
        self.encounter = encounter
        self.actor = actor

    def __iter__(self) -> Iterator[Action]:
        enc = self.encounter
        for action in enc.ruleset.candidates(enc.state, self.actor):
            # Only the asked actor's, as with ``in``, whatever the ruleset proposes.
            if (self.actor is None or action.actor == self.actor) and enc.is_legal(action):
                yield action

    def __contains__(self, action: object) -> bool:
        if isinstance(action, str):
            action = Action.parse(action)
        if not isinstance(action, Action):
            return False
        return (self.actor is None or action.actor == self.actor) and self.encounter.is_legal(
            action
        )

    def count(self) -> int:
        """How many legal actions there are (not ``len``: ``list()`` would check twice)."""
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(str(a) for a in self)})>"


class Encounter(Generic[S]):
    """An encounter under one ruleset, played action by action."""

    def __init__(
        self, ruleset: Ruleset[S], setup: Mapping[str, Any], dice: DiceSource | None = None
    ) -> None:
        self.ruleset = ruleset
        self.setup: dict[str, Any] = json.loads(json.dumps(setup))
        self.dice: DiceSource = dice if dice is not None else RandomDice()
        self.state: S = ruleset.start(self.setup)
        self.log: list[Entry] = []
        self._stack: list[S] = []

    # -- playing --------------------------------------------------------------

    @property
    def to_move(self) -> str | None:
        return self.ruleset.to_move(self.state)

    def is_over(self) -> bool:
        return self.ruleset.is_over(self.state)

    def legal_actions(self, actor: str | None = None) -> LegalActions[S]:
        return LegalActions(self, actor)

    def is_legal(self, action: Action) -> bool:
        try:
            self.ruleset.check(self.state, action)
        except EngineError:
            return False
        return True

    def push(self, action: Action | str) -> tuple[Event, ...]:
        """Apply ``action``; on any refusal the encounter is left exactly as it was."""
        if isinstance(action, str):
            action = Action.parse(action)
        self.ruleset.check(self.state, action)
        mark = self.dice.mark()
        before = len(self.dice.drawn)
        new = self.state.clone()
        try:
            events = tuple(self.ruleset.apply(new, action, self.dice))
        except (EngineError, DiceError):
            self.dice.rewind(mark)
            raise
        self._stack.append(self.state)
        self.state = new
        self.log.append(Entry(action, events, tuple(self.dice.drawn[before:])))
        return events

    def pop(self) -> Entry:
        """Undo the last action and return its log entry. The dice are not rewound: the
        same action pushed again rolls afresh, as at a table."""
        if not self.log:
            raise EngineError("nothing to undo: the encounter is at its start")
        self.state = self._stack.pop()
        return self.log.pop()

    def copy(self, stack: bool = True, dice: DiceSource | None = None) -> Encounter[S]:
        """An independent copy; with ``stack=False`` it cannot undo past the present.

        The copy rolls with ``dice``, or shares this encounter's dice source when none is
        given (a simulation from one position gives each copy its own seeded dice).
        """
        other: Encounter[S] = Encounter.__new__(Encounter)
        other.ruleset = self.ruleset
        other.setup = self.setup
        other.dice = self.dice if dice is None else dice
        other.state = self.state.clone()
        other.log = list(self.log) if stack else []
        other._stack = list(self._stack) if stack else []
        return other

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
        if isinstance(self.dice, RandomDice):
            version, internal, gauss = self.dice.rng.getstate()
            data["dice"] = {
                "kind": "random",
                "seed": self.dice.seed,
                "state": [version, list(internal), gauss],
            }
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
        data = savefile.check_version(data)
        data = migrate(data)
        savefile.check(data)
        if data["ruleset"] != ruleset.id:
            raise SaveError(f"this save is for {excerpt(data['ruleset'])}, not {ruleset.id!r}")
        try:
            setup, log = data["setup"], data["log"]
            try:
                enc = cls(ruleset, setup, ScriptedDice())
            except EngineError as err:
                raise SaveError(f"the save's setup does not start: {err}") from None
            for n, raw in enumerate(log, 1):
                if not isinstance(raw, Mapping) or not isinstance(raw.get("action"), str):
                    raise SaveError(f"log entry {n} is not an action with its dice and events")
                faces = [f for r in raw.get("rolls", []) for f in r["faces"]]
                scripted = ScriptedDice(faces)
                enc.dice = scripted
                try:
                    enc.push(Action.parse(raw["action"]))
                except (EngineError, DiceError) as err:
                    raise SaveError(f"{_entry(n, raw)} does not replay: {err}") from None
                if scripted.remaining():
                    raise SaveError(
                        f"{_entry(n, raw)} replays differently: "
                        f"{scripted.remaining()} of its recorded faces are never rolled"
                    )
                recorded = tuple(Event.from_dict(e) for e in raw.get("events", []))
                if not recorded and enc.log[-1].events and not replay_from_actions:
                    raise SaveError(
                        f"{_entry(n, raw)} records no events to check its replay against; to "
                        "import a list of actions, load it with replay_from_actions=True"
                    )
                if recorded and recorded != enc.log[-1].events:
                    raise SaveError(f"{_entry(n, raw)} replays differently")
                rolls = tuple(
                    DrawnRoll(r["notation"], r["purpose"], tuple(r["faces"]))
                    for r in raw.get("rolls", [])
                )
                if rolls != enc.log[-1].rolls and not replay_from_actions:
                    raise SaveError(
                        f"{_entry(n, raw)} replays differently: its dice are not those recorded"
                    )
        except (KeyError, TypeError) as err:
            raise SaveError(f"not a fracas save file: missing or malformed {err}") from None
        try:
            enc.dice = dice if dice is not None else _saved_dice(data.get("dice"))
        except (KeyError, TypeError, ValueError) as err:
            raise SaveError(f"not a fracas save file: malformed dice {err}") from None
        return enc


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
        dice = RandomDice(spec.get("seed"))
        version, internal, gauss = spec["state"]
        dice.rng.setstate((version, tuple(internal), gauss))
        return dice
    return RandomDice()
