"""The heimr-classic books between fights on the web (HC-CAMP-1, HC-ARM-1): the upkeep
forms of the campaign page and what a character's page shows of its charisma, wealth
and weapons."""

from __future__ import annotations

import pytest
from tests.web.webtools import Web, csrf_of, rows

from fracas.ledger import Ledger, LedgerError


@pytest.fixture
def web(db_url: str) -> Web:
    web = Web(db_url)
    web.csrf = csrf_of(web.gm.get("/gm/campaigns").text)
    return web


@pytest.mark.rule("HC-CAMP-1", "HC-ARM-1")
def test_the_books_between_fights_on_the_web(web: Web) -> None:
    web.post("/gm/campaigns/new", name="hvita", ruleset="heimr-classic")
    fields = {
        "new": "1",
        "key": "b",
        "name": "Brynja",
        "side": "n",
        **rows("statistics", {"C": "6", "W": "8", "CS": "3", "D": "3", "K": "5"}),
        **rows("weapons", {"axe": "small"}),
    }
    assert web.post("/gm/c/hvita/character", **fields)[0] == 200
    page = web.gm.get("/gm/c/hvita").text
    assert 'id="month-form"' in page and 'id="hero-form"' in page
    status, page = web.post(
        "/gm/c/hvita/entry/upkeep", what="month", month="2026-02", characters="b"
    )
    assert status == 200 and "income 6s" in page
    status, page = web.post(
        "/gm/c/hvita/entry/upkeep", what="money", character="b", copper="30", spend="on"
    )
    assert status == 200 and Ledger(web.store).sheet("hvita", "b")["money"] == 1500
    status, page = web.post(
        "/gm/c/hvita/entry/upkeep", what="lead", character="b", lead="Heimr fleet"
    )
    assert status == 400 and "needs charisma 8" in page
    status, _ = web.post("/gm/c/hvita/entry/upkeep", what="underbelly", character="b", boards="1")
    assert status == 200
    page = web.gm.get("/gm/c/hvita/character/b").text
    assert 'id="summary"' in page and "Knife fighting, Dueling" in page
    assert "<th>wealth</th><td>9</td>" in page


def test_an_upkeep_entry_is_for_heimr_classic_only(db_url: str) -> None:
    web = Web(db_url)
    ledger = Ledger(web.store)
    ledger.create("ford", "heimr", None, "")
    with pytest.raises(LedgerError, match="upkeep between fights is for heimr-classic"):
        ledger.record("ford", "upkeep", None, {"what": "month", "characters": ["x"]})


@pytest.mark.rule("D-REC-1")
def test_rest_over_time_on_the_web(web: Web) -> None:
    web.post("/gm/campaigns/new", name="road", ruleset="diestep")
    ledger = Ledger(web.store)
    ledger.record("road", "character", "rook", {"sheet": {"name": "Rook", "side": "a"}})
    ledger.record("road", "carry", "rook", {"condition": {"hp": 1, "wound": "badly"}})
    assert 'id="rest-form"' in web.gm.get("/gm/c/road").text
    status, page = web.post("/gm/c/road/entry/rest", character="rook", hours="0", days="2")
    assert status == 200 and "still badly wounded" in page
    status, page = web.post("/gm/c/road/entry/rest", character="rook", hours="x", days="0")
    assert status == 400
    status, page = web.post("/gm/c/road/entry/rest", character="rook", hours="0", days="7")
    assert status == 200 and "rook" not in ledger.standing("road").carried
