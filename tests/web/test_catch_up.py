"""On either store (SQLite, PostgreSQL), a page's table that another process changed
catches up without replaying its log: the rows it holds are recognised as still stored."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.webtools import Web

from fracas.engine import Encounter
from fracas.table.store import Store
from fracas.table.table import Table


def test_a_held_table_catches_up_without_a_replay(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    web = Web(db_url)
    web.start("heimr/duel.yaml")
    assert web.act("gm begin")[0] == 303
    assert web.act("end")[0] == 303  # the page's table is held from here
    other = Table.resume(Store.open(db_url, migrate=False), "t")
    replays: list[int] = []
    real = Encounter.load.__func__  # type: ignore[attr-defined]

    def counting(cls: Any, data: Any, *args: Any, **kwargs: Any) -> Any:
        replays.append(len(data["log"]))
        return real(cls, data, *args, **kwargs)

    monkeypatch.setattr(Encounter, "load", classmethod(counting))
    other.push("end")
    other.undo()
    other.push("gm note text='elsewhere'")
    assert web.act("end")[0] == 303
    assert replays == []
    with web.app.state.tables.hold("t") as table:
        assert table.export() == Table.resume(web.store, "t").export()
