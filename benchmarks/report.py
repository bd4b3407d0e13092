"""Writing one benchmark's section of docs/benchmarks.md, leaving the others as they are.

Each benchmark owns one top-level section (a ``# `` heading): it replaces that section,
up to the next top-level heading, or appends it; the file is written atomically.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "b.md"
>>> write_section(path, "# Dice benchmarks\\nfast\\n")
>>> write_section(path, "# Engine benchmarks\\n## Method\\nslow\\n")
>>> write_section(path, "# Dice benchmarks\\nfaster\\n")
>>> print(path.read_text(), end="")
# Dice benchmarks
faster
<BLANKLINE>
# Engine benchmarks
## Method
slow
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

from fracas.files import atomic_write
from fracas.lab.stats import wilson

T = TypeVar("T")

#: The two-sided 99% quantile of the standard normal: the benchmarks' intervals.
Z99 = 2.5758293035489

#: The 99% Wilson score interval of a win rate (wins, runs).
wilson99 = partial(wilson, z=Z99)


def timed(run: Callable[[], T]) -> tuple[float, float, T]:
    """(wall seconds, CPU seconds of this process, result) of ``run()``, after a
    garbage collection (so that none left over from before is counted)."""
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def write_section(path: Path | str, section: str) -> None:
    """Put ``section`` (starting with its ``# `` heading) in place of the file's section
    with the same heading, or after the rest."""
    path = Path(path)
    heading = section.split("\n", 1)[0]
    if not heading.startswith("# "):
        raise ValueError(f"a benchmark section starts with a '# ' heading, not {heading!r}")
    lines = path.read_text(encoding="utf-8").split("\n") if path.exists() else []
    if heading in lines:
        start = lines.index(heading)
        end = next(
            (i for i in range(start + 1, len(lines)) if lines[i].startswith("# ")), len(lines)
        )
        before = "\n".join(lines[:start]).rstrip("\n")
        after = "\n".join(lines[end:]).strip("\n")
    else:
        before, after = "\n".join(lines).rstrip("\n"), ""
    parts = [p for p in (before, section.strip("\n"), after) if p]
    atomic_write(path, "\n\n".join(parts) + "\n")
