"""Files fracas writes and reads: written atomically, read within bounds.

:func:`atomic_write` writes a temporary file in the same folder, flushes and fsyncs it,
then renames it over the target: a reader (or a crash) sees the old file or the new one,
never a torn one.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from fracas.engine import SaveError

#: Largest save read, in bytes.
MAX_SAVE = 64_000_000


def atomic_write(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` all at once; ``OSError`` with one line if it cannot be."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a folder, not a file")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise FileNotFoundError(f"cannot write {path}: there is no folder {folder}")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def read_save(path: str | Path) -> dict[str, Any]:
    """A save file's JSON object; :class:`SaveError` (one line) if it is not one."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise SaveError(f"cannot read {path}: {err.strerror or err}") from None
    if len(raw) > MAX_SAVE:
        raise SaveError(f"{path} is {len(raw):,} bytes; a save is at most {MAX_SAVE:,}")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise SaveError(f"{path} is not a save file: {str(err).splitlines()[0][:80]}") from None
    if not isinstance(data, dict):
        raise SaveError(f"{path} is not a save file: not a JSON object")
    return data
