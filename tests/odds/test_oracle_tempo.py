"""The tempo odds lines against the engine (T-DICE-1, T-RES-1, T-RES-2, T-ACT-2): for each
reaction the target may choose (and letting the attack go), the exchange played 20,000
times with seeded dice: the hit, every damage and the hit back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import Outcome, cases, disagreements, figures, observed, resolve

from fracas.engine import Action, Encounter, RandomDice
from fracas.engine.capabilities import odds
from fracas.engine.odds import AttackOdds
from fracas.rules import find

from tempo_builders import setup, sheet

COMPARISONS = 300
TEMPO = find("tempo")
WEAPONS = ["Dagger", "Arming sword", "Longsword", "Poleaxe"]


@dataclass(frozen=True)
class Exchange:
    melee: int
    their_melee: int
    weapon: str
    defence: int
    armour: str | None


def exchange_at(x: Exchange) -> tuple[Encounter[Any], Action]:
    ylva = sheet("ylva", "north", melee=x.melee, weapons=[x.weapon], hp=60)
    astrid = sheet(
        "astrid", "south", melee=x.their_melee, hp=60, combat_defence=x.defence, armour=x.armour
    )
    enc = Encounter(TEMPO, setup([ylva, astrid]), RandomDice(1))
    return enc, Action.parse("ylva melee-attack astrid")


def answered(action: Action, how: str) -> Any:
    def one(enc: Encounter[Any]) -> Outcome:
        events = enc.push(action)
        events += enc.push(Action("astrid", how))
        ex = enc.state.exchange
        if ex is not None and ex.phase == "counter":
            events += enc.push(Action("ylva", "pass"))
        dealt = [e.data for e in events if e.kind == "damage"]
        return {
            "hit": any(d["who"] == "ylva" for d in dealt),
            "damage": sum(d["damage"] for d in dealt if d["who"] == "ylva"),
            "hit back": any(d["who"] == "astrid" for d in dealt),
        }

    return one


def check(x: Exchange) -> list[str]:
    enc, action = exchange_at(x)
    shown_odds = odds(TEMPO).attack_odds(enc, action)
    assert isinstance(shown_odds, AttackOdds), shown_odds
    wrong = []
    for line in shown_odds.lines:
        shown = figures(line, dict(line.figures))
        plays = resolve(enc, answered(action, line.defence or "pass"))
        tests: dict[str, Any] = {k: (lambda o, k=k: bool(o[k])) for k in ("hit", "hit back")}
        tests.update({k: (lambda o, v=int(k[7:]): o["damage"] == v) for k in shown if "=" in k})
        seen = observed(plays, {k: tests[k] for k in shown})
        wrong += [f"{line.defence}: {w}" for w in disagreements(shown, seen, plays.n, COMPARISONS)]
    return wrong


EXCHANGES = st.builds(
    Exchange,
    melee=st.integers(0, 4),
    their_melee=st.integers(0, 4),
    weapon=st.sampled_from(WEAPONS),
    defence=st.integers(0, 5),
    armour=st.sampled_from([None, "Leather", "Mail", "Plate"]),
)


@pytest.mark.rule("T-DICE-1", "T-RES-1", "T-RES-2", "T-ACT-2")
@cases(4)
@given(EXCHANGES)
def test_the_odds_lines_agree_with_the_engine(x: Exchange) -> None:
    assert check(x) == []
