"""The chase's terrain decisions (H-CHASE-2): in play, from ``fracas chase`` and from the
web's typed action, with scripted dice worked out by hand.

Agility for dex 0 is C1P0 (a d6 and a d10, the higher counts); an attribute roll with
the GM's consistency 0 is C0 with the attribute as potential: one d6. Each chase turn
the target rolls first, then the chaser.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from test_chase import run

from fracas.engine import Encounter, IllegalAction
from fracas.rules.heimr.chase import parse_terrain
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, sheet, texts

pytestmark = pytest.mark.rule("H-CHASE-2")


def running(brannoc_str: int = 0) -> Encounter[HeimrState]:
    # Initiative C0P3: Brannoc 6 + 3 acts before Ylva 1 + 3. Both sta 0: fatigue 4.
    people = [sheet("brannoc", "south", str=brannoc_str), sheet("ylva", "north")]
    enc = encounter(people, faces=[6, 1], stances={"brannoc": "none", "ylva": "none"})
    enc.push("gm begin")
    enc.push("brannoc run B3")
    enc.push("ylva run B3")  # a chase begins
    return enc


def test_the_gm_changes_the_terrain_from_a_chase_turn_on() -> None:
    enc = running()
    # Turn 1, Agility C1P0: Brannoc [5, 5] 5, Ylva [5, 5] 5: neither gains.
    # Turn 2, the river: sta C0P0, one d6: Brannoc 1, below his fatigue 4: caught.
    enc.dice.add([5, 5, 5, 5] + [1])
    enc.push("gm chase ylva target=brannoc ability=Agility gap=2 terrain='2:sta'")
    log = texts(enc, 1)
    assert any(t.startswith("chase turn 2: the terrain calls for sta") for t in log)
    assert any("chase turn 2: brannoc runs (sta)" in t for t in log)
    assert enc.state.combatants["ylva"].square == enc.state.combatants["brannoc"].square


def test_the_target_chooses_the_terrain_that_favours_it() -> None:
    enc = running(brannoc_str=2)  # str 2 against Ylva's 0; Agility the same for both
    enc.dice.add([6, 2])  # str C0P2: Brannoc 6, Ylva 2 (below 4: she cannot go on)
    enc.push("gm chase ylva target=brannoc ability=Agility gap=2 terrain='1:Agility|str'")
    assert "chase turn 1: brannoc chooses str of Agility, str; both roll str from now on " in (
        " ".join(texts(enc, 1)) + " "
    ).replace("(H-CHASE-2)", "")
    assert enc.state.combatants["brannoc"].fled


def test_a_terrain_decision_is_checked_before_the_chase_starts() -> None:
    enc = running()
    for bad, words in [
        ("2:Swim", "unknown ability or attribute 'Swim'"),
        ("two:sta", "give TURN:ABILITY"),
        ("2:Perception", "not based on a physical attribute"),
        ("2:sta 2:str", "two terrain decisions for chase turn 2"),
    ]:
        with pytest.raises(IllegalAction, match=words):
            enc.push(f"gm chase ylva target=brannoc ability=Agility terrain='{bad}'")
    assert parse_terrain("") == {}


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.yaml"
    characters = {
        "hrolf": sheet("Hrolf", "raiders", sta=0),
        "ylva": sheet("Ylva", "shieldwall", sta=0),
    }
    path.write_text(yaml.safe_dump({"characters": characters}), encoding="utf-8")
    return path


def test_fracas_chase_takes_the_terrain_decisions(campaign: Path) -> None:
    base = [str(campaign), "--chaser", "hrolf", "--target", "ylva", "--ability", "Agility"]
    # Turn 1 as above, level; turn 2 on sta: Ylva 1, below her fatigue 4: caught.
    code, out, err = run(*base, "--terrain", "2:sta", "--dice", "5,5,5,5,1")
    assert code == 0, err
    assert "chase turn 2: the terrain calls for sta" in out
    assert "caught: Hrolf reaches Ylva" in out
    code, out, _ = run(*base, "--terrain", "2:sta", "--dice", "5,5,5,5,1", "--json")
    assert json.loads(out)["terrain"] == {"2": ["sta"]}
    code, out, err = run(*base, "--terrain", "2:Swim", "--dice", "5,5")
    assert code == 2 and "unknown ability or attribute 'Swim'" in err
    assert len(err.strip().splitlines()) == 1


def test_the_web_plays_a_chase_with_terrain_decisions(tmp_path: Path) -> None:
    from tests.web.webtools import Web

    from fracas.table.table import Table

    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    a, b = list(web.start("heimr/duel.yaml").encounter.state.combatants)[:2]
    assert web.act("gm begin")[0] == 303
    # The typed action of the game master's page; every chase turn rolls at least once,
    # so a chase of two turns or more meets the decision (escape=9: no early end).
    code, _ = web.act(f"gm chase {a} target={b} ability=Agility gap=1 escape=9 terrain='1:sta'")
    assert code == 303
    log = "\n".join(Table.resume(web.store, "t").log_lines(None, 0))
    assert "chase turn 1: the terrain calls for sta" in log
