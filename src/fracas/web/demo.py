"""The demo campaign: one table per example encounter, created when absent."""

from __future__ import annotations

from pathlib import Path

import yaml

from fracas.table import encounterfile
from fracas.table.scripts import Script
from fracas.table.store import Store
from fracas.table.table import Table

__all__ = ["demo_tables"]


def demo_tables(store: Store, folder: Path) -> list[str]:
    """A table for every encounter file in ``folder``'s folders (``<folder>-<name>``),
    seeded as its script says; the names of the tables created now."""
    have = {t.name for t in store.tables()}
    made = []
    for path in sorted(folder.glob("*/*.yaml")):
        if path.name == "campaign.yaml" or not _is_encounter(path):
            continue
        name = f"{path.parent.name}-{path.stem}"
        if name in have:
            continue
        script = path.with_suffix(".script")
        seed = Script.read(script).seed if script.exists() else None
        ruleset, setup, title = encounterfile.load(path)
        Table.start(store, name, ruleset, setup, title, seed=seed)
        made.append(name)
    return made


def _is_encounter(path: Path) -> bool:
    """Whether the file names a ruleset at its top (campaign pieces do not)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return isinstance(data, dict) and "ruleset" in data
