"""Exact attack odds (H-DICE-9): against brute force over the dice (each pair read from the
seed's words, not by the code under test), against the engine on scripted dice, and
through ``fracas odds heimr attack``. The odds line shown before an attack is checked
against the engine in tests/odds/test_oracle_heimr.py."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.dice import HeimrChallenge
from fracas.rules.heimr.odds import BODY_PARTS, Side, attack_between, attack_odds
from fracas.rules.heimr.setup import build
from fracas.table.encounterfile import load

from heimr_builders import encounter, setup, sheet

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def by_hand(attacker: Side, defender: Side | None, a_raw: int, d_raw: int) -> str:
    """One pair of rolls read from the seed's words, not from the code under test: a
    physical roll below its fatigue fails outright (H-FAT-1); a defence failing outright,
    or an attack higher than it, hits (H-ATK-4); equal or one below touches (H-ATK-8)."""
    if attacker.physical and a_raw < attacker.fatigue:
        return "fails"
    if defender is None or (defender.physical and d_raw < defender.fatigue):
        return "hit"
    attack, defence = a_raw + attacker.potential, d_raw + defender.potential
    if attack > defence:
        return "hit"
    return "touch" if attack in (defence, defence - 1) else "miss"


def brute_force(
    attacker: Side, defender: Side | None, damage: int, aim_penalty: int = 0, repeat: int = 0
) -> dict[str, Any]:
    """Every face of every die, each pair read by :func:`by_hand`: the odds by enumeration."""
    attack = HeimrChallenge(attacker.consistency - attacker.penalty - aim_penalty, 0)
    defence = (
        HeimrChallenge(defender.consistency - defender.penalty - repeat, 0) if defender else None
    )
    counts: Counter[str] = Counter()
    parts: Counter[str] = Counter()
    d_space = (
        list(itertools.product(*(range(1, s + 1) for s in defence.dice()))) if defence else [(1,)]
    )
    total = 0
    for a_faces in itertools.product(*(range(1, s + 1) for s in attack.dice())):
        a = attack.evaluate(list(a_faces))
        for d_faces in d_space:
            d_raw = defence.evaluate(list(d_faces)).parts["raw"] if defence else 0
            what = by_hand(attacker, defender, a.parts["raw"], d_raw)
            counts[what] += 1
            if what == "hit":
                parts[BODY_PARTS[a.parts["d6"]]] += 1
            total += 1
    return {
        "hit": Fraction(counts["hit"], total),
        "touch": Fraction(counts["touch"], total),
        "miss": Fraction(counts["miss"], total),
        "fails": Fraction(counts["fails"], total),
        "parts": {k: Fraction(v, total) for k, v in sorted(parts.items())},
        "expected": damage * Fraction(counts["hit"], total),
    }


@pytest.mark.parametrize(
    ("attacker", "defender", "kind", "repeated", "aim"),
    [
        (Side(2, 1, fatigue=3), Side(-1, 2, fatigue=2), "dodge", 0, None),
        (Side(3, 0, fatigue=1, penalty=2), Side(2, 1, fatigue=4), "block", 1, None),
        (Side(1, 3, fatigue=2), Side(1, 1, fatigue=1), "parry", 0, "torso"),
        (Side(-2, 5, fatigue=1), None, "dodge", 0, None),
    ],
)
@pytest.mark.rule("H-DICE-9", "H-ATK-4", "H-ATK-5", "H-FAT-1", "H-DEF-3")
def test_attack_odds_equal_brute_force(
    attacker: Side, defender: Side | None, kind: Any, repeated: int, aim: str | None
) -> None:
    odds = attack_odds(attacker, defender, 2, kind, repeated, aim)
    expected = brute_force(
        attacker,
        defender,
        2,
        aim_penalty=2 if aim else 0,
        repeat=2 * repeated if kind != "parry" else 0,
    )
    assert (odds.hit, odds.touch, odds.miss, odds.fails) == (
        expected["hit"],
        expected["touch"],
        expected["miss"],
        expected["fails"],
    )
    if aim is None:
        assert odds.parts == expected["parts"]
    else:
        assert odds.parts == {aim: expected["hit"]}
    assert odds.expected_damage == expected["expected"]
    assert odds.damage == {0: 1 - odds.hit, 2: odds.hit}


ATTACKS = list(itertools.product((1, 3, 6), (1, 5, 10)))
DODGES = list(itertools.product((2, 6), (1, 4, 10)))


@pytest.mark.rule("H-DICE-9", "H-ATK-4", "H-ATK-5", "H-FAT-1")
def test_attack_odds_classify_each_roll_as_the_engine_plays_it() -> None:
    # Ylva's knife (Knife fighting C1, P2; fatigue 3) against Hrolf's dodge (Agility C1P0,
    # fatigue 2): initiative 6 and 4, Ylva's parry [3, 3], Hrolf's dodge the faces tried.
    attacker, defender = Side(1, 2, fatigue=3), Side(1, 0, fatigue=2)
    seen: Counter[str] = Counter()
    for (a6, a10), (d6, d10) in itertools.product(ATTACKS, DODGES):
        enc = encounter(
            [sheet("ylva", "n", sword="Light weapon"), sheet("hrolf", "s")],
            faces=[6, 4, 3, 3, d6, d10, a6, a10, 4, 4],
            stances={"hrolf": "dodge"},
            place={"ylva": {"fatigue": 3}, "hrolf": {"fatigue": 2}},
        )
        enc.push("gm begin")
        enc.push("ylva attack hrolf")
        a_raw = HeimrChallenge(1).evaluate([a6, a10]).parts["raw"]
        d_raw = HeimrChallenge(1).evaluate([d6, d10]).parts["raw"]
        what = by_hand(attacker, defender, a_raw, d_raw)
        seen[what] += 1
        hrolf = enc.state.combatants["hrolf"]
        assert hrolf.hp == (3 if what == "hit" else 4), (a6, a10, d6, d10, what)
        damage = [e for entry in enc.log for e in entry.events if e.kind == "damage"]
        if what == "hit":
            assert damage[0].data["part"] == BODY_PARTS[a6]
    assert set(seen) == {"hit", "touch", "miss", "fails"}


def test_the_odds_from_an_encounter_file_are_its_fighters() -> None:
    _, setup, _ = load(ROOT / "examples" / "heimr" / "duel.yaml")
    state = build(setup)
    odds = attack_between(state, "ylva", "astrid")
    ylva, astrid = state.combatants["ylva"], state.combatants["astrid"]
    sword = ylva.stats.abilities["Sword and shield"]
    great = astrid.stats.abilities["Swordmanship"]
    assert odds.attack == HeimrChallenge(sword.consistency, sword.potential + 3)
    assert odds.defence == HeimrChallenge(great.consistency, great.potential + 5)
    assert odds == attack_odds(
        Side(sword.consistency, sword.potential + 3, ylva.fatigue),
        Side(great.consistency, great.potential + 5, astrid.fatigue),
        2,
        "parry",
    )


def cli(*words: str) -> dict[str, Any]:
    result = runner.invoke(app, ["odds", "heimr", "attack", *words, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_the_cli_prints_the_core_numbers() -> None:
    words = ["C3P3", "vs", "parry", "C2P2", "--fatigue", "2", "--defender-fatigue", "3"]
    expected = attack_odds(Side(3, 3, 2), Side(2, 2, 3), 2, "parry").to_dict()
    assert cli(*words, "--damage", "2") == expected
    block = attack_odds(Side(3, 3, 1, 2), Side(2, 2, 1), 1, "block", repeated=1, aim="torso")
    assert (
        cli("C3P3", "vs", "block", "C2P2", "--repeated", "1", "--penalty", "2", "--aim", "torso")
        == block.to_dict()
    )
    duel = str(ROOT / "examples" / "heimr" / "duel.yaml")
    _, setup, _ = load(duel)
    assert cli(duel, "astrid", "ylva") == attack_between(build(setup), "astrid", "ylva").to_dict()


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["C3P3", "vs", "parry", "C2P2", "--repeated", "1"], "one parry"),
        (["C3P3", "against", "C2P2"], "expected 'C3P3 vs parry C2P2'"),
        (["examples/heimr/duel.yaml", "ylva", "bob"], "no combatant called 'bob'"),
        (["C3P3", "vs", "C2P2", "--aim", "head"], "aim at one of"),
    ],
)
def test_bad_words_get_one_message(words: list[str], message: str) -> None:
    result = runner.invoke(app, ["odds", "heimr", "attack", *words])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.rule("H-POS-1")
def test_a_prone_fighter_attacks_and_defends_at_minus_two() -> None:
    people = [sheet("ylva", "n", sword="Light weapon"), sheet("hrolf", "s", sword="Light weapon")]
    standing = attack_between(build(setup(people)), "ylva", "hrolf")
    both_down = build(setup(people, place={"ylva": {"prone": True}, "hrolf": {"prone": True}}))
    prone = attack_between(both_down, "ylva", "hrolf")
    assert standing.defence is not None and prone.defence is not None
    assert prone.attack.consistency == standing.attack.consistency - 2
    assert prone.defence.consistency == standing.defence.consistency - 2


@pytest.mark.rule("H-ATK-8")
def test_a_touch_band_two_below_disagrees_with_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    from fracas.rules.heimr import odds as heimr_odds

    attacker, defender = Side(1, 1, fatigue=0), Side(1, 2, fatigue=0)
    assert attack_odds(attacker, defender).touch == brute_force(attacker, defender, 1)["touch"]
    monkeypatch.setattr(heimr_odds, "TOUCH_BAND", 2)
    assert attack_odds(attacker, defender).touch != brute_force(attacker, defender, 1)["touch"]
