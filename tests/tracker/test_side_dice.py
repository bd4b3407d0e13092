"""``fracas play --side`` with typed dice asks that side only for its own rolls: the
others are rolled by fracas or typed by the game master, as the table is set, and their
questions are not shown (issue 24, point 1)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from fracas.cli import app
from fracas.table import encounterfile, rollcall
from fracas.table.scripts import Script
from fracas.table.store import Store
from fracas.table.table import Table
from fracas.tracker import Tracker

ROOT = Path(__file__).resolve().parents[2]
#: Darna and the orc have declared their melee but for Darna's blow.
BEFORE = ["gm begin", "party act", "darna charge orc", "darna done", "orc done", "orc attack darna"]


def mace(url: str) -> Store:
    store = Store.open(url)
    seed = Script.read(ROOT / "examples/sides/mace.script").seed
    ruleset, setup, title = encounterfile.load(ROOT / "examples/sides/mace.yaml")
    table = Table.start(store, "t", ruleset, setup, title, seed=seed)
    for line in BEFORE:
        table.push(line)
    return store


@pytest.mark.parametrize("others", ["roll", "gm"])
def test_a_side_at_the_terminal_types_only_its_own_dice(tmp_path: Path, others: str) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    store = mace(url)
    # The table's choice, as `fracas play --others-dice` keeps it.
    setting = CliRunner().invoke(
        app, ["play", "--table", "t", "--others-dice", others, "--db", url]
    )
    assert setting.exit_code == 0, setting.output
    assert rollcall.settings(store, store.table("t").id).fallback == others
    questions: list[str] = []

    def ask(prompt: str) -> str:
        if not prompt.endswith("faces: "):
            raise EOFError  # the tracker's own prompt, after the action: leave
        questions.append(prompt)
        dice = prompt.rsplit("(", 1)[1].split(")")[0].split(", ")
        # The party's highest faces (Darna misses her roll under), the GM's lowest.
        return " ".join(["1" if prompt.startswith("Game master") else "6"] * len(dice))

    table = Table.resume(store, "t")
    tracker = Tracker(table, Console(file=io.StringIO()), "party", ask=ask)
    table.physical_dice(tracker.ask_faces)
    tracker.handle("darna attack orc")
    assert tracker.message == "", tracker.message
    assert any(q.startswith("Darna attacks Orc") for q in questions), questions
    assert not any(q.startswith(("Orc", "orcs")) for q in questions), questions
    assert "Orc attacks Darna" not in "".join(questions)
    gm_typed = [q for q in questions if q.startswith("Game master")]
    assert bool(gm_typed) == (others == "gm")
    assert store.table("t").head == len(BEFORE) + 1
    log = Table.resume(store, "t").log_lines(None, len(BEFORE))
    assert any("Orc attacks Darna" in line for line in log)  # the orc did strike


def test_the_terminal_refuses_another_choice_in_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    mace(url)
    result = CliRunner().invoke(app, ["play", "--table", "t", "--others-dice", "dm", "--db", url])
    assert result.exit_code != 0 and "'dm'" in result.output
    assert "Traceback" not in result.output
