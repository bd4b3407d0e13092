"""Benchmark the NumPy Heimr melee kernel against the engine, side by side in one process.

Both play the duel of ``examples/heimr/duel.yaml`` (Ylva's sword and shield against
Astrid's great weapon) with the ``heimr-melee`` policy, one fight per
``numpy.random.SeedSequence`` spawned from one seed:

- **engine**: an :class:`~fracas.engine.Encounter` copied from the file's for each run,
  its own seeded :class:`~fracas.engine.RandomDice`, and ``MeleePolicy.choose`` given the
  side's view and every legal action, until the fight is over (a private play-out loop
  with the lab's ``play_out`` signature);
- **kernel**: :func:`fracas.rules.heimr.kernel.simulate` on the whole batch, its outcomes built.

Duels a second are the best of the repetitions; the ratio kernel / engine is the result
(targets: at least 40,000 kernel duels a second and at least 100 times the engine's).
The win rates of both are printed too, with their 99% Wilson intervals.

Then every example of ``examples/heimr`` the kernel covers under ``heimr-melee`` (its
``why_not`` says None) is played the same two ways, and its runs a CPU second and the
ratio are tabled beside the win rates; the examples it does not cover are listed with
the kernel's reason. Last, the same with the default policies (what ``fracas sim`` plays
when no policy is named): the engine through the lab's own batches
(:func:`fracas.lab.runner.run_batch`, ``--engine engine``), the kernel through
``kernel.simulate`` with the default policies, where it covers the example.

Run it with ``make bench`` or::

    .venv/bin/python benchmarks/kernel.py [--write docs/benchmarks.md] [--engine-runs 100]

``--write`` puts the results under a ``## Kernel`` heading of the file, replacing an
earlier one and leaving the rest of the file as it is.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy

from fracas.engine import Encounter, RandomDice, view
from fracas.lab import runner
from fracas.rules.heimr import kernel
from fracas.rules.heimr.kernel import Outcome
from fracas.rules.heimr.melee_policy import MeleePolicy
from fracas.rules.heimr.setup import build
from fracas.table.encounterfile import load

from report import timed, wilson99, write_section

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "heimr"
DUEL = EXAMPLES / "duel.yaml"
RATE_TARGET = 40_000
RATIO_TARGET = 100
HEADING = "# Kernel benchmarks"


def play_out(
    start: Encounter[Any], seed: numpy.random.SeedSequence, max_actions: int = 2000
) -> Outcome:
    """One fight through the engine with MeleePolicy on every side."""
    enc = start.copy(stack=False, dice=RandomDice(int(seed.generate_state(1, numpy.uint64)[0])))
    policy, rng = MeleePolicy(), numpy.random.default_rng(seed)
    actions = 0
    while not enc.is_over() and actions < max_actions:
        actor = enc.to_move
        side = None if actor == "gm" else enc.state.combatants[actor].side
        enc.push(policy.choose(view(enc, side), list(enc.legal_actions(actor)), rng))
        actions += 1
    people = enc.state.combatants
    standing = {c.side for c in people.values() if not c.out}
    over = enc.is_over()
    return Outcome(
        winner=next(iter(standing)) if over and len(standing) == 1 else None,
        rounds=enc.state.round,
        hp_left={cid: c.hp for cid, c in people.items()},
        injuries={cid: len(c.injuries) for cid, c in people.items()},
        actions=actions,
        capped=not over,
    )


def measure(engine_runs: int, kernel_runs: int, repeat: int) -> dict[str, Any]:
    ruleset, setup, _ = load(DUEL)
    start: Encounter[Any] = Encounter(ruleset, setup)
    table_time, _, _ = timed(kernel.challenge_table)
    engine_times, kernel_times, engine_cpu, kernel_cpu = [], [], [], []
    engine_out: list[Outcome] = []
    kernel_out: list[Outcome] = []
    for i in range(repeat):
        e_seeds = numpy.random.SeedSequence(1000 + i).spawn(engine_runs)
        k_seeds = numpy.random.SeedSequence(2000 + i).spawn(kernel_runs)
        t, c, out = timed(lambda s=e_seeds, e=start: [play_out(e, x) for x in s])
        engine_times.append(t)
        engine_cpu.append(c)
        engine_out += out
        t, c, out = timed(lambda s=k_seeds, u=setup: kernel.simulate("heimr", u, s))
        kernel_times.append(t)
        kernel_cpu.append(c)
        kernel_out += out
    side = next(iter(start.state.combatants.values())).side
    return {
        "engine_rate": engine_runs / min(engine_times),
        "kernel_rate": kernel_runs / min(kernel_times),
        "engine_cpu_rate": engine_runs / min(engine_cpu),
        "kernel_cpu_rate": kernel_runs / min(kernel_cpu),
        "table_time": table_time,
        "side": side,
        "engine_wins": sum(o.winner == side for o in engine_out),
        "engine_n": len(engine_out),
        "kernel_wins": sum(o.winner == side for o in kernel_out),
        "kernel_n": len(kernel_out),
        "engine_rounds": float(numpy.mean([o.rounds for o in engine_out])),
        "kernel_rounds": float(numpy.mean([o.rounds for o in kernel_out])),
        "engine_runs": engine_runs,
        "kernel_runs": kernel_runs,
        "repeat": repeat,
    }


def measure_examples(engine_runs: int, kernel_runs: int) -> list[dict[str, Any]]:
    """Kernel against engine on each example (one timing each): covered or not, and why."""
    rows: list[dict[str, Any]] = []
    for path in sorted(EXAMPLES.glob("*.yaml")):
        if path.stem in ("campaign", "troll"):
            continue
        ruleset, setup, _ = load(path)
        start: Encounter[Any] = Encounter(ruleset, setup)
        people = start.state.combatants.values()
        why = kernel.why_not("heimr", setup, {c.side: kernel.POLICY for c in people})
        row: dict[str, Any] = {"name": path.stem, "why": why}
        rows.append(row)
        if why is not None:
            continue
        e_seeds = numpy.random.SeedSequence(3000).spawn(engine_runs)
        k_seeds = numpy.random.SeedSequence(4000).spawn(kernel_runs)
        _, e_cpu, e_out = timed(lambda s=e_seeds, e=start: [play_out(e, x) for x in s])
        _, k_cpu, k_out = timed(lambda s=k_seeds, u=setup: kernel.simulate("heimr", u, s))
        row.update(compared(next(iter(people)).side, e_cpu, e_out, k_cpu, k_out))
    return rows


def compared(
    side: str, e_cpu: float, e_out: list[Outcome], k_cpu: float, k_out: list[Outcome]
) -> dict[str, Any]:
    """An example's row: engine and kernel runs a CPU second, and ``side``'s win rate
    (99% intervals)."""
    return {
        "side": side,
        "engine_rate": len(e_out) / e_cpu,
        "kernel_rate": len(k_out) / k_cpu,
        "engine_wins": wilson99(sum(o.winner == side for o in e_out), len(e_out)),
        "kernel_wins": wilson99(sum(o.winner == side for o in k_out), len(k_out)),
    }


def measure_default_examples(engine_runs: int, kernel_runs: int) -> list[dict[str, Any]]:
    """As :func:`measure_examples`, every side playing the default policy: the engine
    through the lab's batches, the kernel where it covers the example."""
    rows: list[dict[str, Any]] = []
    for path in sorted(EXAMPLES.glob("*.yaml")):
        if path.stem in ("campaign", "troll"):
            continue
        spec = runner.spec_from_file(path, {}, engine="engine")
        why = kernel.why_not("heimr", spec.setup, spec.policy_names())
        row: dict[str, Any] = {"name": path.stem, "why": why}
        rows.append(row)
        if why is not None:
            continue
        e_seeds = runner.seeds(5000, engine_runs)
        k_seeds = runner.seeds(6000, kernel_runs)
        policies = spec.policy_names()
        runner.run_batch(spec, e_seeds[:1])  # the encounter's start, made once a process
        _, e_cpu, e_out = timed(lambda s=e_seeds, u=spec: runner.run_batch(u, s))
        _, k_cpu, k_out = timed(
            lambda s=k_seeds, u=spec.setup, p=policies: kernel.simulate("heimr", u, s, 2000, p)
        )
        side = next(iter(build(spec.setup).combatants.values())).side
        row.update(compared(side, e_cpu, e_out, k_cpu, k_out))
        row.update(
            engine_rounds=float(numpy.mean([o.rounds for o in e_out])),
            kernel_rounds=float(numpy.mean([o.rounds for o in k_out])),
        )
    return rows


def example_table(rows: list[dict[str, Any]]) -> str:
    rounds = any("engine_rounds" in r for r in rows)
    covered = [
        f"| {r['name']} | {r['engine_rate']:,.0f} | {r['kernel_rate']:,.0f} | "
        f"{r['kernel_rate'] / r['engine_rate']:,.0f}x | {r['side']}: "
        f"{r['engine_wins'][0]:.3f} to {r['engine_wins'][1]:.3f} | "
        f"{r['kernel_wins'][0]:.3f} to {r['kernel_wins'][1]:.3f} |"
        + (f" {r['engine_rounds']:.2f} / {r['kernel_rounds']:.2f} |" if rounds else "")
        for r in rows
        if r["why"] is None
    ]
    others = [f"- {r['name']}: {r['why']}" for r in rows if r["why"] is not None]
    return "\n".join(
        [
            "| example | engine runs a CPU second | kernel runs a CPU second | ratio "
            "| engine 99% interval | kernel 99% interval |"
            + (" mean rounds, engine / kernel |" if rounds else ""),
            "|---|---|---|---|---|---|" + ("---|" if rounds else ""),
            *covered,
            "",
            "Not covered (the kernel's reason):",
            "",
            *others,
        ]
    )


def report(r: dict[str, Any], elapsed: float, examples: list[dict[str, Any]]) -> str:
    ratio = r["kernel_rate"] / r["engine_rate"]
    cpu_ratio = r["kernel_cpu_rate"] / r["engine_cpu_rate"]
    met = {True: "**met**", False: "**missed**"}
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    machine = f"{platform.platform()}, {os.cpu_count()} logical cores"
    versions = f"CPython {platform.python_version()}, NumPy {numpy.__version__}"
    rate = (
        f"{r['kernel_cpu_rate']:,.0f} a CPU second, {r['kernel_rate']:,.0f} a wall-clock "
        f"second (target at least {RATE_TARGET:,}): "
        f"{met[r['kernel_cpu_rate'] >= RATE_TARGET]} by CPU time, "
        f"{met[r['kernel_rate'] >= RATE_TARGET]} by the clock"
    )
    against = (
        f"{cpu_ratio:,.0f}x by CPU time, {ratio:,.0f}x by the clock (engine "
        f"{r['engine_cpu_rate']:,.1f} duels a CPU second, {r['engine_rate']:,.1f} by the "
        f"clock; target at least {RATIO_TARGET}x): {met[min(ratio, cpu_ratio) >= RATIO_TARGET]}"
    )
    rows = []
    for who in ("engine", "kernel"):
        wins, n = r[f"{who}_wins"], r[f"{who}_n"]
        lo, hi = wilson99(wins, n)
        rows.append(
            f"| {who} | {n:,} | {wins / n:.3f} | {lo:.3f} to {hi:.3f} | {r[f'{who}_rounds']:.2f} |"
        )
    table = "\n".join(rows)
    return f"""{HEADING}

Generated by `make bench` (`benchmarks/kernel.py --write docs/benchmarks.md`): the NumPy
Heimr melee kernel (`fracas.rules.heimr.kernel.simulate`) against the engine playing the same
policy (`heimr-melee`) on `examples/heimr/duel.yaml`, in one process.

- Date: {when}; whole run {elapsed:.0f} s; load average at the end {load_avg:.1f}
- Machine: {machine}; {versions}

### Targets

- kernel duels a second: {rate}
- kernel against the engine: {against}

### Method

- **Engine.** For each run the file's encounter is copied with its own `RandomDice`, and
  `MeleePolicy.choose` is given the side's `fracas.engine.view` and every legal action
  (`encounter.legal_actions`), until the fight is over: {r["engine_runs"]} duels a repetition.
- **Kernel.** `kernel.simulate("heimr", setup, seeds)` on {r["kernel_runs"]:,} runs a
  repetition, each run with its own numpy Generator from its own SeedSequence, outcomes
  built; the dice tables (built once a process, {r["table_time"]:.2f} s) are built before timing.
- **Timing.** `time.perf_counter` (wall clock) and `time.process_time` (this process's
  CPU time) around each repetition after `gc.collect()`; engine and kernel alternate;
  {r["repeat"]} repetitions; rates from the best times. The machine is shared: when other
  work loads it, the wall clock counts time the process waited for a core, so the CPU
  rate is the kernel's own speed and the ratio is the fair comparison.

### Agreement

| | duels | {r["side"]} wins | 99% Wilson interval | mean rounds |
|---|---|---|---|---|
{table}

### Each example the kernel covers

Every side plays `heimr-melee`; the engine as above ({r["example_engine_runs"]} runs an
example), the kernel on {r["example_kernel_runs"]:,} runs; one timing each, by CPU time;
the intervals are of the first combatant's side's win rate.

{example_table(examples)}

### Each example under the default policies

Every side plays `default` (what `fracas sim` plays when no policy is named, and where
`--engine auto` now takes the kernel): the engine through the lab's own batches
(`runner.run_batch`, the lab's play-out loop, {r["default_engine_runs"]} runs an example),
the kernel through `kernel.simulate` with the default policies on
{r["example_kernel_runs"]:,} runs where it covers the example (everyone in one square);
one timing each, by CPU time.

{example_table(r["default_examples"])}
"""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", metavar="FILE", help="write the results into FILE")
    parser.add_argument("--engine-runs", type=int, default=100)
    parser.add_argument("--kernel-runs", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--default-engine-runs", type=int, default=300)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    results = measure(args.engine_runs, args.kernel_runs, args.repeat)
    examples = measure_examples(args.engine_runs, args.kernel_runs)
    results.update(example_engine_runs=args.engine_runs, example_kernel_runs=args.kernel_runs)
    results.update(
        default_engine_runs=args.default_engine_runs,
        default_examples=measure_default_examples(args.default_engine_runs, args.kernel_runs),
    )
    text = report(results, time.perf_counter() - began, examples)
    print(text)
    if args.write:
        write_section(Path(args.write), text)
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
