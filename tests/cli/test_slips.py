"""Two slips at the terminal: a verb typed without its target says what is missing, and
``fracas tables`` fits 80 columns."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from fracas.cli.play import table_lines
from fracas.engine import Encounter, NotationError, RandomDice
from fracas.table import encounterfile
from fracas.table.notation import resolve
from fracas.table.store import TableRecord

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_verb_alone_asks_for_its_target() -> None:
    ruleset, setup, _ = encounterfile.load(EXAMPLES / "heimr" / "duel.yaml")
    encounter = Encounter(ruleset, setup, RandomDice(1))
    encounter.push(resolve("gm begin", encounter, None))
    with pytest.raises(NotationError) as refused:
        resolve("att", encounter, None)
    assert "needs a target" in str(refused.value) and "None" not in str(refused.value)


def test_the_tables_fit_eighty_columns() -> None:
    now = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    record = TableRecord(
        1, "heimr-duel", "A duel at the ford, " * 5, "heimr", {}, None, 12, 12, now, now
    )
    lines = table_lines([record], 80)
    assert lines[0].split() == ["table", "ruleset", "actions", "last", "change", "title"]
    assert all(len(line) <= 80 for line in lines) and lines[1].startswith("heimr-duel")
    assert lines[1].endswith("…")
