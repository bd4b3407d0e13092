"""The live pages' hub without a browser (:mod:`fracas.web.events`): a change reaches
every stream of a table, drawn once per audience and version; a change made by another
process is seen (SQLite: the versions watched; PostgreSQL: NOTIFY); the caps, the idle
timeout, a deleted table; and a side's stream never carries what that side may not see."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sse_starlette import ServerSentEvent
from tests.hidden.secrets import leaks, secrets
from tests.web.webtools import EXAMPLES, Web

from fracas.table import encounterfile
from fracas.table.scripts import Script
from fracas.table.store import Store
from fracas.table.table import Table
from fracas.web import events
from fracas.web.app import ServeConfig, create_app
from fracas.web.events import Busy, Hub, LiveSettings, Stream
from fracas.web.render import LOG_PAGE

#: The longest wait for an event, in seconds (a condition waited on, not a sleep).
WAIT = 30.0


def table_at(url: str, example: str = "heimr/duel.yaml", seed: int = 1) -> Store:
    store = Store.open(url)
    ruleset, setup, title = encounterfile.load(EXAMPLES / example)
    Table.start(store, "t", ruleset, setup, title, seed=seed)
    return store


def run(test: Callable[[], Awaitable[None]]) -> None:
    """Run ``test`` on a new event loop in a thread of its own: a browser test of the same
    module and worker may keep Playwright's loop running in this one."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, test()).result()  # type: ignore[arg-type]


async def next_event(events_: AsyncIterator[ServerSentEvent]) -> ServerSentEvent:
    """The next event that is not a comment."""
    while True:
        event = await asyncio.wait_for(anext(events_), WAIT)
        if event.event is not None:
            return event


async def drawn(hub: Hub) -> None:
    """Wait until every group has its first update drawn."""
    while any(g.update is None or g.busy for g in hub.groups.values()):
        await asyncio.sleep(0.01)  # polling the condition above


def gm_stream(app: Any, version: int, link: str = "gm/t", address: str = "a") -> Stream:
    hub: Hub = app.state.hub
    table_id = app.state.store.table("t").id
    current = app.state.store.table("t").version
    draw = events._gm_draw(app, "t")
    return hub.open((table_id, None, True), draw, version, current, link, address)


async def push(store: Store, action: str, side: str | None = None) -> None:
    def go() -> None:
        table = Table.resume(store, "t")
        table.push(action if action != "first" else str(table.offered(side)[0]), side)

    await asyncio.to_thread(go)


def test_a_change_reaches_every_stream_drawn_once(tmp_path: Path) -> None:
    store = table_at(f"sqlite:///{tmp_path / 't.db'}")
    app = create_app(store)
    hub: Hub = app.state.hub

    async def test() -> None:
        streams = [gm_stream(app, 0, link=f"gm/{n}") for n in range(3)]
        feeds = [hub.events(s) for s in streams]
        await drawn(hub)
        assert hub.draws == 1
        await push(store, "gm begin")
        got = [await next_event(f) for f in feeds]
        assert {e.id for e in got} == {"1"} and {e.event for e in got} == {"update"}
        assert len({e.data for e in got}) == 1
        step = got[0].data
        assert 'hx-swap-oob="beforeend:#log"' in step and "gm begin" in step
        assert 'id="log" data-start' not in step  # only the new lines, not the log
        assert 'id="status"' in step and 'id="timeline"' in step
        assert 'name="csrf"' not in step  # the forms' CSRF fields are never sent
        assert hub.draws == 2  # one draw a version, however many streams
        # A page coming back from further behind gets every part and the log.
        late = hub.events(gm_stream(app, -1, link="gm/late"))
        whole = await next_event(late)
        assert whole.id == "1" and 'id="log" data-start="0"' in whole.data
        assert hub.draws == 2
        for feed in [*feeds, late]:
            await feed.aclose()
        assert hub.streams() == 0 and not hub.groups

    run(test)


def test_another_process_s_change_reaches_the_streams(db_url: str) -> None:
    """SQLite: the hub's query of the versions; PostgreSQL: LISTEN/NOTIFY."""
    store = table_at(db_url)
    app = create_app(store, live=LiveSettings(watch_seconds=0.1))
    other = Store.open(db_url)  # another process: its commits do not call the hub

    async def test() -> None:
        hub: Hub = app.state.hub
        feed = hub.events(gm_stream(app, 0))
        await drawn(hub)
        if db_url.startswith("postgresql"):
            await asyncio.wait_for(hub.listening.wait(), WAIT)  # then only a notice tells
        await push(other, "gm begin")
        event = await next_event(feed)
        assert event.id == "1" and "gm begin" in event.data
        await push(other, "first")
        assert (await next_event(feed)).id == "2"
        await feed.aclose()

    run(test)
    other.engine.dispose()


def test_a_deleted_table_closes_its_streams(db_url: str) -> None:
    store = table_at(db_url)
    app = create_app(store, live=LiveSettings(watch_seconds=0.1))
    other = Store.open(db_url)

    async def test() -> None:
        feed = app.state.hub.events(gm_stream(app, 0))
        await drawn(app.state.hub)
        await asyncio.to_thread(other.delete, "t")
        event = await next_event(feed)
        assert (event.event, event.data) == ("close", "gone")
        with pytest.raises(StopAsyncIteration):
            await anext(feed)
        assert app.state.hub.streams() == 0

    run(test)
    other.engine.dispose()


def test_streams_are_capped_per_link_and_per_address(tmp_path: Path) -> None:
    store = table_at(f"sqlite:///{tmp_path / 't.db'}")
    app = create_app(store, live=LiveSettings(per_link=2, per_address=3))
    hub: Hub = app.state.hub

    async def test() -> None:
        first = [gm_stream(app, 0, link="one") for _ in range(2)]
        with pytest.raises(Busy, match="through this link"):
            gm_stream(app, 0, link="one")
        gm_stream(app, 0, link="two")
        with pytest.raises(Busy, match="from this address"):
            gm_stream(app, 0, link="three")
        gm_stream(app, 0, link="three", address="elsewhere")
        hub.shut(first[0])
        gm_stream(app, 0, link="one")  # room again
        await drawn(hub)

    run(test)


def test_an_idle_stream_is_closed(tmp_path: Path) -> None:
    store = table_at(f"sqlite:///{tmp_path / 't.db'}")
    app = create_app(store, live=LiveSettings(idle_seconds=0.2))

    async def test() -> None:
        feed = app.state.hub.events(gm_stream(app, 0))
        event = await next_event(feed)
        assert (event.event, event.data) == ("close", "idle")
        with pytest.raises(StopAsyncIteration):
            await anext(feed)
        assert app.state.hub.streams() == 0

    run(test)


def present(data: str) -> str:
    """An update but its log lines, its title and its forum post: the present."""
    data = re.sub(r'<div class="line[^"]*"[^>]*>.*?</div>', "", data, flags=re.S)
    data = re.sub(r'<div[^>]*id="copy-box".*?</section>\s*</div>', "", data, flags=re.S)
    return re.sub(r"<h1[^>]*>.*?</h1>", "", data, flags=re.S)


SCRIPTS = sorted(EXAMPLES.glob("*/*.script"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_side_s_stream_carries_no_secret_of_that_side(script: Path, tmp_path: Path) -> None:
    """Every example played to its end: each update each side's stream carries (a step,
    and the whole a page behind gets) holds no secret of that side."""
    played = Script.read(script)
    url = f"sqlite:///{tmp_path / 't.db'}"
    example = str(script.with_suffix(".yaml").relative_to(EXAMPLES))
    store = table_at(url, example, played.seed)
    app = create_app(store)
    table = Table.resume(store, "t")
    sides = table.sides()
    found: list[str] = []

    def check(side: str, data: str, where: str) -> None:
        told = secrets(table.encounter, side)
        found.extend(f"{where}, {side}: {s!r}" for s in told.never if leaks(s, data))
        found.extend(f"{where}, {side} now: {s!r}" for s in told.now if leaks(s, present(data)))

    async def test() -> None:
        hub: Hub = app.state.hub
        key = store.table("t").id
        feeds = {}
        for side in sides:
            draw = events._side_draw(app, "t", side, True)
            feeds[side] = hub.events(hub.open((key, side, True), draw, 0, 0, side, "a"))
        await drawn(hub)
        for number, line in played.lines:
            await asyncio.to_thread(table.push, line)
            for side in sides:
                event = await next_event(feeds[side])
                assert event.id == str(table.version), f"line {number}: {event.data[:200]}"
                check(side, event.data, f"line {number} ({line})")
                assert hub.groups[(key, side, True)].update is not None
                whole = hub.groups[(key, side, True)].update.whole  # type: ignore[union-attr]
                check(side, whole, f"line {number} ({line}), whole")
        for feed in feeds.values():
            await feed.aclose()

    run(test)
    assert not found, "\n".join(dict.fromkeys(found))


def test_a_page_shows_the_log_s_last_entries_and_fetches_earlier_ones(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 't.db'}")
    table = web.start("heimr/duel.yaml")
    table.push("gm begin")
    while table.head < LOG_PAGE + 12:
        table.push(next(a for a in table.offered(None) if a.verb == "end"))
    start = table.head - LOG_PAGE
    page = web.page()
    assert f'id="log" data-start="{start}"' in page
    shown = re.search(r'id="log" data-start="\d+"[^>]*>(.*?)</div></div>', page, flags=re.S)
    assert shown
    lines = re.findall(r'<div class="line[^"]*"[^>]*>(.*?)</div>', shown.group(0), flags=re.S)
    assert [html.unescape(line) for line in lines] == list(table.log_lines(None, start))
    earlier = web.gm.get(f"/gm/t/t/log?end={start}")
    assert earlier.headers["X-Log-Start"] == "0"
    assert earlier.text.splitlines() == list(table.log_lines(None, 0, start))
    assert "> gm begin" in earlier.text
    link = web.link("raiders")
    side = web.client().get(f"{link}/log?end={start}")
    assert side.text.splitlines() == list(table.log_lines("raiders", 0, start))
    assert "> " not in [line[:2] for line in side.text.splitlines()]  # no action as typed
    assert web.client().get("/gm/t/t/log?end=5").status_code == 403


def test_a_server_s_config_goes_through_the_environment_as_json() -> None:
    config = ServeConfig(
        "sqlite:///x.db", "a-token-of-enough-length", live=LiveSettings(per_link=3)
    )
    assert ServeConfig.from_json(config.to_json()) == config
    with pytest.raises(ValueError, match="FRACAS_SERVE_CONFIG"):
        ServeConfig.from_json("{not json")


def test_a_page_ahead_of_the_store_gets_every_part_and_stalls_no_one(tmp_path: Path) -> None:
    store = table_at(f"sqlite:///{tmp_path / 't.db'}")
    app = create_app(store)

    async def test() -> None:
        honest = app.state.hub.events(gm_stream(app, 0, link="honest"))
        forged = app.state.hub.events(gm_stream(app, 999, link="forged"))
        whole = await next_event(forged)
        assert whole.id == "0" and 'id="log" data-start="0"' in whole.data
        await push(store, "gm begin")
        assert (await next_event(honest)).id == "1"
        assert (await next_event(forged)).id == "1"
        await honest.aclose()
        await forged.aclose()

    run(test)


def test_a_revoked_link_s_stream_is_closed_at_the_next_change(tmp_path: Path) -> None:
    store = table_at(f"sqlite:///{tmp_path / 't.db'}")
    app = create_app(store)
    seats = app.state.seats
    table_id = store.table("t").id
    kept = seats.find(seats.open(table_id, "raiders"))
    gone = seats.find(seats.open(table_id, "raiders"))

    async def test() -> None:
        hub: Hub = app.state.hub
        key = (table_id, "raiders", False)
        draw = events._side_draw(app, "t", "raiders", False)
        feeds = [
            hub.events(hub.open(key, draw, 0, 0, f"p/{s.id}", "a", s.id)) for s in (kept, gone)
        ]
        await drawn(hub)
        await asyncio.to_thread(seats.revoke, table_id, gone.id)
        await push(store, "gm begin")
        assert (await next_event(feeds[0])).id == "1"
        event = await next_event(feeds[1])
        assert (event.event, event.data) == ("close", "reload")
        await feeds[0].aclose()

    run(test)
