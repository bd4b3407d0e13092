"""``fracas rulesets``: the rule systems installed, each with its name, version and the
distribution it comes from (the ``fracas.rulesets`` entry points; docs/rulesets.md)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from fracas.cli.app import app
from fracas.engine import EngineError
from fracas.rules import find, ids, info

__all__ = ["installed"]


def installed() -> list[dict[str, str]]:
    """One row a ruleset: id, name, version, source (a ruleset that does not load says
    why in its name)."""
    rows = []
    for rid in ids():
        where = info(rid)
        try:
            ruleset = find(rid)
            name, version = ruleset.name, ruleset.version
        except EngineError as err:
            name, version = f"(does not load: {err})", where.source_version
        rows.append(
            {
                "id": rid,
                "name": name,
                "version": version,
                "source": f"{where.source} {where.source_version}".strip(),
            }
        )
    return rows


@app.command(rich_help_panel="Play")
def rulesets(
    as_json: Annotated[bool, typer.Option("--json", help="One JSON list instead.")] = False,
) -> None:
    """The rule systems installed: id, name, version and the distribution it comes from."""
    rows = installed()
    if as_json:
        print(json.dumps(rows))
        return
    table = Table(title="Rulesets installed")
    for column in ("id", "name", "version", "source"):
        table.add_column(column)
    for row in rows:
        table.add_row(row["id"], row["name"], row["version"], row["source"])
    Console(highlight=False).print(table)
