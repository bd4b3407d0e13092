"""The tour's screenshots (``make screenshots``): the Heimr duel from the examples part
played, shown on the game master's page and a side's page, on a desktop (1280×800) and
a phone (390×844), and the campaign and preparation pages, written as PNG files into a
folder (``docs/images/`` for the README). Playwright drives Debian's Chromium.

    python -m tests.web.tour docs/images
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright
from tests.web.servers import GM_TOKEN, running

from fracas.ledger import Ledger
from fracas.library import Library
from fracas.table import encounterfile
from fracas.table.scripts import Script
from fracas.table.seats import Seats
from fracas.table.store import Store
from fracas.table.table import Table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking"]  # fmt: skip
SCREENS = {"desktop": (1280, 800), "phone": (390, 844)}
#: Actions of the duel played before the pictures are taken (seed 1).
PLAYED = 7


def _store(folder: Path) -> tuple[str, str]:
    """A store with the duel part played, a link for the raiders, a campaign and a
    prepared encounter; its URL and the raiders' link path."""
    db = f"sqlite:///{folder / 'tour.db'}"
    store = Store.open(db)
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr" / "duel.yaml")
    table = Table.start(store, "heimr-duel", ruleset, setup, title, seed=1)
    script = Script.read(EXAMPLES / "heimr" / "duel.script")
    for _, line in script.lines[:PLAYED]:
        table.push(line)
    token = Seats(store).open(table.id, "raiders", may_act=True)
    ledger = Ledger(store)
    ledger.import_file("ford", EXAMPLES / "heimr" / "campaign.yaml")
    document = {"combatants": [{"character": "ylva"}, {"character": "astrid"}]}
    Library(store, ledger).save_encounter("clash", "heimr", "ford", "", document, "Clash")
    store.engine.dispose()
    return db, f"/p/{token}"


@contextmanager
def chromium(browser: Browser | None) -> Iterator[Browser]:
    """``browser`` (a test's), or Debian's Chromium started for the tour and closed after."""
    if browser is not None:
        yield browser
        return
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


def take(out: Path, browser: Browser | None = None) -> list[Path]:
    """Write the tour's screenshots into ``out`` (in ``browser``, else in a Chromium of its
    own); the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as scratch:
        db, player = _store(Path(scratch))
        with running(db) as server, chromium(browser) as shown:
            for screen, (width, height) in SCREENS.items():
                context = shown.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                page.set_default_timeout(30_000)
                page.goto(f"{server.url}/gm/login?token={GM_TOKEN}")
                shots = {
                    "heimr-gm": "/gm/t/heimr-duel",
                    "heimr-player": player,
                    "campaign": "/gm/c/ford",
                    "prep-encounter": "/gm/prep/encounters/clash",
                }
                for name, path in shots.items():
                    if screen == "phone" and name in ("campaign", "prep-encounter"):
                        continue
                    page.goto(server.url + path)
                    page.wait_for_load_state("load")
                    suffix = "" if screen == "desktop" else "-phone"
                    file = out / f"{name}{suffix}.png"
                    page.screenshot(path=str(file))
                    written.append(file)
                context.close()
    return written


#: Runs a simulation of the odds plays in the tour (the server's default: 1000).
ODDS_RUNS = 200
#: Records, on the page, each state the odds' panels show (a push may be brief).
SEEN = """window.seen = [];
new MutationObserver(() => {
  for (const id of ["fight-odds-panel", "tune-result"]) {
    const el = document.getElementById(id);
    const bar = el && el.querySelector("progress");
    if (el) window.seen.push(id + ":" + el.dataset.state + ":" + (bar ? bar.value : ""));
  }
}).observe(document.body, {subtree: true, childList: true});"""


def take_odds(out: Path, browser: Browser | None = None) -> tuple[list[Path], dict[str, list[str]]]:
    """The GM's "Odds of this fight" on the duel's table (from where it stands) and on
    the prepared encounter, with a tune of Ylva's hit points: screenshots of both boxes
    written into ``out``, and the panels' states each page went through (in ``browser``,
    else in a Chromium of its own)."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    seen: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        db, _ = _store(Path(scratch))
        # At the server's priority: on a busy machine a low one would wait for the rest.
        runs = ("--odds-runs", str(ODDS_RUNS), "--odds-niceness", "0")
        with running(db, *runs) as server, chromium(browser) as shown:
            context = shown.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.set_default_timeout(60_000)
            page.goto(f"{server.url}/gm/login?token={GM_TOKEN}")
            for name, path in (
                ("fight-odds-gm", "/gm/t/heimr-duel"),
                ("fight-odds-prep", "/gm/prep/encounters/clash"),
            ):
                page.goto(server.url + path)
                page.wait_for_selector("#fight-odds-start")
                page.evaluate(SEEN)
                page.click("#fight-odds-start")
                page.wait_for_selector('#fight-odds-panel[data-state="done"]')
                if name == "fight-odds-prep":
                    page.fill("#tune-knob", "ylva.hit_points")
                    page.fill("#tune-values", "10..20:2")
                    page.select_option("#tune-side", "shieldwall")
                    page.fill("#tune-target", "30")
                    page.click("#tune-start")
                    page.wait_for_selector('#tune-result[data-state="done"] #tune-plot')
                seen[name] = page.evaluate("window.seen")
                file = out / f"{name}.png"
                page.locator("#fight-odds").screenshot(path=str(file))
                written.append(file)
                if name == "fight-odds-gm":  # the table moves on elsewhere: the odds say so
                    action = page.get_attribute("#offered-form button.do >> nth=0", "value")
                    store = Store.open(db)
                    Table.resume(store, "heimr-duel").push(str(action))
                    store.engine.dispose()
                    page.wait_for_selector(".fight-odds-stale", state="visible")
                    seen["moved-on"] = ["shown"]
            context.close()
    return written, seen


if __name__ == "__main__":
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")
    for file in [*take(folder), *take_odds(folder)[0]]:
        print(f"wrote {file}")
