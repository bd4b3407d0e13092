"""The Heimr odds line against the engine (H-DICE-9): generated duels, the attack or brawl
played 20,000 times with seeded dice, every figure shown within a corrected interval;
and the slips the odds once had, patched back in, caught."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import Outcome, cases, disagreements, figures, observed, resolve

from fracas.engine import Action, Encounter, RandomDice
from fracas.engine.capabilities import odds
from fracas.engine.odds import AttackOdds
from fracas.rules import find
from fracas.rules.heimr import attack_odds as heimr_attack_odds
from fracas.rules.heimr import odds as heimr_odds_module
from fracas.rules.heimr.state import PreRolled

from heimr_builders import setup, sheet

#: Bonferroni: an upper bound on the comparisons this module makes in one run.
COMPARISONS = 200
HEIMR = find("heimr")


@dataclass(frozen=True)
class Duel:
    """One generated position: who attacks how, and what the target holds."""

    verb: str  # "attack", "brawl", "bind"
    strength: int
    trained: tuple[int, int]
    fatigue: int
    defence: str  # dodge, parry or none
    held: int
    failed: bool
    target_fatigue: int


def duel_at(d: Duel) -> tuple[Encounter[Any], Action]:
    weapon = "Light weapon" if d.verb == "attack" else None
    abilities = {"Dueling": d.trained, "Brawl": d.trained}
    ylva = sheet("ylva", "north", hp=9, str=d.strength, dex=1, abilities=abilities, sword=weapon)
    hrolf = sheet("hrolf", "south", hp=9)
    enc = Encounter(HEIMR, setup([ylva, hrolf]), RandomDice(1))
    enc.push("gm begin")
    if enc.state.current != "ylva":  # Ylva acts: let Hrolf's turn go by
        enc.push("hrolf end")
    state = enc.state
    y, h = state.combatants["ylva"], state.combatants["hrolf"]
    y.fatigue, h.fatigue = d.fatigue, d.target_fatigue
    if d.defence == "none":
        h.defence = None
    else:
        h.stance = "dodge"
        h.defence = PreRolled("dodge", d.held, d.held, 6, d.failed)
    words = {"attack": "ylva attack hrolf", "brawl": "ylva brawl hrolf effect=hit"}
    return enc, Action.parse(words.get(d.verb, "ylva brawl hrolf effect=bind"))


def play(action: Action) -> Any:
    def one(enc: Encounter[Any]) -> Outcome:
        before = enc.state.combatants["hrolf"].hp
        events = enc.push(action)
        defended = [e for e in events if e.kind == "defence" and e.data.get("who") == "hrolf"]
        hit = any(e.data.get("hit") or "defend" in e.text for e in defended)
        hold = enc.state.combatants["ylva"].holding == "hrolf"
        touched = any(e.kind == "brawl" and e.data.get("touch") for e in events)
        return {
            "damage": before - enc.state.combatants["hrolf"].hp,
            "hit": hit,
            "touch": touched or (hold and not hit),
            "hold": hold,
        }

    return one


def check(d: Duel) -> list[str]:
    """What the engine contradicts in the odds line of ``d``."""
    enc, action = duel_at(d)
    line = odds(HEIMR).attack_odds(enc, action)
    assert isinstance(line, AttackOdds), line
    shown = figures(line, dict(line.figures))
    # The defence rolled again once used shows its top faces: it decides nothing here.
    plays = resolve(enc, play(action), fixed=lambda purpose: "defence" in purpose)
    tests: dict[str, Any] = {k: (lambda o, k=k: bool(o[k])) for k in ("hit", "touch", "hold")}
    tests.update({k: (lambda o, v=int(k[7:]): o["damage"] == v) for k in shown if "=" in k})
    seen = observed(plays, {k: tests[k] for k in shown})
    return disagreements(shown, seen, plays.n, COMPARISONS)


DUELS = st.builds(
    Duel,
    verb=st.sampled_from(["attack", "brawl", "bind"]),
    strength=st.integers(-1, 2),
    trained=st.tuples(st.integers(0, 2), st.integers(0, 2)),
    fatigue=st.integers(0, 7),
    defence=st.sampled_from(["dodge", "dodge", "none"]),
    held=st.integers(2, 14),
    failed=st.booleans(),
    target_fatigue=st.integers(0, 6),
)


@pytest.mark.rule("H-DICE-9", "H-ATK-4", "H-ATK-8", "H-FAT-1", "H-DEF-4")
@cases(20)
@given(DUELS)
def test_the_odds_line_agrees_with_the_engine(d: Duel) -> None:
    assert check(d) == []


#: A brawl (C1P1 against a dodge of 9) two below which touches 18% more often.
BRAWL = Duel("brawl", 1, (0, 0), 0, "dodge", 9, False, 0)
#: A knife (C1P3) against 9, tying it 18% of the time, and against 4 at fatigue 3, its
#: roll equal to the fatigue 8%.
TIE = Duel("attack", 1, (0, 0), 0, "dodge", 9, False, 0)
EQUAL = Duel("attack", 1, (0, 0), 3, "dodge", 4, False, 0)


@pytest.mark.rule("H-ATK-8")
def test_a_touch_band_two_below_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    assert check(BRAWL) == []
    monkeypatch.setattr(heimr_odds_module, "TOUCH_BAND", 2)
    assert any(w.startswith("touch") for w in check(BRAWL))


def _tie_hits(challenge: Any, defence: Any, failed: bool, fatigue: int) -> Fraction:
    chance = Fraction(0)
    for (raw, _d6), p in challenge.joint().items():
        if raw >= fatigue and (failed or defence is None or raw + challenge.potential >= defence):
            chance += p
    return chance


def _equal_fails(challenge: Any, defence: Any, failed: bool, fatigue: int) -> Fraction:
    chance = Fraction(0)
    for (raw, _d6), p in challenge.joint().items():
        if raw > fatigue and (failed or defence is None or raw + challenge.potential > defence):
            chance += p
    return chance


@pytest.mark.rule("H-ATK-4", "H-FAT-1")
@pytest.mark.parametrize(
    ("slip", "duel"), [(_tie_hits, TIE), (_equal_fails, EQUAL)], ids=["tie-hits", "equal-fails"]
)
def test_the_held_defence_slips_are_caught(
    monkeypatch: pytest.MonkeyPatch, slip: Any, duel: Duel
) -> None:
    assert check(duel) == []
    monkeypatch.setattr(heimr_attack_odds, "beats_held", slip)
    assert any(w.startswith("hit") for w in check(duel))


@pytest.mark.rule("H-ATK-8", "H-FAT-1")
def test_touch_by_hand() -> None:
    # A C1P0 brawl (the higher of a d6 and a d10) against a dodge of 5 at fatigue 0: it
    # hits above 5, 1 - (5/6)(5/10) = 7/12; it touches at 4 or 5, (5/6)(5/10) - (3/6)(3/10)
    # = 4/15. At fatigue 4 a roll of 4 still stands (equal is not below): the touch keeps
    # its 4, and only 1 to 3 fail outright.
    enc, action = duel_at(Duel("brawl", 0, (0, 0), 0, "dodge", 5, False, 0))
    line = odds(HEIMR).attack_odds(enc, action)
    assert isinstance(line, AttackOdds) and line.challenge == "C1P0"
    assert (line.hit, dict(line.figures)["touch"]) == (Fraction(7, 12), Fraction(4, 15))
    enc, action = duel_at(Duel("brawl", 0, (0, 0), 4, "dodge", 5, False, 0))
    line = odds(HEIMR).attack_odds(enc, action)
    assert isinstance(line, AttackOdds)
    assert (line.hit, dict(line.figures)["touch"]) == (Fraction(7, 12), Fraction(4, 15))
