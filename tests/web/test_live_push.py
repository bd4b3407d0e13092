"""Live pages in a real browser (Playwright on Debian's Chromium): what a person is typing
survives changes made elsewhere; an idle page makes no request and still receives
changes; with ``fracas serve --workers 2``, a server process killed while pages are
connected loses nothing: the pages reconnect and show every acknowledged action, once."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import httpx
from tests.web.pg import Cluster
from tests.web.servers import GM_TOKEN, Server, free_port, launch, running
from tests.web.test_browser import WAIT, click, moved, serve, until, version
from tests.web.webtools import EXAMPLES, csrf_of

from fracas.table import encounterfile
from fracas.table.store import Store
from fracas.table.table import Table
from fracas.web.app import CONFIG_ENV, ServeConfig
from fracas.web.events import LiveSettings

#: Counts each page's stream openings and errors (a lost connection), for the tests.
WATCH = """
document.addEventListener('htmx:sseOpen', () => { window.opened = (window.opened || 0) + 1; });
document.addEventListener('htmx:sseError', () => { window.errors = (window.errors || 0) + 1; });
"""
#: How long an idle page is watched for a request of its own, in milliseconds of its clock.
IDLE_SPAN = 600_000


def gm_client(server: Server) -> httpx.Client:
    return server.gm()


def new_page(browser: Any, **context: Any) -> Any:
    page = browser.new_context(**context).new_page()
    page.set_default_timeout(WAIT)
    page.add_init_script(WATCH)
    return page


def gm_page(browser: Any, server: Server, **context: Any) -> Any:
    page = new_page(browser, **context)
    page.goto(f"{server.url}/gm/login?token={GM_TOKEN}")
    page.goto(f"{server.url}/gm/t/t")
    connected(page)
    return page


def connected(page: Any) -> None:
    until(page, "window.opened > 0")


def shows(page: Any, at: int) -> None:
    until(page, f"+document.querySelector('#live').dataset.version === {at}")


def player_link(gm: httpx.Client, side: str) -> str:
    csrf = csrf_of(gm.get("/gm/t/t").text)
    answer = gm.post("/gm/t/t/seats", data={"csrf": csrf, "side": side, "may_act": "on"})
    found = re.search(r'id="new-link" href="https?://[^/"]+(/p/[^"]+)"', answer.text)
    assert found, answer.text[:300]
    return found.group(1)


def test_what_a_person_types_survives_changes_made_elsewhere(
    browser: object, tmp_path: Path
) -> None:
    """A GM page with an action typed (and the focus in it), while a player link and a
    second GM's browser act 5 times."""
    with serve(f"sqlite:///{tmp_path / 't.db'}", "heimr/duel.yaml", seed=1) as server:
        gm = gm_client(server)
        link = player_link(gm, "shieldwall")
        typing = gm_page(browser, server, viewport={"width": 900, "height": 420})
        # (A faces prompt waits in the store: the table takes no other action meanwhile.)
        other = gm_page(browser, server)
        connected(other)
        player = new_page(browser)
        player.goto(server.url + link)
        connected(player)
        typing.click("#action")
        typing.keyboard.type("ylva end")
        # Where the box is on the screen: the parts above it grow, the page keeps it put.
        where = "document.querySelector('#action').getBoundingClientRect().top"
        scrolled = typing.evaluate(where)
        turns = [
            (other, "gm begin"),
            (player, "ylva end"),
            (other, "astrid end"),
            (player, "ylva end"),
            (other, "astrid end"),
        ]
        for done, (page, action) in enumerate(turns):
            shows(page, done)
            click(page, action)
            for watcher in (typing, player):
                shows(watcher, done + 1)
        assert typing.input_value("#action") == "ylva end"
        assert typing.evaluate("document.activeElement.id") == "action"
        assert typing.evaluate("window.scrollY") > 0
        assert abs(typing.evaluate(where) - scrolled) < 2
        assert "Astrid Ironside ends the turn" in typing.inner_text("#log")
        # The parts that changed were morphed in: whose turn, the rows, the offered actions.
        for page in (typing, player):
            assert "Ylva" in page.inner_text("#status")
            assert "acting" in (page.get_attribute("#row-ylva", "class") or "")
            assert "acting" not in (page.get_attribute("#row-astrid", "class") or "")
        assert player.query_selector('form.offered button[value="ylva end"]')
        assert typing.query_selector('#odds tr[data-action^="ylva attack"]')
        # The action typed meanwhile is taken: its form followed the table's version.
        typing.press("#action", "Enter")
        moved(typing, 5)
        assert typing.query_selector("#action-error") is None
        assert version(typing) == 6
        # A button drawn before a change is still refused as already applied.
        stale = typing.get_attribute("#undo-box input[name=version]", "value")
        assert stale == "6"
        gm_state = gm.post(
            "/gm/t/t/undo",
            data={"csrf": csrf_of(gm.get("/gm/t/t").text), "version": "5"},
        )
        assert gm_state.status_code == 409
        gm.close()


def test_an_idle_player_page_makes_no_request_and_receives_changes(
    browser: object, tmp_path: Path
) -> None:
    with serve(f"sqlite:///{tmp_path / 't.db'}", "heimr/duel.yaml", seed=1) as server:
        gm = gm_client(server)
        link = player_link(gm, "shieldwall")
        player = new_page(browser)
        # The page's clock (Date, timers, animation frames) is Playwright's: ten minutes
        # of it pass at once below, every timer the page sets in them firing.
        player.clock.install()
        player.goto(server.url + link)
        connected(player)
        requests: list[str] = []
        player.on("request", lambda request: requests.append(request.url))
        player.clock.run_for(IDLE_SPAN)
        assert requests == []
        assert player.query_selector("meta[http-equiv=refresh]") is None  # no timer of its own
        csrf = csrf_of(gm.get("/gm/t/t").text)
        acted = gm.post("/gm/t/t/act", data={"csrf": csrf, "version": "0", "action": "gm begin"})
        assert acted.status_code == 303
        shows(player, 1)
        assert "initiative order" in player.inner_text("#log")
        assert requests == []
        gm.close()


def established(port: int, pid: int) -> int:
    """How many TCP connections to ``port`` process ``pid`` holds open."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = fd.readlink().name
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01" and fields[9] in inodes:
                count += 1
    return count


def act_once(gm: httpx.Client, store: Store) -> str:
    """One action by the GM, retried only when no server answered (so never applied
    twice); the action acknowledged."""
    table = Table.resume(store, "t")
    offered = [str(a) for a in table.offered(None)]
    action = next((a for a in offered if a.endswith(" end")), offered[0])
    data = {"csrf": "", "version": str(table.version), "action": action}
    for _ in range(50):
        try:
            data["csrf"] = csrf_of(gm.get("/gm/t/t").text)
            answer = gm.post("/gm/t/t/act", data=data)
        except httpx.TransportError:
            continue
        assert answer.status_code == 303, answer.text[:300]
        return action
    raise AssertionError("no server process answered")


def lines(page: Any) -> list[str]:
    return [line.strip() for line in page.inner_text("#log").split("\n") if line.strip()]


def test_a_killed_server_process_loses_no_acknowledged_action(
    browser: object, postgres: Cluster
) -> None:
    """``--workers 2`` on PostgreSQL; the process holding most of the pages' connections
    is killed (SIGKILL) while they are open."""
    url = postgres.database()
    store = Store.open(url)
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr/duel.yaml")
    Table.start(store, "t", ruleset, setup, title, seed=1)
    with running(url, "--workers", "2") as server:
        gm = httpx.Client(base_url=server.url, timeout=30)
        gm.get(f"/gm/login?token={GM_TOKEN}")
        link = player_link(gm, "shieldwall")
        pages = [gm_page(browser, server) for _ in range(2)]
        for _ in range(3):
            player = new_page(browser)
            player.goto(server.url + link)
            connected(player)
            pages.append(player)
        for _ in range(3):
            act_once(gm, store)
        for page in pages:
            shows(page, 3)
        port = int(server.url.rsplit(":", 1)[1])
        workers = server.workers()
        assert len(workers) >= 2, workers
        busiest = max(workers, key=lambda pid: established(port, pid))
        assert established(port, busiest) > 0
        os.kill(busiest, signal.SIGKILL)
        for _ in range(3):
            act_once(gm, store)
        assert any(page.evaluate("window.errors || 0") for page in pages)
        for page in pages:
            shows(page, 6)
        table = Table.resume(store, "t")
        assert table.head == 6
        for page in pages[:2]:
            assert lines(page) == [line.strip() for line in table.log_lines(None, 0)]
        for page in pages[2:]:
            assert lines(page) == [line.strip() for line in table.log_lines("shieldwall", 0)]
        gm.close()
        store.engine.dispose()


def test_a_page_paused_while_idle_resumes_when_its_reader_is_back(
    browser: object, tmp_path: Path
) -> None:
    """The app made from ``FRACAS_SERVE_CONFIG`` (as each ``--workers`` process makes
    it), with streams closed after 1 s without a change."""
    db = f"sqlite:///{tmp_path / 't.db'}"
    store = Store.open(db)
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr/duel.yaml")
    Table.start(store, "t", ruleset, setup, title, seed=1)
    config = ServeConfig(db, GM_TOKEN, live=LiveSettings(idle_seconds=1.0))
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "fracas.web.app:app_from_env", "--factory"]
    command += ["--port", str(port), "--log-level", "warning"]
    server = launch(command, port, env={**os.environ, CONFIG_ENV: config.to_json()})
    try:
        gm = gm_client(server)
        link = player_link(gm, "shieldwall")
        player = new_page(browser)
        player.goto(server.url + link)
        until(player, "document.querySelector('#stream-note').innerText.includes('Paused')")
        assert act_once(gm, store) == "gm begin"
        assert version(player) == 0  # paused: nothing arrives
        player.keyboard.press("Shift")  # the reader is back
        shows(player, 1)
        assert player.evaluate("window.opened") >= 2
        assert "initiative order" in player.inner_text("#log")
        gm.close()
    finally:
        server.kill()
        store.engine.dispose()
