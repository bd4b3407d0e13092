"""The diestep odds lines against the engine (D-ATK-2, D-DMG-1, D-DEF-2, D-GRAB-1): for each
defence the target may choose, the attack and that answer played 20,000 times with
seeded dice; and a full hold counted from 3 successes, patched in, caught."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import Outcome, cases, disagreements, figures, observed, resolve

from fracas.engine import Action, Encounter
from fracas.engine.capabilities import odds
from fracas.engine.odds import AttackOdds
from fracas.rules import find
from fracas.rules.diestep import attack_odds as diestep_odds_module

from diestep_builders import fight, sheet

COMPARISONS = 300
DIESTEP = find("diestep")
DICE = [4, 6, 8, 10, 12]


@dataclass(frozen=True)
class Bout:
    verb: str  # attack, strike or grab
    att: int
    strength: int
    defence: int
    their_strength: int
    agility: int
    armed: bool


def bout_at(b: Bout) -> tuple[Encounter[Any], Action]:
    ana = sheet("ana", "heroes", hp=40, att=b.att, str=b.strength, ref=8, weapon="sword")
    orc = sheet(
        "orc",
        "orcs",
        hp=40,
        defence=b.defence,
        str=b.their_strength,
        agi=b.agility,
        ref=4,
        weapon="sword" if b.armed and b.verb == "attack" else None,
    )
    enc = fight([ana, orc], faces=[7, 1])
    return enc, Action.parse(f"ana {b.verb} orc")


def answered(action: Action, how: str) -> Any:
    def one(enc: Encounter[Any]) -> Outcome:
        before = enc.state.combatants["orc"].hp
        enc.push(action)
        if enc.state.windows:
            enc.push(Action("orc", how))
        orc = enc.state.combatants["orc"]
        return {"damage": before - orc.hp, "hold": orc.hold or ""}

    return one


def check(b: Bout) -> list[str]:
    enc, action = bout_at(b)
    shown_odds = odds(DIESTEP).attack_odds(enc, action)
    assert isinstance(shown_odds, AttackOdds), shown_odds
    wrong = []
    for line in shown_odds.lines:
        shown = figures(line, dict(line.figures))
        plays = resolve(enc, answered(action, line.defence or "take"))
        tests: dict[str, Any] = {
            "hit": lambda o: o["damage"] > 0 or bool(o["hold"]),
            "partial hold": lambda o: o["hold"] == "partial",
            "full hold": lambda o: o["hold"] == "full",
        }
        tests.update({k: (lambda o, v=int(k[7:]): o["damage"] == v) for k in shown if "=" in k})
        seen = observed(plays, {k: tests[k] for k in shown})
        wrong += [f"{line.defence}: {w}" for w in disagreements(shown, seen, plays.n, COMPARISONS)]
    return wrong


BOUTS = st.builds(
    Bout,
    verb=st.sampled_from(["attack", "strike", "grab"]),
    att=st.sampled_from(DICE),
    strength=st.sampled_from(DICE),
    defence=st.sampled_from(DICE),
    their_strength=st.sampled_from(DICE),
    agility=st.sampled_from(DICE),
    armed=st.booleans(),
)


@pytest.mark.rule("D-ATK-2", "D-DMG-1", "D-DEF-2", "D-GRAB-1")
@cases(6)
@given(BOUTS)
def test_the_odds_lines_agree_with_the_engine(b: Bout) -> None:
    assert check(b) == []


#: A strong grab (STR d12, two ranks down: d8) against STR d4: full holds are frequent.
GRAB = Bout("grab", 6, 12, 6, 4, 4, False)


@pytest.mark.rule("D-GRAB-1")
def test_a_full_hold_from_three_successes_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    assert check(GRAB) == []
    monkeypatch.setattr(diestep_odds_module, "FULL_HOLD", 3)
    assert any("full hold" in w for w in check(GRAB))


@pytest.mark.rule("D-GRAB-1", "D-ATK-2")
def test_holds_by_hand() -> None:
    # A d8 against a d4: equal or more succeeds (26 of 32 pairs), double or more is two
    # successes: a d4 face f is doubled by the d8 faces 2f..8: 7 + 5 + 3 + 1 = 16 pairs.
    line = diestep_odds_module.meet(diestep_odds_module.DieStep(8), diestep_odds_module.DieStep(4))
    assert dict(line.holds()) == {
        "partial hold": Fraction(26 - 16, 32),
        "full hold": Fraction(16, 32),
    }
