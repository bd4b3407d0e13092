"""``fracas sweep --table``: a grid of values from where a stored table stands, each cell
replaying the fight so far with its values and playing on from the sweep's own seed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.engine import Action, view
from fracas.lab import runner, stats, sweep
from fracas.lab.policies import Policy
from fracas.table import encounterfile
from fracas.table.store import Store
from fracas.table.table import Table

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples/heimr/duel.yaml"
#: Ylva's hit points: the table's own (4) and more; the fight so far replays with both.
HIT_POINTS = "ylva.hit_points=4,12"
RUNS = 30


def _table(store: Store, name: str, moves: int = 10) -> Table:
    """The duel at a table, seeded, after ``moves`` actions (attacks where offered)."""
    ruleset, setup, title = encounterfile.load(DUEL)
    table = Table.start(store, name, ruleset, setup, title, seed=11)
    for _ in range(moves):
        offered = table.offered(None)
        table.push(([a for a in offered if a.verb == "attack"] or offered)[0])
    assert not table.is_over()
    return table


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


@pytest.fixture
def store(url: str) -> Store:
    return Store.open(url)


def _sweep(spec: runner.SimSpec, folder: Path, vary: str = HIT_POINTS, seed: int = 5) -> Any:
    local = partial(runner.run_local, workers=1)
    return sweep.run_sweep(spec, [sweep.parse_vary(vary)], RUNS, seed, folder, local)


def test_the_varied_number_changes_the_odds_and_the_same_seed_repeats(
    store: Store, tmp_path: Path
) -> None:
    spec = runner.spec_from_table(_table(store, "duel", 9), {}, max_actions=300)
    first = _sweep(spec, tmp_path / "a")
    assert first.cells["[4]"] != first.cells["[12]"]  # the number changes the figures
    assert _sweep(spec, tmp_path / "b").cells == first.cells  # the same seed, the same
    # The table's own value plays exactly as `fracas sim --table` from the same seed.
    own = runner.run_local(spec, runner.seeds(5, RUNS))
    assert first.cells["[4]"] == stats.summarise(own, spec.sides)
    # A table that has moved on is another sweep: its stored cells are not reused.
    table = Table.resume(store, "duel")
    offered = table.offered(None)
    table.push(([a for a in offered if a.verb == "attack"] or offered)[0])
    moved = runner.spec_from_table(table, {}, max_actions=300)
    with pytest.raises(ValueError, match="holds a sweep with other arguments"):
        _sweep(moved, tmp_path / "a")


def test_a_sweep_neither_reads_nor_moves_the_tables_dice(store: Store, tmp_path: Path) -> None:
    watched, control = _table(store, "watched"), _table(store, "control")
    version = store.table("watched").version
    spec = runner.spec_from_table(watched, {}, max_actions=300)
    cells = sweep.plan(spec, [sweep.parse_vary(HIT_POINTS)])
    # No cell carries the table's generator to a worker.
    assert spec.position is not None and "dice" not in spec.position
    assert all(c.position is not None and "dice" not in c.position for c in cells.values())
    _sweep(spec, tmp_path / "s")
    assert store.table("watched").version == version  # nothing written
    for table in (watched, control):
        offered = table.offered(None)
        table.push(([a for a in offered if a.verb == "attack"] or offered)[0])
    assert watched.export()["log"] == control.export()["log"]  # the same next roll


@pytest.mark.parametrize(
    ("vary", "why"),
    [
        ("ylva.Sword and shield.potential=0..4", "would have rolled other dice with it"),
        ("ylva.hit_points=2..6", "the fight so far would not replay with it"),
    ],
)
def test_what_cannot_vary_mid_fight_is_refused_in_one_line(
    store: Store, url: str, tmp_path: Path, vary: str, why: str
) -> None:
    spec = runner.spec_from_table(_table(store, "duel"), {}, max_actions=300)
    with pytest.raises(ValueError, match=why):
        sweep.plan(spec, [sweep.parse_vary(vary)])
    done = CliRunner().invoke(
        app, ["sweep", "--table", "duel", "--db", url, "--vary", vary, "--out", str(tmp_path)]
    )
    assert done.exit_code == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot vary mid-fight" in lines[0] and why in lines[0]
    assert not (tmp_path / "sweep.sqlite").exists()  # refused before any run


class Spy:
    """A side's policy that checks, at every choice, that it is shown that side's view."""

    def __init__(self, inner: Policy, side: str, seen: list[str]) -> None:
        self.inner, self.side, self.seen, self.name = inner, side, seen, inner.name

    def choose(self, shown: Mapping[str, Any], legal: Sequence[Action], rng: Any) -> Action:
        encounter = shown._encounter  # type: ignore[attr-defined]
        assert _plain(shown["state"]) == view(encounter, self.side)["state"]
        self.seen.append(self.side)
        return self.inner.choose(shown, legal, rng)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _plain(value[key]) for key in value}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def test_each_sides_policy_sees_only_its_sides_view(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    made = runner._policies

    def spied(spec: runner.SimSpec) -> dict[str, Policy]:
        return {side: Spy(p, side, seen) for side, p in made(spec).items()}

    monkeypatch.setattr(runner, "_policies", spied)
    spec = runner.spec_from_table(_table(store, "duel", 4), {}, max_actions=300)
    local = partial(runner.run_local, workers=1)
    sweep.run_sweep(spec, [sweep.parse_vary("ylva.hit_points=4,6")], 3, 1, tmp_path, local)
    assert set(seen) == set(spec.sides)


def test_sweep_table_at_the_command_line(store: Store, url: str, tmp_path: Path) -> None:
    _table(store, "duel")
    cli = CliRunner()
    out = tmp_path / "out"
    args = ["sweep", "--table", "duel", "--db", url, "--vary", HIT_POINTS, "--runs", "8"]
    done = cli.invoke(app, [*args, "--out", str(out)])
    assert done.exit_code == 0, done.stderr
    assert done.stdout.startswith("ylva.hit_points,") and (out / "sweep.csv").exists()
    both = cli.invoke(app, ["sweep", str(DUEL), "--table", "duel", "--db", url, "--vary", "a.b=1"])
    assert both.exit_code == 2 and "one of them" in both.stderr
    missing = cli.invoke(app, ["sweep", "--table", "nosuch", "--db", url, "--vary", "a.b=1"])
    assert missing.exit_code == 2 and "nosuch" in missing.stderr
