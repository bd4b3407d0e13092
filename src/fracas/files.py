"""Files fracas reads and writes: bounded reads and atomic writes.

Every file a person hands fracas is read with a size limit and decoded as UTF-8, and
every failure is one line naming the file (and the line, for bad text). Every file
fracas writes is written whole or not at all: :func:`atomic_write` writes a temporary
file beside the target, syncs it to disk and renames it over the target, so a crash
leaves the old file or the new one, never a torn one.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write(folder / "note.txt", "one\\n")
>>> read_text(folder / "note.txt", 100, "note")
'one\\n'
>>> read_text(folder / "note.txt", 3, "note")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
fracas.files.InputError: .../note.txt: the note is larger than 3 bytes
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import NoReturn

__all__ = [
    "MAX_SAVE_BYTES",
    "MAX_SAVE_DEPTH",
    "MAX_SCRIPT_BYTES",
    "MAX_SEED_DIGITS",
    "InputError",
    "Script",
    "WriteError",
    "atomic_write",
    "decode",
    "json_depth",
    "parse_script",
    "read_bytes",
    "read_script",
    "read_text",
]

#: The largest save file read (20,000 actions of the Heimr duel take 25 MB).
MAX_SAVE_BYTES = 64 * 1024 * 1024
#: The deepest nesting of JSON arrays and objects in a save.
MAX_SAVE_DEPTH = 64
#: The largest script file read.
MAX_SCRIPT_BYTES = 4 * 1024 * 1024
#: The most digits of a script's ``# seed: N``.
MAX_SEED_DIGITS = 40


class InputError(ValueError):
    """A file that cannot be read as asked: missing, too big, not UTF-8. One line."""


class WriteError(OSError):
    """A file that cannot be written: a bad path, a folder, no permission. One line."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "cannot write the file"


def _limit(size: int) -> str:
    """``size`` in words: bytes, KB or MB.

    >>> _limit(2 * 1024 * 1024), _limit(1000), _limit(4096)
    ('2 MB', '1000 bytes', '4 KB')
    """
    for unit, scale in (("MB", 1024 * 1024), ("KB", 1024)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} bytes"


def read_bytes(path: str | Path, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    :class:`InputError` (one line, naming the file) for a missing or unreadable file,
    a folder or device, or a file over ``limit`` bytes.
    """
    name = str(path)
    try:
        with open(path, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise InputError(f"{name}: not a regular file, so not a {what}")
            data = handle.read(limit + 1)
    except OSError as err:
        raise InputError(f"{name}: cannot read the {what} ({err.strerror or err})") from None
    if len(data) > limit:
        raise InputError(f"{name}: the {what} is larger than {_limit(limit)}")
    return data


def decode(data: bytes, name: str, what: str = "file") -> str:
    """``data`` as UTF-8 text; :class:`InputError` names the line of the first bad byte.

    >>> decode(b"gm begin\\nylva \\xff", "x.script", "script")
    Traceback (most recent call last):
    ...
    fracas.files.InputError: x.script, line 2: the script is not UTF-8 text (invalid start byte)
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(
            f"{name}, line {line}: the {what} is not UTF-8 text ({err.reason})"
        ) from None


def read_text(path: str | Path, limit: int, what: str = "file") -> str:
    """The UTF-8 text of the file at ``path``, at most ``limit`` bytes long.

    Raises :class:`InputError` with one line naming the file (and the line of a byte
    that is not UTF-8): the message can be shown to a person as it is.
    """
    return decode(read_bytes(path, limit, what), str(path), what)


# -- saves ----------------------------------------------------------------------------

_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
#: Every byte but the quote and the brackets, deleted before the scan.
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}')
# A string (or an unterminated one, up to the end) once its escapes are gone.
_STRING = re.compile(rb'"[^"]*+(?:"|\Z)')


def json_depth(data: bytes) -> int:
    r"""The deepest nesting of arrays and objects in JSON ``data``, without parsing it.

    Brackets inside strings do not count. Linear in the size, and mostly bytes
    operations: escapes go first (``\\`` pairs, then ``\"``), then every byte but
    quotes and brackets, then the strings.

    >>> json_depth(b'{"a": [[1], "]]]]"], "b": {}}')
    3
    >>> json_depth(rb'["\\", "\"[[[", [["x"]]]')
    3
    """
    plain = data.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_STRUCTURE)
    brackets = _STRING.sub(b"", plain)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number a save holds")


# -- scripts ----------------------------------------------------------------------------

_SEED = re.compile(r"#\s*seed:\s*(-?\d+)\s*")


@dataclass(frozen=True)
class Script:
    """A script: the seed its ``# seed: N`` line fixes, and its actions with their lines."""

    seed: int | None
    lines: tuple[tuple[int, str], ...]


def parse_script(text: str, name: str = "<script>") -> Script:
    """The seed and the action lines of a script's text (blank lines and ``#`` comments
    skipped); a seed of more than :data:`MAX_SEED_DIGITS` digits is an :class:`InputError`.

    >>> parse_script("# seed: 7\\ngm begin\\n\\nylva end  # done\\n")
    Script(seed=7, lines=((2, 'gm begin'), (4, 'ylva end  # done')))
    """
    seed: int | None = None
    lines: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            found = _SEED.fullmatch(line)
            if found and seed is None:
                digits = found.group(1).lstrip("-")
                if len(digits) > MAX_SEED_DIGITS:
                    raise InputError(
                        f"{name}, line {number}: the seed has {len(digits)} digits; "
                        f"at most {MAX_SEED_DIGITS}"
                    )
                seed = int(found.group(1))
            continue
        lines.append((number, line))
    return Script(seed, tuple(lines))


def read_script(path: str | Path) -> Script:
    """The script at ``path``: at most :data:`MAX_SCRIPT_BYTES`, UTF-8, a bounded seed.

    Raises :class:`InputError` with one line naming the file (and line).
    """
    return parse_script(read_text(path, MAX_SCRIPT_BYTES, "script"), str(path))


# -- writing ----------------------------------------------------------------------------


def atomic_write(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all.

    A temporary file in the same folder is written, flushed and synced, then renamed
    over ``path``, and the folder is synced so the rename survives a crash. A bad
    path or a folder is a :class:`WriteError` of one line.
    """
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if target.is_dir():
        raise WriteError(f"cannot write {target}: it is a folder")
    folder = target.parent
    temp = folder / f".{target.name}.{secrets.token_hex(6)}.tmp"
    try:
        # 0o666 less the umask, as a plain open() would create it.
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as err:
        raise WriteError(f"cannot write {target}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            os.chmod(temp, stat.S_IMODE(target.stat().st_mode))
        os.replace(temp, target)
    except OSError as err:
        temp.unlink(missing_ok=True)
        raise WriteError(f"cannot write {target}: {err.strerror or err}") from None
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """Sync a folder's entries to disk (where the system allows opening a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
