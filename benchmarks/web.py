"""Web load benchmark: live pages as a group would keep them open, through two server
processes, on SQLite and on a throwaway PostgreSQL.

    .venv/bin/python benchmarks/web.py [--write docs/benchmarks.md] [--tables 50]
        [--players 5] [--idle 20] [--db sqlite|postgresql|both]

For each store: ``fracas serve --workers 2`` (two processes on one socket) over a store
with ``--tables`` Heimr duels (examples/heimr/duel.yaml with its script's seed). Every
table has a game master's page and ``--players`` player-link pages, each connected as a
browser is: the page is fetched, then its event stream opened from the version the page
shows. One asyncio client holds all of them (no thread a page).

1. *Idle.* With no page open, then with every page open and nothing happening, the
   server processes' CPU is read over ``--idle`` seconds each; the difference, shared
   among the pages, is what an idle page costs a minute.
2. *Play.* Each game master plays the duel's script at a human pace: a pause drawn
   from an exponential law of mean 2.6 s, or, one time in four, a burst of a quick
   0.2 to 0.5 s. An action is timed from its POST to the acknowledgement (the 303 after
   the commit); an update from that acknowledgement to the moment each page of that table
   has been sent an event of that version or later (0 when the event came first). The
   client's own CPU is read too: it shares the two cores with the servers.
3. *Checked.* Every table's stored actions are the script's acknowledged lines, each once
   and in order, and every page received the table's last version.

Times are wall clock; the reference is a GET of ``/health`` in the same run. The cost of
one action, undo, redo, page and ``/gm/`` as the log and the tables grow is measured apart,
by benchmarks/table_cost.py.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from fracas.table import encounterfile  # noqa: E402
from fracas.table.scripts import Script  # noqa: E402
from fracas.table.seats import Seats  # noqa: E402
from fracas.table.store import Store  # noqa: E402
from fracas.table.table import Table  # noqa: E402
from serving import TOKEN, serving  # noqa: E402

from report import write_section  # noqa: E402

HEADING = "# Web benchmarks"
#: The play phase stops after this long (seconds), whatever is left to play.
PLAY_LIMIT = 240.0
#: Human pace: the mean pause between two actions outside a burst, and a burst's odds.
PAUSE_MEAN, BURST = 2.6, 0.25
#: Targets of the issue "The live table", for the table below.
TARGETS = {"action_p99": 0.100, "update_p99": {"sqlite": 0.250, "postgresql": 0.150}}
IDLE_TARGET_MS = 5.0
#: Seconds the client keeps an idle connection (uvicorn closes one after 5 s).
KEEP_ALIVE = 2.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


@dataclass
class Page:
    """One open page: whose it is, its stream, and when each version reached it."""

    table: str
    url: str
    events: str
    arrived: dict[int, float] = field(default_factory=dict)
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    reconnects: int = 0

    def first_at_or_after(self, version: int) -> float | None:
        times = [t for v, t in self.arrived.items() if v >= version]
        return min(times) if times else None


@dataclass
class Run:
    """What one store's run measured."""

    db: str
    pages: int = 0
    reference: list[float] = field(default_factory=list)
    actions: list[float] = field(default_factory=list)
    updates: list[float] = field(default_factory=list)
    idle_without: float = 0.0
    idle_with: float = 0.0
    idle_seconds: float = 0.0
    play_wall: float = 0.0
    play_server_cpu: float = 0.0
    play_client_cpu: float = 0.0
    acknowledged: int = 0
    lost: int = 0
    twice: int = 0
    behind: int = 0
    problems: list[str] = field(default_factory=list)


# -- the server -------------------------------------------------------------------------------


def server_cpu(server: psutil.Process) -> float:
    """CPU seconds (user and system) of the server and its worker processes so far."""
    total = 0.0
    for p in [server, *server.children(recursive=True)]:
        with contextlib.suppress(psutil.NoSuchProcess):
            times = p.cpu_times()
            total += times.user + times.system
    return total


# -- the pages --------------------------------------------------------------------------------


VERSION = re.compile(r'data-version="(\d+)"')


async def watch(client: httpx.AsyncClient, page: Page, stop: asyncio.Event) -> None:
    """Keep the page's stream open (reconnecting from the last version seen) until ``stop``."""
    answer = await client.get(page.url)
    answer.raise_for_status()
    found = VERSION.search(answer.text)
    version = int(found.group(1)) if found else 0
    while not stop.is_set():
        headers = {"Accept": "text/event-stream"}
        if page.arrived:
            headers["Last-Event-ID"] = str(max(page.arrived))
        try:
            async with client.stream(
                "GET", f"{page.events}?v={max(page.arrived, default=version)}", headers=headers
            ) as stream:
                if stream.status_code != 200:
                    raise RuntimeError(f"{page.events}: {stream.status_code}")
                page.connected.set()
                event_id: int | None = None
                async for line in stream.aiter_lines():
                    if line.startswith("id:"):
                        with contextlib.suppress(ValueError):
                            event_id = int(line[3:].strip())
                    elif line == "" and event_id is not None:
                        page.arrived.setdefault(event_id, time.perf_counter())
                        event_id = None
        except (httpx.HTTPError, RuntimeError):
            if stop.is_set():
                return
            page.reconnects += 1
            await asyncio.sleep(0.5)  # a browser's retry delay before reconnecting


async def play(
    client: httpx.AsyncClient,
    name: str,
    lines: list[str],
    rng: random.Random,
    run: Run,
    acks: list[tuple[str, int, float]],
    deadline: float,
) -> int:
    """The game master plays ``lines`` at a human pace; how many were acknowledged."""
    page = (await client.get(f"/gm/t/{name}")).text
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    found = VERSION.search(page)
    version = int(found.group(1)) if found else 0
    done = 0
    for line in lines:
        pause = rng.uniform(0.2, 0.5) if rng.random() < BURST else rng.expovariate(1 / PAUSE_MEAN)
        await asyncio.sleep(pause)
        if time.perf_counter() > deadline:
            break
        t0 = time.perf_counter()
        answer = await client.post(
            f"/gm/t/{name}/act", data={"csrf": csrf, "version": str(version), "action": line}
        )
        t1 = time.perf_counter()
        if answer.status_code != 303:
            run.problems.append(f"{name}: {line!r} answered {answer.status_code}")
            break
        version += 1
        done += 1
        run.actions.append(t1 - t0)
        acks.append((name, version, t1))
    return done


async def drive(
    url: str,
    server: psutil.Process,
    run: Run,
    args: argparse.Namespace,
    tables: dict[str, list[str]],
    lines: list[str],
) -> None:
    # A kept-alive connection is let go before the server's 5 s would close it: a request
    # sent just as the server closes the connection would fail (a read error).
    limits = httpx.Limits(
        max_connections=None, max_keepalive_connections=None, keepalive_expiry=KEEP_ALIVE
    )
    timeout = httpx.Timeout(30.0, read=None)
    async with (
        httpx.AsyncClient(base_url=url, limits=limits, timeout=timeout) as gm,
        httpx.AsyncClient(base_url=url, limits=limits, timeout=timeout) as players,
    ):
        await gm.get(f"/gm/login?token={TOKEN}")
        for _ in range(200):
            t0 = time.perf_counter()
            await gm.get("/health")
            run.reference.append(time.perf_counter() - t0)

        # Idle, no page open.
        before = server_cpu(server)
        await asyncio.sleep(args.idle)  # a measurement window, not a wait for a condition
        run.idle_without = server_cpu(server) - before
        run.idle_seconds = args.idle

        pages: list[Page] = []
        for name, tokens in tables.items():
            pages.append(Page(name, f"/gm/t/{name}", f"/gm/t/{name}/events"))
            pages += [Page(name, f"/p/{t}", f"/p/{t}/events") for t in tokens]
        run.pages = len(pages)
        stop = asyncio.Event()
        watchers = [
            asyncio.create_task(watch(gm if p.url.startswith("/gm") else players, p, stop))
            for p in pages
        ]
        await asyncio.wait_for(asyncio.gather(*(p.connected.wait() for p in pages)), 120)

        # Idle, every page open.
        before = server_cpu(server)
        await asyncio.sleep(args.idle)
        run.idle_with = server_cpu(server) - before

        # Play.
        rng = random.Random(20261126)
        acks: list[tuple[str, int, float]] = []
        cpu0, client0, t0 = server_cpu(server), time.process_time(), time.perf_counter()
        deadline = t0 + PLAY_LIMIT
        played = await asyncio.gather(
            *(
                play(gm, name, lines, random.Random(rng.random()), run, acks, deadline)
                for name in tables
            )
        )
        run.play_wall = time.perf_counter() - t0
        run.play_server_cpu = server_cpu(server) - cpu0
        run.play_client_cpu = time.process_time() - client0
        run.acknowledged = sum(played)

        # Let the last updates arrive: wait until every page has its table's last version.
        last = {name: 0 for name in tables}
        for name, version, _ in acks:
            last[name] = max(last[name], version)

        async def caught_up() -> None:
            while not all(max(p.arrived, default=-1) >= last[p.table] for p in pages):
                await asyncio.sleep(0.05)  # polling a condition of the client's own state

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(caught_up(), 30)
        stop.set()
        for task in watchers:
            task.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)

        by_table: dict[str, list[Page]] = {}
        for p in pages:
            by_table.setdefault(p.table, []).append(p)
        for name, version, acked in acks:
            for p in by_table[name]:
                at = p.first_at_or_after(version)
                if at is not None:
                    run.updates.append(max(0.0, at - acked))
        run.behind = sum(1 for p in pages if max(p.arrived, default=-1) < last[p.table])
        run.problems += [
            f"{p.events}: reconnected {p.reconnects} times" for p in pages if p.reconnects
        ][:5]


def one_run(db: str, kind: str, args: argparse.Namespace) -> Run:
    run = Run(kind)
    store = Store.open(db)
    script = Script.read(ROOT / "examples/heimr/duel.script")
    lines = [line for _, line in script.lines]
    ruleset, setup, title = encounterfile.load(ROOT / "examples/heimr/duel.yaml")
    tables: dict[str, list[str]] = {}
    for n in range(args.tables):
        name = f"bench-{n}"
        table = Table.start(store, name, ruleset, setup, title, seed=script.seed)
        sides = table.sides()
        seats = Seats(store)
        tables[name] = [seats.open(table.id, sides[k % len(sides)]) for k in range(args.players)]
    # Every page of the run comes from this one address.
    options = ("--workers", "2", "--streams-per-address", "10000")
    with serving(db, *options) as (server, url):
        asyncio.run(drive(url, server, run, args, tables, lines))
    for name in tables:
        stored = [a.action for a in store.actions(store.table(name).id)]
        if stored != lines[: len(stored)]:
            run.twice += 1
    acked = run.acknowledged
    stored_total = sum(len(store.actions(store.table(n).id)) for n in tables)
    run.lost = max(0, acked - stored_total)
    if stored_total > acked:
        run.twice += stored_total - acked
    store.engine.dispose()
    return run


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    from tests.web.pg import Cluster, binaries

    folder = binaries()
    if folder is None:
        raise RuntimeError("PostgreSQL's initdb and pg_ctl are not installed (make browser)")
    cluster = Cluster(folder)
    try:
        yield cluster.database()
    finally:
        cluster.stop()


# -- the report -------------------------------------------------------------------------------


def section(runs: list[Run], args: argparse.Namespace, began: float) -> str:
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        HEADING,
        "",
        "Generated by `make bench` (`benchmarks/web.py --write docs/benchmarks.md`); the method "
        "is in the script's docstring. "
        f"{args.tables} tables (the Heimr duel), each with a game master's page and "
        f"{args.players} player pages connected as browsers are (one event stream each): "
        f"{args.tables * (args.players + 1)} pages, through `fracas serve --workers 2` on "
        "loopback; the game masters act at a human pace (a pause of 2.6 s on average, one "
        "time in four a burst of 0.2 to 0.5 s). The client shares the machine's two cores.",
        "",
        f"- Date: {now}",
        f"- Machine: {platform.platform()}, {os.cpu_count()} logical cores",
        f"- Python: {platform.python_implementation()} {platform.python_version()}",
        f"- Whole run: {time.perf_counter() - began:.0f} s",
        "- Load average (1, 5, 15 min) at the start: "
        + ", ".join(f"{x:.1f}" for x in args.load)
        + "; at the end: "
        + ", ".join(f"{x:.1f}" for x in os.getloadavg()),
        "",
        "| measurement | SQLite | PostgreSQL | target |",
        "|---|---|---|---|",
    ]
    by = {r.db: r for r in runs}

    def cell(kind: str, fn: object) -> str:
        r = by.get(kind)
        return "not run" if r is None else fn(r)  # type: ignore[operator]

    def ms(x: float) -> str:
        return f"{x * 1e3:.1f} ms"

    rows = [
        ("pages connected", lambda r: str(r.pages), ""),
        ("reference: GET /health p50", lambda r: ms(statistics.median(r.reference)), ""),
        ("action p50 (POST to acknowledgement)", lambda r: ms(percentile(r.actions, 0.5)), ""),
        ("action p99", lambda r: ms(percentile(r.actions, 0.99)), "≤ 100 ms"),
        (
            "update p50 (acknowledgement to every page)",
            lambda r: ms(percentile(r.updates, 0.5)),
            "",
        ),
        (
            "update p99",
            lambda r: ms(percentile(r.updates, 0.99)),
            "≤ 250 ms SQLite, ≤ 150 ms PostgreSQL",
        ),
        (
            "server CPU, idle, no page open (per minute)",
            lambda r: ms(r.idle_without / r.idle_seconds * 60),
            "",
        ),
        (
            "server CPU, idle, every page open (per minute)",
            lambda r: ms(r.idle_with / r.idle_seconds * 60),
            "",
        ),
        (
            "server CPU an idle page costs a minute",
            lambda r: ms(max(0.0, r.idle_with - r.idle_without) / r.idle_seconds * 60 / r.pages),
            f"≤ {IDLE_TARGET_MS:g} ms",
        ),
        ("actions acknowledged", lambda r: f"{r.acknowledged} in {r.play_wall:.0f} s", ""),
        (
            "server CPU while playing",
            lambda r: (
                f"{r.play_server_cpu:.1f} s "
                f"({r.play_server_cpu / r.play_wall * 100:.0f}% of a core)"
            ),
            "",
        ),
        (
            "client CPU while playing",
            lambda r: (
                f"{r.play_client_cpu:.1f} s "
                f"({r.play_client_cpu / r.play_wall * 100:.0f}% of a core)"
            ),
            "",
        ),
        ("actions lost / stored twice or out of order", lambda r: f"{r.lost} / {r.twice}", "0 / 0"),
        ("pages that missed their table's last version", lambda r: str(r.behind), "0"),
    ]
    for what, fn, target in rows:
        out.append(f"| {what} | {cell('sqlite', fn)} | {cell('postgresql', fn)} | {target} |")
    problems = [f"{r.db}: {p}" for r in runs for p in r.problems]
    if problems:
        out += ["", "Problems:", *[f"- {p}" for p in problems[:10]]]
    out += [
        "",
        "The costs of one action, undo, redo, page and `/gm/` as the log and the number of "
        "tables grow are in the Table cost section (benchmarks/table_cost.py).",
    ]
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--write", metavar="FILE", help="put the Web section in FILE")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of each idle window")
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args()
    began = time.perf_counter()
    args.load = os.getloadavg()  # the machine is shared: how busy it was, at the start
    runs: list[Run] = []
    if args.db in ("sqlite", "both"):
        folder = tempfile.mkdtemp(prefix="fracas-bench-")
        runs.append(one_run(f"sqlite:///{folder}/tables.db", "sqlite", args))
    if args.db in ("postgresql", "both"):
        with postgres() as url:
            runs.append(one_run(url, "postgresql", args))
    text = section(runs, args, began)
    print(text)
    if args.write:
        write_section(Path(args.write), text + "\n")
        print(f"wrote {args.write}")
    bad = any(r.lost or r.twice or r.behind or r.problems for r in runs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
