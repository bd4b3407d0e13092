"""Actions as people type them at the table, read into the engine's notation.

A person types ``Ylva ATT astrid``, ``end`` or ``att ast``; the engine wants ``ylva attack
astrid``. :func:`resolve` reads names and verbs in any case and by unique prefix, takes
the one to act as the actor when the line starts with a verb, and refuses what the rules
would misread: a word where the verb takes no target, or a target that names nobody
(said before the turn economy is, so ``ylva attack bob`` answers that there is no Bob).
It works from the side's own view, so a typed name of a hidden combatant reads as no
name at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from fracas.engine import Action, Encounter, NotationError, view

__all__ = ["MAX_LINE", "resolve"]

#: Longest line read as an action.
MAX_LINE = 1000
GM = "gm"
_SQUARE = re.compile(r"[A-Za-z]{1,2}\d{1,3}(-[A-Za-z]{1,2}\d{1,3})?")


def resolve(text: str, encounter: Encounter[Any], side: str | None = None) -> Action:
    """The action ``text`` means for ``side`` (``None``: the game master), or
    :class:`~fracas.engine.NotationError` saying which word is not understood."""
    text = text.strip()
    if len(text) > MAX_LINE:
        raise NotationError(
            f"that line is {len(text)} characters long; an action is at most {MAX_LINE}"
        )
    # The side's observation only: none of its log (an action costs the same at any length).
    seen = view(encounter, side, log_tail=0)["state"].get("combatants", {})
    # Some rulesets let a whole side act (a side's initiative roll, a declaration).
    sides = encounter.ruleset.sides(encounter.state)
    actors = [GM, *sides, *seen] if side is None else [side, *seen]
    verbs = encounter.ruleset.verb_names(encounter.state)
    words = text.split(None, 1)
    if not words:
        raise NotationError("type an action, such as 'ylva attack astrid', or 'help'")
    first = _match(words[0], actors, seen)
    if first is None:
        default = _default_actor(encounter, side, seen)
        if default is None or _match(words[0], verbs) is None:
            raise NotationError(
                f"{_short(words[0])!r} is neither someone here nor an action: "
                f"start with one of {', '.join(actors[:12])}"
            )
        text = f"{default} {text}"
    action = Action.parse(text)
    actor = _match(action.actor, actors, seen)
    if actor is None:
        raise NotationError(f"no one called {_short(action.actor)!r} can act here")
    verb = _match(action.verb, verbs)
    if verb is None:
        near = [v for v in verbs if v.startswith(action.verb.lower()[:1])]
        raise NotationError(
            f"{_short(action.verb)!r} is not an action of {encounter.ruleset.name}: "
            f"known are {', '.join(near or verbs)}"
        )
    action = Action(actor, verb, action.target, action.options)
    return _check_target(action, encounter, seen)


def _check_target(action: Action, encounter: Encounter[Any], seen: dict[str, Any]) -> Action:
    """Fix a target's case; refuse one the verb never takes, or one naming nobody."""
    targets = [
        a.target
        for a in encounter.ruleset.candidates(encounter.state, action.actor)
        if a.verb == action.verb
    ]
    if action.target is None and targets and all(t is not None for t in targets):
        offered = sorted({str(t) for t in targets})
        raise NotationError(
            f"'{action.verb}' needs a target: say whom, such as "
            f"'{action.actor} {action.verb} {offered[0]}' (targets now: {', '.join(offered[:12])})"
        )
    if action.target is None or not targets:
        return action
    if all(t is None for t in targets):
        raise NotationError(
            f"'{action.verb}' takes no target: {_short(action.target)!r} is not understood"
        )
    person = _match(action.target, list(seen), seen)
    if person is not None:
        return Action(action.actor, action.verb, person, action.options)
    square = _SQUARE.fullmatch(action.target) is not None
    people = _people(encounter)
    if not square and any(t in people for t in targets):
        raise NotationError(
            f"no combatant called {_short(action.target)!r} (there are {', '.join(seen)})"
        )
    if square:
        return Action(action.actor, action.verb, action.target.upper(), action.options)
    return action


def _people(encounter: Encounter[Any]) -> set[str]:
    return set(encounter.ruleset.combatant_ids(encounter.state))


def _default_actor(encounter: Encounter[Any], side: str | None, seen: dict[str, Any]) -> str | None:
    """The one to act, if the typing side may act for them."""
    actor = encounter.to_move
    if actor is None:
        return None
    if side is None:
        return actor
    person = seen.get(actor)
    return actor if person is not None and person.get("side") == side else None


def _match(word: str, names: Sequence[str], people: dict[str, Any] | None = None) -> str | None:
    """``word`` as one of ``names``: exactly, in any case, or as a unique prefix (of an id,
    or of a combatant's name when ``people`` gives them)."""
    lower = word.lower()
    for name in names:
        if name == word:
            return name
    exact = [n for n in names if n.lower() == lower]
    if len(exact) == 1:
        return exact[0]
    prefixed = _unique(n for n in names if n.lower().startswith(lower))
    if prefixed is not None or people is None:
        return prefixed
    return _unique(
        n for n in names if str(people.get(n, {}).get("name", "")).lower().startswith(lower)
    )


def _unique(found: Iterable[str]) -> str | None:
    hits = list(dict.fromkeys(found))
    return hits[0] if len(hits) == 1 else None


def _short(word: str) -> str:
    return word if len(word) <= 30 else word[:27] + "..."
