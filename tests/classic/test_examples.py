"""The heimr-classic examples play to the end through ``fracas play``; saves replay; bad
files and sheets are reported, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.engine import Encounter, RandomDice, view
from fracas.rules import find
from fracas.table.encounterfile import load

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "classic"
runner = CliRunner()


def play(*args: str | Path) -> tuple[int, str]:
    result = runner.invoke(app, ["play", *map(str, args)], env={"COLUMNS": "200"})
    return result.exit_code, result.output


@pytest.mark.parametrize("name", ["broken-oar", "ford"])
def test_examples_play_to_the_end(name: str) -> None:
    code, out = play(EXAMPLES / f"{name}.yaml", "--script", EXAMPLES / f"{name}.script")
    assert code == 0, out
    assert "The encounter is over" in out and "Traceback" not in out


@pytest.mark.rule("HC-ROUND-2")
def test_the_ford_is_a_round_of_three_sides_in_which_a_target_vanishes() -> None:
    _, out = play(EXAMPLES / "ford.yaml", "--script", EXAMPLES / "ford.script")
    assert "wolf is gone: brannoc turns on ylva at random" in out
    assert "wolf is gone: ylva does the alternative, ylva attack brannoc" in out


@pytest.mark.rule("HC-MOVE-2")
def test_the_broken_oar_guards_block_the_northerners() -> None:
    _, out = play(EXAMPLES / "broken-oar.yaml", "--script", EXAMPLES / "broken-oar.script")
    assert "Brannoc the Red guards the way to Inside the pub: Ylva Shieldbreaker is blocked" in out
    assert "Asa the Quick moves to Inside the pub" in out


def test_a_save_replays_to_the_same_state(tmp_path: Path) -> None:
    save = tmp_path / "ford.json"
    code, out = play(EXAMPLES / "ford.yaml", "--script", EXAMPLES / "ford.script", "--save", save)
    assert code == 0, out
    data = json.loads(save.read_text(encoding="utf-8"))
    again = Encounter.load(data, find("heimr-classic"))
    assert again.is_over() and again.state.round == 2
    ruleset, setup, _ = load(EXAMPLES / "ford.yaml")
    fresh = Encounter(ruleset, setup, RandomDice(14))
    for entry in again.log:
        fresh.push(entry.action)
    assert fresh.state == again.state
    # Undo goes back all the way.
    while again.log:
        again.pop()
    assert again.state == Encounter(ruleset, setup).state


def test_a_side_sees_its_own_hit_points_only() -> None:
    ruleset, setup, _ = load(EXAMPLES / "ford.yaml")
    enc = Encounter(ruleset, setup, RandomDice(1))
    seen = view(enc, "raiders")["state"]["combatants"]
    assert "hp" in seen["brannoc"] and "hp" not in seen["ylva"]
    assert view(enc)["state"]["combatants"]["ylva"]["hp"] == 5


def test_a_sheet_breaking_creation_is_reported_by_file(tmp_path: Path) -> None:
    camp = (EXAMPLES / "campaign.yaml").read_text(encoding="utf-8")
    camp = camp.replace("statistics: {CS: 7, A: 3,", "statistics: {CS: 9, A: 3,")
    (tmp_path / "campaign.yaml").write_text(camp, encoding="utf-8")
    enc_file = tmp_path / "ford.yaml"
    enc_file.write_text((EXAMPLES / "ford.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    code, out = play(enc_file)
    assert code != 0 and "Traceback" not in out
    assert "Ylva Shieldbreaker: the statistics spend 37 of 35 points (HC-STAT-1)" in out


def test_an_illegal_declaration_stops_the_script_with_its_rule(tmp_path: Path) -> None:
    script = tmp_path / "bad.script"
    script.write_text("# seed: 1\ngm open\nylva attack bob\n", encoding="utf-8")
    code, out = play(EXAMPLES / "ford.yaml", "--script", script)
    assert code != 0 and "line 3" in out and "no character called 'bob'" in out
    assert "HC-ROUND-1" in out and "Traceback" not in out
