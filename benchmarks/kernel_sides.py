"""Benchmark the NumPy sides kernel against the engine on every sides example it covers.

Both play each of ``examples/sides/*.yaml`` that ``--engine auto`` gives the kernel, with
the default policies, through the lab's own :func:`fracas.lab.runner.run_batch` (one
fight a ``numpy.random.SeedSequence`` spawned from one seed):

- **engine**: the run's encounter copied, its own dice, the default policy on each side's
  view and the game master's policy, until the fight is over (``--engine engine``);
- **kernel**: :func:`fracas.rules.sides.kernel.simulate` on the whole batch (``--engine kernel``).

Runs a CPU second are the best of the repetitions (this process's CPU time, so other load
on the machine does not count); the win rates and mean rounds of both are printed too,
with 99% Wilson intervals.

Run it with ``make bench`` or::

    .venv/bin/python benchmarks/kernel_sides.py [--write docs/benchmarks.md] [--engine-runs 200]

``--write`` puts the results under a ``# Kernel benchmarks: sides`` heading of the file,
replacing an earlier one and leaving the rest of the file as it is.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from math import sqrt
from pathlib import Path
from typing import Any

import numpy

from fracas.lab import runner
from fracas.lab.playout import Outcome

from report import write_section

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "sides").glob("*.yaml"))
HEADING = "# Kernel benchmarks: sides"


def wilson(wins: int, n: int, z: float = 2.5758) -> tuple[float, float]:
    """The 99% Wilson score interval of a win rate."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def cpu_timed(run: Callable[[], list[Outcome]]) -> tuple[float, list[Outcome]]:
    """(CPU seconds of this process, result) of ``run()``."""
    gc.collect()
    cpu = time.process_time()
    result = run()
    return time.process_time() - cpu, result


def measure(path: Path, engine_runs: int, kernel_runs: int, repeat: int) -> dict[str, Any] | None:
    """Both engines on one example, or ``None`` when the kernel does not cover it."""
    try:
        spec = runner.spec_from_file(path, {}, engine="auto")
    except ValueError:
        return None  # not an encounter (the campaign file)
    if spec.engine != "kernel":
        return None
    engine_spec = replace(spec, engine="engine")
    runner.run_batch(engine_spec, runner.seeds(0, 2))  # start-up (the first copy) not timed
    runner.run_batch(spec, runner.seeds(0, 2))
    times: dict[str, list[float]] = {"engine": [], "kernel": []}
    outs: dict[str, list[Outcome]] = {"engine": [], "kernel": []}
    for i in range(repeat):
        for who, made, n in (("engine", engine_spec, engine_runs), ("kernel", spec, kernel_runs)):
            seeds = runner.seeds(1000 * (who == "kernel") + i, n)
            t, out = cpu_timed(lambda s=seeds, m=made: runner.run_batch(m, s))  # type: ignore[misc]
            times[who].append(t)
            outs[who] += out
    side = spec.sides[0]
    result: dict[str, Any] = {"name": path.stem, "side": side}
    # as `fracas sim --runs 1000 --workers 1` plays: 16 batches of a worker
    parts = runner.batches(runner.seeds(7, 1000), 1)
    t, _ = cpu_timed(lambda: [o for part in parts for o in runner.run_batch(spec, part)])
    result["sim_rate"] = 1000 / t
    for who, n in (("engine", engine_runs), ("kernel", kernel_runs)):
        out = outs[who]
        result[f"{who}_rate"] = n / min(times[who])
        result[f"{who}_wins"] = sum(o.winner == side for o in out)
        result[f"{who}_n"] = len(out)
        result[f"{who}_rounds"] = float(numpy.mean([o.rounds for o in out]))
    return result


def report(rows: list[dict[str, Any]], args: argparse.Namespace, elapsed: float) -> str:
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    machine = f"{platform.platform()}, {os.cpu_count()} logical cores"
    versions = f"CPython {platform.python_version()}, NumPy {numpy.__version__}"
    speed, agree = [], []
    for r in rows:
        ratio = r["kernel_rate"] / r["engine_rate"]
        speed.append(
            f"| {r['name']} | {r['engine_rate']:,.0f} | {r['kernel_rate']:,.0f} | "
            f"{ratio:,.0f}x | {r['sim_rate']:,.0f} |"
        )
        for who in ("engine", "kernel"):
            wins, n = r[f"{who}_wins"], r[f"{who}_n"]
            lo, hi = wilson(wins, n)
            agree.append(
                f"| {r['name']} | {who} | {n:,} | {r['side']} {wins / n:.3f} | "
                f"{lo:.3f} to {hi:.3f} | {r[f'{who}_rounds']:.2f} |"
            )
    speed_table, agree_table = "\n".join(speed), "\n".join(agree)
    return f"""{HEADING}

Generated by `make bench` (`benchmarks/kernel_sides.py --write docs/benchmarks.md`): the
NumPy sides kernel (`fracas.rules.sides.kernel.simulate`) against the engine, both with the
default policies, on every sides example `--engine auto` gives the kernel, in one process.

- Date: {when}; whole run {elapsed:.0f} s; load average at the end {load_avg:.1f}
- Machine: {machine}; {versions}

### Runs a CPU second

| example | engine | kernel | kernel / engine | kernel, 1,000 runs in sim's 16 batches |
|---|---|---|---|---|
{speed_table}

### Method

- Both through `fracas.lab.runner.run_batch`, as `fracas sim --engine engine` and
  `--engine kernel` play a batch on one worker: the engine {args.engine_runs} runs a
  repetition, the kernel {args.kernel_runs:,}; each run from its own SeedSequence; start-up
  (the first copy of the encounter, the kernel's imports) before timing. The last column
  plays 1,000 runs as `fracas sim --workers 1` splits them (`runner.batches`: 16 batches),
  where the kernel's cost a call (a few milliseconds a batch) counts.
- `time.process_time` (this process's CPU time) around each batch after `gc.collect()`;
  {args.repeat} repetitions, engine and kernel alternating; rates from the best times.

### Agreement

| example | engine | runs | win rate | 99% Wilson interval | mean rounds |
|---|---|---|---|---|---|
{agree_table}
"""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", metavar="FILE", help="write the results into FILE")
    parser.add_argument("--engine-runs", type=int, default=200)
    parser.add_argument("--kernel-runs", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    rows = [
        r
        for path in EXAMPLES
        if (r := measure(path, args.engine_runs, args.kernel_runs, args.repeat)) is not None
    ]
    text = report(rows, args, time.perf_counter() - began)
    print(text)
    if args.write:
        write_section(Path(args.write), text)
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
