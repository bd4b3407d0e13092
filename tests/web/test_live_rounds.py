"""Play by post on live pages, with no page polling: a post or a round opened or closed
(in this process or another: PostgreSQL's NOTIFY, SQLite's data_version) reaches the
streams of its table, and the hub closes a round at its deadline (HC-ROUND-1)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.table.test_rounds import RAIDERS
from tests.web.test_browser import serve, until
from tests.web.test_live_hub import WAIT, drawn, gm_stream, next_event, run, table_at
from tests.web.test_live_push import gm_page, player_link
from tests.web.webtools import csrf_of

from fracas.table.rounds import RoundRow, Rounds
from fracas.table.store import Store, announce_round, utc_now
from fracas.table.table import Table
from fracas.web import events
from fracas.web.app import create_app
from fracas.web.events import Hub, LiveSettings


async def until_true(check: Any) -> None:
    """Wait for ``check()`` (a condition, polled: no event to wait on in the store)."""
    async with asyncio.timeout(WAIT):
        while not check():
            await asyncio.sleep(0.02)


@pytest.mark.rule("HC-ROUND-1")
def test_a_post_made_elsewhere_and_a_deadline_close_reach_the_streams(db_url: str) -> None:
    store = table_at(db_url, "classic/ford.yaml", seed=14)
    app = create_app(store, live=LiveSettings(watch_seconds=0.1))
    other = Store.open(db_url)  # another process: its commits do not call this hub
    rounds = Rounds(other)

    async def test() -> None:
        hub: Hub = app.state.hub
        table = Table.resume(other, "t")
        await asyncio.to_thread(rounds.open, table, utc_now() + timedelta(hours=1))
        version = store.table("t").version
        gm = hub.events(gm_stream(app, version))
        side = hub.events(
            hub.open(
                (table.id, "raiders", False),
                events._side_draw(app, "t", "raiders", False),
                version,
                version,
                "raiders",
                "a",
            )
        )
        await drawn(hub)
        if db_url.startswith("postgresql"):
            await asyncio.wait_for(hub.listening.wait(), WAIT)
        # Streams start as pages do: the posted round's stamp as drawn.
        await until_true(lambda: all(g.update and g.update.rounds for g in hub.groups.values()))
        gm_task = asyncio.ensure_future(next_event(gm))
        side_task = asyncio.ensure_future(next_event(side))
        await asyncio.sleep(0)
        await asyncio.to_thread(rounds.post, table, "raiders", RAIDERS)
        told = await gm_task
        assert told.id == str(version) and 'id="posted-raiders">raiders: posted' in told.data
        own = await side_task
        assert "brannoc attack ylva" in own.data and 'id="posted-' not in own.data

        # The deadline moved to a moment from now: the hub closes the round then.
        def soon() -> None:
            table.sync()
            found = rounds.current(table)
            assert found is not None
            with other.session() as s:
                row = s.get(RoundRow, found.id)
                assert row is not None
                row.deadline = utc_now() + timedelta(seconds=0.5)
                announce_round(s, table.id)

        await asyncio.to_thread(soon)
        closing = await next_event(gm)
        while closing.event == "update":  # the new deadline's status, perhaps
            closing = await next_event(gm)
        assert (closing.event, closing.data) == ("close", "reload")  # the round closed
        await until_true(lambda: hub.closes == 1)
        after = Table.resume(store, "t")
        assert str(after.encounter.log[-1].action) == "gm close"
        following = Rounds(store).current(after)
        assert following is not None and following.round == 2  # open for posts at once
        await gm.aclose()
        await side.aclose()

    run(test)
    other.engine.dispose()


def test_a_rounds_page_receives_a_post_and_the_close_without_polling(
    browser: object, tmp_path: Path
) -> None:
    """In the browser: the GM's page shows a side's post and then the round closed at its
    deadline and the next one open, while it makes no request of its own until the close
    sends it to the page afresh (once). The deadline, an hour away when the round opens,
    is moved to half a second away once the post is shown (by another process: this one),
    so that the close waits neither on a fixed time nor races the post."""
    db = f"sqlite:///{tmp_path / 't.db'}"
    with serve(db, "classic/ford.yaml", seed=14) as server:
        gm = server.gm()
        link = player_link(gm, "raiders")
        page = gm_page(browser, server)
        csrf = csrf_of(gm.get("/gm/t/t").text)
        opened = gm.post("/gm/t/t/round/open", data={"csrf": csrf, "hours": "1"})
        assert opened.status_code == 303, opened.text[:300]
        # The round opened: the page is sent to itself afresh, with the round's forms.
        until(page, "document.querySelector('#round-status').textContent.includes('Round 1')")
        until(page, "window.opened > 0")
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        with httpx.Client(base_url=server.url, timeout=30) as player:
            posted = player.post(link + "/round/post", data={"text": RAIDERS})
            assert posted.status_code == 303, posted.text[:300]
        until(page, "!document.querySelector('#posted-raiders .waiting')")
        assert requests == []  # the post came through the stream
        store = Store.open(db)
        try:
            table = Table.resume(store, "t")
            found = Rounds(store).current(table)
            assert found is not None and found.round == 1
            with store.session() as s:
                row = s.get(RoundRow, found.id)
                assert row is not None
                row.deadline = utc_now() + timedelta(seconds=0.5)
                announce_round(s, table.id)
        finally:
            store.engine.dispose()
        until(page, "document.querySelector('#round-status').textContent.includes('Round 2')")
        documents = [url for url in requests if url.endswith("/gm/t/t")]
        assert documents == [f"{server.url}/gm/t/t"]  # sent to the page afresh, once
        assert not any("/round/status" in url for url in requests)
        gm.close()
