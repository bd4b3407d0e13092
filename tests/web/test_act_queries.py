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


def test_live_draws_of_a_change_made_elsewhere_ask_the_store_five_times(tmp_path: Path) -> None:
    """The pages of a table this process holds, told another process pushed an action:
    the game master's draw catches up in two queries (where the table stands, and its
    rows from the last one held up) and asks whether an action waits for typed dice; the
    sides' draws read the players' odds setting and the seats once between them."""
    from fracas.table import encounterfile
    from fracas.table.seats import Seats
    from fracas.table.store import Store
    from fracas.table.table import Table
    from fracas.web import events
    from fracas.web.app import create_app

    url = f"sqlite:///{tmp_path / 't.db'}"
    store, elsewhere = Store.open(url), Store.open(url)
    script = Script.read(DUEL.with_suffix(".script"))
    ruleset, setup, title = encounterfile.load(DUEL)
    table = Table.start(store, "t", ruleset, setup, title, seed=script.seed)
    sides = table.sides()
    Seats(store).open(table.id, sides[0])
    app = create_app(store, gm_token="g" * 32)
    draws = [events._gm_draw(app, "t")] + [events._side_draw(app, "t", s, True) for s in sides]
    drawn = [d(None, (table.id, table.version)).drawn for d in draws]
    other = Table.resume(elsewhere, "t")
    statements: list[str] = []

    def executed(conn: object, cursor: object, sql: str, *_: object) -> None:
        statements.append(" ".join(sql.split()))

    event.listen(store.engine, "before_cursor_execute", executed)
    for line in [line for _, line in script.lines][:4]:
        other.push(line)
        statements.clear()
        updates = [d(b, (table.id, other.version)) for d, b in zip(draws, drawn, strict=True)]
        drawn = [u.drawn for u in updates]
        assert len(statements) <= 5, statements
        assert all(u.version == other.version and u.step is not None for u in updates)
        # The stored actions are counted as it catches up, not asked apart.
        assert not any(s.startswith("SELECT max(") for s in statements), statements
    with app.state.tables.hold("t") as held:
        assert held.log_lines(None, 0) == other.log_lines(None, 0)
        assert held.stored() == other.stored() == 4
