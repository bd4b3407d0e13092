"""``fracas sim`` and ``fracas sweep``: results, determinism across backends, bad input,
and a sweep interrupted and resumed."""

from __future__ import annotations

import csv
import json
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.lab import dask as lab_dask
from fracas.lab import runner, sweep

ROOT = Path(__file__).resolve().parents[2]
DUEL = str(ROOT / "examples/heimr/duel.yaml")
MACE = str(ROOT / "examples/sides/mace.yaml")
cli = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = cli.invoke(app, list(args), env={"COLUMNS": "120"})
    return result.exit_code, result.stdout, result.stderr


def test_sim_reports_win_rates_and_writes_json_csv_and_a_plot(tmp_path: Path) -> None:
    out = tmp_path / "duel.json"
    code, stdout, stderr = run(
        "sim", DUEL, "--runs", "12", "--seed", "5", "--policy", "raiders=attack-nearest",
        "--policy", "shieldwall=focus-weakest", "--json", str(out),
        "--csv", str(tmp_path / "duel.csv"), "--plot", str(tmp_path / "duel.png"),
        "--max-actions", "300", "--engine", "engine",
    )  # fmt: skip
    assert code == 0, stderr
    assert "Win rate (95% Wilson interval)" in stdout and "runs/s" in stdout
    record = json.loads(out.read_text())
    assert record["policies"] == {"raiders": "attack-nearest", "shieldwall": "focus-weakest"}
    assert record["engine"] == "engine"
    summary = record["summary"]
    assert summary["runs"] == 12
    wins = sum(s["wins"] for s in summary["sides"].values())
    assert wins + summary["draws"] + summary["capped"] == 12
    low, high = summary["sides"]["raiders"]["ci95"]
    assert low <= summary["sides"]["raiders"]["win_rate"] <= high
    assert set(summary["combatants"]) == {"ylva", "astrid"}
    rows = list(csv.DictReader((tmp_path / "duel.csv").open()))
    assert len(rows) == 12 and "hp_ylva" in rows[0]
    assert (tmp_path / "duel.png").read_bytes()[:4] == b"\x89PNG"
    assert not list(tmp_path.glob(".*.tmp"))  # atomic writes leave no temporary files


def test_the_same_seed_gives_byte_identical_json_on_any_backend(tmp_path: Path) -> None:
    files = []
    for name, extra in (
        ("one", ["--workers", "1"]),
        ("two", ["--workers", "2"]),
        ("dask", ["--dask", "local:2"]),
    ):
        out = tmp_path / f"{name}.json"
        code, _, stderr = run(
            "sim", MACE, "--runs", "10", "--seed", "42", "--policy", "orcs=random",
            "--max-actions", "200", "--json", str(out), *extra,
        )  # fmt: skip
        assert code == 0, stderr
        files.append(out.read_bytes())
    assert files[0] == files[1] == files[2]


def test_an_unknown_policy_lists_the_names() -> None:
    code, _, stderr = run("sim", DUEL, "--runs", "2", "--policy", "raiders=berserk")
    assert code == 2
    assert stderr.strip() == (
        "fracas: unknown policy 'berserk': known are attack-nearest, default, defensive, "
        "focus-weakest, heimr-melee, random, scripted"
    )


def test_an_unknown_side_names_the_sides() -> None:
    code, _, stderr = run("sim", DUEL, "--runs", "2", "--policy", "vikings=random")
    assert code == 2
    assert "no side called 'vikings'" in stderr and "shieldwall, raiders" in stderr


def test_a_dask_address_that_does_not_answer_fails_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lab_dask, "CONNECT_TIMEOUT", 1)
    with socket.socket() as s:  # a free port that nothing listens on once closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, _, stderr = run("sim", DUEL, "--runs", "2", "--dask", f"tcp://127.0.0.1:{port}")
    assert code == 2
    assert stderr.startswith(f"fracas: no Dask scheduler answers at tcp://127.0.0.1:{port}")
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("vary", "problem"),
    [
        ("ylva.hit_points=5..x", "the range '5..x' does not parse"),
        ("ylva.hit_points=6..2", "the range '6..2' does not parse"),
        ("ylva.hit_points", "write CHARACTER.PATH=RANGE"),
        ("ylva=1..2", "needs a character and a field"),
        ("bjorn.hit_points=1..2", "no character 'bjorn' in the campaign"),
        ("ylva.Swrd.consistency=1..2", "ylva has no 'Swrd'"),
        ("ylva.name=1..2", "ylva.name is not a number"),
        (
            "ylva.Sword and shield.consistency=-3..-2",
            "the cell ylva.Sword and shield.consistency=-3 does not start",
        ),
        ("ylva.hit_points=1..5000000000", "does not parse"),  # a number of ten digits
        ("ylva.hit_points=1..5000000", "5,000,000 values; a sweep varies one by 1,000"),
    ],
)
def test_a_sweep_refuses_what_does_not_parse(tmp_path: Path, vary: str, problem: str) -> None:
    code, _, stderr = run("sweep", DUEL, "--vary", vary, "--runs", "2", "--out", str(tmp_path))
    assert code == 2
    assert problem in stderr and len(stderr.strip().splitlines()) == 1


def test_a_grid_of_too_many_cells_is_refused_before_any_run(tmp_path: Path) -> None:
    code, _, stderr = run(
        "sweep", DUEL, "--vary", "ylva.hit_points=1..200", "--vary", "ylva.Sword and "
        "shield.potential=1..60", "--runs", "2", "--out", str(tmp_path / "grid"),
    )  # fmt: skip
    assert code == 2
    assert "12,000 cells; a sweep has 10,000 at most" in stderr
    assert not (tmp_path / "grid").exists()


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--runs", "100000000000"], "--runs"),
        (["--runs", "2", "--workers", "500"], "--workers"),
        (["--runs", "2", "--max-actions", "99999999"], "--max-actions"),
        (["--runs", "2", "--dask", "local:900"], "900 workers: this machine runs 1 to"),
    ],
)
def test_a_simulation_too_big_for_the_machine_is_refused(args: list[str], problem: str) -> None:
    code, _, stderr = run("sim", DUEL, *args)
    assert code == 2 and problem in stderr and "Traceback" not in stderr


@pytest.mark.parametrize("runs", [0, runner.MAX_RUNS + 1])
def test_the_library_bounds_runs_and_workers_too(runs: int) -> None:
    with pytest.raises(ValueError, match="runs: a simulation plays 1 to 1,000,000"):
        runner.seeds(1, runs)
    with pytest.raises(ValueError, match="workers: this machine runs 1 to"):
        runner.check_workers(runner.MAX_WORKERS + 1)


def sweep_args(folder: Path) -> list[str]:
    return [
        "sweep", DUEL,
        "--vary", "ylva.Sword and shield.consistency=1..3",
        "--vary", "ylva.Sword and shield.potential=2,4",
        "--runs", "6", "--seed", "3", "--max-actions", "150", "--out", str(folder),
    ]  # fmt: skip


def test_an_interrupted_sweep_resumes_to_the_same_csv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole, broken = tmp_path / "whole", tmp_path / "broken"
    code, _, stderr = run(*sweep_args(whole))
    assert code == 0, stderr
    assert (whole / "sweep.png").exists()

    stored = sweep.Store.add
    calls = []

    def add_then_stop(self: sweep.Store, key: str, summary: dict[str, object]) -> None:
        stored(self, key, summary)
        calls.append(key)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(sweep.Store, "add", add_then_stop)
    code, _, stderr = run(*sweep_args(broken))
    assert code == 130 and "run the same command again" in stderr
    assert not (broken / "sweep.csv").exists()
    monkeypatch.setattr(sweep.Store, "add", stored)

    code, stdout, stderr = run(*sweep_args(broken))
    assert code == 0, stderr
    assert "(2 already done)" in stdout
    assert (broken / "sweep.csv").read_text() == (whole / "sweep.csv").read_text()
    rows = list(csv.DictReader((whole / "sweep.csv").open()))
    assert len(rows) == 6
    assert {"shieldwall_win_rate", "raiders_ci95_high"} <= set(rows[0])


def test_a_sweep_folder_is_not_reused_with_other_arguments(tmp_path: Path) -> None:
    args = ["sweep", DUEL, "--vary", "ylva.hit_points=4..5", "--runs", "2"]
    args += ["--max-actions", "150", "--out", str(tmp_path)]
    assert run(*args)[0] == 0
    args[args.index("--runs") + 1] = "3"
    code, _, stderr = run(*args)
    assert code == 2 and "holds a sweep with other arguments" in stderr


def test_engine_auto_plays_the_engine_where_the_kernel_does_not_fit(tmp_path: Path) -> None:
    charge = str(ROOT / "examples/diestep/charge.yaml")
    out = tmp_path / "charge.json"
    code, _, stderr = run("sim", charge, "--runs", "3", "--engine", "auto", "--json", str(out))
    assert code == 0, stderr
    assert json.loads(out.read_text())["engine"] == "engine"  # diestep has no kernel
    code, _, stderr = run("sim", charge, "--runs", "3", "--engine", "kernel")
    assert code == 2 and "the vectorised kernel" in stderr and "--engine engine" in stderr
    code, _, stderr = run("sim", MACE, "--runs", "3", "--engine", "fast")
    assert code == 2 and "unknown engine 'fast': choose engine, kernel, auto" in stderr


def test_a_side_plays_a_script_then_falls_back(tmp_path: Path) -> None:
    script = tmp_path / "opening.script"
    script.write_text("# Ylva sets her parry first\nylva defend parry\nylva attack astrid\n")
    out = tmp_path / "duel.json"
    code, _, stderr = run(
        "sim", DUEL, "--runs", "3", "--policy", f"shieldwall=scripted:{script}",
        "--max-actions", "200", "--json", str(out),
    )  # fmt: skip
    assert code == 0, stderr
    assert json.loads(out.read_text())["policies"]["shieldwall"] == "scripted"
    code, _, stderr = run("sim", DUEL, "--runs", "3", "--policy", "shieldwall")
    assert code == 2 and "--policy 'shieldwall': write SIDE=NAME" in stderr


def test_the_kernel_asked_for_says_why_it_does_not_cover_an_encounter() -> None:
    ambush = str(ROOT / "examples/heimr/ambush.yaml")
    code, _, stderr = run("sim", ambush, "--runs", "3", "--engine", "kernel")
    assert code == 2 and "plays it only with everyone in one square" in stderr, stderr
    melee = ["--policy", "raiders=heimr-melee", "--policy", "shieldwall=heimr-melee"]
    code, _, stderr = run("sim", ambush, "--runs", "3", "--engine", "kernel", *melee)
    assert code == 2 and "terrain or concealment" in stderr and "--engine engine" in stderr
