"""What one action asks of the store (the issue "The live table": an action's cost): the
GM's act reads the session, the table, its version and dice mode once, whether a
campaign has concluded it and (unless just read) whether an action waits for typed dice;
then stores the action in three statements (no read of the
table's row among them) and clears any action waiting for typed dice in a fourth, in the
same transaction. Counted, not timed: before this work it made ten (the version read
twice, the dice mode apart, the table's whole row read back inside the write)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import event
from tests.web.webtools import Web

from fracas.table.scripts import Script

DUEL = Path(__file__).resolve().parents[2] / "examples" / "heimr" / "duel.yaml"


def test_an_action_makes_nine_queries_at_most_and_one_write_transaction(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 't.db'}")
    script = Script.read(DUEL.with_suffix(".script"))
    web.start("heimr/duel.yaml", seed=script.seed)
    web.page()
    statements: list[str] = []

    def executed(conn: object, cursor: object, sql: str, *_: object) -> None:
        statements.append(" ".join(sql.split()))

    event.listen(web.store.engine, "before_cursor_execute", executed)
    lines = [line for _, line in script.lines]
    for line in lines[:6]:
        version = web.store.table("t").version
        statements.clear()
        status, text = web.post("/gm/t/t/act", action=line, version=str(version))
        assert status == 303, text[:300]
        writes = [s for s in statements if not s.startswith("SELECT")]
        assert len(statements) <= 9, statements
        assert len(writes) == 4 and writes[0].startswith("UPDATE fracas_tables"), writes
        assert writes[-1].startswith("DELETE FROM fracas_pending"), writes
        # The version (with the dice mode) is read once: the push does not ask again.
        assert sum(s.startswith("SELECT fracas_tables.version") for s in statements) == 1
