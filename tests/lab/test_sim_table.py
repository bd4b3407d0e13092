"""``fracas sim --table``: the odds of the rest of a fight, from where a stored table stands,
drawn from the simulation's own seed and never from the table's dice."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.lab import runner, stats
from fracas.table import encounterfile
from fracas.table.store import Store
from fracas.table.table import Table

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples/heimr/duel.yaml"


def _table(store: Store, name: str, moves: int) -> Table:
    """The duel at a table, seeded, after ``moves`` actions (attacks where offered)."""
    ruleset, setup, title = encounterfile.load(DUEL)
    table = Table.start(store, name, ruleset, setup, title, seed=11)
    for _ in range(moves):
        offered = table.offered(None)
        attacks = [a for a in offered if a.verb == "attack"]
        table.push((attacks or offered)[0])
        assert not table.is_over()
    return table


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(f"sqlite:///{tmp_path / 'tables.db'}")


def _summary(spec: runner.SimSpec, seed: int = 3, runs: int = 40) -> dict[str, object]:
    outcomes = runner.run_local(spec, runner.seeds(seed, runs))
    return stats.summarise(outcomes, spec.sides)


def test_from_mid_fight_the_odds_differ_from_the_start_and_repeat_by_seed(store: Store) -> None:
    table = _table(store, "duel", 10)
    mid = runner.spec_from_table(table, {}, max_actions=400)
    start = runner.make_spec(table.ruleset.id, mid.setup, {}, max_actions=400)
    assert mid.engine == "engine" and mid.position is not None
    assert _summary(mid) != _summary(start)
    assert runner.run_local(mid, runner.seeds(9, 10)) == runner.run_local(
        mid, runner.seeds(9, 10), workers=2
    )


def test_a_simulation_neither_reads_nor_moves_the_tables_dice(store: Store) -> None:
    watched, control = _table(store, "watched", 6), _table(store, "control", 6)
    version = store.table("watched").version
    _summary(runner.spec_from_table(watched, {}, max_actions=300), runs=20)
    assert store.table("watched").version == version  # nothing written
    for table in (watched, control):
        offered = table.offered(None)
        table.push(([a for a in offered if a.verb == "attack"] or offered)[0])
    assert watched.export()["log"] == control.export()["log"]  # the same next roll


def test_the_kernel_is_refused_from_a_position(store: Store) -> None:
    table = _table(store, "duel", 4)
    with pytest.raises(ValueError, match="from the start only"):
        runner.spec_from_table(table, {}, engine="kernel")
    assert runner.spec_from_table(table, {}, engine="auto").engine == "engine"


def test_sim_table_at_the_command_line(store: Store, tmp_path: Path) -> None:
    _table(store, "duel", 8)
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    cli = CliRunner()
    done = cli.invoke(app, ["sim", "--table", "duel", "--db", url, "--runs", "12"])
    assert done.exit_code == 0, done.stderr
    assert "from entry 8" in done.stdout and "Win rate" in done.stdout
    both = cli.invoke(app, ["sim", str(DUEL), "--table", "duel", "--db", url])
    assert both.exit_code == 2 and "one of them" in both.stderr
    missing = cli.invoke(app, ["sim", "--table", "nosuch", "--db", url])
    assert missing.exit_code == 2 and "nosuch" in missing.stderr
