"""The sides odds line against the engine (S-ATK-1, S-DMG-1): generated melees, the attack
resolved at the phase's end 20,000 times with seeded dice; and odds that drop Armour
Piercing, patched in, caught."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import Outcome, cases, disagreements, figures, observed, resolve

from fracas.engine import Action, Encounter
from fracas.engine.capabilities import odds
from fracas.engine.odds import AttackOdds
from fracas.rules import find
from fracas.rules.sides import attack_odds as sides_odds_module

from sides_builders import darna, orc, play, started

COMPARISONS = 200
SIDES = find("sides")
WEAPONS = ["Mace", "Sword", "Warhammer", "Halberd", "Hand axe"]
ARMOUR = ["Leather armour", "Chain mail", "Thick metal armour", "Dragon scale armour"]


@dataclass(frozen=True)
class Melee:
    strength: int
    weapon: str
    evasion: int
    armour: str


def melee_at(m: Melee) -> tuple[Encounter[Any], Action]:
    enc = started(
        darna(at=25, weapons=[m.weapon], attributes={"Strength": m.strength, "Agility": 8}),
        orc(at=30, health=40, evasion=m.evasion, armour=m.armour),
    )
    play(enc, "darna done", "orc done")
    return enc, Action.parse("darna attack orc")


def resolved(action: Action) -> Any:
    def one(enc: Encounter[Any]) -> Outcome:
        o = enc.state.combatants["orc"]
        before = o.health + (o.stamina or 0)
        enc.push(action)
        enc.push("orc hold")
        o = enc.state.combatants["orc"]
        return {"damage": before - o.health - (o.stamina or 0)}

    return one


def check(m: Melee) -> list[str]:
    enc, action = melee_at(m)
    line = odds(SIDES).attack_odds(enc, action)
    assert isinstance(line, AttackOdds), line
    shown = figures(line)
    plays = resolve(enc, resolved(action), fixed=lambda purpose: "initiative" in purpose)
    # A hit that Protection absorbs whole deals 0: the hit is read from the damage lines.
    tests: dict[str, Any] = {
        k: (lambda o, v=int(k[7:]): o["damage"] == v) for k in shown if "=" in k
    }
    shown.pop("hit")
    seen = observed(plays, tests)
    return disagreements(shown, seen, plays.n, COMPARISONS)


MELEES = st.builds(
    Melee,
    strength=st.integers(6, 12),
    weapon=st.sampled_from(WEAPONS),
    evasion=st.integers(0, 3),
    armour=st.sampled_from(ARMOUR),
)


@pytest.mark.rule("S-ATK-1", "S-DMG-1")
@cases(8)
@given(MELEES)
def test_the_odds_line_agrees_with_the_engine(m: Melee) -> None:
    assert check(m) == []


#: A mace (Metal; 2) against thick metal armour (Protection 3): 1 left, not 3.
PIERCING = Melee(10, "Mace", 1, "Thick metal armour")


@pytest.mark.rule("S-DMG-1")
def test_odds_without_armour_piercing_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    assert check(PIERCING) == []
    real = sides_odds_module.sides_line
    monkeypatch.setattr(
        sides_odds_module,
        "sides_line",
        lambda roll, dice, protection=0, pierce=0: real(roll, dice, protection, 0),
    )
    assert any(w.startswith("damage") for w in check(PIERCING))


@pytest.mark.rule("S-DMG-1")
def test_piercing_by_hand() -> None:
    # The mace's 1d6 against Protection 3 with 2 pierced: 1 left, so a d6 of n deals n - 1:
    # 0 on a 1, then 1 to 5, each a sixth of the hit.
    enc, action = melee_at(PIERCING)
    line = odds(SIDES).attack_odds(enc, action)
    assert isinstance(line, AttackOdds)
    damage = dict(line.damage)
    assert [damage.get(d, 0) for d in range(1, 6)] == [line.hit / 6] * 5
    assert damage[0] == 1 - line.hit + line.hit / 6
