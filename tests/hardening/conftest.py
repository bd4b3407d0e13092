"""Shared pieces of the hardening tests: played example games, saves and the CLI."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.engine import Encounter, RandomDice
from fracas.files import read_script
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = ROOT / "examples"


def _play(example: str) -> Encounter[Any]:
    ruleset, setup, _ = encounterfile.load(EXAMPLES / f"{example}.yaml")
    script = read_script(EXAMPLES / f"{example}.script")
    encounter: Encounter[Any] = Encounter(ruleset, setup, RandomDice(script.seed))
    for _, line in script.lines:
        encounter.push(line)
    return encounter


_SAVES: dict[str, str] = {}


@pytest.fixture
def saved() -> Callable[[str], dict[str, Any]]:
    """A fresh copy of the save of an example's scripted game, e.g. ``saved("heimr/duel")``."""

    def make(example: str) -> dict[str, Any]:
        if example not in _SAVES:
            _SAVES[example] = _play(example).dumps()
        data: dict[str, Any] = json.loads(_SAVES[example])
        return data

    return make


@pytest.fixture
def example_copy(tmp_path: Path) -> Callable[[str], Path]:
    """A copy of an example folder in ``tmp_path`` (to change its files), e.g. ``"heimr"``."""

    def make(folder: str) -> Path:
        target = tmp_path / folder
        shutil.copytree(EXAMPLES / folder, target)
        return target

    return make


@pytest.fixture
def fracas_cli() -> Callable[..., tuple[int, str, str]]:
    """Run ``fracas`` with arguments: (exit code, stdout, stderr)."""

    def run(*args: str | Path) -> tuple[int, str, str]:
        result = CliRunner().invoke(app, [str(a) for a in args])
        return result.exit_code, result.stdout, result.stderr

    return run
