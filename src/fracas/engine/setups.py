"""Reading a ruleset's setup: one clear message for the first thing wrong, and where.

>>> from pydantic import BaseModel
>>> class Grid(BaseModel):
...     columns: int
>>> try:
...     validated(Grid, {"columns": "wide"}, "battlefield")
... except EngineError as err:
...     print(str(err)[:50])
battlefield, columns: Input should be a valid inte
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from fracas import names
from fracas.engine.errors import EngineError
from fracas.yamlfile import KeyPath, format_path

M = TypeVar("M", bound=BaseModel)


def validated(
    model: type[M], data: Any, what: str = "encounter setup", prefix: tuple[Any, ...] = ()
) -> M:
    """``data`` read as ``model``; :class:`EngineError` names the first bad field."""
    try:
        return model.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = format_path((*prefix, *first["loc"]))
        raise EngineError(f"{what}, {where}: {first['msg']}") from None


def duplicate_ids(items: list[Any], key: str = "character") -> list[tuple[KeyPath, str]]:
    """Each combatant entry whose id (its ``id``, else its character) an earlier one took.

    >>> items = [{"character": "ylva"}, {"character": "ylva"}, {"character": "y", "id": "ylva"}]
    >>> [path for path, _ in duplicate_ids(items)]
    [('combatants', 1), ('combatants', 2)]
    """
    seen: set[str] = set()
    found: list[tuple[KeyPath, str]] = name_problems(items, key)
    for i, item in enumerate(items):
        cid = item.get("id") or item.get(key) if isinstance(item, dict) else None
        if isinstance(cid, str) and cid in seen:
            found.append((("combatants", i), f"two combatants are called {cid!r}: give one an id"))
        if isinstance(cid, str):
            seen.add(cid)
    return found


def name_problems(items: Any, key: str = "character") -> list[tuple[KeyPath, str]]:
    """Each combatant's id (its ``id``, else its ``key``) or side that is not in NFKC
    form, mixes scripts, or looks like another one of the setup (:mod:`fracas.names`).

    >>> [m[:59] for _, m in name_problems([{"character": "ylva"}, {"character": "ylvа"}])]
    ["'ylvа' is not a combatant name: it mixes CYRILLIC and LATIN"]
    >>> [m for _, m in name_problems([{"id": "ylva"}, {"id": "yIva"}])]
    ["'yIva' looks the same as the combatant 'ylva': choose a name that can be told apart"]
    """
    if not isinstance(items, list):
        return []
    found: list[tuple[KeyPath, str]] = []
    ids: list[str] = []
    sides: list[str] = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        for field, what, kept in (("id", "combatant", ids), ("side", "side", sides)):
            value = item.get(field) or (item.get(key) if field == "id" else None)
            if not isinstance(value, str):
                continue
            where = ("combatants", i, field if field in item else key)
            if names.normal(value) != value:
                found.append(
                    (
                        where,
                        f"{value[:40]!r} is not in its normal form (NFKC): write "
                        f"{names.normal(value)[:40]!r}",
                    )
                )
                continue
            try:
                names.check(value, what, kept)
            except names.NameError_ as err:
                found.append((where, str(err)))
            if value not in kept:
                kept.append(value)
    return found


def check_names(setup: Any) -> None:
    """:class:`EngineError` for the first of the setup's :func:`name_problems`."""
    combatants = setup.get("combatants") if isinstance(setup, dict) else None
    found = name_problems(combatants)
    if found:
        where, message = found[0]
        raise EngineError(f"encounter setup, {format_path(where)}: {message}")
