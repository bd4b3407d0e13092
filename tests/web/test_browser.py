"""The pages in a real browser (Playwright on Debian's Chromium): a whole Heimr duel
played through the GM's page and a player's link, with an undo, a readied action and
its trigger and a roll typed in from physical dice; one encounter of each other ruleset
played through the typed action box. Screenshots land in build/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from tests.web.servers import GM_TOKEN, Server, running
from tests.web.webtools import EXAMPLES

from fracas.table import encounterfile
from fracas.table.scripts import Script
from fracas.table.store import Store
from fracas.table.table import Table

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
#: The longest wait for anything on a page, in milliseconds.
WAIT = 30_000

playwright = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip(
        "Debian's chromium is not installed (make test installs it)", allow_module_level=True
    )


def serve(db: str, example: str, seed: int | None) -> AbstractContextManager[Server]:
    """A server over the new store ``db`` holding the example as table ``t``."""
    store = Store.open(db)
    ruleset, setup, title = encounterfile.load(EXAMPLES / example)
    Table.start(store, "t", ruleset, setup, title, seed=seed)
    store.engine.dispose()
    return running(db)


def version(page: object) -> int:
    return int(page.get_attribute("#live", "data-version"))  # type: ignore[attr-defined]


def until(page: object, condition: str) -> None:
    """Wait for a JavaScript condition on the document (false while a page loads)."""
    page.wait_for_function(  # type: ignore[attr-defined]
        f"(() => {{ try {{ return {condition}; }} catch (e) {{ return false; }} }})()",
        timeout=WAIT,
    )


def moved(page: object, before: int) -> None:
    """Wait for the page to show a version after ``before``, a refusal or a dice form."""
    page.wait_for_function(  # type: ignore[attr-defined]
        "(() => { const live = document.querySelector('#live');"
        f" return (live && +live.dataset.version > {before})"
        " || document.querySelector('#action-error')"
        " || document.querySelector('#faces-form'); })()",
        timeout=WAIT,
    )


def act(page: object, text: str) -> None:
    """Type an action into the box and wait for the page that shows it done."""
    before = version(page)
    page.fill("#action", text)  # type: ignore[attr-defined]
    page.press("#action", "Enter")  # type: ignore[attr-defined]
    moved(page, before)
    error = page.query_selector("#action-error")  # type: ignore[attr-defined]
    assert error is None, f"{text}: {error.inner_text()}"


def click(page: object, action: str) -> None:
    before = version(page)
    page.click(f'form.offered button[value="{action}"]')  # type: ignore[attr-defined]
    moved(page, before)


def offered(page: object) -> list[str]:
    return [b.get_attribute("value") for b in page.query_selector_all("form.offered button.do")]  # type: ignore[attr-defined]


def status(page: object) -> str:
    return page.inner_text("#status")  # type: ignore[attr-defined,no-any-return]


# On SQLite only: PostgreSQL serves the same pages through the same code, and the browser
# adds nothing there that tests/web/test_servers.py and test_live_push.py do not check.
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_heimr_duel_to_its_end_in_the_browser(browser: object, db_url: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    server_cm = serve(db_url, "heimr/duel.yaml", seed=1)
    with server_cm as server:
        gm = browser.new_context().new_page()  # type: ignore[attr-defined]
        gm.set_default_timeout(WAIT)
        gm.goto(f"{server.url}/gm/login?token={GM_TOKEN}")
        gm.click('a[href="/gm/t/t"]')
        # A player link for the shieldwall, allowed to act for its own.
        gm.select_option("select[name=side]", "shieldwall")
        gm.check("input[name=may_act]")
        gm.click("text=New player link")
        link = gm.get_attribute("#new-link", "href")
        assert link and "/p/" in link
        click(gm, "gm begin")
        click(gm, "ylva attack astrid")
        assert "attacks Astrid" in gm.inner_text("#log")
        gm.click("#undo")
        until(gm, "!document.querySelector('#log').innerText.includes('attacks Astrid')")
        act(gm, "ylva ready action='attack astrid' trigger='astrid attacks'")
        assert "ready: attack astrid" in gm.inner_text("#row-ylva")
        # The player ends Ylva's turn through its link; the GM's page follows by itself.
        player = browser.new_context().new_page()  # type: ignore[attr-defined]
        player.set_default_timeout(WAIT)
        player.goto(link)
        assert "side shieldwall" in player.inner_text("header")
        click(player, "ylva end")
        until(gm, "document.querySelector('#status').innerText.includes('Astrid')")
        # Astrid's attack with physical dice typed in, one roll at a time.
        gm.click("#dice-mode")
        click(gm, "astrid attack ylva")
        gm.fill("#faces", "9 9 9 9 9 9")
        gm.click("#faces-form button")
        assert gm.inner_text("#faces-error")
        typed = 0
        while gm.query_selector("#faces-form"):
            dice = gm.inner_text("#faces-form p").split("(")[-1].split(")")[0].split(", ")
            gm.fill("#faces", " ".join(["1"] * len(dice)))
            gm.click("#faces-form button")
            gm.wait_for_load_state()
            typed += 1
        assert typed >= 1
        gm.click("#dice-mode")
        act(gm, "ylva trigger")
        assert "readied attack goes off" in gm.inner_text("#log")
        until(player, f"+document.querySelector('#live').dataset.version >= {version(gm)}")
        player.screenshot(path=str(SHOTS / "heimr-player.png"), full_page=True)
        for _ in range(200):
            if "over" in status(gm):
                break
            choices = offered(gm)
            attack = [c for c in choices if " attack " in c]
            ends = [c for c in choices if c.endswith(" end")]
            click(gm, (attack or ends or choices)[0])
        assert "over" in status(gm)
        gm.screenshot(path=str(SHOTS / "heimr-gm.png"), full_page=True)
        until(player, "document.querySelector('#status').innerText.includes('over')")


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Server]]:
    """One server for the encounters of each ruleset, each a table of its own in its store
    (its URL and the server)."""
    db_url = f"sqlite:///{tmp_path_factory.mktemp('rulesets') / 'tables.db'}"
    Store.open(db_url).engine.dispose()
    with running(db_url) as server:
        yield db_url, server


@pytest.mark.parametrize("example", ["classic/ford", "sides/mace", "tempo/feint", "diestep/charge"])
def test_an_encounter_of_each_ruleset_in_the_browser(
    browser: object, shared: tuple[str, Server], example: str
) -> None:
    """On SQLite: the browser sees the same pages on either store, and PostgreSQL is driven
    in the browser by the Heimr duel and the rounds (the suite's time is bounded)."""
    db_url, server = shared
    name = example.replace("/", "-")
    SHOTS.mkdir(parents=True, exist_ok=True)
    script = Script.read(EXAMPLES / f"{example}.script")
    store = Store.open(db_url)
    ruleset, setup, title = encounterfile.load(EXAMPLES / f"{example}.yaml")
    Table.start(store, name, ruleset, setup, title, seed=script.seed)
    store.engine.dispose()
    gm = browser.new_context().new_page()  # type: ignore[attr-defined]
    gm.set_default_timeout(WAIT)
    gm.goto(f"{server.url}/gm/login?token={GM_TOKEN}")
    gm.goto(f"{server.url}/gm/t/{name}")
    for _, line in script.lines:
        act(gm, line)
    assert version(gm) == len(script.lines)
    gm.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    gm.context.close()
