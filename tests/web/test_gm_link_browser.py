"""The GM link in a real browser (Playwright on Debian's Chromium): opened from another
site (a chat, a mail), it signs the game master in although the cookie is
SameSite=Strict; *Sign out* ends the session."""

from __future__ import annotations

from pathlib import Path

from tests.web.servers import GM_TOKEN, running
from tests.web.test_browser import WAIT
from tests.web.webtools import EXAMPLES

from fracas.table import encounterfile
from fracas.table.store import Store
from fracas.table.table import Table


def test_the_gm_link_opened_from_another_site_signs_in(browser: object, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    store = Store.open(db)
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr/duel.yaml")
    Table.start(store, "t", ruleset, setup, title, seed=1)
    store.engine.dispose()
    with running(db) as server:
        context = browser.new_context()  # type: ignore[attr-defined]
        page = context.new_page()
        page.set_default_timeout(WAIT)
        link = f"{server.url}/gm/login?token={GM_TOKEN}"
        page.route(
            "http://chat.example/**",
            lambda route: route.fulfill(
                content_type="text/html", body=f'<a id="gm" href="{link}">the GM link</a>'
            ),
        )
        page.goto("http://chat.example/")
        page.click("#gm")
        page.wait_for_selector("h1:has-text('Tables')")
        assert page.url == f"{server.url}/gm/"
        page.goto(f"{server.url}/gm/t/t")
        assert page.locator("[data-version]").count() > 0
        page.goto(f"{server.url}/gm/")
        page.click("text=Sign out")
        page.wait_for_selector("text=You are signed out.")
        answer = page.goto(f"{server.url}/gm/t/t")
        assert answer is not None and answer.status == 403
        assert "GM link" in page.content()
        context.close()
