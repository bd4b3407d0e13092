"""Real servers: two processes on one store, and one killed in the middle of a burst."""

from __future__ import annotations

import re
import threading
import time

import httpx
from tests.web.servers import GM_TOKEN, running
from tests.web.webtools import EXAMPLES

from fracas.table import encounterfile
from fracas.table.scripts import Script
from fracas.table.seats import Seats
from fracas.table.store import Store
from fracas.table.table import Table

#: The longest wait for a condition in these tests.
LIMIT = 30.0


def duel(db: str) -> list[str]:
    store = Store.open(db)
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr/duel.yaml")
    script = Script.read(EXAMPLES / "heimr/duel.script")
    Table.start(store, "t", ruleset, setup, title, seed=script.seed)
    store.engine.dispose()
    return [line for _, line in script.lines]


def csrf(client: httpx.Client) -> str:
    found = re.search(r'name="csrf" value="([^"]*)"', client.get("/gm/t/t").text)
    assert found
    return found.group(1)


def test_a_player_on_another_server_sees_a_change_within_the_poll(db_url: str) -> None:
    db = db_url
    lines = duel(db)
    store = Store.open(db)
    token = Seats(store).open(store.table("t").id, "raiders")
    with running(db) as a, running(db) as b:
        gm = a.gm()
        player = httpx.Client(base_url=b.url, timeout=10)
        assert player.get(f"/p/{token}/live?v=0").status_code == 204
        done = gm.post("/gm/t/t/act", data={"csrf": csrf(gm), "version": "0", "action": lines[0]})
        assert done.status_code == 303
        deadline = time.monotonic() + LIMIT
        while (answer := player.get(f"/p/{token}/live?v=0")).status_code == 204:
            assert time.monotonic() < deadline, "the other server never showed the change"
        assert answer.status_code == 200 and 'data-version="1"' in answer.text


def test_killing_the_server_in_a_burst_loses_no_acknowledged_action(db_url: str) -> None:
    db = db_url
    lines = duel(db)
    acknowledged: dict[int, str] = {}
    lock = threading.Lock()
    enough = threading.Event()

    def client(server_url: str) -> None:
        gm = httpx.Client(base_url=server_url, timeout=10)
        try:
            gm.get(f"/gm/login?token={GM_TOKEN}")
            token = csrf(gm)
            while True:
                version = gm.get("/gm/t/t/screen.json").json()["version"]
                if version >= len(lines):
                    return
                answer = gm.post(
                    "/gm/t/t/act",
                    data={"csrf": token, "version": str(version), "action": lines[version]},
                )
                if answer.status_code == 303:
                    with lock:
                        assert version + 1 not in acknowledged, "one ply acknowledged twice"
                        acknowledged[version + 1] = lines[version]
                        if len(acknowledged) >= 8:
                            enough.set()
                else:
                    assert answer.status_code in (400, 409), answer.text[:300]
        except httpx.HTTPError:
            return  # the server was killed

    with running(db) as server:
        threads = [threading.Thread(target=client, args=(server.url,)) for _ in range(2)]
        for t in threads:
            t.start()
        assert enough.wait(LIMIT), "the burst never got going"
        server.kill()
        for t in threads:
            t.join(LIMIT)
    with running(db) as again:
        gm = again.gm()
        version = gm.get("/gm/t/t/screen.json").json()["version"]
    stored = [a.action for a in Store.open(db).actions(Store.open(db).table("t").id)]
    assert stored == lines[: len(stored)], "an action stored that no client sent in its turn"
    assert version == len(stored)
    for ply, action in acknowledged.items():
        assert ply <= len(stored) and stored[ply - 1] == action
    assert len(stored) <= len(acknowledged) + 2  # at most one in flight per client
