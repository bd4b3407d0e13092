"""Web load benchmark: 50 tables driven at once through two server processes on one
store, on loopback.

    .venv/bin/python benchmarks/web.py [--write docs/benchmarks.md] [--tables 50] [--actions 10]

Each table is the Heimr duel (examples/heimr/duel.yaml with its script's seed), driven
by its own client thread: it posts the script's next action to one server (alternating
between the two), with the version it read, and times the answer; then it asks the
*other* server for that table's player-link live fragment until the change shows, and
times that too (the delay a page sees is this plus at most its poll interval, 0.5 s). At
the end every table's stored actions must be the script's first actions, each once.
Times are wall-clock; the reference is a GET of /health on the same servers in the
same run, and each percentile is also given as a ratio of the reference's median.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from fracas.table import encounterfile  # noqa: E402
from fracas.table.scripts import Script  # noqa: E402
from fracas.table.seats import Seats  # noqa: E402
from fracas.table.store import Store  # noqa: E402
from fracas.table.table import Table  # noqa: E402

from report import write_section  # noqa: E402

HEADING = "# Web benchmarks"
TOKEN = "benchmark-game-master-token"
#: The whole run may take at most this long (seconds); then the drivers stop.
LIMIT = 300.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from fracas.cli import main; main()",
            "serve",
            "--db",
            db,
            "--port",
            str(port),
            "--gm-token",
            TOKEN,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.05)  # polling the health URL, a condition
    raise RuntimeError("a server did not start")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", metavar="FILE", help="put the Web section in FILE")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--actions", type=int, default=10)
    parser.add_argument("--db", help="a SQLAlchemy URL (default: a new SQLite file)")
    args = parser.parse_args()
    began = time.perf_counter()
    folder = tempfile.mkdtemp(prefix="fracas-bench-")
    db = args.db or f"sqlite:///{folder}/tables.db"
    store = Store.open(db)
    script = Script.read(ROOT / "examples/heimr/duel.script")
    lines = [line for _, line in script.lines][: args.actions]
    ruleset, setup, title = encounterfile.load(ROOT / "examples/heimr/duel.yaml")
    links = {}
    for n in range(args.tables):
        name = f"bench-{n}"
        Table.start(store, name, ruleset, setup, title, seed=script.seed)
        links[name] = Seats(store).open(store.table(name).id, "raiders")
    servers = [start(db), start(db)]
    urls = [url for _, url in servers]
    action_times: list[float] = []
    update_times: list[float] = []
    problems: list[str] = []
    lock = threading.Lock()
    stop_at = time.monotonic() + LIMIT

    def drive(index: int, name: str) -> None:
        clients = [httpx.Client(base_url=u, timeout=60) for u in urls]
        for c in clients:
            c.get(f"/gm/login?token={TOKEN}")
        page = clients[0].get(f"/gm/t/{name}").text
        csrf = page.split('name="csrf" value="')[1].split('"')[0]
        for ply, line in enumerate(lines):
            if time.monotonic() > stop_at:
                return
            here, there = clients[(index + ply) % 2], clients[(index + ply + 1) % 2]
            t0 = time.perf_counter()
            answer = here.post(
                f"/gm/t/{name}/act", data={"csrf": csrf, "version": str(ply), "action": line}
            )
            t1 = time.perf_counter()
            if answer.status_code != 303:
                with lock:
                    problems.append(f"{name} ply {ply + 1}: {answer.status_code}")
                return
            while there.get(f"/p/{links[name]}/live?v={ply}").status_code == 204:
                time.sleep(0.005)  # polling the condition as fast as is fair to the server
            t2 = time.perf_counter()
            with lock:
                action_times.append(t1 - t0)
                update_times.append(t2 - t1)

    try:
        reference = []
        with httpx.Client(base_url=urls[0]) as c:
            for _ in range(200):
                t0 = time.perf_counter()
                c.get("/health")
                reference.append(time.perf_counter() - t0)
        threads = [threading.Thread(target=drive, args=(i, name)) for i, name in enumerate(links)]
        t_start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t_start
    finally:
        for process, _ in servers:
            os.kill(process.pid, signal.SIGTERM)
            process.wait(30)
    lost = duplicated = 0
    for name in links:
        stored = [a.action for a in store.actions(store.table(name).id)]
        if stored != lines[: len(stored)]:
            duplicated += 1
        if len(stored) < len(lines):
            lost += 1
    ref = statistics.median(reference)
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    total = len(action_times)

    def row(what: str, values: list[float]) -> str:
        p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
        return (
            f"| {what} | {p50 * 1e3:.1f} ms ({p50 / ref:.0f}x) | "
            f"{p99 * 1e3:.1f} ms ({p99 / ref:.0f}x) |"
        )

    section = "\n".join(
        [
            HEADING,
            "",
            "Generated by `make bench` (`benchmarks/web.py --write docs/benchmarks.md`). "
            f"{args.tables} tables (the Heimr duel) driven at once, each by its own client "
            f"thread, through two `fracas serve` processes on one store "
            f"({'SQLite' if db.startswith('sqlite') else 'the given URL'}), on loopback: "
            f"{args.actions} actions a table, alternating between the servers; after each "
            "action the other server is asked for the table's player-link live fragment "
            "until it shows the change. Wall-clock times; in brackets, the ratio to the "
            f"median GET /health on the same servers in the same run ({ref * 1e3:.2f} ms).",
            "",
            f"- Date: {now}",
            f"- Machine: {platform.platform()}, {os.cpu_count()} logical cores (shared)",
            f"- Python: {platform.python_implementation()} {platform.python_version()}",
            f"- Actions acknowledged: {total} of {args.tables * args.actions} in {wall:.1f} s "
            f"({total / wall:.0f} a second); tables with an action lost: {lost}, with an "
            f"action stored twice or out of order: {duplicated}; refusals: {len(problems)}",
            f"- Whole run: {time.perf_counter() - began:.0f} s",
            "",
            "| measurement | p50 | p99 |",
            "|---|---|---|",
            row("an action (POST until the 303 answer, stored)", action_times),
            row("a live update (the change served by the other process)", update_times),
            "",
            "A page polls every 0.5 s, so a player sees a change within the update time "
            "above plus at most half a second.",
        ]
    )
    print(section)
    if problems:
        print("\n".join(problems[:10]), file=sys.stderr)
    if args.write:
        write_section(Path(args.write), section + "\n")
        print(f"wrote {args.write}")
    return 0 if not (lost or duplicated or problems) else 1


if __name__ == "__main__":
    sys.exit(main())
