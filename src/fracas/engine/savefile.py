"""The save file's schema, checked before a save is replayed.

A save is the log of an encounter (see :meth:`fracas.engine.Encounter.save`)::

    {"_v": 2, "ruleset": "heimr", "ruleset_version": "0.1.0", "setup": {...},
     "log": [{"action": "gm begin",
              "events": [{"kind": ..., "text": ..., "data": {...}}],
              "rolls": [{"notation": "C1P3", "purpose": ..., "faces": [2, 10]}]}],
     "digests": ["5c1f...", ...],
     "dice": {"kind": "random", "seed": 7, "state": [3, [...625 ints...], null]}}

Since version 2 each log entry has a digest chained to the one before it (the first to
the ruleset and setup, :func:`chain`): an entry edited, removed or added by hand breaks
the chain from there on. It is a check against mistakes and casual edits, not a seal:
anyone can compute the chain again. A version-1 save has no digests and loads as before.

:func:`check` refuses anything else with one :class:`SaveError` line: a version that
is not an integer, a log that is not a list, an action too long, a face that is not
an integer (``1.5``, ``true``, ``"8"``). Whether each face fits its die, and whether
the recorded events are what the actions cause, is for the replay to say.

>>> check_version({"_v": True, "ruleset": "heimr", "setup": {}, "log": []})
Traceback (most recent call last):
...
fracas.engine.errors.SaveError: not a fracas save file: no schema version '_v' (an integer)
>>> check({"_v": 1, "ruleset": "heimr", "setup": {}, "log": [
...     {"action": "gm begin", "rolls": [{"notation": "d10", "purpose": "", "faces": [9.5]}]}]})
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
fracas.engine.errors.SaveError: log entry 1 is not an action ...: ... integer at rolls[0].faces[0]
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, NotRequired

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, ValidationError
from typing_extensions import TypedDict

from fracas.engine.actions import MAX_ACTION_CHARS
from fracas.engine.errors import SaveError
from fracas.yamlfile import format_path

__all__ = ["MAX_SETUP_DEPTH", "SaveFile", "chain", "check", "check_chain", "check_version"]

#: The deepest nesting of lists and mappings in a save's setup.
MAX_SETUP_DEPTH = 48

_STATE_WORD = Annotated[StrictInt, Field(ge=0, lt=2**32)]
_STATE_WORDS = Annotated[list[_STATE_WORD], Field(min_length=625, max_length=625)]
# Not strict as a whole, so that a JSON list reads as the tuple; strict inside.
_STATE = Annotated[tuple[StrictInt, _STATE_WORDS, StrictFloat | None], Field(strict=False)]


class _Part(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


# The log's parts are typed dicts, not models: a 20,000-action log validates about
# half again as fast, and the replay reads them as the dicts they are.


class SavedRoll(TypedDict):
    """A roll as the log keeps it."""

    __pydantic_config__ = ConfigDict(strict=True)  # type: ignore[misc]
    notation: str
    purpose: str
    faces: list[int]


class SavedEvent(TypedDict):
    """An event as the log keeps it."""

    __pydantic_config__ = ConfigDict(strict=True)  # type: ignore[misc]
    kind: str
    text: str
    data: NotRequired[dict[str, Any]]
    seen_by: NotRequired[list[str] | None]
    detail: NotRequired[list[str] | None]
    outline: NotRequired[str | None]
    outline_data: NotRequired[dict[str, Any]]


class SavedEntry(TypedDict):
    """One line of the log: the action, what it caused, the dice it rolled."""

    __pydantic_config__ = ConfigDict(strict=True)  # type: ignore[misc]
    action: Annotated[str, Field(max_length=MAX_ACTION_CHARS)]
    events: NotRequired[list[SavedEvent]]
    rolls: NotRequired[list[SavedRoll]]


class SavedDice(_Part):
    """The state of seeded random dice, to go on rolling where the save stopped."""

    kind: Literal["random"]
    seed: int | str | None = None
    state: _STATE


class SaveFile(_Part):
    """The whole save."""

    version: int = Field(alias="_v")
    ruleset: str
    ruleset_version: str | None = None
    setup: dict[str, Any]
    log: list[SavedEntry]
    digests: list[Annotated[str, Field(max_length=64)]] | None = None
    dice: SavedDice | None = None


class _Version(_Part):
    version: int = Field(alias="_v")


def _refuse(err: ValidationError) -> SaveError:
    """One line for the first problem (and how many more there are)."""
    errors = err.errors(include_url=False, include_input=False)
    loc, message = tuple(errors[0]["loc"]), errors[0]["msg"]
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    if len(loc) >= 2 and loc[0] == "log" and isinstance(loc[1], int):
        inner = f" at {format_path(loc[2:])}" if len(loc) > 2 else ""
        return SaveError(
            f"log entry {loc[1] + 1} is not an action with its dice and events: "
            f"{message}{inner}{more}"
        )
    if loc and loc[0] == "dice":
        return SaveError(f"not a fracas save file: malformed dice {format_path(loc)}: {message}")
    return SaveError(
        f"not a fracas save file: missing or malformed {format_path(loc)!r}: {message}{more}"
    )


def check_version(data: object) -> dict[str, Any]:
    """``data`` as a dict, once its schema version ``_v`` is known to be an integer."""
    if not isinstance(data, Mapping):
        raise SaveError("not a fracas save file: not a JSON object")
    try:
        _Version.model_validate(data)
    except ValidationError:
        raise SaveError("not a fracas save file: no schema version '_v' (an integer)") from None
    return dict(data)


def check(data: Mapping[str, Any]) -> SaveFile:
    """The save checked against :class:`SaveFile`; one :class:`SaveError` line if it fails."""
    try:
        save = SaveFile.model_validate(dict(data))
    except ValidationError as err:
        raise _refuse(err) from None
    if _depth(save.setup) > MAX_SETUP_DEPTH:
        raise SaveError(
            f"not a fracas save file: the setup is nested deeper than {MAX_SETUP_DEPTH} levels"
        )
    return save


def _depth(value: object) -> int:
    """How deeply lists and mappings nest in ``value`` (walked without recursion)."""
    deepest = 0
    todo: list[tuple[object, int]] = [(value, 0)]
    while todo:
        node, depth = todo.pop()
        if isinstance(node, Mapping):
            children: list[object] = list(node.values())
        elif isinstance(node, list | tuple):
            children = list(node)
        else:
            continue
        deepest = max(deepest, depth + 1)
        if deepest > MAX_SETUP_DEPTH:
            return deepest
        todo.extend((child, depth + 1) for child in children)
    return deepest


#: Hex digits kept of each entry's digest (128 bits).
DIGEST_CHARS = 32


def _canonical(value: object) -> bytes:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def chain(ruleset: str, setup: Mapping[str, Any], log: Iterable[Mapping[str, Any]]) -> list[str]:
    """Each log entry's digest: SHA-256 of the one before (at first, of the ruleset and
    setup) and the entry as saved, in canonical JSON.

    >>> a = chain("heimr", {}, [{"action": "gm begin"}, {"action": "ylva wait"}])
    >>> b = chain("heimr", {}, [{"action": "gm begin"}, {"action": "ylva rest"}])
    >>> len(a), a[0] == b[0], a[1] == b[1], len(a[0])
    (2, True, False, 32)
    """
    digest = hashlib.sha256(_canonical({"ruleset": ruleset, "setup": setup})).digest()
    found: list[str] = []
    for entry in log:
        digest = hashlib.sha256(digest + _canonical(entry)).digest()
        found.append(digest.hex()[:DIGEST_CHARS])
    return found


def check_chain(data: Mapping[str, Any]) -> None:
    """:class:`SaveError` unless ``data``'s digests are its log's :func:`chain`, naming the
    first entry that differs.

    >>> save = {"ruleset": "heimr", "setup": {}, "log": [{"action": "gm begin"}]}
    >>> check_chain({**save, "digests": chain("heimr", {}, save["log"])})
    >>> check_chain({**save, "digests": []})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fracas.engine.errors.SaveError: the save has 0 digests for 1 log entries: ...
    """
    log, digests = data["log"], data.get("digests")
    if digests is None:
        raise SaveError("not a fracas save file: no 'digests' (a version-2 save has them)")
    if len(digests) != len(log):
        raise SaveError(
            f"the save has {len(digests)} digests for {len(log)} log entries: entries were "
            "removed or added by hand"
        )
    wanted = chain(data["ruleset"], data["setup"], log)
    for n, (want, got) in enumerate(zip(wanted, digests, strict=True), 1):
        if want != got:
            raise SaveError(
                f"log entry {n} does not match its digest: it, an entry before it or the "
                "setup was changed by hand, or an entry removed or added"
            )
