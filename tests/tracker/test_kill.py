"""Killed at any moment, a table loses no acknowledged action: the tracker is killed
(SIGKILL) part way through a scripted encounter, resumed with --table, and ends exactly
as an uninterrupted run does."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from fracas.table.scripts import Script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXAMPLE = EXAMPLES / "heimr" / "ambush"


def fracas(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FRACAS_DB": f"sqlite:///{db}"}
    return subprocess.run(
        [sys.executable, "-m", "fracas", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def export(db: Path, name: str, out: Path) -> dict[str, object]:
    done = fracas(db, "export", name, str(out))
    assert done.returncode == 0, done.stderr
    data: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return data


SCRIPT = [str(EXAMPLE.with_suffix(".yaml")), "--script", str(EXAMPLE.with_suffix(".script"))]


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The export of the encounter played through uninterrupted (once for every seed)."""
    folder = tmp_path_factory.mktemp("whole")
    whole = fracas(folder / "whole.db", "play", *SCRIPT, "--table", "ambush")
    assert whole.returncode == 0, whole.stderr
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

    resumed = fracas(db, "play", "--table", "ambush", "--script", script[2])
    assert resumed.returncode == 0, resumed.stderr
    got = export(db, "ambush", tmp_path / "resumed.json")
    played = [entry["action"] for entry in got["log"]]  # type: ignore[index, union-attr]
    assert played[: len(acknowledged)] == acknowledged
    assert got["log"] == expected["log"]
