"""The GM's "Odds of this fight" benchmark: for each example, how soon the first figures
come and how soon 1,000 runs are done, through a real server, and what it costs the
table's responsiveness while it runs.

    .venv/bin/python benchmarks/fight_odds.py [--write docs/benchmarks.md]
        [--examples heimr/duel,sides/ambush] [--actions 200]

``fracas serve`` (one process; the odds on its one low-priority worker process, as a
GM's server runs them) over a store with every example as a table (its script's seed)
and one more Heimr duel, the *probe*. For each example the GM's page opens the odds'
stream (``/gm/t/NAME/fight-odds/events``), which starts the job from where the table
stands; the run is timed from that request to the first pushed figures, and to the
first push with 1,000 runs or more done (the server is given 20,000 runs and 120 s, so
the job keeps running afterwards). Once the first figures are in, the probe is played
as a GM does while the job runs: an action, then its undo, ``--actions`` requests, each
timed from the POST to its answer after the commit; only the requests sent before the
job ended count (a kernel's job may end within a second). The same is timed once with
no job running (idle). Pushes come at most every 0.2 s, so the times are that coarse.
Wall-clock times; one run each.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from fracas.table import encounterfile  # noqa: E402
from fracas.table.store import Store  # noqa: E402
from fracas.table.table import Table  # noqa: E402
from fracas.web.demo import demo_tables  # noqa: E402
from serving import TOKEN, serving  # noqa: E402

from report import write_section  # noqa: E402

HEADING = "# Fight odds benchmarks"
EXAMPLES = ROOT / "examples"
#: Targets of the issue: first figures, 1,000 runs (seconds), action p99 ratio.
FIRST, THOUSAND, RATIO = 2.0, 5.0, 2.0
#: The server's bounds for the run: enough that a job outlasts the probe's actions.
SERVER_RUNS, SERVER_SECONDS = 20_000, 120.0
#: The longest wait for one example's 1,000 runs.
LIMIT = 120.0


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


class Probe:
    """The probe table, played by the GM: an action, then its undo, each timed."""

    def __init__(self, gm: httpx.Client) -> None:
        self.gm = gm
        page = gm.get("/gm/t/probe").text
        self.csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]

    def version(self) -> int:
        text = self.gm.get("/gm/t/probe/live?v=-1").text
        return int(re.search(r'data-version="(\d+)"', text).group(1))  # type: ignore[union-attr]

    def play(self, count: int) -> list[tuple[float, float]]:
        """``count`` requests: when each was sent (``time.perf_counter``), and how long
        its answer took."""
        times = []
        version = self.version()
        for i in range(count):
            path, data = (
                ("/gm/t/probe/act", {"action": "gm begin"})
                if i % 2 == 0
                else ("/gm/t/probe/undo", {})
            )
            started = time.perf_counter()
            done = self.gm.post(path, data={"csrf": self.csrf, "version": str(version), **data})
            times.append((started, time.perf_counter() - started))
            if done.status_code != (303 if i % 2 == 0 else 200):  # an undo shows the page
                raise RuntimeError(f"the probe's {path} answered {done.status_code}")
            version += 1
            time.sleep(0.02)  # a GM's pace, however brief: not a wait on a condition
        return times


@dataclass
class Timed:
    example: str
    first: float | None = None
    thousand: float | None = None
    runs_seen: int = 0
    busy_p99: float | None = None
    #: The probe's requests sent while the job ran.
    busy_count: int = 0
    #: When the job was seen done (``time.perf_counter``), if it was.
    ended: float | None = None


def follow(url: str, cookies: httpx.Cookies, name: str, found: Timed, ready: threading.Event,
           stop: threading.Event, first: threading.Event) -> None:  # fmt: skip
    """Open the odds' stream of table ``name``; note the first figures and 1,000 runs."""
    started = time.perf_counter()
    with (
        httpx.Client(base_url=url, cookies=cookies, timeout=LIMIT) as client,
        client.stream("GET", f"/gm/t/{name}/fight-odds/events") as response,
    ):
        for line in response.iter_lines():
            if stop.is_set():
                return
            if not line.startswith("data:"):
                continue
            now = time.perf_counter() - started
            if 'id="fight-odds-sides"' in line and found.first is None:
                found.first = now
                first.set()
            runs = re.search(r"(?:running: )?([\d,]+) (?:of [\d,]+ )?runs", line)
            if runs:
                found.runs_seen = max(found.runs_seen, int(runs.group(1).replace(",", "")))
            if found.thousand is None and found.runs_seen >= 1000:
                found.thousand = now
                ready.set()
            if 'data-state="done"' in line or 'data-state="failed"' in line:
                found.ended = time.perf_counter()
                first.set()
                ready.set()
                return


def run(examples: list[str] | None, actions: int) -> tuple[list[Timed], float]:
    with tempfile.TemporaryDirectory() as scratch:
        db = f"sqlite:///{Path(scratch) / 'odds.db'}"
        store = Store.open(db)
        names = demo_tables(store, EXAMPLES)
        ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr" / "duel.yaml")
        Table.start(store, "probe", ruleset, setup, title, seed=1)
        store.engine.dispose()
        if examples:
            wanted = {e.replace("/", "-") for e in examples}
            names = [n for n in names if n in wanted]
        odds = ("--odds-runs", str(SERVER_RUNS), "--odds-seconds", str(SERVER_SECONDS))
        with serving(db, *odds) as (_, url), httpx.Client(base_url=url, timeout=60) as gm:
            gm.get(f"/gm/login?token={TOKEN}")
            probe = Probe(gm)
            probe.play(6)  # warm
            idle = percentile([took for _, took in probe.play(actions)], 0.99)
            results = []
            for name in names:
                found = Timed(name)
                ready, stop, first = threading.Event(), threading.Event(), threading.Event()
                reader = threading.Thread(
                    target=follow,
                    args=(url, gm.cookies, name, found, ready, stop, first),
                    daemon=True,
                )
                reader.start()
                first.wait(
                    LIMIT
                )  # the job runs: its start (the spec, the first batch) is timed apart
                sent = probe.play(actions)
                ready.wait(LIMIT)
                stop.set()
                reader.join(LIMIT)
                ended = found.ended
                busy = [took for at, took in sent if ended is None or at < ended]
                found.busy_count = len(busy)
                found.busy_p99 = percentile(busy, 0.99) if busy else None
                results.append(found)
                print(
                    f"{name}: first {found.first}, 1,000 runs {found.thousand}, "
                    f"busy p99 {found.busy_p99 or 0:.4f} s over {found.busy_count} requests "
                    f"(idle {idle:.4f} s)",
                    flush=True,
                )
            return results, idle


def ok(value: float | None, target: float) -> str:
    if value is None:
        return "–"
    return f"{value:.2f}" + ("" if value <= target else " ✗")


def section(results: list[Timed], idle: float, actions: int, load: tuple[float, float]) -> str:
    rows = [
        "| example | first figures (s) | 1,000 runs (s) | action p99 while it runs (ms) | "
        "requests while it runs | × idle |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        if r.busy_p99 is None or not idle:  # no request sent while the job ran
            busy, times = "n/a", "n/a"
        else:
            ratio = r.busy_p99 / idle
            busy, times = f"{1000 * r.busy_p99:.1f}", f"{ratio:.2f}{'' if ratio <= RATIO else ' ✗'}"
        rows.append(
            f"| {r.example} | {ok(r.first, FIRST)} | {ok(r.thousand, THOUSAND)} | "
            f"{busy} | {r.busy_count} | {times} |"
        )
    firsts = [r.first for r in results if r.first is not None]
    thousands = [r.thousand for r in results if r.thousand is not None]
    return "\n".join(
        [
            HEADING,
            "",
            'The GM\'s "Odds of this fight" through `fracas serve` (one process, the odds on one',
            "worker process at low priority): `benchmarks/fight_odds.py`. Targets (issue 23):",
            f"first figures within {FIRST:g} s, 1,000 runs within {THOUSAND:g} s, and the",
            f"table's action p99 at most {RATIO:g}× its idle figure while a job runs. ✗: missed.",
            "",
            f"- Run: {datetime.date.today().isoformat()}; {platform.platform()}, "
            f"{os.cpu_count()} logical cores; load average {load[0]:.2f} before, "
            f"{load[1]:.2f} after.",
            f"- Probe: {actions} requests (an action, then its undo) on a Heimr duel; idle "
            f"p99 {1000 * idle:.1f} ms.",
            f"- Median over the examples: first figures {statistics.median(firsts):.2f} s, "
            f"1,000 runs {statistics.median(thousands):.2f} s."
            if firsts and thousands
            else "- No example reached its figures.",
            "",
            *rows,
            "",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path, help="write the section into this Markdown file")
    parser.add_argument("--examples", help="folder/name,... (default: every example)")
    parser.add_argument("--actions", type=int, default=200, help="probe requests a phase")
    args = parser.parse_args(argv)
    if not 4 <= args.actions <= 1000:
        parser.error("--actions: 4 to 1,000")
    before = os.getloadavg()[0]
    examples = args.examples.split(",") if args.examples else None
    results, idle = run(examples, args.actions)
    text = section(results, idle, args.actions, (before, os.getloadavg()[0]))
    print(text)
    if args.write:
        write_section(args.write, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
