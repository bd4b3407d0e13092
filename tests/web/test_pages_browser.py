"""The pages around the table in a real browser (Playwright on Debian's Chromium), at
1280 px and on a 390 px phone: none scrolls sideways and axe-core finds no serious or
critical violation on any of them (tables, archived tables, campaigns, a campaign, a
character, preparation, the encounter editor, a refusal page), also in the state of a
refused form, which keeps what was typed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.web.servers import GM_TOKEN, running
from tests.web.test_browser import WAIT
from tests.web.webtools import EXAMPLES

from fracas.ledger import Ledger
from fracas.library import Library
from fracas.table import encounterfile
from fracas.table.store import Store
from fracas.table.table import Table

axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

#: Every page of this part of the site, as a game master opens it.
PAGES = (
    "/gm/",
    "/gm/archived",
    "/gm/campaigns",
    "/gm/c/ford",
    "/gm/c/ford/character/ylva",
    "/gm/c/ford/character",
    "/gm/prep/encounters",
    "/gm/prep/encounters/clash",
    "/gm/prep/battlefields",
    "/gm/prep/battlefields/yard",
    "/gm/t/no-such-table",
    "/p/not-a-link",
)


def problems(page: Any, axe: Any) -> list[str]:
    """What is wrong with the page as shown: sideways scrolling, and axe's serious or
    critical violations (each with its first element)."""
    found = []
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    if wide > 0:
        found.append(f"{page.url}: {wide} px wider than the screen")
    for v in axe.run(page).response["violations"]:
        if v["impact"] in ("serious", "critical"):
            where = v["nodes"][0]["target"] if v["nodes"] else ""
            found.append(f"{page.url}: {v['id']} ({v['impact']}) at {where}")
    return found


def test_the_pages_fit_a_phone_and_pass_axe(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    store = Store.open(db)
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr" / "duel.yaml")
    Table.start(store, "heimr-duel", ruleset, setup, title, seed=1)
    Ledger(store).import_file("ford", EXAMPLES / "heimr" / "campaign.yaml")
    document = {"combatants": [{"character": "ylva"}, {"character": "astrid"}]}
    Library(store, Ledger(store)).create_battlefield("yard", "heimr", "Yard")
    Library(store, Ledger(store)).save_encounter("clash", "heimr", "ford", "", document, "Clash")
    store.engine.dispose()
    axe = axe_playwright.Axe()
    found: list[str] = []
    with running(db) as server:
        for width, height in ((1280, 800), (390, 844)):
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            page.set_default_timeout(WAIT)
            page.goto(f"{server.url}/gm/login?token={GM_TOKEN}")
            for path in PAGES:
                page.goto(server.url + path)
                found += problems(page, axe)
            # A refused award keeps what was typed, beside its mistake.
            page.goto(f"{server.url}/gm/c/ford")
            page.fill("#award-form input[name=xp]", "-5")
            page.fill("#award-form input[name=characters]", "ylva")
            page.click("#award-form button")
            page.wait_for_selector("#error-award-xp")
            assert page.input_value("#award-form input[name=xp]") == "-5"
            assert page.input_value("#award-form input[name=characters]") == "ylva"
            found += problems(page, axe)
            context.close()
    assert not found, "\n".join(found)
