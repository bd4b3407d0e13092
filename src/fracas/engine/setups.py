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
    found: list[tuple[KeyPath, str]] = []
    for i, item in enumerate(items):
        cid = item.get("id") or item.get(key) if isinstance(item, dict) else None
        if isinstance(cid, str) and cid in seen:
            found.append((("combatants", i), f"two combatants are called {cid!r}: give one an id"))
        if isinstance(cid, str):
            seen.add(cid)
    return found
