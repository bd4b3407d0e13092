"""The demo: one table per example encounter, and for every ruleset its example campaign
in the books with its encounters in the library, each created when absent."""

from __future__ import annotations

from pathlib import Path

import yaml

from fracas.ledger import Ledger
from fracas.library import Library
from fracas.table import encounterfile
from fracas.table.scripts import Script
from fracas.table.store import Store
from fracas.table.table import Table

__all__ = ["demo_campaigns", "demo_tables"]


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


def demo_campaigns(store: Store, folder: Path) -> list[str]:
    """Each of ``folder``'s folders with a ``campaign.yaml``: that campaign in the books
    (named as the folder), and the encounters that read that file alone in the library
    (``<folder>-<name>``), to prepare and start from the browser; the names made now."""
    ledger = Ledger(store)
    library = Library(store, ledger)
    campaigns = {c.name for c in ledger.campaigns()}
    encounters = {e.name for e in library.encounters()}
    made = []
    for campaign in sorted(folder.glob("*/campaign.yaml")):
        name = campaign.parent.name
        if name not in campaigns:
            ledger.import_file(name, campaign)
            made.append(name)
        for path in sorted(campaign.parent.glob("*.yaml")):
            encounter = f"{name}-{path.stem}"
            if encounter in encounters or not _reads_only(path, "campaign.yaml"):
                continue
            library.import_encounter(path.read_text(encoding="utf-8"), path.name, name, encounter)
            made.append(encounter)
    return made


def _reads_only(path: Path, campaign: str) -> bool:
    """Whether the file is an encounter whose characters all come from ``campaign``."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return isinstance(data, dict) and "ruleset" in data and data.get("campaign") == campaign
