"""The tempo rules' movement (T-MOVE-1) and rolled turn order (T-ROUND-1) played from
the GM's table page."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tests.web.webtools import Web

from fracas.rules import find
from fracas.table.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tempo"))
from tempo_builders import setup, sheet

YLVA = sheet("ylva", "north", melee=2, movement=1)
ASTRID = sheet("astrid", "south", melee=2)
BRAND = sheet("brand", "south", melee=2, movement=1)
APART = {"ylva": {"reach": ["astrid"]}, "brand": {"reach": []}}


@pytest.mark.rule("T-MOVE-1", "T-ROUND-1")
def test_rolled_order_and_movement_on_the_web(db_url: str) -> None:
    web = Web(db_url)
    data = setup([YLVA, ASTRID, BRAND], APART, {"round": {"initiative": "rolled"}})
    Table.start(web.store, "t", find("tempo"), data, "skirmish", seed=1)
    web.page()
    status, page = web.act("gm initiative")
    assert status in (200, 303), page
    first = Table.resume(web.store, "t").encounter.state.order[0]
    status, _ = web.act(f"{first} move")
    assert status in (200, 303)
    assert "the turn order:" in web.page()
