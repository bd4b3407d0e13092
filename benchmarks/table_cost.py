"""What a table costs the server as its log grows: the CPU of one action, an undo, a redo,
the game master's page and a player's page at 100, 1,000 and 10,000 actions, and the
tables' index with 3,000 tables.

    .venv/bin/python benchmarks/table_cost.py [--write docs/benchmarks.md] [--quick]
        [--profile WHAT]

The table is the Heimr duel (examples/heimr/duel.yaml), played to the size wanted with
cheap legal actions (turns ended, each rolling a parry, and a note every fifth action),
its rows written to a SQLite store in one transaction. Every figure is the server's CPU
(``time.process_time``) of one request through the ASGI app (Starlette's TestClient, in
this process), warm: the table already held, the median of several. An action is a
POST of ``end`` (until its 303; the page the browser then asks for is the GM's page); an
undo and a redo are POSTs that answer with the GM's page, as the routes do; and the GM's
page is drawn just after another process (another store on the same file) pushed an
action, which the page's table catches up with. ``--profile WHAT`` (action, undo, redo,
gm, player, index) prints cProfile's top functions of that request's handler at the
largest size instead.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import os
import platform
import pstats
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2; httpx works
    from fastapi.testclient import TestClient

from fracas.engine import Encounter, RandomDice  # noqa: E402
from fracas.table import encounterfile  # noqa: E402
from fracas.table.seats import Seats  # noqa: E402
from fracas.table.store import ActionRow, Store, TableRow, utc_now  # noqa: E402
from fracas.table.table import Table  # noqa: E402
from fracas.web.app import create_app  # noqa: E402

from report import write_section  # noqa: E402

HEADING = "# Table cost benchmarks"
TOKEN = "benchmark-game-master-token"
DUEL = ROOT / "examples/heimr/duel.yaml"
SIZES = (100, 1_000, 10_000)
#: Tables in the store whose index (``/gm/``) is measured.
INDEX_TABLES = 3_000
#: The targets (issue 19): at the largest size, at most this many times the smallest's.
RATIO = 1.5
INDEX_MS = 50.0


def moves() -> Iterator[str]:
    """Cheap legal actions for the duel, forever: turns ended, and a note every fifth."""
    n = 0
    while True:
        n += 1
        yield "gm note text='a breath'" if n % 5 == 0 else "end"


def build(store: Store, name: str, actions: int) -> None:
    """The duel with ``actions`` in its log, stored as if pushed one by one."""
    ruleset, setup, title = encounterfile.load(DUEL)
    Table.start(store, name, ruleset, setup, title, seed=1)
    encounter: Encounter[Any] = Encounter(ruleset, setup, RandomDice(1))
    encounter.push("gm begin")
    play = moves()
    while len(encounter.log) < actions:
        line = next(play)
        encounter.push(f"{encounter.to_move} end" if line == "end" else line)
    dice = encounter.dice
    assert isinstance(dice, RandomDice)
    with store.session() as s:
        row = s.query(TableRow).filter(TableRow.name == name).one()
        now = utc_now()
        s.add_all(
            ActionRow(table_id=row.id, ply=n, action=str(e.action), entry=e.to_dict(), at=now)
            for n, e in enumerate(encounter.log, 1)
        )
        row.head, row.version, row.dice = actions, actions, dice.snapshot()


def cpu(request: Callable[[], Any], times: int) -> float:
    """The median CPU seconds of ``request``, run ``times`` times."""
    spent = []
    for _ in range(times):
        t0 = time.process_time()
        request()
        spent.append(time.process_time() - t0)
    return statistics.median(spent)


class Bench:
    """One table of a given size behind the app, and the requests measured on it."""

    def __init__(self, folder: str, actions: int) -> None:
        url = f"sqlite:///{folder}/cost-{actions}.db"
        self.store = Store.open(url)
        build(self.store, "t", actions)
        #: The same table in another process (another store on the same file).
        self.elsewhere = Table.resume(Store.open(url, migrate=False), "t")
        self.client = TestClient(create_app(self.store, TOKEN))
        self.client.get(f"/gm/login?token={TOKEN}")
        table_id = self.store.table("t").id
        self.link = f"/p/{Seats(self.store).open(table_id, 'raiders', may_act=True)}"
        page = self.gm()
        self.csrf = page.split('name="csrf" value="')[1].split('"')[0]

    def version(self) -> str:
        return str(self.store.table("t").version)

    def gm(self) -> str:
        answer = self.client.get("/gm/t/t")
        assert answer.status_code == 200, answer.text[:200]
        return answer.text

    def player(self) -> str:
        answer = self.client.get(self.link)
        assert answer.status_code == 200, answer.text[:200]
        return answer.text

    def post(self, path: str, expect: int, **fields: str) -> None:
        data = {"csrf": self.csrf, "version": self.version(), **fields}
        answer = self.client.post(f"/gm/t/t/{path}", data=data, follow_redirects=False)
        assert answer.status_code == expect, (path, answer.status_code, answer.text[:300])

    def action(self) -> None:
        self.post("act", 303, action="end")

    def after_elsewhere(self) -> float:
        """The CPU of the GM's page just after another process pushed an action (the
        page's table catches up first)."""
        self.elsewhere.push("end")
        return cpu(self.gm, 1)

    def undo(self) -> None:
        self.post("undo", 200)

    def redo(self) -> None:
        self.post("redo", 200)


def measure(bench: Bench, times: int) -> dict[str, float]:
    """Every request's CPU on ``bench``'s table (act, undo, redo: the log grows one a round)."""
    bench.gm(), bench.player()  # warm: the table held, the templates compiled
    spent: dict[str, list[float]] = {}
    for _ in range(times):
        for key, request in (("action", bench.action), ("undo", bench.undo)):
            spent.setdefault(key, []).append(cpu(request, 1))
            if key == "undo":
                spent.setdefault("redo", []).append(cpu(bench.redo, 1))
    spent["gm"] = [cpu(bench.gm, times)]
    spent["player"] = [cpu(bench.player, times)]
    spent["elsewhere"] = [bench.after_elsewhere() for _ in range(times)]
    return {key: statistics.median(values) for key, values in spent.items()}


def index_cost(folder: str, times: int) -> float:
    """The CPU of ``/gm/`` with :data:`INDEX_TABLES` tables in the store."""
    store = Store.open(f"sqlite:///{folder}/index.db")
    ruleset, setup, title = encounterfile.load(DUEL)
    Table.start(store, "first", ruleset, setup, title, seed=1)
    record = store.table("first")
    with store.session() as s:
        now = utc_now()
        s.add_all(
            TableRow(
                name=f"table-{n:04d}",
                title=f"Duel {n}",
                ruleset=record.ruleset,
                setup=record.setup,
                dice=record.dice,
                head=0,
                version=0,
                created=now,
                changed=now,
            )
            for n in range(INDEX_TABLES - 1)
        )
    client = TestClient(create_app(store, TOKEN))
    client.get(f"/gm/login?token={TOKEN}")

    def index() -> None:
        answer = client.get("/gm/")
        assert answer.status_code == 200, answer.text[:200]

    index()
    return cpu(index, times)


ROWS = (
    ("action", "an action (POST `end` until its 303)"),
    ("undo", "an undo (POST, answered with the GM's page)"),
    ("redo", "a redo (POST, answered with the GM's page)"),
    ("gm", "the GM's page"),
    ("player", "a player's page"),
    ("elsewhere", "the GM's page just after another process's action (caught up)"),
)


def report(results: dict[int, dict[str, float]], index_ms: float, seconds: float) -> str:
    sizes = sorted(results)
    first, last = sizes[0], sizes[-1]
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    head = "| request | " + " | ".join(f"{n:,} actions" for n in sizes) + " | target |"
    lines = [
        HEADING,
        "",
        "Generated by `make bench` (`benchmarks/table_cost.py --write docs/benchmarks.md`). "
        "The server's CPU (`time.process_time`, this process: Starlette's TestClient drives "
        "the ASGI app) of one request on the Heimr duel with 100, 1,000 and 10,000 actions in "
        "its log (turns ended, each rolling a parry, and a note every fifth action), on "
        "SQLite, warm (the table held), the median of several; in brackets, the ratio to the "
        f"{first:,}-action figure. The target is at most {RATIO}x at {last:,} actions. "
        "A page shows the log's last entries (earlier ones are fetched when asked), so "
        "what it costs does not grow with the log. An action is its POST until the 303; "
        "the browser then asks for the GM's page, and open pages are sent the change.",
        "",
        f"- Date: {now}",
        f"- Machine: {platform.platform()}, {os.cpu_count()} logical cores (shared)",
        f"- Python: {platform.python_implementation()} {platform.python_version()}",
        f"- Whole run: {seconds:.0f} s",
        "",
        head,
        "|---" * (len(sizes) + 2) + "|",
    ]
    for key, label in ROWS:
        base = results[first][key]
        cells = [f"{results[n][key] * 1e3:.1f} ms ({results[n][key] / base:.2f}x)" for n in sizes]
        target = f"≤ {RATIO}x"
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {target} |")
    verdict = "met" if index_ms <= INDEX_MS else "missed"
    lines += [
        "",
        f"The tables' index (`/gm/`, its first page) with {INDEX_TABLES:,} tables: "
        f"{index_ms:.1f} ms of CPU (target ≤ {INDEX_MS:.0f} ms: {verdict}).",
    ]
    return "\n".join(lines)


def profile(folder: str, what: str, actions: int) -> None:
    """cProfile of one request's handler (called in this thread, as its route calls it)."""
    from starlette.requests import Request

    from fracas.web.gm import _move, act, draw_gm, index
    from fracas.web.player import draw_player

    bench = Bench(folder, actions)
    app = bench.client.app
    request = Request(
        {
            "type": "http",
            "app": app,
            "method": "GET",
            "path": "/gm/t/t/act",
            "query_string": b"",
            "headers": [],
            "root_path": "",
            "scheme": "http",
            "server": ("127.0.0.1", 80),
        }
    )
    seat = app.state.seats.find(bench.link.removeprefix("/p/"))  # type: ignore[attr-defined]

    def form() -> dict[str, Any]:
        return {"csrf": bench.csrf, "version": bench.version(), "action": "end"}

    handlers: dict[str, Callable[[], Any]] = {
        "action": lambda: act(request, "t", None, form(), lambda **kw: None),
        "undo": lambda: _move(request, "t", bench.csrf, form(), "undo"),
        "redo": lambda: (
            _move(request, "t", bench.csrf, form(), "undo"),
            _move(request, "t", bench.csrf, form(), "redo"),
        ),
        "gm": lambda: draw_gm(request, "t", bench.csrf),
        "player": lambda: draw_player(request, seat, bench.link.removeprefix("/p/")),
        "index": lambda: index(request, bench.csrf),
    }
    handler = handlers[what]
    handler()
    profiler = cProfile.Profile()
    profiler.enable()
    handler()
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", metavar="FILE", help="put the Table cost section in FILE")
    parser.add_argument("--quick", action="store_true", help="100 and 1,000 actions only")
    parser.add_argument("--times", type=int, default=11, help="repeats of each request")
    parser.add_argument("--profile", metavar="WHAT", help="cProfile one request instead")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fracas-cost-") as folder:
        return run(args, folder)


def run(args: argparse.Namespace, folder: str) -> int:
    began = time.perf_counter()
    sizes = SIZES[:2] if args.quick else SIZES
    if args.profile:
        profile(folder, args.profile, sizes[-1])
        return 0
    results = {}
    for actions in sizes:
        results[actions] = measure(Bench(folder, actions), args.times)
        print(f"{actions} actions: {results[actions]}", file=sys.stderr)
    index_ms = index_cost(folder, args.times) * 1e3
    section = report(results, index_ms, time.perf_counter() - began)
    print(section)
    if args.write:
        write_section(Path(args.write), section + "\n")
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
