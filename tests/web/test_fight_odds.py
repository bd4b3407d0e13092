"""The GM's "Odds of this fight" on the web: no player link or forged player request
reaches it and no player page, fragment or stream mentions it; on a real server, the
background job follows the table (a change cancels the old version's job and starts the
new one's), and stops when its page closes or the GM cancels it."""

from __future__ import annotations

import queue
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.web.servers import Server, running
from tests.web.webtools import EXAMPLES, Web, csrf_of

from fracas.ledger import Ledger
from fracas.library import Library
from fracas.table import encounterfile
from fracas.table.scripts import Script
from fracas.table.store import Store
from fracas.table.table import Table
from fracas.web.deps import GM_COOKIE
from fracas.web.events import _side_draw
from fracas.web.fight_odds import odds_router

#: Longest wait for the server, in seconds (a bound on a wait, not a sleep).
WAIT = 60.0
MENTIONS = ("fight-odds", "Odds of this fight", "fracas-odds", "/tune", "tune-")


def prepared(store: Store) -> None:
    """A campaign and a prepared encounter, ``clash``."""
    ledger = Ledger(store)
    ledger.import_file("ford", EXAMPLES / "heimr" / "campaign.yaml")
    document = {"combatants": [{"character": "ylva"}, {"character": "astrid"}]}
    Library(store, ledger).save_encounter("clash", "heimr", "ford", "", document, "Clash")


def test_no_player_link_or_forged_request_reaches_the_odds(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    table = web.start("heimr/duel.yaml")
    prepared(web.store)
    link = web.link("raiders", may_act=True)
    token = link.rsplit("/", 1)[1]
    routes = [
        (method, route.path)  # type: ignore[attr-defined]
        for route in odds_router.routes
        for method in route.methods  # type: ignore[attr-defined]
    ]
    assert len(routes) == 8
    assert all(path.startswith("/gm/") for _, path in routes)  # the GM's router only
    player = web.client()
    forged = web.client()
    forged.cookies.set(GM_COOKIE, token)  # a player's secret where the GM's goes
    for method, path in routes:
        url = path.replace("{name}", "clash" if "/prep/" in path else "t")
        for who in (player, forged):
            got = who.request(method, url, data={"csrf": token}, follow_redirects=False)
            assert got.status_code in (303, 401, 403), (method, url, got.status_code)
            assert "fight-odds-panel" not in got.text and "tune-result" not in got.text
    for tail in ("/fight-odds", "/fight-odds/events", "/tune", "/fight-odds/cancel"):
        assert player.get(link + tail).status_code in (404, 405)
        assert player.post(link + tail, data={"csrf": token}).status_code in (403, 404, 405)
    assert web.app.state.fight_odds.started == 0  # nothing was started by anyone
    # No player page, fragment, JSON or stream update mentions it; the GM's page does.
    shown = [player.get(link + tail).text for tail in ("", "/live?v=-1", "/screen.json")]
    draw = _side_draw(web.app, "t", "raiders", True)
    shown.append(draw(None, (table.id, table.version)).whole)
    for text in shown:
        assert not [m for m in MENTIONS if m in text]
    assert "fight-odds" in web.page()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("odds")
    db = f"sqlite:///{folder / 'odds.db'}"
    store = Store.open(db)
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr" / "ambush.yaml")
    seed = Script.read(EXAMPLES / "heimr" / "ambush.script").seed
    Table.start(store, "amb", ruleset, setup, title, seed=seed)
    store.engine.dispose()
    # Jobs long enough (at most 20,000 runs or 10 minutes) never to end on their own while
    # the test acts on the table: each one ends by a change, the page closing or Cancel.
    with running(db, "--odds-runs", "20000", "--odds-seconds", "600") as found:
        found.db = db  # type: ignore[attr-defined]
        yield found


class Follow:
    """A page's stream of the odds, read in a thread: each event's name and the
    state of the job it shows."""

    def __init__(self, client: httpx.Client, url: str) -> None:
        self.events: queue.Queue[tuple[str, str]] = queue.Queue()
        self.response: httpx.Response | None = None
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(client, url), daemon=True)
        self.thread.start()
        assert self.opened.wait(WAIT)

    def _read(self, client: httpx.Client, url: str) -> None:
        with client.stream("GET", url, timeout=WAIT) as response:
            self.response = response
            self.opened.set()
            name = ""
            try:
                for line in response.iter_lines():
                    if line.startswith("event:"):
                        name = line.partition(":")[2].strip()
                    elif line.startswith("data:") and 'id="fight-odds-panel"' in line:
                        state = re.search(r'data-state="(\w+)"', line)
                        self.events.put((name, state.group(1) if state else ""))
                    elif line.startswith("data:") and name == "end":
                        self.events.put(("end", ""))
            except httpx.HTTPError:  # closed by the test
                pass

    def until(self, state: str) -> None:
        """Wait for an event showing a job in ``state``."""
        while True:
            name, found = self.events.get(timeout=WAIT)
            if found == state:
                return
            assert name != "end", f"the stream ended before a job was {state}"

    def close(self) -> None:
        assert self.response is not None
        self.response.close()
        self.thread.join(WAIT)


def panel_state(gm: httpx.Client) -> str:
    text = gm.get("/gm/t/amb/fight-odds").text
    found = re.search(r'data-state="(\w+)"', text)
    return found.group(1) if found else ""


def test_the_job_follows_the_table_and_stops_with_its_page(server: Server) -> None:
    gm = server.gm()
    page = gm.get("/gm/t/amb").text
    csrf = csrf_of(page)
    version = int(re.search(r'data-version="(\d+)"', page).group(1))  # type: ignore[union-attr]
    follow = Follow(gm, "/gm/t/amb/fight-odds/events")
    follow.until("running")
    # The table changes through the server: the old version's job is cancelled, the new
    # one's starts.
    done = gm.post(
        "/gm/t/amb/act",
        data={"csrf": csrf, "action": "gm begin", "version": str(version)},
        follow_redirects=False,
    )
    assert done.status_code == 303
    follow.until("changed")
    follow.until("running")
    # And through another process (this one), which the server has no live page of.
    store = Store.open(server.db)  # type: ignore[attr-defined]
    try:
        Table.resume(store, "amb").push("eirik hide")
    finally:
        store.engine.dispose()
    follow.until("changed")
    follow.until("running")
    # The page closes: its job is cancelled.
    follow.close()
    deadline_state = ""
    for _ in range(int(WAIT * 20)):
        deadline_state = panel_state(gm)
        if deadline_state == "cancelled":
            break
        threading.Event().wait(0.05)  # polling the condition above
    assert deadline_state == "cancelled"
    assert "the page closed" in gm.get("/gm/t/amb/fight-odds").text
    # The GM's Cancel stops it too.
    again = Follow(gm, "/gm/t/amb/fight-odds/events")
    again.until("running")
    stop = gm.post("/gm/t/amb/fight-odds/cancel", data={"csrf": csrf})
    assert stop.status_code == 200 and "cancelled by the game master" in stop.text
    again.until("cancelled")
    again.close()
