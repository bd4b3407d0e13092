"""Results on disk: JSON and CSV of a simulation, each written atomically.

A file is written to a temporary file in the same folder, flushed to disk, then put
in place with :func:`os.replace`, so a reader never sees half a file. The JSON has no
timestamps or timings: the same seed gives the same bytes.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fracas.lab.playout import Outcome


def write_atomically(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` to ``path``: temporary file in the same folder, fsync, replace."""
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    folder = path.parent if str(path.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def dumps(report: Mapping[str, Any]) -> str:
    """The report as JSON, keys sorted, so equal reports are equal bytes."""
    return json.dumps(report, indent=2, sort_keys=True) + "\n"


def outcomes_csv(outcomes: Sequence[Outcome]) -> str:
    """One row per run: winner, rounds, actions, capped, each combatant's hit points
    and injuries at the end."""
    people = sorted({cid for o in outcomes for cid in o.hp_left})
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        ["run", "winner", "rounds", "actions", "capped"]
        + [f"hp_{cid}" for cid in people]
        + [f"injuries_{cid}" for cid in people]
    )
    for i, o in enumerate(outcomes):
        writer.writerow(
            [i, o.winner or "", o.rounds, o.actions, int(o.capped)]
            + [o.hp_left.get(cid, "") for cid in people]
            + [o.injuries.get(cid, "") for cid in people]
        )
    return buffer.getvalue()


__all__ = ["dumps", "outcomes_csv", "write_atomically"]
