"""Benchmark fracas's dice layer against icepool and d20, side by side in one process.

Two comparisons, each reported as a ratio of times measured in the same process
(never as an absolute time to meet):

1. **Exact odds.** The 21 Heimr challenge distributions C = -10..10 (P = 0), computed
   by fracas (``HeimrChallenge(c, 0).pmf()``) and by icepool (a multiset evaluator over
   a pool of ``d6`` and ``|C|`` ``d10``). Before anything is timed, icepool's
   distribution is checked to equal fracas's exactly, as :class:`~fractions.Fraction`
   probabilities, for every C. Both libraries start cold in every repetition: fracas's
   ``pmf`` keeps no cache and icepool's caches are cleared first (see
   :func:`clear_icepool_caches`). Target: fracas in at most 0.05x icepool's time.
2. **Rolling.** ``1d20+5`` rolled 100,000 times by d20 (``d20.roll(text).total``) and by
   fracas (``parse("standard", text).roll(rng).result``), in three fair pairs: the
   string each roll as people write it, both truly parsing each roll, and both with a
   pre-parsed expression. Target: fracas in at most 0.1x d20's time per roll.

Each measurement is repeated; fracas and its rival alternate within a repetition, and
the ratio is taken from the best (minimum) times, with the median ratio shown too. When
a target is missed, a cProfile summary of fracas's hot path is printed and written.

Run it with ``make bench`` or::

    .venv/bin/python benchmarks/dice.py [--write docs/benchmarks.md] [--repeat 5]
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import gc
import os
import platform
import pstats
import random
import re
import statistics
import sys
import sysconfig
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import metadata
from pathlib import Path
from typing import Any

try:
    import d20
    import icepool
    import icepool.math as icepool_math
except ImportError as exc:  # pragma: no cover - depends on the environment
    sys.exit(
        f"benchmarks/dice.py needs the 'bench' extra ({exc}): run `make bench`, or\n"
        "  .venv/bin/python -m pip install 'icepool>=2.0,<2.2' 'd20>=1.1,<2'"
    )

from fracas.dice import HeimrChallenge, Mechanic, parse
from fracas.dice.heimr import _raw_weights

from report import write_section

CONSISTENCIES: tuple[int, ...] = tuple(range(-10, 11))
ROLL_TEXT = "1d20+5"
HEIMR_TARGET = 0.05
ROLL_TARGET = 0.1
#: Repetitions of the (cheap) Heimr measurement.
HEIMR_REPEAT = 20
#: Rolls per repetition when d20 really parses every roll (about 0.1 ms a roll).
PARSE_ROLLS = 10_000
SEED = 20240601


# --- icepool: the Heimr challenge as a multiset evaluator ---------------------------


class HeimrHighest(icepool.MultisetEvaluator):  # type: ignore[misc]
    """C > 0: the highest die; with k >= 2 tens the result is 10 + (k - 1).

    The state is the result so far. A 10 is the largest face, so once tens are seen
    the result is ``9 + count`` whatever the order icepool feeds outcomes in.
    """

    def next_state(self, state: int | None, order: Any, outcome: int, count: int) -> int | None:
        if count == 0:
            return state
        if outcome == 10:
            return 9 + count
        return outcome if state is None or outcome > state else state

    @property
    def next_state_key(self) -> Hashable:
        # next_state is a pure function: icepool may reuse its tables between
        # evaluate() calls on the same evaluator.
        return "heimr-highest"


class HeimrLowest(icepool.MultisetEvaluator):  # type: ignore[misc]
    """C < 0: the lowest die; with k >= 2 ones (the d6 included) the result is 1 - (k - 1)."""

    def next_state(self, state: int | None, order: Any, outcome: int, count: int) -> int | None:
        if count == 0:
            return state
        if outcome == 1:
            return 2 - count
        return outcome if state is None or outcome < state else state

    @property
    def next_state_key(self) -> Hashable:
        return "heimr-lowest"


class HeimrHighestNoCache(HeimrHighest):
    """The same evaluator with icepool's between-calls cache switched off."""

    @property
    def next_state_key(self) -> Hashable:
        no_cache: Hashable = icepool.NoCache
        return no_cache


class HeimrLowestNoCache(HeimrLowest):
    """The same evaluator with icepool's between-calls cache switched off."""

    @property
    def next_state_key(self) -> Hashable:
        no_cache: Hashable = icepool.NoCache
        return no_cache


def icepool_heimr(
    highest: icepool.MultisetEvaluator, lowest: icepool.MultisetEvaluator
) -> list[icepool.Die]:
    """The 21 challenge distributions, one icepool ``Die`` each."""
    d6, d10 = icepool.d(6), icepool.d(10)
    dice: list[icepool.Die] = []
    for c in CONSISTENCIES:
        if c == 0:
            dice.append(d6)
        else:
            evaluator = highest if c > 0 else lowest
            dice.append(evaluator.evaluate(icepool.Pool({d6: 1, d10: abs(c)})))
    return dice


def icepool_cold() -> list[icepool.Die]:
    """Fresh evaluators, shared by the 21 challenges (icepool's fastest idiomatic use)."""
    return icepool_heimr(HeimrHighest(), HeimrLowest())


def icepool_nocache() -> list[icepool.Die]:
    """Evaluators with ``next_state_key = icepool.NoCache``: no reuse between calls."""
    return icepool_heimr(HeimrHighestNoCache(), HeimrLowestNoCache())


ICEPOOL_CACHE_METHOD = (
    "before each repetition, `icepool.d.cache_clear()` (the `functools.cache` "
    "on `d()`, so `d6` and `d10` are new `Die` objects whose cached properties, such as "
    "`_popped_max`, start empty), `icepool.Pool.clear_cache()` (the `functools.cache` on "
    "`PoolSource._new_raw`, which would hand back old pool sources with their cached "
    "properties), `icepool.math.comb_row_cache.clear()`, and new evaluator objects, "
    "whose `_cache` attribute holds the dynamic-programming tables between `evaluate()` "
    "calls. Within one repetition the two evaluators (highest, lowest) are shared by "
    "the 21 challenges, so icepool may reuse tables from smaller pools, as a program "
    "computing all 21 would; the `NoCache` row also forbids that (`next_state_key` "
    "returns `icepool.NoCache`)."
)


def clear_icepool_caches() -> None:
    """Empty every cache icepool keeps between calls (evaluators are made anew)."""
    icepool.d.cache_clear()
    icepool.Pool.clear_cache()
    icepool_math.comb_row_cache.clear()


def fracas_heimr() -> list[dict[int, Fraction]]:
    return [HeimrChallenge(c, 0).pmf() for c in CONSISTENCIES]


def check_heimr_agreement() -> None:
    """Fail loudly unless icepool and fracas give exactly the same 21 distributions."""
    clear_icepool_caches()
    _raw_weights.cache_clear()
    for label, dice in (("cold", icepool_cold()), ("NoCache", icepool_nocache())):
        for c, die, pmf in zip(CONSISTENCIES, dice, fracas_heimr(), strict=True):
            denominator = die.denominator()
            theirs = {outcome: Fraction(q, denominator) for outcome, q in die.items()}
            if theirs != pmf:
                raise AssertionError(
                    f"icepool ({label}) and fracas disagree for C={c}:\n"
                    f"  icepool {theirs}\n  fracas  {pmf}"
                )


# --- measurement ----------------------------------------------------------------------


@dataclass
class Pair:
    """fracas against a rival on the same task: seconds per repetition for each."""

    name: str
    rival: str
    unit: str  # "ms" for a whole run, "us/roll" for one roll
    scale: float  # seconds -> unit
    target: float | None
    fracas: list[float] = field(default_factory=list)
    other: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return min(self.fracas) / min(self.other)

    @property
    def median_ratio(self) -> float:
        return statistics.median(self.fracas) / statistics.median(self.other)

    @property
    def met(self) -> bool | None:
        return None if self.target is None else self.ratio <= self.target


def timed(setup: Callable[[], None], run: Callable[[], object], divide: int = 1) -> float:
    """Seconds for ``run()`` (divided by ``divide``), after ``setup()`` and a collection."""
    setup()
    gc.collect()
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) / divide


def nothing() -> None:
    pass


def measure(
    pair: Pair,
    fracas: tuple[Callable[[], None], Callable[[], object]],
    other: tuple[Callable[[], None], Callable[[], object]],
    repeat: int,
    divide: int = 1,
) -> Pair:
    """Alternate fracas and the rival ``repeat`` times, swapping who goes first."""
    for i in range(repeat):
        order = [(pair.fracas, fracas), (pair.other, other)]
        for times, (setup, run) in order if i % 2 == 0 else reversed(order):
            times.append(timed(setup, run, divide))
    return pair


def roll_loop(roll: Callable[[], int], n: int) -> Callable[[], object]:
    def run() -> None:
        for _ in range(n):
            roll()

    return run


def heimr_pairs(repeat: int) -> tuple[list[Pair], float]:
    """The Heimr comparisons, and icepool's warm time (caches kept) for reference."""
    check_heimr_agreement()
    fracas_side = (_raw_weights.cache_clear, fracas_heimr)
    cold = measure(
        Pair("21 Heimr pmfs, icepool caches cleared", "icepool", "ms", 1e3, HEIMR_TARGET),
        fracas_side,
        (clear_icepool_caches, icepool_cold),
        repeat,
    )
    nocache = measure(
        Pair("21 Heimr pmfs, icepool NoCache", "icepool", "ms", 1e3, None),
        fracas_side,
        (clear_icepool_caches, icepool_nocache),
        repeat,
    )
    highest, lowest = HeimrHighest(), HeimrLowest()
    icepool_heimr(highest, lowest)
    warm = min(timed(nothing, lambda: icepool_heimr(highest, lowest)) for _ in range(repeat))
    return [cold, nocache], warm


def roll_pairs(rolls: int, repeat: int) -> tuple[list[Pair], float]:
    """The d20 comparisons, and the floor: ``rng.randint(1, 20) + 5`` alone, per roll."""
    rng = random.Random(SEED)
    random.seed(SEED)  # d20 rolls with the module-level generator
    tree = d20.parse(ROLL_TEXT)
    expression: Mechanic = parse("standard", ROLL_TEXT)
    roller_cache = d20._roller._parse_cache  # the Roller behind d20.roll

    def d20_string() -> int:
        return int(d20.roll(ROLL_TEXT).total)

    def d20_parse() -> int:
        roller_cache.clear()  # d20 keeps parses in an LFU cache; empty it: a real parse
        return int(d20.roll(ROLL_TEXT).total)

    def d20_tree() -> int:
        return int(d20.roll(tree).total)

    def fracas_string() -> int:
        return parse("standard", ROLL_TEXT).roll(rng).result

    def fracas_parsed() -> int:
        return expression.roll(rng).result

    def fracas_parse() -> int:
        parse.cache_clear()  # fracas caches parses too; empty it: a real parse
        return parse("standard", ROLL_TEXT).roll(rng).result

    # Same mechanic: both give 6..25, every value reachable.
    for f in (d20_string, d20_parse, d20_tree, fracas_string, fracas_parsed, fracas_parse):
        seen = {f() for _ in range(2_000)}
        assert seen == set(range(6, 26)), (f.__name__, sorted(seen))

    def pair(name: str, target: float | None = ROLL_TARGET) -> Pair:
        return Pair(name, "d20", "us/roll", 1e6, target)

    pairs = [
        measure(
            pair(f"string each roll, as people write it ({rolls:,} rolls)"),
            (nothing, roll_loop(fracas_string, rolls)),
            (nothing, roll_loop(d20_string, rolls)),
            repeat,
            rolls,
        ),
        measure(
            pair(f"both parse every roll, caches emptied ({PARSE_ROLLS:,} rolls)", None),
            (nothing, roll_loop(fracas_parse, PARSE_ROLLS)),
            (nothing, roll_loop(d20_parse, PARSE_ROLLS)),
            repeat,
            PARSE_ROLLS,
        ),
        measure(
            pair(f"both pre-parsed ({rolls:,} rolls)"),
            (nothing, roll_loop(fracas_parsed, rolls)),
            (nothing, roll_loop(d20_tree, rolls)),
            repeat,
            rolls,
        ),
    ]
    floor = min(
        timed(nothing, roll_loop(lambda: rng.randint(1, 20) + 5, rolls), rolls)
        for _ in range(repeat)
    )
    return pairs, floor


# --- profiling ------------------------------------------------------------------------


@dataclass
class Profile:
    title: str
    per: str
    count: int
    rows: list[tuple[str, float, float, float]]  # function, calls per unit, tottime %, cum %


def profile(title: str, per: str, count: int, run: Callable[[], object]) -> Profile:
    """The top functions by own time while ``run()`` does ``count`` units of work."""
    profiler = cProfile.Profile()
    profiler.runcall(run)
    stats: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(tt for _cc, _nc, tt, _ct, _callers in stats.values()) or 1.0
    root = str(Path(__file__).resolve().parents[1]) + os.sep
    stdlib = sysconfig.get_paths()["stdlib"] + os.sep
    rows: list[tuple[str, float, float, float]] = []
    for (filename, line, func), (_cc, nc, tt, ct, _callers) in stats.items():
        if func == "<lambda>" or filename == __file__ or "_lsprof" in func:
            continue
        where = filename.replace(root, "").replace(stdlib, "stdlib:")
        where = where.rsplit("site-packages" + os.sep, 1)[-1]
        func = re.sub(r" at 0x[0-9a-f]+", "", func)
        name = f"{func} ({where}:{line})" if line else func
        rows.append((name, nc / count, 100 * tt / total, 100 * ct / total))
    rows.sort(key=lambda row: -row[2])
    return Profile(title, per, count, rows[:12])


def profiles(heimr: list[Pair], rolls: list[Pair]) -> list[Profile]:
    """cProfile summaries of fracas's hot path for every missed target."""
    found: list[Profile] = []
    if any(p.met is False for p in heimr):

        def heimr_runs() -> None:
            for _ in range(100):
                _raw_weights.cache_clear()
                fracas_heimr()

        found.append(profile("fracas: the 21 Heimr pmfs", "run of 21", 100, heimr_runs))
    if any(p.met is False for p in rolls):
        rng = random.Random(SEED)
        expression = parse("standard", ROLL_TEXT)
        n = 20_000
        found.append(
            profile(
                "fracas: `parse(...).roll(rng)`, string each roll",
                "roll",
                n,
                roll_loop(lambda: parse("standard", ROLL_TEXT).roll(rng).result, n),
            )
        )
        found.append(
            profile(
                "fracas: `expression.roll(rng)`, pre-parsed",
                "roll",
                n,
                roll_loop(lambda: expression.roll(rng).result, n),
            )
        )
    return found


# --- report ---------------------------------------------------------------------------


def verdict(pair: Pair) -> str:
    if pair.target is None:
        return "(reference)"
    return f"<= {pair.target:g}x: {'met' if pair.met else 'MISSED'}"


def table(pairs: Sequence[Pair]) -> list[list[str]]:
    rows = [
        [
            "measurement",
            "rival",
            "fracas best (median)",
            "rival best (median)",
            "ratio best (median)",
            "target",
        ]
    ]
    for p in pairs:
        rows.append(
            [
                p.name,
                p.rival,
                f"{min(p.fracas) * p.scale:.3f} ({statistics.median(p.fracas) * p.scale:.3f})"
                f" {p.unit}",
                f"{min(p.other) * p.scale:.3f} ({statistics.median(p.other) * p.scale:.3f})"
                f" {p.unit}",
                f"{p.ratio:.4f}x ({p.median_ratio:.4f}x)",
                verdict(p),
            ]
        )
    return rows


def plain(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


def markdown(rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    lines.insert(1, "|" + "|".join("---" for _ in rows[0]) + "|")
    return "\n".join(lines)


def profile_text(p: Profile, md: bool) -> str:
    head = f"{p.title} ({p.count:,} x {p.per}; share of profiled own time)"
    rows = [["function", f"calls per {p.per}", "own %", "cumulative %"]]
    rows += [[name, f"{calls:.1f}", f"{tt:.1f}", f"{ct:.1f}"] for name, calls, tt, ct in p.rows]
    if md:
        rows = [[f"`{r[0]}`" if i else r[0], *r[1:]] for i, r in enumerate(rows)]
        return f"**{head}**\n\n{markdown(rows)}"
    return f"{head}\n{plain(rows)}"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "unknown"


def report(
    heimr: list[Pair],
    warm: float,
    rolls: list[Pair],
    floor: float,
    found: list[Profile],
    repeat: int,
    n_rolls: int,
    elapsed: float,
) -> str:
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Dice benchmarks",
        "",
        "Generated by `make bench` (`benchmarks/dice.py --write docs/benchmarks.md`). "
        "Times are measured side by side in one process and compared as ratios "
        "(fracas time / rival time; below 1 means fracas is faster). Absolute times "
        "depend on the machine and its load; the ratios are the result.",
        "",
        f"- Date: {now}",
        f"- Machine: {platform.platform()}, {cpu_model()}, {os.cpu_count()} logical cores",
        f"- Python: {platform.python_implementation()} {platform.python_version()}",
        f"- Libraries: fracas {version('fracas')}, icepool {version('icepool')}, "
        f"d20 {version('d20')}",
        f"- Whole run: {elapsed:.0f} s",
        "",
        "## Targets",
        "",
    ]
    for p in (*heimr, *rolls):
        goal = "no target" if p.target is None else f"target at most {p.target:g}x"
        state = "" if p.met is None else f": **{'met' if p.met else 'missed'}**"
        lines.append(f"- {p.name}, against {p.rival}: {p.ratio:.4f}x ({goal}){state}")
    lines += [
        "",
        "## Method",
        "",
        f"- **Heimr distributions.** The 21 challenges C = -10..10, P = 0. fracas: "
        "`HeimrChallenge(c, 0).pmf()` (exact `Fraction`s). icepool: a `MultisetEvaluator` "
        "(highest die with the bonus of extra 10s for C > 0; lowest die with the penalty "
        "of extra 1s, the d6 among them, for C < 0) evaluated on "
        "`icepool.Pool({d6: 1, d10: abs(c)})`, and `d6` itself for C = 0. Before timing, "
        "every icepool distribution was checked to equal fracas's exactly (probabilities "
        "compared as `Fraction`s, all 21 C). One repetition computes all 21; "
        f"{HEIMR_REPEAT} repetitions each.",
        "- **Caches.** fracas: `pmf()` keeps no cache (the `_raw_weights` cache behind "
        "`joint()` is cleared before each repetition anyway). "
        f"icepool: {ICEPOOL_CACHE_METHOD} With its caches kept (warm), icepool "
        f"takes {warm * 1e3:.3f} ms for the 21: that is what the clearing removes.",
        f"- **Rolling `{ROLL_TEXT}`.** d20: `d20.roll(text).total`, which rolls with the "
        "module-level `random`; fracas: `parse('standard', text).roll(rng).result` with a "
        "`random.Random`. d20 keeps parsed expressions in an LFU cache "
        "(`Roller._parse_cache`, 256 entries), so its string path parses once. Three "
        "pairs: *string each roll* (each library as people write it: d20 hits its parse "
        "cache, fracas hits its own, `parse` being cached); *both parse every roll* "
        "(both caches are emptied before each roll); *both pre-parsed* (`d20.roll(d20."
        "parse(text))` against `parse(...)` once, then `.roll(rng)`). Before timing, each "
        "variant was checked to produce every value 6..25 and nothing else. "
        f"{repeat} repetitions each, {n_rolls:,} rolls per repetition ({PARSE_ROLLS:,} "
        "when d20 really parses, about 0.1 ms a roll).",
        "- **Timing.** `time.perf_counter` around each repetition, after `gc.collect()` "
        "(the collector stays on). fracas and the rival alternate, swapping who goes "
        "first. Ratios are best (minimum) over best; medians are given in brackets.",
        f"- **Floor.** `rng.randint(1, 20) + 5` alone takes {floor * 1e6:.3f} us a roll "
        "here: no pure-Python roller using `random` gets below it. 0.1x of d20's best "
        f"(pre-parsed) roll is {ROLL_TARGET * min(rolls[-1].other) * 1e6:.3f} us.",
        "",
        "## Results",
        "",
        markdown(table([*heimr, *rolls])),
        "",
    ]
    if found:
        lines += [
            "## Where fracas's time goes",
            "",
            "cProfile of fracas alone, for the missed targets (profiling inflates "
            "call-heavy code; read the shares, not the times).",
            "",
        ]
        for prof in found:
            lines += [profile_text(prof, md=True), ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", metavar="FILE", help="write a Markdown report to FILE")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions of each roll timing")
    parser.add_argument("--rolls", type=int, default=100_000, help="rolls per repetition")
    args = parser.parse_args(argv)
    start = time.perf_counter()

    print("checking icepool against fracas for C = -10..10 ...", flush=True)
    heimr, warm = heimr_pairs(HEIMR_REPEAT)
    print("icepool and fracas agree exactly on all 21 distributions")
    print(plain(table(heimr)))
    print(f"(icepool warm, caches kept: {warm * 1e3:.3f} ms)\n", flush=True)

    print(f"rolling {ROLL_TEXT} ...", flush=True)
    rolls, floor = roll_pairs(args.rolls, args.repeat)
    print(plain(table(rolls)))
    print(f"(floor, rng.randint(1, 20) + 5 alone: {floor * 1e6:.3f} us/roll)\n")

    found = profiles(heimr, rolls)
    for prof in found:
        print(profile_text(prof, md=False), "\n")

    elapsed = time.perf_counter() - start
    targets = [p for p in (*heimr, *rolls) if p.target is not None]
    for p in targets:
        print(f"target {p.name}: {p.ratio:.4f}x <= {p.target:g}x: {'met' if p.met else 'MISSED'}")
    print(f"whole run: {elapsed:.0f} s")
    if args.write:
        text = report(heimr, warm, rolls, floor, found, args.repeat, args.rolls, elapsed)
        write_section(args.write, text)
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
