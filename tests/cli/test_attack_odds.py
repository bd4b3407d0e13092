"""``fracas odds RULESET attack``: the odds of one attack from its numbers, worked out by
hand here, and bad words ending in one line with status 2."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from fracas.cli import app


def odds(*words: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["odds", *words, "--json"])
    assert result.exit_code == 0, result.output
    record: dict[str, object] = json.loads(result.output)
    return record


def lines(*words: str) -> dict[str | None, dict[str, object]]:
    found = odds(*words)["lines"]
    assert isinstance(found, list)
    return {x["defence"]: x for x in found}


def hit(line: dict[str, object]) -> Fraction:
    chance = line["hit"]
    assert isinstance(chance, dict)
    return Fraction(chance["exact"])


@pytest.mark.rule("D-ATK-2", "D-DMG-1", "D-DEF-2")
def test_diestep_one_line_a_defence_and_the_defenders_best() -> None:
    found = lines("diestep", "attack", "d8", "vs", "block", "d6", "adv", "vs", "take", "d6")
    # d8 against d6: a miss when the d8 is below the d6: sum over d6=k of (k-1)/8 / 6.
    assert hit(found["take"]) == 1 - Fraction(0 + 1 + 2 + 3 + 4 + 5, 48)
    assert hit(found["block"]) < hit(found["take"])
    assert found["block"]["best"] and not found["take"]["best"]
    damage = found["take"]["damage"]
    assert isinstance(damage, dict)
    # Two successes (double): d8 of 2..8 against a d6 at most half of it.
    assert Fraction(damage["2"]["exact"]) == Fraction(7, 48)


@pytest.mark.rule("D-GRAB-1")
def test_a_diestep_grab_holds_instead_of_damage() -> None:
    found = lines("diestep", "attack", "d6", "vs", "d4", "--grab")
    assert found["take"]["damage"] == {"0": {"exact": "1", "float": 1.0}}
    assert "partial" in str(found["take"]["note"])


@pytest.mark.rule("T-DICE-1", "T-RES-1", "T-RES-2", "T-ACT-2")
def test_tempo_lets_go_parries_and_counter_attacks() -> None:
    found = lines(
        "tempo", "attack", "pool+2", "vs", "pass", "vs", "parry", "pool+2",
        "vs", "counter-attack", "pool+2", "--defence", "4", "--armour", "1",
        "--damage", "d6+2", "--attacker-defence", "0",
    )  # fmt: skip
    # Unopposed: pool+2 >= 4 needs a pool of 2 or more: (5/6)**2.
    assert hit(found["pass"]) == Fraction(25, 36)
    # A parry cancels when it is not below the attack: the attack needs a margin of 4 and
    # more than 0: P(X - Y >= 4) = 6/11 (5/6)**4.
    assert hit(found["parry"]) == Fraction(6, 11) * Fraction(5, 6) ** 4
    # A Counter-Attack cancels nothing: the margin alone decides, and it may hit back.
    assert hit(found["counter-attack"]) == hit(found["parry"])
    assert "hits back" in str(found["counter-attack"]["note"])
    assert found["parry"]["best"]


def test_sides_and_classic_attacks() -> None:
    found = lines("sides", "attack", "2d6<=7", "--damage", "1d6", "--protection", "2")
    assert hit(found[None]) == Fraction(21, 36)
    damage = found[None]["damage"]
    assert isinstance(damage, dict)
    assert Fraction(damage["0"]["exact"]) == Fraction(15, 36) + Fraction(21, 36) * Fraction(2, 6)
    found = lines("heimr-classic", "attack", "d20+5", "vs", "15")
    assert hit(found[None]) == Fraction(11, 20)
    dodged = lines("heimr-classic", "attack", "d20+5", "vs", "15", "--dodge", "d20+5")
    assert hit(dodged[None]) < hit(found[None])


@pytest.mark.rule("H-ATK-4", "H-FAT-1")
def test_heimr_against_a_held_defence() -> None:
    record = odds("heimr", "attack", "C0P0", "vs", "held", "5", "--fatigue", "0")
    # C0P0 is one d6: higher than 5 only on a 6.
    assert Fraction(record["hit"]["exact"]) == Fraction(1, 6)  # type: ignore[index]
    record = odds(
        "heimr", "attack", "C0P0", "vs", "held", "5", "--fatigue", "2", "--defence-failed"
    )
    # A failed defence: any roll not failing on fatigue (a 1) hits.
    assert Fraction(record["hit"]["exact"]) == Fraction(5, 6)  # type: ignore[index]


@pytest.mark.parametrize(
    "words",
    [
        ["tempo", "attack", "pool+2"],
        ["tempo", "attack", "pool+2", "vs", "dance", "pool", "--defence", "1"],
        ["tempo", "attack", "pool+2", "vs", "parry", "--defence", "1"],
        ["diestep", "attack", "d7", "vs", "d6"],
        ["diestep", "attack", "d8"],
        ["sides", "attack", "2d6<=7"],
        ["heimr-classic", "attack", "d20+1", "vs", "x"],
        ["heimr", "attack", "C1P1", "vs", "held"],
        ["standard", "attack", "d6"],
    ],
)
def test_bad_words_end_in_one_line(words: list[str]) -> None:
    result = CliRunner().invoke(app, ["odds", *words])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


def test_the_terminal_shows_each_line() -> None:
    result = CliRunner().invoke(
        app, ["odds", "diestep", "attack", "d8", "vs", "dodge", "d10", "vs", "take", "d6"]
    )
    assert result.exit_code == 0
    assert "Best for the defender: dodge d10" in result.output
    assert "take d6" in result.output
