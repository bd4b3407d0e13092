"""Killed at any moment, a table loses no acknowledged action: the tracker is killed
(SIGKILL) part way through a scripted encounter, resumed with --table, and ends exactly
as an uninterrupted run does. The killed run is a process of its own; the uninterrupted
run, the resumption and the exports run in this one (Typer's CliRunner)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.table.scripts import Script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXAMPLE = EXAMPLES / "heimr" / "ambush"


def fracas(db: Path, *args: str) -> tuple[int, str]:
    """``fracas`` run in this process on the store ``db`` (its exit code and output): only
    the killed run needs a process of its own."""
    done = CliRunner().invoke(app, list(args), env={"FRACAS_DB": f"sqlite:///{db}"})
    return done.exit_code, done.output


def export(db: Path, name: str, out: Path) -> dict[str, object]:
    code, said = fracas(db, "export", name, str(out))
    assert code == 0, said
    data: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return data


SCRIPT = [str(EXAMPLE.with_suffix(".yaml")), "--script", str(EXAMPLE.with_suffix(".script"))]


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The export of the encounter played through uninterrupted (once for every seed)."""
    folder = tmp_path_factory.mktemp("whole")
    code, said = fracas(folder / "whole.db", "play", *SCRIPT, "--table", "ambush")
    assert code == 0, said
    return export(folder / "whole.db", "ambush", folder / "whole.json")


@pytest.mark.parametrize("seed", [1, 2])
def test_a_killed_tracker_resumes_with_every_acknowledged_action(
    tmp_path: Path, seed: int, expected: dict[str, object]
) -> None:
    script = SCRIPT
    actions = len(Script.read(EXAMPLE.with_suffix(".script")).lines)
    kill_after = random.Random(seed).randrange(1, actions - 1)
    db = tmp_path / "killed.db"
    env = {**os.environ, "FRACAS_DB": f"sqlite:///{db}"}
    process = subprocess.Popen(
        [sys.executable, "-m", "fracas", "play", *script, "--table", "ambush"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    acknowledged: list[str] = []
    for line in process.stdout:  # each "> action" line is printed after its commit
        if line.startswith("> "):
            acknowledged.append(line[2:].strip())
            if len(acknowledged) == kill_after:
                break
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    process.stdout.close()

    stored = export(db, "ambush", tmp_path / "killed.json")["log"]
    kept = [entry["action"] for entry in stored]  # type: ignore[attr-defined]
    assert kept[: len(acknowledged)] == acknowledged, "an acknowledged action was lost"

    code, said = fracas(db, "play", "--table", "ambush", "--script", script[2])
    assert code == 0, said
    got = export(db, "ambush", tmp_path / "resumed.json")
    played = [entry["action"] for entry in got["log"]]  # type: ignore[index, union-attr]
    assert played[: len(acknowledged)] == acknowledged
    assert got["log"] == expected["log"]
