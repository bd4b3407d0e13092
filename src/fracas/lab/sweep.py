"""Sweeps: a grid of simulations over campaign values, stored as it runs and resumable.

A varied value is ``CHARACTER.PATH=RANGE``: the character's id in the campaign, a
dotted path into its entry, and the values to try::

    ylva.abilities.Sword and shield.trained_consistency=-2..5
    ylva.Sword and shield.consistency=-2..5        the same, with the aliases
    gunnar.hit_points=6..12:2                      6, 8, 10, 12
    gunnar.attributes.sta=-2,0,1                   a list

Aliases: a first step that names one of the character's abilities means
``abilities.<name>``; ``consistency`` and ``potential`` then mean
``trained_consistency`` and ``trained_potential``. The last step may be new (an
ability's untrained potential); every step before it must exist.

>>> vary = parse_vary("ylva.Sword and shield.consistency=-2..1")
>>> vary.character, vary.path, vary.values
('ylva', ('Sword and shield', 'consistency'), (-2, -1, 0, 1))
>>> parse_vary("ylva.hit_points=5..x")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: --vary 'ylva.hit_points=5..x': the range '5..x' does not parse: write A..B ...

Each cell of the grid is one simulation with the same seed (common random numbers:
cells differ by the varied values, not by luck). Its summary is appended to
``sweep.sqlite`` in the output folder as soon as it is done; a rerun with the same
arguments skips the cells already there.

A sweep may start from where a stored table stands (a spec with a ``position``,
:func:`~fracas.lab.runner.spec_from_table`): each cell replays the table's actions on
the faces they rolled, with the cell's values as if they had held from the start
(:func:`replayed`). A value that would have changed the dice rolled so far (how many,
or which), or made an action of the fight so far impossible, cannot vary mid-fight:
the sweep is refused before any run, naming it.
"""

from __future__ import annotations

import copy
import csv
import hashlib
import io
import itertools
import json
import math
import re
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from fracas.engine import Encounter, RandomDice, SaveError
from fracas.lab import stats
from fracas.lab.results import write_atomically
from fracas.lab.runner import Progress, Runner, SimSpec, make_spec, seeds
from fracas.rules import find

ALIASES = {"consistency": "trained_consistency", "potential": "trained_potential"}
_RANGE = re.compile(r"^(-?\d{1,9})\.\.(-?\d{1,9})(?::(\d{1,9}))?$")
_NUMBER = re.compile(r"^-?\d{1,9}(\.\d{1,9})?$")
#: The most values one --vary may take, and the most cells in a sweep.
MAX_VALUES = 1_000
MAX_CELLS = 10_000
DATABASE = "sweep.sqlite"


@dataclass(frozen=True)
class Vary:
    """One varied value: whose, where in the character's entry, and the values."""

    text: str
    character: str
    path: tuple[str, ...]
    values: tuple[float, ...]

    @property
    def label(self) -> str:
        return ".".join((self.character, *self.path))


def _fail(text: str, problem: str) -> ValueError:
    return ValueError(f"--vary {text!r}: {problem}")


def _values(text: str, raw: str) -> tuple[float, ...]:
    raw = raw.strip()
    m = _RANGE.match(raw)
    if m is not None:
        low, high, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
        if low <= high and step > 0:
            return _few(text, range(low, high + 1, step))
    elif raw and all(_NUMBER.match(p.strip()) for p in raw.split(",")):
        found = [float(p) if "." in p else int(p) for p in raw.split(",")]
        if len(set(found)) == len(found):
            return _few(text, found)
    raise _fail(
        text,
        f"the range {raw!r} does not parse: write A..B (whole numbers, A <= B), "
        "A..B:STEP, or a list such as 1,2,5",
    )


def _few(text: str, values: Sequence[float]) -> tuple[float, ...]:
    if len(values) > MAX_VALUES:
        raise _fail(text, f"{len(values):,} values; a sweep varies one by {MAX_VALUES:,} at most")
    return tuple(values)


def check_grid(varies: Sequence[Vary]) -> None:
    """:class:`ValueError` for a grid of more than :data:`MAX_CELLS` cells."""
    cells = math.prod(len(v.values) for v in varies)
    if cells > MAX_CELLS:
        raise ValueError(f"these --vary give {cells:,} cells; a sweep has {MAX_CELLS:,} at most")


def parse_vary(text: str) -> Vary:
    """Read ``CHARACTER.PATH=RANGE``; :class:`ValueError` names what does not parse."""
    where, equals, raw = text.partition("=")
    if not equals:
        raise _fail(text, "write CHARACTER.PATH=RANGE, such as ylva.hit_points=3..6")
    steps = [s.strip() for s in where.split(".")]
    if len(steps) < 2 or not all(steps):
        raise _fail(text, f"the path {where!r} needs a character and a field, as ylva.hit_points")
    return Vary(text, steps[0], tuple(steps[1:]), _values(text, raw))


def resolve(vary: Vary, setup: Mapping[str, Any]) -> tuple[str, ...]:
    """The full path (from the character's entry) that ``vary`` names in ``setup``'s
    campaign, aliases spelled out; :class:`ValueError` says which step is missing."""
    characters = setup.get("campaign", {}).get("characters", {})
    if vary.character not in characters:
        known = ", ".join(sorted(characters)) or "none"
        raise _fail(vary.text, f"no character {vary.character!r} in the campaign ({known})")
    node: Any = characters[vary.character]
    path = list(vary.path)
    if path[0] not in node and path[0] in (node.get("abilities") or {}):
        path.insert(0, "abilities")
    full: list[str] = []
    for i, step in enumerate(path):
        last = i == len(path) - 1
        if isinstance(node, Mapping) and step not in node and step in ALIASES:
            step = ALIASES[step]
        if not isinstance(node, Mapping):
            raise _fail(vary.text, f"{'.'.join(full) or vary.character} is not a table of fields")
        if step not in node and not last:
            where = ".".join((vary.character, *full))
            there = ", ".join(sorted(str(k) for k in node)) or "nothing"
            raise _fail(vary.text, f"{where} has no {step!r} (it has {there})")
        full.append(step)
        if not last:
            node = node[step]
    if full[-1] in node and not isinstance(node[full[-1]], int | float):
        raise _fail(vary.text, f"{'.'.join((vary.character, *full))} is not a number")
    return tuple(full)


def apply(setup: Mapping[str, Any], character: str, path: Sequence[str], value: float) -> Any:
    """A copy of ``setup`` with the character's value at ``path`` set to ``value``."""
    out = copy.deepcopy(dict(setup))
    node = out["campaign"]["characters"][character]
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return out


# -- the grid, stored as it runs ---------------------------------------------------------


def fingerprint(spec: SimSpec, varies: Sequence[Vary], runs: int, seed: int) -> str:
    """What makes two sweeps the same sweep: the encounter, the values, the runs."""
    record = {
        "spec": {
            "ruleset": spec.ruleset,
            "setup": spec.setup,
            "policies": spec.policies,
            "scripts": spec.scripts,
            "engine": spec.engine,
            "max_actions": spec.max_actions,
        },
        "vary": [[v.label, list(v.values)] for v in varies],
        "runs": runs,
        "seed": seed,
    }
    if spec.position is not None:  # from a table: where it stood is part of the sweep
        record["position"] = spec.position["log"]
    text = json.dumps(record, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Store:
    """The cells done so far, in SQLite: one row a cell, committed as it is done."""

    def __init__(self, folder: Path, print_: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / DATABASE
        self.db = sqlite3.connect(self.path)
        with self.db:
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS cells (key TEXT PRIMARY KEY, summary TEXT NOT NULL)"
            )
            row = self.db.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('fingerprint', ?)", (print_,))
        if row is not None and row[0] != print_:
            self.db.close()
            raise ValueError(
                f"{folder} holds a sweep with other arguments: give another --out "
                "folder, or delete this one to start afresh"
            )

    def done(self) -> dict[str, dict[str, Any]]:
        rows = self.db.execute("SELECT key, summary FROM cells").fetchall()
        return {key: json.loads(summary) for key, summary in rows}

    def add(self, key: str, summary: Mapping[str, Any]) -> None:
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO cells VALUES (?, ?)", (key, json.dumps(summary))
            )

    def close(self) -> None:
        self.db.close()


def cell_key(values: Sequence[float]) -> str:
    return json.dumps(list(values))


@dataclass(frozen=True)
class SweepResult:
    varies: tuple[Vary, ...]
    cells: dict[str, dict[str, Any]]  # cell key -> summary
    sides: tuple[str, ...]
    skipped: int  # cells found already done


def grid(varies: Sequence[Vary]) -> Iterator[tuple[float, ...]]:
    return itertools.product(*(v.values for v in varies))


def _rolls(rolls: Sequence[Any]) -> list[tuple[str, str, list[int]]]:
    """Rolls (drawn or saved) as what was rolled, why, and the faces, to compare."""
    out = []
    for roll in rolls:
        if isinstance(roll, Mapping):
            out.append((str(roll["notation"]), str(roll["purpose"]), list(roll["faces"])))
        else:
            out.append((roll.notation, roll.purpose, list(roll.faces)))
    return out


def replayed(spec: SimSpec, setup: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``spec``'s position (a table's save) with ``setup`` in place of the table's: its
    actions replayed on the faces they rolled. :class:`ValueError` (one line, starting
    with ``where``) when the setup would have rolled other dice or refused an action.

    The save returned is a fresh one (its events those of the replay); it carries no
    dice, so nothing of the table's own generator reaches a worker."""
    assert spec.position is not None
    recorded = list(spec.position["log"])
    data = {k: v for k, v in spec.position.items() if k not in ("dice", "digests", "log")}
    data["setup"] = json.loads(json.dumps(setup))
    data["log"] = [{"action": e["action"], "rolls": e.get("rolls", [])} for e in recorded]
    try:
        encounter = Encounter.load(
            data, find(spec.ruleset), RandomDice(0), replay_from_actions=True
        )
    except SaveError as err:
        why = (str(err).splitlines() or ["it does not replay"])[0]
        raise ValueError(
            f"{where} cannot vary mid-fight: the fight so far would not replay with it "
            f"({why}); sweep the encounter file to vary it from the start"
        ) from None
    for n, (entry, raw) in enumerate(zip(encounter.log, recorded, strict=True), 1):
        if _rolls(entry.rolls) != _rolls(raw.get("rolls", [])):
            raise ValueError(
                f"{where} cannot vary mid-fight: log entry {n} ({raw['action']}) would have "
                "rolled other dice with it; sweep the encounter file to vary it from the start"
            )
    saved = encounter.save()
    saved.pop("dice", None)
    return saved


def cell_spec(
    spec: SimSpec, varies: Sequence[Vary], paths: Sequence[Sequence[str]], values: Sequence[float]
) -> SimSpec:
    """The spec of one cell: ``spec`` with the varied values set, checked by the ruleset
    (:class:`ValueError` naming the cell when a value is refused); from a table's
    position, that position replayed with them (:func:`replayed`)."""
    setup: Any = spec.setup
    for vary, path, value in zip(varies, paths, values, strict=True):
        setup = apply(setup, vary.character, path, value)
    where = ", ".join(f"{v.label}={x:g}" for v, x in zip(varies, values, strict=True))
    try:
        made = make_spec(
            spec.ruleset,
            setup,
            dict(spec.policies),
            scripts={s: list(a) for s, a in spec.scripts},
            engine=spec.engine,
            max_actions=spec.max_actions,
            title=spec.title,
        )
    except ValueError as err:
        first = str(err).splitlines()[0].rpartition(": ")[2] if str(err) else ""
        raise ValueError(f"the cell {where} does not start: {first or err}") from None
    if spec.position is None:
        return made
    return replace(made, position=replayed(spec, made.setup, where))


def plan(spec: SimSpec, varies: Sequence[Vary]) -> dict[str, SimSpec]:
    """Every cell's checked spec, by cell key: a bad path or value fails before any run."""
    check_grid(varies)
    paths = [resolve(v, spec.setup) for v in varies]
    return {cell_key(values): cell_spec(spec, varies, paths, values) for values in grid(varies)}


def run_sweep(
    spec: SimSpec,
    varies: Sequence[Vary],
    runs: int,
    seed: int,
    folder: Path,
    runner: Runner,
    on_cell: Callable[[int, int], None] | None = None,
    progress: Progress | None = None,
) -> SweepResult:
    """Run every cell not yet stored in ``folder``; return all cells' summaries.

    ``on_cell(done, total)`` is called after each cell is stored.
    """
    specs = plan(spec, varies)
    cells = list(grid(varies))
    store = Store(folder, fingerprint(spec, varies, runs, seed))
    with closing(store):
        done = store.done()
        skipped = sum(1 for c in cells if cell_key(c) in done)
        count = skipped
        for values in cells:
            key = cell_key(values)
            if key in done:
                continue
            outcomes = runner(specs[key], seeds(seed, runs), progress)
            summary = stats.summarise(outcomes, spec.sides)
            store.add(key, summary)
            done[key] = summary
            count += 1
            if on_cell:
                on_cell(count, len(cells))
    return SweepResult(tuple(varies), done, spec.sides, skipped)


def table(result: SweepResult) -> str:
    """The sweep as CSV: one row a cell, in grid order, each side's win rate and
    interval, draws, capped runs and mean rounds."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header = [v.label for v in result.varies]
    for side in result.sides:
        header += [f"{side}_win_rate", f"{side}_ci95_low", f"{side}_ci95_high"]
    writer.writerow([*header, "draws", "capped", "runs", "rounds_mean"])
    ordered = [sorted(v.values) for v in result.varies]
    for values in itertools.product(*ordered):
        summary = result.cells.get(cell_key(values))
        if summary is None:
            continue
        row: list[Any] = list(values)
        for side in result.sides:
            got = summary["sides"][side]
            row += [got["win_rate"], *got["ci95"]]
        row += [summary["draws"], summary["capped"], summary["runs"], summary["rounds"]["mean"]]
        writer.writerow(row)
    return buffer.getvalue()


def plot(result: SweepResult, side: str, path: Path, title: str) -> None:
    """A line chart (one varied value) or a heatmap (two) of ``side``'s win rate."""
    from fracas.lab import plots

    ordered = [sorted(v.values) for v in result.varies]
    label = f"{side} win rate"

    def rate(values: Sequence[float]) -> dict[str, Any]:
        got: dict[str, Any] = result.cells[cell_key(values)]["sides"][side]
        return got

    if len(ordered) == 1:
        xs = ordered[0]
        got = [rate((x,)) for x in xs]
        plots.plot_line(
            xs,
            [g["win_rate"] for g in got],
            [g["ci95"][0] for g in got],
            [g["ci95"][1] for g in got],
            path,
            result.varies[0].label,
            label,
            title,
        )
        return
    if len(ordered) != 2:
        raise ValueError("a chart shows one or two varied values; use the CSV for more")
    xs, ys = ordered
    heat = [[rate((x, y))["win_rate"] for x in xs] for y in ys]
    plots.plot_heatmap(
        xs, ys, heat, path, result.varies[0].label, result.varies[1].label, f"{title}: {label}"
    )


def write_outputs(result: SweepResult, folder: Path, side: str, title: str) -> list[Path]:
    """``sweep.csv`` and, for one or two varied values, ``sweep.png`` in ``folder``."""
    written = [folder / "sweep.csv"]
    write_atomically(written[0], table(result))
    if len(result.varies) <= 2:
        written.append(folder / "sweep.png")
        plot(result, side, written[1], title)
    return written


__all__ = [
    "Store",
    "SweepResult",
    "Vary",
    "apply",
    "parse_vary",
    "plan",
    "replayed",
    "resolve",
    "run_sweep",
    "table",
    "write_outputs",
]
