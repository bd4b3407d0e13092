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

4. **Every example through ``fracas sim``** (issue #23): each of the 18 example
   encounters (``examples/*/*.yaml`` but the campaigns) by ``fracas sim --runs 1000
   --workers 2`` in a new process, as people run it: the command's wall time (target at
   most 2.5 s each) and runs a CPU second of its workers, beside today's figures
   (:data:`TODAY`, measured on the code before the issue's speed-ups); where ``--engine
   auto`` chose the kernel, the engine's rate on the same runs beside it.
5. **The engine against the engine of 8c3d747**, in the same run: that commit's sources
   (``git archive`` into a temporary folder, removed after) play the duel in a process of
   their own with its attack-or-end policy as it was then, alternately with the duel by
   ``fracas sim --workers 1`` with the default policy, start-up excluded. Targets: at
   least 750 duels a CPU second, and 10x the engine of 8c3d747.

Each timing is repeated; the two clusters alternate, and the ratio is taken from the
best (minimum) times, with the median ratio shown too.

Run it with ``make bench`` or::

    .venv/bin/python benchmarks/lab.py [--write docs/benchmarks.md] [--runs 1600] [--repeat 4]
    .venv/bin/python benchmarks/lab.py --only examples --example-repeat 3   # print one part

``make bench`` adds ``--today-from 3c46f05``: today's figures are then measured in the
same run, alternately, from that commit's sources (``git archive``), so that a loaded
machine slows both columns alike; without it (or in a shallow clone) the recorded
figures (:data:`TODAY`) stand in.

``--write`` replaces the "Simulation" section of the file (or adds it at the end),
leaving the rest as it is.
"""

from __future__ import annotations

import argparse
import datetime
import json
import logging
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import yaml
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


# -- every example through `fracas sim`, and the engine of 8c3d747 --------------------

#: The example encounters: every ``examples/*/*.yaml`` but the campaign files (those
#: without combatants: ``campaign.yaml``, and ``heimr/troll.yaml`` laid over one).
EXAMPLES = sorted(
    p
    for p in ROOT.glob("examples/*/*.yaml")
    if "combatants" in (yaml.safe_load(p.read_text(encoding="utf-8")) or {})
)
#: Runs of each example, and the workers, as the issue's target states them.
EXAMPLE_RUNS, EXAMPLE_WORKERS = 1000, 2
#: The most seconds 1,000 runs of any example may take with ``--workers 2`` (wall).
EXAMPLE_TARGET_S = 2.5
#: How much faster than today every example must become (issue #23).
SPEED_UP_TARGET = 3.0
#: The engine of this commit is the yardstick of the engine's speed (issue #11: 75 duels
#: a second then); it is checked out and run in the same ``make bench``.
ANCESTOR = "8c3d747"
#: The engine now against the engine of :data:`ANCESTOR`, and duels a CPU second.
ANCESTOR_TARGET, ENGINE_DUELS_TARGET = 10.0, 750
#: Today's figures, the reference column: the same measurement on the code of 3c46f05
#: (main before the speed-ups of issue #23), best of 3 runs between 01:50 and 02:36 UTC
#: on 2026-11-27, on a machine loaded by other work (load average 2 to 12 on its 2 cores):
#: the wall times are longer than a quiet machine's; the CPU rates are the ones to compare.
#: Example -> (seconds of the whole command, wall; runs a CPU second of the workers).
TODAY: dict[str, tuple[float, float]] = {
    "classic/broken-oar": (22.08, 90),
    "classic/ford": (26.20, 104),
    "diestep/charge": (21.00, 99),
    "diestep/grapple": (10.03, 265),
    "heimr/ambush": (17.68, 120),
    "heimr/castle-wall": (45.00, 53),
    "heimr/doorway": (23.55, 97),
    "heimr/duel": (6.06, 536),
    "heimr/field": (22.17, 116),
    "heimr/grab": (6.54, 671),
    "heimr/night": (37.95, 69),
    "heimr/wearing-down": (10.87, 297),
    "sides/ambush": (10.53, 259),
    "sides/mace": (7.09, 644),
    "sides/metal": (6.89, 591),
    "tempo/binds": (17.47, 177),
    "tempo/feint": (13.42, 188),
}
#: Examples whose fights play differently from today's (a policy changed since), so that
#: their speed-up compares other fights: example -> why, as the table's note says it.
PLAY_CHANGED: dict[str, str] = {
    "heimr/ambush": (
        "since 07f4958 its bowmen reload under the default policy (H-ACT-8) rather than "
        "walk into the melee: 72 actions a fight, not 63, shots instead of punches"
    ),
}
#: The commit the recorded figures were measured on.
TODAY_COMMIT = "3c46f05"
TODAY_NOTE = (
    "3c46f05, 2026-11-27, best of 3 runs at load average 2 to 12 on the 2 cores: its wall "
    "times are longer than a quiet machine's; compare the CPU rates"
)

#: Runs ``fracas sim`` in this process (the command's own code, as ``fracas`` runs it) and
#: prints, on stderr's last line, the CPU seconds of its worker processes (reaped when the
#: pool shuts down, so they are this process's children) and of the process itself.
PROBE = """\
import json, resource, sys
import fracas
from fracas.cli import main
sys.argv = ["fracas", *sys.argv[1:]]
try:
    main()
except SystemExit as stop:
    if stop.code:
        raise
used = {
    "children": resource.getrusage(resource.RUSAGE_CHILDREN),
    "self": resource.getrusage(resource.RUSAGE_SELF),
}
times = {w: r.ru_utime + r.ru_stime for w, r in used.items()}
print(json.dumps({"source": fracas.__file__, **times}), file=sys.stderr)
"""

#: The duel on the engine of :data:`ANCESTOR`, by its own API (``legal_actions`` listing
#: every legal action, ``push``): the attack-or-end policy as it was then. Prints duels a
#: CPU second (best of the repetitions) from new encounters and from copies of one start.
ANCESTOR_DUELS = """\
import json, sys, time
import fracas
from fracas.encounterfile import load
from fracas.engine import Encounter, RandomDice
duel, count, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ruleset, setup, _ = load(duel)

def attack_or_end(enc):
    actor = enc.to_move
    if actor is None:
        return None
    legal = list(enc.legal_actions(actor))
    attacks = [a for a in legal if a.verb == "attack"]
    ends = [a for a in legal if a.verb in ("end", "begin")]
    return (attacks or ends or [None])[0]

def play(enc):
    for _ in range(1000):
        if enc.is_over():
            return
        action = attack_or_end(enc)
        if action is None:
            return
        enc.push(action)

start = Encounter(ruleset, setup, RandomDice(0))
best = {"new": float("inf"), "copies": float("inf")}
for i in range(repeat):
    t = time.process_time()
    for seed in range(count):
        play(Encounter(ruleset, setup, RandomDice(seed)))
    best["new"] = min(best["new"], time.process_time() - t)
    t = time.process_time()
    for seed in range(count):
        play(start.copy(stack=False, dice=RandomDice(seed)))
    best["copies"] = min(best["copies"], time.process_time() - t)
print(json.dumps({"source": fracas.__file__, **{k: count / v for k, v in best.items()}}))
"""


@dataclass
class SimRun:
    """One ``fracas sim`` command: its wall time, its workers' CPU, what it said."""

    wall: float
    workers_cpu: float
    self_cpu: float
    engine: str

    def rate(self, runs: int) -> float:
        """Runs a CPU second of the workers (of the process itself on one worker)."""
        return runs / (self.workers_cpu or self.self_cpu)


def fracas_sim(
    path: Path, runs: int, workers: int, *options: str, src: Path | None = None
) -> SimRun:
    """Run ``fracas sim PATH --runs RUNS --workers WORKERS`` in a new process (with the
    sources in ``src`` first on its path when given: another commit's fracas)."""
    command = [sys.executable, "-c", PROBE, "sim", str(path), "--runs", str(runs)]
    command += ["--workers", str(workers), *options]
    env = None if src is None else {**os.environ, "PYTHONPATH": str(src)}
    t = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT, env=env)
    wall = time.perf_counter() - t
    if done.returncode != 0:
        raise RuntimeError(f"fracas sim {path.name} failed: {done.stderr.strip()[-500:]}")
    used = json.loads(done.stderr.strip().splitlines()[-1])
    if src is not None and not str(used["source"]).startswith(str(src)):
        raise RuntimeError(f"fracas sim ran this fracas, not the one in {src}")
    if workers > 1 and used["children"] <= 0:
        raise RuntimeError(
            "the workers' CPU time could not be read: are they no longer this process's "
            "children (another start method)?"
        )
    first = done.stdout.splitlines()[0] if done.stdout else ""
    engine = "kernel" if ", kernel;" in first else "engine"
    return SimRun(wall, used["children"], used["self"], engine)


def example_name(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@dataclass
class ExampleRow:
    name: str
    wall: list[float]
    rate: list[float]
    engine: str
    engine_rate: float | None = None  # the engine's rate where the kernel was chosen
    #: Today's figures measured in this run (``--today-from``), else none.
    today_wall: list[float] = field(default_factory=list)
    today_rate: list[float] = field(default_factory=list)


def _today(path: Path, runs: int, row: ExampleRow) -> SimRun | None:
    """An example run by the fracas of the sources above ``path``'s ``examples`` folder;
    ``None`` (said) when it fails there, so that the recorded figure stands in."""
    src = path.parents[2] / "src"
    try:
        return fracas_sim(path, runs, EXAMPLE_WORKERS, src=src)
    except RuntimeError as err:
        print(f"{row.name}: today's fracas could not run it ({err}); recorded figures used")
        return None


def per_example(
    repeat: int, runs: int = EXAMPLE_RUNS, today: Path | None = None
) -> list[ExampleRow]:
    """Every example through ``fracas sim --runs 1000 --workers 2``, ``repeat`` times (the
    examples in turn each time); where ``--engine auto`` chose the kernel, the same runs on
    the engine too. With ``today`` (another commit's sources, as :func:`sources` gives),
    each example is also run by that fracas, on its own copy of the file, alternately."""
    rows = {example_name(p): ExampleRow(example_name(p), [], [], "") for p in EXAMPLES}
    for i in range(repeat):
        for path in EXAMPLES:
            row = rows[example_name(path)]
            old = None if today is None else today / path.relative_to(ROOT)
            if old is not None and not old.exists():
                old = None
            if old is not None and i % 2 == 0:
                before = _today(old, runs, row)
            got = fracas_sim(path, runs, EXAMPLE_WORKERS)
            if old is not None and i % 2 == 1:
                before = _today(old, runs, row)
            if old is not None and before is not None:
                row.today_wall.append(before.wall)
                row.today_rate.append(before.rate(runs))
            row.wall.append(got.wall)
            row.rate.append(got.rate(runs))
            row.engine = got.engine
            then = ""
            if old is not None and before is not None:
                then = f"; today {before.wall:.2f} s, {before.rate(runs):.0f}"
            print(
                f"{row.name}: {got.wall:.2f} s, {got.rate(runs):.0f} runs a CPU second "
                f"({got.engine}){then}",
                flush=True,
            )
    for path in EXAMPLES:
        row = rows[example_name(path)]
        if row.engine == "kernel":
            got = fracas_sim(path, runs, EXAMPLE_WORKERS, "--engine", "engine")
            row.engine_rate = got.rate(runs)
    return list(rows.values())


@contextmanager
def sources(commit: str) -> Iterator[Path]:
    """The sources of ``commit`` (``git archive`` into a temporary folder, removed after);
    :class:`RuntimeError` when this checkout does not have it (a shallow clone)."""
    with tempfile.TemporaryDirectory(prefix="fracas-" + commit) as folder:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", commit, "src", "examples"],
            capture_output=True,
            check=False,
        )
        if archive.returncode != 0:
            said = archive.stderr.decode(errors="replace").strip().splitlines()
            raise RuntimeError(f"no sources of {commit} here: {said[-1] if said else '?'}")
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        yield Path(folder)


def ancestor_rates(folder: Path, count: int, repeat: int) -> dict[str, float]:
    """Duels a CPU second of the engine in ``folder`` (new encounters; copies of a start)."""
    env = {**os.environ, "PYTHONPATH": str(folder / "src")}
    duel = folder / "examples" / "heimr" / "duel.yaml"
    command = [sys.executable, "-c", ANCESTOR_DUELS, str(duel), str(count), str(repeat)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the engine of {ANCESTOR} failed: {done.stderr.strip()[-500:]}")
    got = json.loads(done.stdout.strip().splitlines()[-1])
    if not str(got.pop("source")).startswith(str(folder)):
        raise RuntimeError(f"the duels of {ANCESTOR} ran on this fracas, not on its own")
    return {k: float(v) for k, v in got.items()}


def engine_duel_rate(runs: int) -> float:
    """Duels a CPU second with the default policy through ``fracas sim --workers 1``,
    start-up excluded: the CPU time of ``runs`` more duels (two commands, ``runs`` apart)."""
    few = fracas_sim(DUEL, 50, 1, "--engine", "engine")
    many = fracas_sim(DUEL, 50 + runs, 1, "--engine", "engine")
    return runs / max(many.self_cpu - few.self_cpu, 1e-9)


def against_ancestor(repeat: int, runs: int = 1000, old_count: int = 100) -> dict[str, float]:
    """The engine now (default policy, ``fracas sim --workers 1``) and the engine of
    :data:`ANCESTOR` (its attack-or-end policy), alternately, best of ``repeat`` each."""
    best = {"now": 0.0, "new": 0.0, "copies": 0.0}
    with sources(ANCESTOR) as folder:
        for _ in range(repeat):
            best["now"] = max(best["now"], engine_duel_rate(runs))
            for k, v in ancestor_rates(folder, old_count, 1).items():
                best[k] = max(best[k], v)
            print(
                f"duels a CPU second: now {best['now']:.0f}, {ANCESTOR} {best['new']:.0f} "
                f"(copies {best['copies']:.0f})",
                flush=True,
            )
    return best


def _met(ok: bool) -> str:
    return "**met**" if ok else "**missed**"


def when(started: float) -> str:
    """When a part was measured and the machine's load then (parts may be measured apart:
    ``--only``), for its subsection."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"- Measured: {now}, in {time.perf_counter() - started:.0f} s; load average "
        f"{os.getloadavg()[0]:.1f} at the end ({os.cpu_count()} cores)"
    )


def examples_lines(
    rows: Sequence[ExampleRow], repeat: int, measured: str, today_from: str | None = None
) -> list[str]:
    """The per-example subsection: each example's time and rate beside today's."""
    within = sum(1 for r in rows if min(r.wall) <= EXAMPLE_TARGET_S)
    reference = {name: rate for name, (_, rate) in TODAY.items()}
    reference.update({r.name: max(r.today_rate) for r in rows if r.today_rate})
    faster = sum(
        1
        for r in rows
        if r.name in reference and max(r.rate) >= SPEED_UP_TARGET * reference[r.name]
    )
    today_note = (
        f"measured in this run, alternately, from the sources of {today_from} (`git "
        "archive`, removed after) on their own copies of the examples"
        if today_from
        else TODAY_NOTE
    )
    lines = [
        "## Every example through `fracas sim`",
        "",
        f"`fracas sim EXAMPLE --runs {EXAMPLE_RUNS} --workers {EXAMPLE_WORKERS}` (default "
        "policies, `--engine auto`, seed 0) for each of the "
        f"{len(rows)} examples, each a new process as people run it: wall time of the whole "
        "command (start-up included), and runs a CPU second of its worker processes (their "
        "CPU time summed, read when the pool has shut down). Best of "
        f"{repeat} (median in brackets), the examples in turn. *Today* is the same "
        f"measurement on the code before the speed-ups of issue #23 ({today_note}).",
        "",
        measured,
        f"- Target: every example within {EXAMPLE_TARGET_S} s: {within} of {len(rows)}: "
        f"{_met(within == len(rows))}",
        f"- Target: every example at least {SPEED_UP_TARGET:.0f}x as fast as today (runs a "
        f"CPU second): {faster} of {len(rows)}: {_met(faster == len(rows))}",
        "",
        "| example | engine | wall s | today wall s | runs a CPU second | today | speed-up |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        wall, rate = min(r.wall), max(r.rate)
        before = (min(r.today_wall), max(r.today_rate)) if r.today_rate else TODAY.get(r.name)
        old_wall = f"{before[0]:.2f}" if before else "-"
        old_rate = f"{before[1]:.0f}" if before else "-"
        gain = f"{rate / before[1]:.1f}x" if before else "-"
        engine = r.engine
        if r.engine_rate is not None:
            engine += f" ({max(r.rate) / r.engine_rate:.0f}x the engine's {r.engine_rate:.0f})"
        if r.name in PLAY_CHANGED and before:
            gain += " *"
        lines.append(
            f"| {r.name} | {engine} | {wall:.2f} ({statistics.median(r.wall):.2f}) | "
            f"{old_wall} | {rate:.0f} ({statistics.median(r.rate):.0f}) | {old_rate} | {gain} |"
        )
    shown = {r.name for r in rows}
    lines += [f"\n\\* {name}: {why}." for name, why in PLAY_CHANGED.items() if name in shown]
    kernel = [r for r in rows if r.engine_rate is not None]
    lines += [
        "",
        "Where `--engine auto` chose the vectorised kernel, the same command with `--engine "
        "engine` gives the engine's rate beside it"
        + (
            "."
            if kernel
            else ": with the default policies it chose the engine for every example "
            "(the Kernel section compares the two with the kernel's policy)."
        ),
        "",
    ]
    return lines


def ancestor_lines(
    best: dict[str, float], repeat: int, runs: int, old_count: int, measured: str
) -> list[str]:
    """The subsection of the engine now against the engine of :data:`ANCESTOR`."""
    now, old, copies = best["now"], best["new"], best["copies"]
    return [
        f"## The engine against the engine of {ANCESTOR}",
        "",
        f"In the same run, alternately, {repeat} times (best kept): the Heimr duel with the "
        f"default policy through `fracas sim --workers 1 --engine engine`, start-up excluded "
        f"(the CPU time of {runs} more duels: two commands, 50 and {50 + runs} runs), and the "
        f"engine of {ANCESTOR} (`git archive` of its sources into a temporary folder, removed "
        "after, run in its own process with them first on `PYTHONPATH`) with its attack-or-end "
        "policy as it was then (every legal action listed, the first attack or else the end "
        f"of the turn, pushed with `push`), {old_count} duels a time, CPU seconds.",
        "",
        measured,
        f"- The engine now: {now:.0f} duels a CPU second with the default policy (target at "
        f"least {ENGINE_DUELS_TARGET}): {_met(now >= ENGINE_DUELS_TARGET)}",
        f"- The engine of {ANCESTOR}: {old:.0f} duels a CPU second from new encounters (75 "
        f"when first measured), {copies:.0f} from copies of one start",
        f"- Now against then: {now / old:.1f}x (target at least {ANCESTOR_TARGET:.0f}x): "
        f"{_met(now / old >= ANCESTOR_TARGET)}; {now / copies:.1f}x against its copies",
        "",
    ]


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


def fracas_build() -> str:
    """Which fracas this interpreter runs: compiled with mypyc (``make compiled``) or pure."""
    import fracas.engine.legal

    if fracas.engine.legal.__file__.endswith(".py"):
        return "pure (the sources: no compiled build, or not up to date with them)"
    return "compiled with mypyc (build/compiled, up to date with the sources)"


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
    extra: Sequence[str] = (),
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
        f"- Python: {platform.python_implementation()} {platform.python_version()}; "
        f"fracas {fracas_build()}",
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
        *extra,
    ]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", metavar="FILE", help="write the Simulation section to FILE")
    parser.add_argument("--runs", type=int, default=1600, help="duels in the batch")
    parser.add_argument("--repeat", type=int, default=4, help="repetitions of each timing")
    parser.add_argument(
        "--example-repeat", type=int, default=2, help="repetitions of each example's command"
    )
    parser.add_argument(
        "--today-from",
        metavar="COMMIT",
        help=f"measure today's figures in this run from COMMIT's sources ({TODAY_COMMIT}: "
        "main before the speed-ups), instead of the recorded ones",
    )
    parser.add_argument(
        "--only",
        choices=("examples", "ancestor"),
        help="measure only this part and print it (not with --write)",
    )
    args = parser.parse_args(argv)
    if args.only and args.write:
        parser.error("--write needs every part: leave out --only")
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    start = time.perf_counter()
    load_before = os.getloadavg()[0]
    extra: list[str] = []
    if args.only in (None, "examples"):
        part = time.perf_counter()
        with ExitStack() as stack:
            today = None
            if args.today_from:
                try:
                    today = stack.enter_context(sources(args.today_from))
                except RuntimeError as err:
                    print(f"{err}: today's recorded figures are used", flush=True)
            measured = per_example(args.example_repeat, today=today)
        from_ = args.today_from if today is not None else None
        lines = examples_lines(measured, args.example_repeat, when(part), from_)
        extra += lines
        print("TODAY = {")  # the reference column's form, for measuring it again
        for r in measured:
            print(f'    "{r.name}": ({min(r.wall):.2f}, {max(r.rate):.0f}),')
        print("}", flush=True)
    if args.only in (None, "ancestor"):
        part = time.perf_counter()
        try:
            best = against_ancestor(args.repeat)
            extra += ancestor_lines(best, args.repeat, 1000, 100, when(part))
        except RuntimeError as err:
            print(err, flush=True)
            extra += [
                f"## The engine against the engine of {ANCESTOR}",
                "",
                f"- Not measured: {err}",
                "",
            ]
    if args.only:
        print("\n".join(extra))
        return 0
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
            extra,
        )
        write_section(Path(args.write), text)
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
