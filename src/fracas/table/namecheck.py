"""A report of the names a store already keeps that :mod:`fracas.names` would refuse
today: not in NFKC form, letters of two scripts, or looking like another name of the
same kind (two tables, two campaigns...) or of the same table (two combatants, two
sides). Nothing is renamed: the report says what to rename by hand.

The Alembic revision ``0010_name_report`` writes it to the log once, as a store is
upgraded; :func:`report` gives it at any time.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection

from fracas import names
from fracas.engine.setups import name_problems

__all__ = ["KINDS", "problems", "report"]

#: The store's tables of named things, and what each names.
KINDS = {
    "fracas_tables": "table",
    "fracas_campaigns": "campaign",
    "fracas_battlefields": "battlefield",
    "fracas_encounters": "encounter",
}


def problems(kind: str, stored: list[str]) -> list[str]:
    """One line for each of ``stored`` (names of one ``kind``) refused today.

    >>> for line in problems("table", ["ylva", "ylvа", "ford", "ｆｏｒｄ2"]):
    ...     print(line)
    table 'ylvа': it mixes CYRILLIC and LATIN letters
    table 'ｆｏｒｄ2': not in NFKC form ('ford2')
    >>> problems("table", ["ylva", "yIva"])
    ["table 'yIva': looks the same as the table 'ylva'"]
    """
    found: list[str] = []
    seen: list[str] = []
    for name in stored:
        if names.normal(name) != name:
            found.append(f"{kind} {name!r}: not in NFKC form ({names.normal(name)!r})")
        elif mixed := names.mixed_scripts(name):
            found.append(f"{kind} {name!r}: it mixes {mixed}")
        elif (other := names.clash(name, seen)) is not None:
            found.append(f"{kind} {name!r}: looks the same as the {kind} {other!r}")
        seen.append(name)
    return found


def _setup(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def report(connection: Connection) -> list[str]:
    """Every name problem in the store ``connection`` reaches, one line each."""
    present = set(connection.dialect.get_table_names(connection))
    found: list[str] = []
    for table, kind in KINDS.items():
        if table not in present:
            continue
        stored = list(connection.execute(text(f"SELECT name FROM {table} ORDER BY id")).scalars())
        found += problems(kind, [str(n) for n in stored])
    if "fracas_tables" in present:
        rows = connection.execute(text("SELECT name, setup FROM fracas_tables ORDER BY id"))
        for name, setup in rows:
            try:
                combatants = _setup(setup).get("combatants")
            except (ValueError, AttributeError):
                continue
            for where, message in name_problems(combatants):
                found.append(f"table {name!r}, combatant {where[1] + 1}: {message}")
    return found
