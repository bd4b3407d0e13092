"""Benchmark the engine: simulated duels, random play under every ruleset, long encounters.

Absolute speeds depend on the machine and its load, so each speed is also given as a
ratio against a reference measured in the same run: deep-copying (``copy.deepcopy``)
the game master's view of the duel, a plain-Python job of the same size as the state,
which no change to fracas makes faster or slower.

1. **Duels.** ``examples/heimr/duel.yaml`` played to its end by a policy that attacks
   when it can and otherwise ends its turn (:func:`attack_or_end`), from playout copies
   of one start, each with its own seeded dice: the engine's own speed, with the
   cheapest policy there is. (The issue's target, 750 duels a second with the default
   policy on this machine, is measured by ``benchmarks/lab.py``.)
   The same duels are also timed as recorded encounters (log and undo kept), from a new
   encounter each, and with a policy listing every legal action first.
2. **Every ruleset.** The first example encounter of each ruleset played by random
   legal choices (every legal action listed at each step), actions a second.
3. **Long encounters.** 20,000 actions of one duel (defences chosen and turns ended,
   so nobody falls): the memory held (``tracemalloc`` peak while playing), push time at
   the start and at the end, the save's size and the time to load it. Targets: under
   100 MB, and a load in under a second.

Times are CPU time of this process (``time.process_time``), which other programs on a
shared machine disturb less than the wall clock; each measurement is repeated and the
best kept. Run it with ``make bench`` or::

    .venv/bin/python benchmarks/engine.py [--write docs/benchmarks.md] [--quick]
"""

from __future__ import annotations

import argparse
import copy
import datetime
import functools
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fracas.engine import Action, Encounter, RandomDice, view
from fracas.table import encounterfile

from report import write_section

ROOT = Path(__file__).resolve().parent.parent
DUEL = ROOT / "examples" / "heimr" / "duel.yaml"
HEADING = "# Engine benchmarks"
LONG = 20_000
MEMORY_TARGET_MB = 100
LOAD_TARGET_S = 1.0
#: The verbs the duel policy asks for: the game master begins, then attack or end.
POLICY_VERBS = frozenset({"begin", "attack", "end"})


def attack_or_end(enc: Encounter[Any]) -> Action | None:
    """Attack when you can, otherwise end the turn (the game master begins)."""
    actor = enc.to_move
    if actor is None:
        return None
    chosen = None
    for action in enc.legal_actions(actor, POLICY_VERBS):
        if action.verb == "attack":
            return action
        chosen = chosen or action
    return chosen


def attack_or_end_listing_all(enc: Encounter[Any]) -> Action | None:
    """The same policy, choosing from the list of every legal action."""
    actor = enc.to_move
    if actor is None:
        return None
    legal = list(enc.legal_actions(actor))
    attacks = [a for a in legal if a.verb == "attack"]
    ends = [a for a in legal if a.verb in ("end", "begin")]
    return (attacks or ends or [None])[0]


def play(enc: Encounter[Any], policy: Callable[[Encounter[Any]], Action | None]) -> int:
    """Play ``enc`` to its end (at most 1,000 actions); the number of actions."""
    for n in range(1000):
        if enc.is_over():
            return n
        action = policy(enc)
        if action is None:
            return n
        enc.push_legal(action)
    return 1000


def best_of(repeat: int, job: Callable[[], float]) -> tuple[float, float]:
    """The best and the median of ``repeat`` runs of ``job`` (which returns seconds)."""
    times = []
    for _ in range(repeat):
        gc.collect()
        times.append(job())
    times.sort()
    return times[0], times[len(times) // 2]


def cpu(job: Callable[[], object]) -> float:
    start = time.process_time()
    job()
    return time.process_time() - start


@dataclass
class Row:
    measurement: str
    value: str
    ratio: str
    target: str = ""


def reference(repeat: int) -> float:
    """Seconds for one deep copy of the duel's game-master view (the yardstick)."""
    ruleset, setup, _ = encounterfile.load(DUEL)
    enc = Encounter(ruleset, setup, RandomDice(0))
    enc.push("gm begin")
    data = view(enc, None)
    copies = 2000
    best, _ = best_of(repeat, lambda: cpu(lambda: [copy.deepcopy(data) for _ in range(copies)]))
    return best / copies


def duels(repeat: int, count: int, ref: float) -> list[Row]:
    ruleset, setup, _ = encounterfile.load(DUEL)
    start = Encounter(ruleset, setup, RandomDice(0))

    def playouts() -> None:
        for seed in range(count):
            play(start.copy(dice=RandomDice(seed), playout=True), attack_or_end)

    def recorded() -> None:
        for seed in range(count):
            play(start.copy(stack=False, dice=RandomDice(seed)), attack_or_end)

    def fresh() -> None:
        for seed in range(count):
            play(Encounter(ruleset, setup, RandomDice(seed)), attack_or_end)

    def listing() -> None:
        for seed in range(count):
            play(start.copy(dice=RandomDice(seed), playout=True), attack_or_end_listing_all)

    actions = sum(
        play(start.copy(dice=RandomDice(s), playout=True), attack_or_end) for s in range(count)
    )
    rows = []
    for name, job, n in (
        ("duels, playout copies, attack-or-end by verb", playouts, count),
        ("duels, recorded encounters (log and undo)", recorded, count),
        ("duels, a new encounter each (setup read every time)", fresh, count),
        ("duels, playout copies, every legal action listed", listing, count),
    ):
        best, median = best_of(repeat, functools.partial(cpu, job))
        per_duel = best / n
        rows.append(
            Row(
                name,
                f"{1 / per_duel:,.0f} duels/s ({n / median:,.0f} median)",
                f"{per_duel / ref:.1f}x",
            )
        )
    rows.append(
        Row(
            "actions per duel (playouts)",
            f"{actions / count:.1f} ({actions / count / (per_duel_of(rows[0])):,.0f} actions/s)",
            "",
        )
    )
    return rows


def per_duel_of(row: Row) -> float:
    return 1 / float(row.value.split(" ")[0].replace(",", ""))


def first_examples() -> list[Path]:
    """One example encounter (with a script) per ruleset, in folder order."""
    seen: set[str] = set()
    found = []
    for script in sorted((ROOT / "examples").glob("*/*.script")):
        if script.parent.name not in seen:
            seen.add(script.parent.name)
            found.append(script.with_suffix(".yaml"))
    return found


def random_play(start: Encounter[Any], games: int) -> int:
    """``games`` playouts from ``start`` by random legal choices; the actions played."""
    played = 0
    for seed in range(games):
        enc = start.copy(dice=RandomDice(seed), playout=True)
        pick = random.Random(seed)
        for _ in range(200):
            legal = list(enc.legal_actions())
            if enc.is_over() or not legal:
                break
            enc.push_legal(pick.choice(legal))
            played += 1
    return played


def rulesets(repeat: int, games: int, ref: float) -> list[Row]:
    rows = []
    for path in first_examples():
        ruleset, setup, _ = encounterfile.load(path)
        start = Encounter(ruleset, setup, RandomDice(0))
        played = random_play(start, games)
        job = functools.partial(random_play, start, games)
        best, _ = best_of(repeat, functools.partial(cpu, job))
        per_action = best / played
        rows.append(
            Row(
                f"{ruleset.id}: random legal play ({path.parent.name}/{path.name})",
                f"{1 / per_action:,.0f} actions/s ({played // games} per game)",
                f"{per_action / ref:.2f}x",
            )
        )
    return rows


def long_encounter(count: int) -> tuple[Encounter[Any], list[float]]:
    """A duel of ``count`` actions in which nobody falls; push times by thousand."""
    ruleset, setup, _ = encounterfile.load(DUEL)
    enc = Encounter(ruleset, setup, RandomDice(1))
    enc.push("gm begin")
    stances = ["parry", "block", "dodge", "none"]
    times = []
    mark = time.process_time()
    while len(enc.log) < count:
        actor = enc.to_move
        assert actor is not None
        if len(enc.log) % 2:
            wanted = stances[len(enc.log) // 2 % 4]
            choice = [a for a in enc.legal_actions(actor, {"defend"}) if a.target == wanted]
            enc.push(choice[0] if choice else Action(actor, "end"))
        else:
            enc.push(Action(actor, "end"))
        if len(enc.log) % 1000 == 0:
            now = time.process_time()
            times.append((now - mark) / 1000)
            mark = now
    return enc, times


def long_rows(repeat: int, count: int) -> list[Row]:
    gc.collect()
    tracemalloc.start()
    enc, _ = long_encounter(count)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del enc
    gc.collect()
    enc, times = long_encounter(count)
    text = enc.dumps()
    data = json.loads(text)
    ruleset = enc.ruleset
    best, median = best_of(repeat, lambda: cpu(lambda: Encounter.load(data, ruleset)))
    loaded = Encounter.load(data, ruleset)
    assert loaded.state == enc.state
    undo = cpu(lambda: [loaded.pop() for _ in range(100)])
    mb = peak / 1e6
    pushes = (times[0], statistics.median(times), times[-1], max(times))
    return [
        Row(
            f"{count:,}-action encounter: memory (tracemalloc peak while played)",
            f"{mb:.1f} MB ({peak / count / 1e3:.2f} KB an action)",
            "",
            f"< {MEMORY_TARGET_MB} MB: {'met' if mb < MEMORY_TARGET_MB else '**missed**'}",
        ),
        Row(
            f"{count:,}-action encounter: push (first / median / last / slowest thousand)",
            " / ".join(f"{t * 1e6:.0f}" for t in pushes) + " us an action",
            "",
        ),
        Row(f"{count:,}-action encounter: save", f"{len(text) / 1e6:.1f} MB of JSON", ""),
        Row(
            f"{count:,}-action encounter: load (replayed, events compared)",
            f"{best:.2f} s ({median:.2f} median)",
            "",
            f"< {LOAD_TARGET_S:.0f} s: {'met' if best < LOAD_TARGET_S else '**missed**'}",
        ),
        Row("then 100 undos, from keyframes", f"{undo / 100 * 1e3:.2f} ms an undo", ""),
    ]


def report(rows: list[Row], ref: float, seconds: float, args: argparse.Namespace) -> str:
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        HEADING,
        "",
        "Generated by `make bench` (`benchmarks/engine.py --write docs/benchmarks.md`). "
        "Times are CPU time of the benchmark's process, the best of "
        f"{args.repeat} repetitions; each speed is also given as a ratio against the "
        "reference measured in the same run: one `copy.deepcopy` of the game master's view "
        f"of the duel (a plain-Python job of the state's size), here {ref * 1e6:.1f} us. "
        "A ratio is the measured thing's time in reference copies.",
        "",
        f"- Date: {now}",
        f"- Machine: {platform.platform()}, {os.cpu_count()} logical cores",
        f"- Python: {platform.python_implementation()} {platform.python_version()}",
        f"- Whole run: {seconds:.0f} s",
        "",
        "| measurement | result | time in reference copies | target |",
        "|---|---|---|---|",
    ]
    lines += [f"| {r.measurement} | {r.value} | {r.ratio} | {r.target} |" for r in rows]
    lines += [
        "",
        "## Method",
        "",
        "- **Duels.** `examples/heimr/duel.yaml` played to its end: the policy asks "
        '`legal_actions(actor, {"begin", "attack", "end"})`, attacks when it can and '
        "otherwise ends the turn, and pushes with `push_legal` (no second check). Each duel "
        "is a playout (`copy(dice=RandomDice(seed), playout=True)`: no log, no undo) of one "
        "start; the recorded row plays `copy(stack=False)` encounters instead, the new-"
        "encounter row builds `Encounter(...)` from the setup each time (most of its cost "
        "is reading the setup), and the listing row lists every legal action first, as a "
        "policy without verbs would. Before this engine work the same policy (listing "
        "every legal action, the only way then, and pushing with `push`) played 75 duels "
        "a second as first measured; measured again on this machine in CPU time, with "
        "the engine as it was then: 139 duels a second from `copy(stack=False)` copies of "
        "one start, 119 from new encounters (2026-11-24, best of 3 times 100 duels).",
        "- **Every ruleset.** The first example with a script of each ruleset's folder; at "
        "each step every legal action is listed and one is chosen at random (seeded), at "
        "most 200 actions a game, in playouts.",
        f"- **Long encounter.** {LONG:,} actions of the duel in a recorded encounter: "
        "each turn a defence is chosen (`defend`) and the turn ended, so the fight never "
        "ends. Memory is the `tracemalloc` peak while it is played (tracing slows it; "
        "timings come from a second, untraced run). Push times are by thousand actions; "
        "a thousand in which Python's garbage collector makes a full pass is slower. "
        "The save is `Encounter.dumps()`; "
        "loading replays every action, checks it, and compares the saved events with the "
        "replayed ones, with the garbage collector paused (`fracas.engine.collector`: "
        "all the replay builds is kept, and the collector's passes over it were nearly "
        "half of the time). Undo keeps a whole state every 64 actions and for the last 16, "
        "and replays between.",
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", metavar="FILE", help="put the Engine section in FILE")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="fewer duels and actions")
    args = parser.parse_args()
    began = time.perf_counter()
    ref = reference(args.repeat)
    count = 100 if args.quick else 500
    rows = duels(args.repeat, count, ref)
    rows += rulesets(args.repeat, 5 if args.quick else 20, ref)
    rows += long_rows(args.repeat, 2000 if args.quick else LONG)
    section = report(rows, ref, time.perf_counter() - began, args)
    print(section)
    if args.write:
        write_section(Path(args.write), section)
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
