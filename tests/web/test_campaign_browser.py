"""A campaign's character made in a real browser (Playwright on Debian's Chromium, as in
test_browser.py): the form generated from the Heimr sheet model, one field's error
shown next to it and fixed, then an XP award."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.web.servers import GM_TOKEN, running
from tests.web.test_browser import SHOTS, WAIT

from fracas.ledger import Ledger
from fracas.table.store import Store


@pytest.mark.rule("H-XP-1")
def test_a_character_made_in_the_browser_then_awarded(browser: object, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    Ledger(Store.open(db)).create("saga", "heimr", title="The saga")
    with running(db) as server:
        gm = browser.new_context().new_page()  # type: ignore[attr-defined]
        gm.set_default_timeout(WAIT)
        gm.goto(f"{server.url}/gm/login?token={GM_TOKEN}")
        gm.click('a[href="/gm/campaigns"]')
        gm.click('a[href="/gm/c/saga"]')
        gm.click("#new-character")
        gm.fill("input[name=key]", "sigrid")
        gm.fill("input[name=name]", "Sigrid")
        gm.fill("input[name=side]", "north")
        # A row each: the empty row drawn, then rows added on the page.
        for i, (name, value) in enumerate({"str": 1, "dex": 0, "sta": 1, "int": 0}.items()):
            if i:
                gm.click("button[data-add-row=rows-attributes]")
            gm.fill(f"input[name='attributes.{i}.key'] >> nth=-1", name)
            gm.fill(f"input[name='attributes.{i}.value'] >> nth=-1", str(value))
        gm.click("button[data-add-row=rows-attributes]")
        gm.fill("input[name='attributes.4.key']", "emp")  # a row added then taken away
        gm.click("#rows-attributes .row:last-of-type button[data-remove-row]")
        assert gm.locator("input[name='attributes.4.key']").count() == 0
        gm.click("button[data-add-row=rows-attributes]")
        gm.fill("input[name='attributes.5.key']", "soc")
        gm.fill("input[name='attributes.5.value']", "0")
        gm.click("button[data-add-row=rows-attributes]")
        gm.fill("input[name='attributes.6.key']", "emp")
        gm.fill("input[name='attributes.6.value']", "0")
        gm.fill("input[name=hit_points]", "0")
        gm.fill("input[name=willpower]", "3")
        gm.click("#save")
        error = gm.inner_text("#error-hit_points")
        assert error == "at least 1"
        assert gm.input_value("input[name=name]") == "Sigrid"  # nothing typed is lost
        keys = [gm.input_value(f"input[name='attributes.{i}.key']") for i in range(6)]
        assert keys == ["str", "dex", "sta", "int", "soc", "emp"]  # the rows typed stay
        gm.fill("input[name=hit_points]", "4")
        gm.click("#save")
        assert "sigrid: sheet written" in gm.inner_text("#message")
        assert "Sigrid" in gm.inner_text("#characters")
        gm.fill("#award-form input[name=xp]", "10")
        gm.fill("#award-form input[name=group]", "band")
        gm.click("#award-form button")
        assert "10 each to sigrid" in gm.inner_text("#message")
        assert "10 XP to band" in gm.inner_text("#ledger-log")
        SHOTS.mkdir(parents=True, exist_ok=True)
        gm.screenshot(path=str(SHOTS / "campaign.png"), full_page=True)
    assert Ledger(Store.open(db)).sheet("saga", "sigrid")["xp"] == 10
