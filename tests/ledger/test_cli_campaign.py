"""``fracas campaign …``: the books at the terminal; every mistake one message, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.table.store import Store
from fracas.table.table import Table
from fracas.yamlfile import load_yaml

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["campaign", *args], env={"COLUMNS": "140"})
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str) -> str:
    code, out, err = run(*args)
    assert code == 0, err
    return out


@pytest.mark.rule("H-XP-1", "H-XP-2")
def test_a_heimr_campaign_at_the_terminal(tmp_path: Path) -> None:
    assert "imported" in ok("import", str(EXAMPLES / "heimr" / "campaign.yaml"), "--name", "ford")
    assert "ford" in ok("list")
    out = ok(
        "award",
        "ford",
        "ylva",
        "astrid",
        "eirik",
        "--xp",
        "20",
        "--group",
        "band",
        "--date",
        "2026-01-01",
    )
    assert "6 each to ylva, astrid, eirik, 2 left over" in out  # 20 / 3 = 6 rest 2
    out = ok("train", "ford", "ylva", "Brawl", "potential", "--date", "2026-01-03")
    assert "Brawl potential for 5 XP" in out
    assert "Brawl:" in ok("show", "ford", "ylva")
    assert (
        "trained_potential"
        not in ok("show", "ford", "ylva", "--at", "2026-01-02").split("Brawl:")[1].split("\n")[1]
    )
    log = ok("log", "ford")
    assert "20 XP to band" in log and "trains Brawl" in log
    assert "undone: 2." in ok("undo", "ford")
    assert "undone" in ok("log", "ford")
    assert "redone: 2." in ok("redo", "ford")
    target = tmp_path / "ford.yaml"
    assert "wrote" in ok("export", "ford", str(target))
    assert load_yaml(target).data["characters"]["ylva"]["abilities"]["Brawl"] == {
        "trained_consistency": 1,
        "trained_potential": 1,
    }
    alone = tmp_path / "ylva.yaml"
    ok("export", "ford", str(alone), "--character", "ylva")
    assert list(load_yaml(alone).data["characters"]) == ["ylva"]
    ok("new", "other", "--ruleset", "heimr")
    assert "ylva: sheet written" in ok("character", "other", "ylva", str(alone))
    code, _, err = run("train", "ford", "ylva", "Brawl", "speed")
    assert code == 2 and err.strip() == "fracas: train 'consistency' or 'potential', not 'speed'"
    code, _, err = run("show", "nowhere")
    assert code == 2 and "no campaign called 'nowhere' (campaigns: ford, other)" in err


@pytest.mark.rule("HC-STAT-1", "HC-XP-1")
def test_a_classic_character_created_raised_and_permitted() -> None:
    ok("new", "hvita", "--ruleset", "heimr-classic")
    stats = ["--stat", "CS=10", "--stat", "A=5", "--stat", "K=4", "--stat", "C=3"]
    out = ok("create", "hvita", "b", "--name", "Brynja", "--side", "n", *stats, "--stat", "W=3")
    assert "warning: Brynja: combat_skill 10 is above 7" in out
    code, _, err = run("create", "hvita", "c", "--name", "C", "--side", "n", "--stat", "CS=11")
    assert code == 2 and "above 10 at creation (HC-STAT-1)" in err
    ok("award", "hvita", "b", "--xp", "500")
    ok("raise", "hvita", "b", "A")
    code, _, err = run("raise", "hvita", "b", "CS")
    assert code == 2 and "needs a DM's permission" in err
    ok("permit", "hvita", "b")
    assert "raises combat_skill to 11 for 400 XP" in ok("raise", "hvita", "b", "CS")
    assert "spends 2 willpower" in ok("spend", "hvita", "b", "willpower", "2")
    code, _, err = run("spend", "hvita", "b", "willpower", "9")
    assert code == 2 and "has 8 willpower, not 9" in err


def test_an_encounter_started_and_concluded_at_the_terminal(tmp_path: Path) -> None:
    ok("import", str(EXAMPLES / "heimr" / "campaign.yaml"), "--name", "ford")
    out = ok("start", "ford", "duel-1", str(EXAMPLES / "heimr" / "duel.yaml"), "--seed", "1")
    assert "fracas play --table duel-1" in out
    out = ok("conclude", "duel-1", "--xp", "ylva=4", "--no-carry")
    assert "encounter duel-1 concluded: ylva +4; carried: nothing" in out
    code, _, err = run("conclude", "duel-1")
    assert code == 2 and "already concluded" in err
    assert "ylva carries hit points 2, fatigue 5 into the next encounter" in ok(
        "carry", "ford", "ylva", "hit_points=2", "fatigue=5"
    )
    ok("start", "ford", "duel-2", str(EXAMPLES / "heimr" / "duel.yaml"))
    ylva = Table.resume(Store.open(), "duel-2").encounter.state.combatants["ylva"]
    assert (ylva.hp, ylva.fatigue) == (2, 5)
    assert "ylva healed" in ok("restore", "ford", "ylva", "health")
    assert "carried" not in ok("show", "ford", "ylva")
