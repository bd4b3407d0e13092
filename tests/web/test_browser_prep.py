"""Preparing an encounter in a real browser (Playwright on Debian's Chromium): a 3x3
battlefield drawn in the grid editor with a height and a door, an encounter built on it
from a campaign, started, and its first action played. Screenshots land in
build/screenshots/."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.web.servers import GM_TOKEN, running
from tests.web.test_browser import SHOTS, WAIT, click, until, version
from tests.web.webtools import EXAMPLES

from fracas.ledger import Ledger
from fracas.table.store import Store


@pytest.mark.rule("H-GRID-1", "H-GRID-3", "H-GRID-5")
def test_a_battlefield_and_an_encounter_prepared_and_played(
    browser: object, tmp_path: Path
) -> None:
    """On SQLite: preparing is the same on either store (tests/web/test_prep.py runs both)."""
    db_url = f"sqlite:///{tmp_path / 'tables.db'}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    store = Store.open(db_url)
    Ledger(store).import_file("north", EXAMPLES / "heimr" / "campaign.yaml")
    store.engine.dispose()
    with running(db_url) as server:
        gm = browser.new_context().new_page()  # type: ignore[attr-defined]
        gm.set_default_timeout(WAIT)
        gm.goto(f"{server.url}/gm/login?token={GM_TOKEN}")
        gm.click('a[href="/gm/prep/battlefields"]')
        gm.fill("#new-battlefield input[name=name]", "yard")
        gm.select_option("#new-battlefield select[name=ruleset]", "heimr")
        gm.click("#new-battlefield button")
        until(gm, "document.querySelector('#sq-C3') !== null")
        # A height: click the square, set it in the panel htmx brings in.
        gm.click("#sq-B2")
        until(gm, "document.querySelector('#square-form') !== null")
        gm.fill("#height", "-1")
        gm.click("#save-square")
        until(gm, "document.querySelector('#height-error') !== null")
        gm.fill("#height", "1")
        gm.fill("#square-form input[name=name]", "mound")
        gm.click("#save-square")
        until(gm, "document.querySelector('#sq-B2').textContent.includes('▲1')")
        # A door: click the edge between B2 and B3.
        gm.click("#edge-B2-B3")
        until(gm, "document.querySelector('#border-form') !== null")
        gm.select_option("#preset", "Single door")
        gm.click("#save-border")
        until(gm, "document.querySelectorAll('svg.editor line.border').length === 1")
        gm.screenshot(path=str(SHOTS / "prep-battlefield.png"), full_page=True)
        # The encounter: the campaign's characters on that battlefield.
        gm.click('a[href="/gm/prep/encounters"]')
        gm.fill("#new-encounter input[name=name]", "clash")
        gm.select_option("#new-encounter select[name=ruleset]", "heimr")
        gm.select_option("#new-encounter select[name=campaign]", "north")
        gm.select_option("#new-encounter select[name=battlefield]", "yard")
        gm.click("#new-encounter button")
        gm.fill("input[name='c0.character']", "ylva")
        gm.fill("input[name='c0.square']", "B2")
        gm.fill("input[name='c1.character']", "astrid")
        gm.fill("input[name='c1.square']", "B7")
        gm.click("#save-encounter")
        until(gm, "document.querySelector('#c1-square-error') !== null")
        assert "off the 3x3 grid" in gm.inner_text("#c1-square-error")
        gm.fill("input[name='c1.square']", "B3")
        gm.click("#save-encounter")
        until(gm, "document.querySelector('#start') !== null")
        gm.screenshot(path=str(SHOTS / "prep-encounter.png"), full_page=True)
        gm.fill("#table", "clash-1")
        gm.click("#start")
        until(gm, "document.querySelector('#live') !== null")
        assert version(gm) == 0
        click(gm, "gm begin")
        assert version(gm) == 1
        drawn = gm.text_content("svg.field") or ""
        assert "B2 ▲1" in drawn and "Single door" in drawn
        gm.screenshot(path=str(SHOTS / "prep-played.png"), full_page=True)
