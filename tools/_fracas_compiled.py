"""Put the compiled fracas on ``sys.path`` at start-up, only while it matches ``src``.

``tools/compile.py`` copies this file into the venv's site-packages beside a
``fracas_compiled.pth`` whose one line calls :func:`activate` with the two folders.
Any interpreter of the venv then imports the compiled build (``build/compiled``) just
before ``src`` when the build's manifest (path, size, mtime of every file it was made
from) still matches ``src/fracas``, and ``FRACAS_PURE`` is unset; otherwise (a source
edited, added or removed, the build half made, anything unexpected) it does nothing
and fracas runs pure from ``src``. It imports only ``os`` and ``sys`` (loaded by then).
"""

import os
import sys

#: The manifest's file name in the compiled build.
MANIFEST = "src-manifest.txt"


def tree(root: str) -> dict[str, tuple[int, int]]:
    """Every file under ``root`` but ``__pycache__``: relative path -> (size, mtime_ns)."""
    found: dict[str, tuple[int, int]] = {}
    folders = [""]
    while folders:
        folder = folders.pop()
        with os.scandir(os.path.join(root, folder)) as entries:
            for entry in entries:
                relative = folder + entry.name
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        folders.append(relative + "/")
                else:
                    stat = entry.stat()
                    found[relative] = (stat.st_size, stat.st_mtime_ns)
    return found


def manifest(files: dict[str, tuple[int, int]]) -> str:
    """The manifest's text for ``files`` (as :func:`tree` gives them): a sorted line each."""
    return "".join(f"{path}\t{size}\t{mtime}\n" for path, (size, mtime) in sorted(files.items()))


def placed(
    path: list[str],
    src: str,
    compiled: str,
    recorded: str,
    files: dict[str, tuple[int, int]],
) -> list[str] | None:
    """``path`` with ``compiled`` just before (the last) ``src``, or None to leave it as it is.

    None unless the ``recorded`` manifest is that of ``files`` (a non-empty tree) and
    ``src`` is on the path, ``compiled`` not yet (an explicit ``PYTHONPATH`` stays as it is).

    >>> placed(["", "/p", "/v/src"], "/v/src", "/v/c", "a\\t1\\t2\\n", {"a": (1, 2)})
    ['', '/p', '/v/c', '/v/src']
    >>> placed(["/v/src"], "/v/src", "/v/c", "a\\t1\\t2\\n", {"a": (1, 3)}) is None
    True
    """
    if not files or src not in path or compiled in path or recorded != manifest(files):
        return None
    at = len(path) - 1 - path[::-1].index(src)  # the install's entry, after PYTHONPATH's
    return [*path[:at], compiled, *path[at:]]


def activate(src: str, compiled: str) -> None:
    """Put ``compiled`` before ``src`` on ``sys.path`` iff it is fresh; never raises."""
    try:
        if "FRACAS_PURE" in os.environ:
            return
        with open(os.path.join(compiled, MANIFEST), encoding="utf-8") as file:
            recorded = file.read()
        files = tree(os.path.join(src, "fracas"))
        path = placed(sys.path, src, compiled, recorded, files)
        if path is not None:
            sys.path[:] = path
    except Exception:  # anything unexpected: fracas runs pure
        return
