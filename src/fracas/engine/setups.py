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
from fracas.yamlfile import format_path

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
