"""The GM's and a player's table pages in a real browser (Playwright on Debian's
Chromium), issue 20: a whole Heimr duel played with the keyboard alone within the key
budget, the newest log line in view after every action on both pages, no sideways
scroll at 390 px, and no serious or critical axe-core violation in any state (before
the fight, a faces prompt, a refusal, the fight over) at 1280 and 390 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.web.servers import GM_TOKEN
from tests.web.test_browser import WAIT, moved, serve, until, version

axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")
WIDTHS = (1280, 390)
#: The most keys an attack may take from the start of a turn.
KEY_BUDGET = 4

#: The log holds more than its box shows.
SCROLLABLE = (
    "(() => { const l = document.querySelector('#log');"
    " return l.scrollHeight > l.clientHeight + 40; })()"
)
NO_ACTIONS = "!document.querySelector('button.do')"
#: The newest line of the log is inside the log's box as scrolled.
NEWEST_SHOWN = (
    "(() => { const log = document.querySelector('#log');"
    " const last = log && log.lastElementChild; if (!last) return true;"
    " const a = log.getBoundingClientRect(), b = last.getBoundingClientRect();"
    " return b.bottom <= a.bottom + 2 && b.top >= a.top - 2; })()"
)


def checked(page: Any, what: str, axe: Any) -> None:
    """At each width: no serious or critical violation, and no sideways scroll."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844 if width < 800 else 800})
        found = axe.run(page).response["violations"]
        bad = [
            f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
            for v in found
            if v["impact"] in ("serious", "critical")
        ]
        assert not bad, f"{what} at {width} px: {bad}"
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"{what} at {width} px is {wide} px wide"
    page.set_viewport_size({"width": 1280, "height": 800})


def focused(page: Any) -> str:
    return str(page.evaluate("document.activeElement && document.activeElement.value || ''"))


def press(page: Any, key: str) -> None:
    page.keyboard.press(key)


def test_a_heimr_duel_by_keyboard_with_the_log_in_view_and_no_axe_violation(
    browser: Any, tmp_path: Path
) -> None:
    axe = axe_sync.Axe()
    with serve(f"sqlite:///{tmp_path / 'tables.db'}", "heimr/duel.yaml", seed=1) as server:
        gm = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        gm.set_default_timeout(WAIT)
        gm.goto(f"{server.url}/gm/login?token={GM_TOKEN}")
        gm.goto(f"{server.url}/gm/t/t")
        gm.select_option("select[name=side]", "shieldwall")
        gm.check("input[name=may_act]")
        gm.click("text=New player link")
        link = gm.get_attribute("#new-link", "href")
        player = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        player.set_default_timeout(WAIT)
        player.goto(link)
        gm.goto(f"{server.url}/gm/t/t")
        checked(gm, "the GM's page", axe)
        checked(player, "the player's page", axe)
        # A refusal on each page.
        gm.fill("#action", "ylva fly")
        gm.press("#action", "Enter")
        gm.wait_for_selector("#action-error")
        checked(gm, "the GM's refusal", axe)
        player.fill("#action", "ylva fly")
        player.press("#action", "Enter")
        player.wait_for_selector("#action-error")
        checked(player, "the player's refusal", axe)
        player.goto(link)
        # The keyboard alone from here: focus is on the first action; "/" goes to the box.
        gm.goto(f"{server.url}/gm/t/t")
        until(gm, "document.activeElement.classList.contains('do')")
        assert focused(gm) == "gm begin"
        press(gm, "/")
        assert gm.evaluate("document.activeElement.id") == "action"
        press(gm, "Escape")
        gm.evaluate("document.activeElement.blur()")
        press(gm, "a")
        assert focused(gm) == "gm begin"
        before = version(gm)
        press(gm, "Enter")
        moved(gm, before)
        # A click on a combatant's row keeps only the actions against it.
        until(gm, "document.activeElement.classList.contains('do')")
        gm.click("#row-astrid td.name")
        assert gm.is_visible("#target-hint") and focused(gm) == "ylva attack astrid"
        assert not gm.is_visible('button.do[value="ylva move A2"]')
        assert gm.is_visible('button.do[value="ylva end"]')
        gm.click("#target-all")
        assert not gm.is_visible("#target-hint")
        # A faces prompt, on the player's page (the dice typed in), then taken back.
        gm.click("#dice-mode")
        player.goto(link)
        player.click('form.offered button[value="ylva attack astrid"]')
        player.wait_for_selector("#faces-form")
        checked(player, "the player's faces prompt", axe)
        gm.goto(f"{server.url}/gm/t/t")
        gm.click('form.offered button[value="ylva attack astrid"]')
        gm.wait_for_selector("#faces-form")
        checked(gm, "the GM's faces prompt", axe)
        gm.click("text=take the action back")
        gm.click("#dice-mode")
        player.goto(link)
        # The duel, by keyboard: each turn an attack within the budget, then the end.
        gm.goto(f"{server.url}/gm/t/t")
        turns, marked = 0, False
        for _ in range(200):
            until(gm, f"document.activeElement.classList.contains('do') || {NO_ACTIONS}")
            status = gm.inner_text("#status")
            if "over" in status:
                break
            keys = 0
            offered = [b.get_attribute("value") for b in gm.query_selector_all("button.do")]
            attack = next((a for a in offered if " attack " in a), None)
            goal = attack or next(a for a in offered if a.endswith(" end"))
            while focused(gm) != goal:
                press(gm, "Tab")
                keys += 1
                assert keys < 60, f"no way to {goal} by Tab"
            # The player reads back (before the action, so that its lines cannot arrive
            # first): new lines are marked, not scrolled to.
            scrolled = not marked and player.evaluate(SCROLLABLE)
            if scrolled:
                player.evaluate("document.querySelector('#log').scrollTop = 0")
            before = version(gm)
            press(gm, "Enter")
            keys += 1
            if attack:
                assert keys <= KEY_BUDGET, f"{goal} took {keys} keys"
            moved(gm, before)
            turns += 1
            until(gm, NEWEST_SHOWN)
            until(player, f"+document.querySelector('#live').dataset.version >= {version(gm)}")
            if scrolled:
                player.wait_for_selector("#log-new", state="visible")
                player.click("#log-new")
                marked = True
            until(player, NEWEST_SHOWN)
        assert "over" in gm.inner_text("#status"), turns
        assert gm.query_selector("#action") is None
        until(player, "document.querySelector('#status').innerText.includes('over')")
        player.goto(link)
        assert player.query_selector("#action") is None
        assert marked, "the player's log never grew past its box"
        # The log shows one combatant's lines.
        gm.select_option("#log-filter", "astrid")
        shown = gm.evaluate(
            "[...document.querySelectorAll('#log .line')].filter(l => !l.hidden)"
            ".map(l => l.classList.contains('round')"
            " || (l.dataset.who || '').split(' ').includes('astrid'))"
        )
        assert shown and all(shown)
        checked(gm, "the GM's page, the fight over", axe)
        checked(player, "the player's page, the fight over", axe)
