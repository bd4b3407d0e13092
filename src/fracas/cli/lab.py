"""``fracas sim`` and ``fracas sweep``: an encounter played out many times by policies.

A thin layer over :mod:`fracas.lab`: it reads the options, runs the batches with a
progress bar on stderr and prints the statistics; results go to JSON, CSV and PNG
files, written atomically. Timings appear on the terminal only, never in the files.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from fracas.cli.app import app, fail
from fracas.lab import backends, results, runner, stats
from fracas.lab.playout import Outcome
from fracas.lab.runner import SimSpec
from fracas.table import encounterfile

#: Exit status after Ctrl-C, as shells report it.
INTERRUPTED = 130

PolicyOption = Annotated[
    list[str] | None,
    typer.Option(
        "--policy",
        help="SIDE=NAME: the policy of one side (random, attack-nearest, focus-weakest, "
        "defensive, default, heimr-melee, scripted:FILE); others play the default.",
    ),
]
EncounterArgument = Annotated[
    Path | None, typer.Argument(help="An encounter file (YAML); none with --table.")
]
DbOption = Annotated[
    str | None,
    typer.Option(envvar="FRACAS_DB", help="The store of --table: a SQLAlchemy URL."),
]
RunsOption = Annotated[
    int, typer.Option(min=1, max=runner.MAX_RUNS, help="How many times to play it.")
]
SeedOption = Annotated[int, typer.Option(help="The seed: the same seed, the same results.")]
WorkersOption = Annotated[
    int, typer.Option(min=1, max=runner.MAX_WORKERS, help="Local worker processes.")
]
DaskOption = Annotated[
    str | None,
    typer.Option(help="Run on Dask: a scheduler (tcp://host:8786) or local:N workers."),
]
EngineOption = Annotated[
    str,
    typer.Option(help="engine, kernel (the ruleset's vectorised one) or auto (kernel if it fits)."),
]
MaxActionsOption = Annotated[
    int,
    typer.Option(
        min=1,
        max=runner.MAX_ACTIONS,
        help="Stop a run after this many actions (counted as capped).",
    ),
]


def _policies(given: Sequence[str] | None) -> tuple[dict[str, str], dict[str, list[str]]]:
    """``SIDE=NAME`` options as names per side, and the actions of scripted sides."""
    names: dict[str, str] = {}
    scripts: dict[str, list[str]] = {}
    for text in given or ():
        side, equals, name = text.partition("=")
        if not equals or not side or not name:
            raise ValueError(f"--policy {text!r}: write SIDE=NAME, such as raiders=random")
        if name.startswith("scripted:"):
            path = Path(name.partition(":")[2])
            lines = path.read_text(encoding="utf-8").splitlines()
            scripts[side] = [s for line in lines if (s := line.partition("#")[0].strip())]
            name = "scripted"
        names[side] = name
    return names, scripts


def _spec(encounter: Path, policy: Sequence[str] | None, engine: str, max_actions: int) -> SimSpec:
    chosen, scripts = _policies(policy)
    ruleset, setup, title = encounterfile.load(encounter)
    return runner.make_spec(
        ruleset.id,
        setup,
        chosen,
        scripts=scripts,
        engine=engine,
        max_actions=max_actions,
        title=title,
    )


@contextmanager
def _progress(total: int, label: str) -> Iterator[Any]:
    console = Console(stderr=True)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


def report(spec: SimSpec, runs: int, seed: int, outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The JSON record of a simulation: what was run, and its statistics."""
    return {
        "encounter": spec.title,
        "ruleset": spec.ruleset,
        "runs": runs,
        "seed": seed,
        "engine": spec.engine,
        "max_actions": spec.max_actions,
        "policies": spec.policy_names(),
        "summary": stats.summarise(outcomes, spec.sides),
    }


def _show(console: Console, record: dict[str, Any]) -> None:
    summary = record["summary"]
    policies = ", ".join(f"{s}: {p}" for s, p in record["policies"].items())
    console.print(
        f"[bold]{record['encounter']}[/] ({record['ruleset']}), {record['runs']} runs, "
        f"seed {record['seed']}, {record['engine']}; policies {policies}"
    )
    sides = Table(title="Win rate (95% Wilson interval)")
    for column in ("side", "wins", "rate", "interval"):
        sides.add_column(column, justify="right" if column != "side" else "left")
    for side, got in summary["sides"].items():
        low, high = got["ci95"]
        sides.add_row(side, str(got["wins"]), f"{got['win_rate']:.3f}", f"{low:.3f} – {high:.3f}")
    console.print(sides)
    console.print(f"draws {summary['draws']}, capped {summary['capped']}")
    for name in ("rounds", "actions"):
        got = summary[name]
        if got["mean"] is None:
            continue
        qs = ", ".join(f"{k} {v:g}" for k, v in got["quantiles"].items())
        console.print(f"{name}: mean {got['mean']:.2f} ({qs})")
    people = Table(title="At the end (mean)")
    for column in ("combatant", "hit points", "injuries"):
        people.add_column(column, justify="right" if column != "combatant" else "left")
    for cid, got in summary["combatants"].items():
        people.add_row(cid, f"{got['hp_left']['mean']:.2f}", f"{got['injuries']['mean']:.2f}")
    console.print(people)


def _where(workers: int, dask: str | None) -> str:
    if dask is not None:
        return f"Dask {dask}"
    return f"{workers} worker{'s' if workers != 1 else ''}"


def _table_spec(
    name: str, db: str | None, policy: Sequence[str] | None, engine: str, max_actions: int
) -> SimSpec:
    """A spec from where the stored table ``name`` stands (read only: nothing is written)."""
    from fracas.cli.play import open_store
    from fracas.table.table import Table

    chosen, scripts = _policies(policy)
    table = Table.resume(open_store(db), name)  # a StoreError is a ValueError
    if table.is_over():
        raise ValueError(f"the fight at table {name!r} is over: there is nothing left to play")
    return runner.spec_from_table(
        table, chosen, scripts=scripts, engine=engine, max_actions=max_actions
    )


@app.command()
def sim(
    encounter: EncounterArgument = None,
    table: Annotated[
        str | None,
        typer.Option(
            help="Play on from where this stored table stands (its dice are not touched)."
        ),
    ] = None,
    db: DbOption = None,
    runs: RunsOption = 1000,
    policy: PolicyOption = None,
    seed: SeedOption = 0,
    workers: WorkersOption = 1,
    dask: DaskOption = None,
    engine: EngineOption = "auto",
    max_actions: MaxActionsOption = 2000,
    json_file: Annotated[
        Path | None, typer.Option("--json", help="Write the statistics here (JSON).")
    ] = None,
    csv_file: Annotated[
        Path | None, typer.Option("--csv", help="Write one row per run here (CSV).")
    ] = None,
    plot: Annotated[
        Path | None, typer.Option(help="Draw win rates and rounds to finish (PNG).")
    ] = None,
) -> None:
    """Play an encounter many times: win rates with intervals, rounds, what is left.

    With --table, play on from where a stored table stands: the odds of the rest of the
    fight. The simulation draws from its own seed, never from the table's dice.
    """
    console = Console()
    try:
        if (encounter is None) == (table is None):
            raise ValueError("give an encounter file or --table NAME (one of them)")
        if table is not None:
            spec = _table_spec(table, db, policy, engine, max_actions)
        else:
            assert encounter is not None
            spec = _spec(encounter, policy, engine, max_actions)
        started = time.perf_counter()
        with backends.backend(workers, dask) as run_batches, _progress(runs, "simulating") as tick:
            outcomes = run_batches(spec, runner.seeds(seed, runs), tick)
        elapsed = time.perf_counter() - started
        record = report(spec, runs, seed, outcomes)
        if json_file is not None:
            results.write_atomically(json_file, results.dumps(record))
        if csv_file is not None:
            results.write_atomically(csv_file, results.outcomes_csv(outcomes))
        if plot is not None:
            from fracas.lab import plots

            finished = [o.rounds for o in outcomes if not o.capped]
            plots.plot_summary(record["summary"], finished, plot, spec.title)
    except (ValueError, OSError) as err:
        fail(str(err))
    _show(console, record)
    console.print(
        f"{runs} runs in {elapsed:.2f} s ({runs / max(elapsed, 1e-9):.0f} runs/s) "
        f"on {_where(workers, dask)}",
        style="dim",
    )


@app.command(name="sweep")
def sweep_command(
    encounter: EncounterArgument = None,
    table: Annotated[
        str | None,
        typer.Option(
            help="Sweep from where this stored table stands (its dice are not touched); "
            "a value varied is replayed as if it had held from the start."
        ),
    ] = None,
    db: DbOption = None,
    *,
    vary: Annotated[
        list[str],
        typer.Option(
            help="CHARACTER.PATH=RANGE, such as 'ylva.Sword and shield.consistency=-2..5' "
            "(A..B, A..B:STEP or 1,2,5); give one or two, or more for the CSV only."
        ),
    ],
    runs: RunsOption = 200,
    out: Annotated[
        Path | None,
        typer.Option(help="Folder for sweep.sqlite, sweep.csv and sweep.png (resumable)."),
    ] = None,
    side: Annotated[
        str | None, typer.Option(help="Chart this side's win rate (default: the first varied).")
    ] = None,
    policy: PolicyOption = None,
    seed: SeedOption = 0,
    workers: WorkersOption = 1,
    dask: DaskOption = None,
    engine: EngineOption = "auto",
    max_actions: MaxActionsOption = 2000,
) -> None:
    """Simulate a grid of campaign values: win rates per cell, as CSV and a chart.

    With --table, from where a stored table stands: each cell replays the fight so far
    with its values, on the faces rolled, and plays on from its own seed.
    """
    from fracas.lab import sweep  # its store (SQLite) loads for a sweep only

    console = Console()
    stem = table if encounter is None else encounter.stem
    folder = out if out is not None else Path(f"sweep-{stem}")
    try:
        if (encounter is None) == (table is None):
            raise ValueError("give an encounter file or --table NAME (one of them)")
        varies = [sweep.parse_vary(v) for v in vary]
        if table is not None:
            spec = _table_spec(table, db, policy, engine, max_actions)
        else:
            assert encounter is not None
            spec = _spec(encounter, policy, engine, max_actions)
        sweep.plan(spec, varies)  # every path and value checked before any run
        chart_side = side or _side_of(spec, varies[0].character)
        if chart_side not in spec.sides:
            raise ValueError(f"--side {chart_side}: the sides are {', '.join(spec.sides)}")
        cells = 1
        for v in varies:
            cells *= len(v.values)
        started = time.perf_counter()
        with (
            backends.backend(workers, dask) as run_cells,
            _progress(cells, "cells") as advance,
        ):
            result = sweep.run_sweep(
                spec,
                varies,
                runs,
                seed,
                folder,
                run_cells,
                on_cell=lambda done, total: advance(1),
            )
        elapsed = time.perf_counter() - started
        written = sweep.write_outputs(result, folder, chart_side, spec.title)
    except KeyboardInterrupt:
        typer.echo(
            f"fracas: interrupted; the finished cells are stored in {folder}: run the same "
            "command again to go on",
            err=True,
        )
        raise typer.Exit(INTERRUPTED) from None
    except (ValueError, OSError) as err:
        fail(str(err))
    typer.echo(sweep.table(result), nl=False)
    console.print(f"wrote {', '.join(str(p) for p in written)}")
    console.print(
        f"{cells - result.skipped} cells of {runs} runs in {elapsed:.2f} s "
        f"({result.skipped} already done) on {_where(workers, dask)}",
        style="dim",
    )


def _side_of(spec: SimSpec, character: str) -> str:
    campaign = spec.setup.get("campaign", {}).get("characters", {})
    found = campaign.get(character, {}).get("side")
    return str(found) if found in spec.sides else spec.sides[0]
