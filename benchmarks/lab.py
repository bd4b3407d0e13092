"""Benchmark the simulation runner: Dask with two workers against one, and duels a second.

1. **Dask scaling.** The same batch of engine duels (``examples/heimr/duel.yaml``, both
   sides on the best policy there is) on a Dask LocalCluster of 2 worker processes and
   on one of 1, each started and warmed up (fracas imported in every worker) before the
   clock starts. Reported as the ratio of the two times; target: the 2-worker cluster
   at least 1.6x as fast. The two runs must give identical outcomes. The batch (1,600
   duels) is long enough that handing batches to the workers is a small part of it.
2. **Duels a second.** Issue #11's target: at least 750 engine duels a second with the
   default policy on this 2-core machine (ten times the 75 first measured). Read as the
   machine's rate: the duels as ``fracas sim --workers N`` plays them, a process per
   core, wall clock, the pool warmed up first. Beside it, the engine's speed on one
   core: the same duels in this process (``run_batch``), in CPU time, alternately with
   the engine benchmark's attack-or-end policy on the same duels (its rate on the
   unloaded machine is the Engine section's), so that a loaded machine's result can be
   read against it; and the 1-worker Dask cluster's rate (the cost of shipping batches).
3. **The machine's own scaling**, as the reference: a plain Python loop in two processes
   at once against one, measured in the same run. On a machine whose second core is busy
   with other work, no runner can scale beyond it; Dask's efficiency is its speed-up
   over this one.

Each timing is repeated; the two clusters alternate, and the ratio is taken from the
best (minimum) times, with the median ratio shown too.

Run it with ``make bench`` or::

    .venv/bin/python benchmarks/lab.py [--write docs/benchmarks.md] [--runs 1600] [--repeat 4]

``--write`` replaces the "Simulation" section of the file (or adds it at the end),
leaving the rest as it is.
"""

from __future__ import annotations

import argparse
import datetime
import logging
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from distributed import Client, LocalCluster

from engine import attack_or_end, play
from fracas.engine import Encounter, RandomDice
from fracas.lab import backends, runner
from fracas.lab.dask import run_on
from fracas.lab.runner import SimSpec
from fracas.rules import find

from report import write_section

ROOT = Path(__file__).resolve().parent.parent
DUEL = ROOT / "examples" / "heimr" / "duel.yaml"
TARGET = 1.6
MAX_ACTIONS = 400
#: Duels a second the default policy must reach on this machine (issue #11).
DUELS_TARGET = 750
#: The default policy's duels a second when the issue was written (one core).
FIRST_MEASURED = 75


def spin(n: int) -> int:
    """Plain CPU work: the reference for what two processes can do at once."""
    total = 0
    for i in range(n):
        total += i
    return total


def machine_scaling(loops: int = 5_000_000, repeat: int = 3) -> float:
    """How much faster two processes do two loops' work than one does: 2.0 on two free
    cores, 1.0 when only one core is really free."""
    best_one, best_two = float("inf"), float("inf")
    with ProcessPoolExecutor(max_workers=2) as pool:
        list(pool.map(spin, [1000, 1000]))  # start both processes
        for _ in range(repeat):
            t = time.perf_counter()
            pool.submit(spin, loops).result()
            best_one = min(best_one, time.perf_counter() - t)
            t = time.perf_counter()
            list(pool.map(spin, [loops, loops]))
            best_two = min(best_two, time.perf_counter() - t)
    return 2 * best_one / best_two


def duel_spec() -> tuple[SimSpec, str]:
    """The duel with the ruleset's default policy, or attack-nearest where there is none."""
    name = runner.default_policy("heimr")
    spec = runner.spec_from_file(DUEL, {}, fallback=name, max_actions=MAX_ACTIONS)
    return spec, name


def duel_rates(spec: SimSpec, runs: int, repeat: int) -> tuple[list[float], list[float]]:
    """CPU seconds of ``runs`` duels with ``spec``'s policies (``run_batch``: playouts of
    one start) and of as many duels by attack-or-end, alternately, ``repeat`` times each."""
    start = Encounter(find(spec.ruleset), spec.setup, RandomDice(0))
    default: list[float] = []
    simple: list[float] = []
    for i in range(repeat):
        t = time.process_time()
        runner.run_batch(spec, runner.seeds(i, runs))
        default.append(time.process_time() - t)
        t = time.process_time()
        for seed in range(runs):
            play(start.copy(dice=RandomDice(seed), playout=True), attack_or_end)
        simple.append(time.process_time() - t)
    return default, simple


def machine_rate(spec: SimSpec, runs: int, repeat: int) -> list[float]:
    """Wall-clock seconds of ``runs`` duels as ``fracas sim --workers N`` plays them, a
    process per core, ``repeat`` times; the pool is started and warmed up first."""
    workers = os.cpu_count() or 1
    took: list[float] = []
    with backends.backend(workers) as run:
        run(spec, runner.seeds(98, workers * 32), None)  # every worker imports fracas
        for i in range(repeat):
            t = time.perf_counter()
            run(spec, runner.seeds(i, runs), None)
            took.append(time.perf_counter() - t)
    return took


def cluster(workers: int) -> tuple[LocalCluster, Client]:
    made = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    )
    return made, Client(made)


def timed(client: Client, spec: SimSpec, seed: int, runs: int) -> tuple[float, list[object]]:
    start = time.perf_counter()
    outcomes = run_on(client, spec, runner.seeds(seed, runs))
    return time.perf_counter() - start, list(outcomes)


def section(
    rows: list[tuple[str, str]],
    policy: str,
    runs: int,
    repeat: int,
    ratio: float,
    median_ratio: float,
    elapsed: float,
    load: tuple[float, float],
    scaling: tuple[float, float],
    duels: tuple[float, float],
    machine: float,
) -> str:
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    best_met, median_met = ratio >= TARGET, median_ratio >= TARGET
    if best_met == median_met:
        met = "**met**" if best_met else "**missed**"
    else:
        met = f"**{'met' if best_met else 'missed'}** on the best times, " + (
            "missed on the medians: a noisy machine" if best_met else "met on the medians"
        )
    note = (
        ""
        if policy == "default"
        else " (the rulesets' own default policies were not in this fracas yet)"
    )
    rate, simple = duels
    machine_met = "**met**" if machine >= DUELS_TARGET else "**missed**"
    lines = [
        "# Simulation benchmarks",
        "",
        "Generated by `make bench` (`benchmarks/lab.py --write docs/benchmarks.md`). "
        "The Dask clusters are started and warmed up before timing; the two clusters "
        "alternate, and ratios are best over best (medians in brackets).",
        "",
        f"- Date: {now}",
        f"- Machine: {platform.platform()}, {os.cpu_count()} logical cores; load average "
        f"{load[0]:.1f} at the start, {load[1]:.1f} at the end (other work running: "
        "two workers cannot double their speed on two busy cores)",
        f"- Python: {platform.python_implementation()} {platform.python_version()}",
        f"- Batch: {runs} duels of `examples/heimr/duel.yaml`, policy `{policy}` on both "
        f"sides{note}, action cap {MAX_ACTIONS}, {repeat} repetitions",
        f"- Whole run: {elapsed:.0f} s",
        "",
        f"- Engine duels a second with the default policy on this {os.cpu_count()}-core "
        f"machine, as `fracas sim --workers {os.cpu_count()}` plays them (a process per "
        f"core, wall clock, the pool warmed up first): {machine:.0f} a second (target at "
        f"least {DUELS_TARGET}): {machine_met}",
        f"- The engine on one core, in this process: {rate:.0f} duels a CPU second with the "
        f"default policy ({rate / FIRST_MEASURED:.1f}x the {FIRST_MEASURED} a second first "
        f"measured); attack-or-end, alternately on the same duels: {simple:.0f}, so the "
        f"default policy plays at {rate / simple:.2f} of its rate (the Engine section "
        "gives attack-or-end's rate on this machine in the same `make bench`)",
        f"- Dask LocalCluster, 2 workers against 1: {ratio:.2f}x as fast "
        f"({median_ratio:.2f}x) (target at least {TARGET}x): {met}",
        f"- Reference, this machine before and after the Dask timings: two processes at "
        f"once do {scaling[0]:.2f}x and {scaling[1]:.2f}x the work of one (2.00x on two "
        "free cores): what any runner could reach while the measurement ran",
        "",
        "| measurement | best | median |",
        "|---|---|---|",
        *[f"| {name} | {value} |" for name, value in rows],
        "",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", metavar="FILE", help="write the Simulation section to FILE")
    parser.add_argument("--runs", type=int, default=1600, help="duels in the batch")
    parser.add_argument("--repeat", type=int, default=4, help="repetitions of each timing")
    args = parser.parse_args(argv)
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    start = time.perf_counter()
    load_before = os.getloadavg()[0]
    spec, policy = duel_spec()
    print(f"{args.runs} duels, policy {policy}", flush=True)

    cpu_default, cpu_simple = duel_rates(spec, args.runs // 2, args.repeat)
    duels = (args.runs // 2 / min(cpu_default), args.runs // 2 / min(cpu_simple))
    print(
        f"default policy: {duels[0]:.1f} duels a CPU second, attack-or-end {duels[1]:.1f}",
        flush=True,
    )

    local: list[float] = []
    for i in range(args.repeat):
        t = time.perf_counter()
        reference = runner.run_batch(spec, runner.seeds(i, args.runs))
        local.append(time.perf_counter() - t)
    print(f"in this process: {args.runs / min(local):.1f} duels/s", flush=True)

    machine = machine_rate(spec, args.runs, args.repeat)
    print(f"fracas sim, a process per core: {args.runs / min(machine):.1f} duels/s", flush=True)

    scaling_before = machine_scaling()
    print(f"the machine: two processes do {scaling_before:.2f}x the work of one", flush=True)
    one, one_client = cluster(1)
    two, two_client = cluster(2)
    times: dict[int, list[float]] = {1: [], 2: []}
    try:
        for client in (one_client, two_client):
            timed(client, spec, 99, 8)  # warm up: every worker imports fracas
        for i in range(args.repeat):
            order = [(1, one_client), (2, two_client)]
            for workers, client in order if i % 2 == 0 else order[::-1]:
                took, outcomes = timed(client, spec, i, args.runs)
                times[workers].append(took)
                if i == args.repeat - 1:
                    assert outcomes == reference, "the backends disagree"
                print(f"dask {workers} worker(s): {took:.2f} s", flush=True)
    finally:
        for client, made in ((one_client, one), (two_client, two)):
            client.close()
            made.close()

    scaling = (scaling_before, machine_scaling())
    print(f"the machine, after: two processes do {scaling[1]:.2f}x the work of one")
    ratio = min(times[1]) / min(times[2])
    median_ratio = statistics.median(times[1]) / statistics.median(times[2])
    rows = [
        (
            "duels a second, in this process",
            f"{args.runs / min(local):.1f} | {args.runs / statistics.median(local):.1f}",
        ),
        (
            "duels a second, Dask 1 worker",
            f"{args.runs / min(times[1]):.1f} | {args.runs / statistics.median(times[1]):.1f}",
        ),
        (
            "duels a second, Dask 2 workers",
            f"{args.runs / min(times[2]):.1f} | {args.runs / statistics.median(times[2]):.1f}",
        ),
        (
            f"duels a second, `fracas sim --workers {os.cpu_count()}` (a process per core)",
            f"{args.runs / min(machine):.1f} | {args.runs / statistics.median(machine):.1f}",
        ),
        ("Dask 2 workers against 1 (speed-up)", f"{ratio:.2f}x | {median_ratio:.2f}x"),
        (
            f"duels a CPU second, policy {policy}, in this process",
            f"{duels[0]:.1f} | {args.runs // 2 / statistics.median(cpu_default):.1f}",
        ),
        (
            "duels a CPU second, attack-or-end (Engine section's policy), alternately",
            f"{duels[1]:.1f} | {args.runs // 2 / statistics.median(cpu_simple):.1f}",
        ),
    ]
    elapsed = time.perf_counter() - start
    for name, value in rows:
        print(f"{name}: {value}")
    print(f"target 2 workers >= {TARGET}x 1 worker: {'met' if ratio >= TARGET else 'MISSED'}")
    if args.write:
        load = (load_before, os.getloadavg()[0])
        text = section(
            rows,
            policy,
            args.runs,
            args.repeat,
            ratio,
            median_ratio,
            elapsed,
            load,
            scaling,
            duels,
            args.runs / min(machine),
        )
        write_section(Path(args.write), text)
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
