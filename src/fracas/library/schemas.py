"""The JSON Schemas of the files a game master writes, generated from their pydantic
models: an encounter file's top, and a battlefield file of each ruleset that has one.
``python -m fracas.library.schemas docs/schemas`` writes them (the tests check that the
published ones are current).

>>> sorted(schemas())[:2]
['battlefield-diestep.json', 'battlefield-heimr-classic.json']
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from fracas.files import atomic_write
from fracas.library.kinds import KINDS, schema
from fracas.table.encounterfile import EncounterFile

__all__ = ["schemas", "text", "write"]


def schemas() -> dict[str, dict[str, Any]]:
    """Each schema by its file name."""
    found = {f"battlefield-{ruleset}.json": schema(ruleset) for ruleset in KINDS}
    found["encounter.json"] = EncounterFile.model_json_schema()
    return found


def text(found: dict[str, Any]) -> str:
    """A schema as its file holds it."""
    return json.dumps(found, indent=2, sort_keys=True) + "\n"


def write(folder: Path) -> list[Path]:
    """Every schema written (atomically) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, found in sorted(schemas().items()):
        atomic_write(folder / name, text(found))
        written.append(folder / name)
    return written


if __name__ == "__main__":  # pragma: no cover
    for path in write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas")):
        print(path)
