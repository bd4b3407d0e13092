"""The game master's table verbs that every ruleset shares, written once.

``gm note text='...' [to=SIDE]`` puts a line in the log, seen by everyone or by one
side; ``gm add <id> character=... <field>=...`` reads its options as the combatant
entry of an encounter file, so a ruleset checks a newcomer exactly as it checks the
combatants it starts with.

>>> note(Action.parse("gm note text='The bell tolls.'"), ["north", "south"], "X-1").text
'The bell tolls.'
>>> note(Action.parse("gm note text='A rider comes.' to=north"), ["north"], "X-1").seen_by
frozenset({'north'})
>>> check_note(Action.parse("gm note text=Hush to=nort"), ["north", "south"], "X-1")
Traceback (most recent call last):
...
fracas.engine.errors.IllegalAction: unknown side 'nort' (known: north, south); did you mean...
>>> placement(Action.parse("gm add ulf character=ylva square=B2 side=north"))
{'id': 'ulf', 'character': 'ylva', 'side': 'north', 'square': 'B2'}
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from fracas.engine.actions import Action
from fracas.engine.errors import EngineError, IllegalAction
from fracas.engine.events import Event
from fracas.engine.setups import validated
from fracas.yamlfile import unknown_name

NOTE = "a line in the log for everyone, or for one side: text='...' [to=SIDE]"
ADD = "a combatant joins the fight: <id> character= and its place, as in an encounter file"
REMOVE = "a combatant leaves the fight: <id>"


def check_note(action: Action, sides: Sequence[str], rule: str) -> None:
    """Refuse a note without text, or for a side that is not there."""
    if not action.option("text"):
        raise IllegalAction(rule, "gm note text='...' [to=SIDE]: the note needs its text")
    to = action.option("to")
    if to is not None and to not in sides:
        raise IllegalAction(rule, unknown_name("side", to, sides))


def note(action: Action, sides: Sequence[str], rule: str) -> Event:
    """The note's event: for everyone, or only for the side ``to=`` names."""
    check_note(action, sides, rule)
    text = action.option("text") or ""
    to = action.option("to")
    return Event("note", text, {"to": to}, seen_by=None if to is None else frozenset({to}))


def placement(action: Action) -> dict[str, Any]:
    """The combatant entry ``gm add <id> key=value ...`` describes (``id``: its target)."""
    return {"id": action.target, **dict(action.options)}


def check_joining(action: Action, present: Collection[str], rule: str) -> None:
    """A newcomer needs a new id and a character."""
    if not action.target:
        raise IllegalAction(rule, "gm add <id> character=<name> ...: name the newcomer")
    if action.target in present:
        raise IllegalAction(rule, f"{action.target!r} is in the fight already: give another id")
    if not action.option("character"):
        raise IllegalAction(rule, "gm add <id> character=<name>: which campaign character?")


P = TypeVar("P", bound=BaseModel)
C = TypeVar("C")


def newcomer(
    action: Action,
    present: Collection[str],
    rule: str,
    model: type[P],
    make: Callable[[P], C],
) -> C:
    """The combatant ``gm add`` brings: its id and character checked
    (:func:`check_joining`), its options read as an encounter file's combatant entry
    (``model``, the ruleset's placement), then ``make`` builds it; every refusal, the
    model's or ``make``'s (:class:`EngineError`, :class:`ValueError`), is one
    :class:`IllegalAction` under ``rule``."""
    check_joining(action, present, rule)
    try:
        return make(validated(model, placement(action), "gm add"))
    except (EngineError, ValueError) as err:
        raise IllegalAction(rule, str(err)) from None


__all__ = [
    "ADD",
    "NOTE",
    "REMOVE",
    "check_joining",
    "check_note",
    "newcomer",
    "note",
    "placement",
]
