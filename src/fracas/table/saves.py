"""Save files as people hand them to fracas: read bounded (at most
:data:`~fracas.files.MAX_SAVE_BYTES`, :data:`~fracas.files.MAX_SAVE_DEPTH` levels deep,
checked before the JSON is parsed), each failure one :class:`SaveError` line naming the
file; :meth:`fracas.engine.Encounter.load` replays what they hold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fracas import files
from fracas.engine.errors import SaveError
from fracas.files import (
    InputError,
    _limit,
    _refuse_constant,
    decode,
    json_depth,
    read_bytes,
)

__all__ = ["loads_save", "read_save"]


def loads_save(data: bytes, name: str = "<save>") -> dict[str, Any]:
    """A save's JSON ``data`` as a dict, refused with one-line ``SaveError`` when it is
    too big, too deep, not UTF-8, not JSON or not an object.

    >>> loads_save(b"[" * 100_000)
    Traceback (most recent call last):
    ...
    fracas.engine.errors.SaveError: <save>: not a fracas save: nested deeper than 64 levels
    """
    if len(data) > files.MAX_SAVE_BYTES:
        raise SaveError(f"{name}: not a fracas save: larger than {_limit(files.MAX_SAVE_BYTES)}")
    if json_depth(data) > files.MAX_SAVE_DEPTH:
        raise SaveError(
            f"{name}: not a fracas save: nested deeper than {files.MAX_SAVE_DEPTH} levels"
        )
    try:
        text = decode(data, name, "save")
        value = json.loads(text, parse_constant=_refuse_constant)
    except InputError as err:
        raise SaveError(str(err)) from None
    except ValueError as err:  # JSONDecodeError, NaN, ints of too many digits
        message = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise SaveError(f"{name}: not a fracas save: not JSON ({message})") from None
    if not isinstance(value, dict):
        raise SaveError(f"{name}: not a fracas save: not a JSON object")
    return value


def read_save(path: str | Path) -> dict[str, Any]:
    """The JSON object in the save file at ``path``, for ``Encounter.load``.

    Bounded: at most :data:`files.MAX_SAVE_BYTES` and :data:`files.MAX_SAVE_DEPTH` levels deep,
    checked before the JSON is parsed. Any failure (unreadable, not UTF-8, not JSON,
    too deep, too big, not an object) is one ``SaveError`` line naming the file.
    """
    try:
        data = read_bytes(path, files.MAX_SAVE_BYTES, "save")
    except InputError as err:
        raise SaveError(str(err)) from None
    return loads_save(data, str(path))
