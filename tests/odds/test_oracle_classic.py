"""The heimr-classic odds line against the engine (HC-CS-1, HC-DODGE-1, HC-WP-1): generated
fights, the declared attack resolved at the round's close 20,000 times with seeded dice;
and willpower put into the dodge at 1 a point instead of 2, patched in, caught."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import Outcome, cases, disagreements, figures, observed, resolve

from fracas.dice.classic import ClassicRoll
from fracas.engine import Action, Encounter, RandomDice
from fracas.engine.capabilities import odds
from fracas.engine.odds import AttackOdds
from fracas.rules import find
from fracas.rules.classic import attack_odds as classic_odds_module

from classic_builders import setup, sheet

COMPARISONS = 200
CLASSIC = find("heimr-classic")
KINDS = ["small", "one-handed", "two-handed", "pole-arm"]


@dataclass(frozen=True)
class Fight:
    cs: int
    kind: str
    willpower: int  # into the attack
    dodge: int
    dodge_willpower: int
    shield: bool
    hp: int


def fight_at(f: Fight) -> tuple[Encounter[Any], Action]:
    ylva = sheet(
        "ylva", "north", stats={"CS": f.cs, "K": 10 - f.cs}, weapons={"W": f.kind}, main="W"
    )
    gear = {"Axe": "one-handed", **({"Shield": "shield"} if f.shield else {})}
    orc = sheet(
        "orc",
        "orcs",
        npc=True,
        stats={"D": f.dodge, "K": 10 - f.dodge},
        weapons=gear,
        main="Axe",
        off="Shield" if f.shield else None,
        hp=f.hp,
    )
    enc = Encounter(CLASSIC, setup([ylva, orc]), RandomDice(1))
    enc.push("gm open")
    if f.dodge_willpower:
        enc.push(f"orc willpower spend={f.dodge_willpower} roll=dodge")
    spend = f" willpower={f.willpower}" if f.willpower else ""
    return enc, Action.parse(f"ylva attack orc{spend}")


def play(action: Action) -> Any:
    def one(enc: Encounter[Any]) -> Outcome:
        before = enc.state.combatants["orc"].hp
        enc.push(action)
        for line in ("ylva done", "orc done", "gm close"):
            enc.push(line)
        return {"damage": before - enc.state.combatants["orc"].hp}

    return one


def check(f: Fight) -> list[str]:
    enc, action = fight_at(f)
    line = odds(CLASSIC).attack_odds(enc, action)
    assert isinstance(line, AttackOdds), line
    shown = figures(line)
    plays = resolve(enc, play(action), fixed=lambda purpose: "initiative" in purpose)
    tests: dict[str, Any] = {"hit": lambda o: o["damage"] > 0}
    tests.update({k: (lambda o, v=int(k[7:]): o["damage"] == v) for k in shown if "=" in k})
    seen = observed(plays, {k: tests[k] for k in shown})
    return disagreements(shown, seen, plays.n, COMPARISONS)


FIGHTS = st.builds(
    Fight,
    cs=st.integers(3, 7),
    kind=st.sampled_from(KINDS),
    willpower=st.integers(0, 3),
    dodge=st.integers(3, 7),
    dodge_willpower=st.integers(0, 3),
    shield=st.booleans(),
    hp=st.just(20),
)


@pytest.mark.rule("HC-CS-1", "HC-DODGE-1", "HC-WP-1")
@cases(8)
@given(FIGHTS)
def test_the_odds_line_agrees_with_the_engine(f: Fight) -> None:
    assert check(f) == []


#: The orc puts 3 willpower into its dodge: +6 against an attack that needs a 10.
DODGING = Fight(6, "one-handed", 0, 5, 3, False, 20)


@pytest.mark.rule("HC-WP-1")
def test_willpower_into_the_dodge_at_one_a_point_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert check(DODGING) == []
    real = classic_odds_module._dodge

    def one_a_point(state: Any, attacker: Any, target: Any, melee: bool) -> Any:
        roll = real(state, attacker, target, melee)
        declared = classic_odds_module._declared_dodge_willpower(state, target.id)
        spent = min(target.plan.willpower.get("dodge", 0) + declared, target.willpower)
        return None if roll is None else ClassicRoll.parse(f"d20{roll.constant - spent:+d}")

    monkeypatch.setattr(classic_odds_module, "_dodge", one_a_point)
    assert any(w.startswith("hit") for w in check(DODGING))


@pytest.mark.rule("HC-WP-1", "HC-DODGE-1")
def test_willpower_into_the_dodge_by_hand() -> None:
    # d20+6 (CS 5, one-handed +1) against defence 12 (CS 5, one-handed axe +7... the table's):
    # the orc's dodge d20+5, 3 willpower +6: d20+11. Each attack result a at least the
    # defence hits when the dodge is at most a: (a - 11) of 20 faces.
    enc, action = fight_at(Fight(5, "one-handed", 0, 5, 3, False, 20))
    line = odds(CLASSIC).attack_odds(enc, action)
    assert isinstance(line, AttackOdds)
    need = int(line.challenge.split(">=")[1])
    bonus = int(line.challenge.split(">=")[0][3:])
    assert line.against.endswith("dodge d20+11")
    expected = sum(
        (Fraction(max(0, min(20, a - 11)), 400) for a in range(1 + bonus, 21 + bonus) if a >= need),
        Fraction(0),
    )
    assert line.hit == expected
