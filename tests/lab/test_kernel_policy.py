"""The heimr-melee policy in the engine: each of its rules, in order, on a real view."""

from __future__ import annotations

from typing import Any

import numpy
import pytest

from fracas.engine import Encounter, RandomDice, view
from fracas.rules import find
from fracas.rules.heimr.melee_policy import MeleePolicy
from fracas.rules.heimr.state import ActiveEffect, HeimrState

from heimr_builders import setup, sheet


def begun(*people: dict[str, Any], **kw: Any) -> Encounter[HeimrState]:
    enc: Encounter[HeimrState] = Encounter(find("heimr"), setup(people, **kw), RandomDice(3))
    enc.push("gm begin")
    return enc


def choice(enc: Encounter[HeimrState]) -> str:
    actor = enc.to_move
    assert actor is not None
    side = enc.state.combatants[actor].side
    legal = list(enc.legal_actions(actor))
    return str(MeleePolicy().choose(view(enc, side), legal, numpy.random.default_rng(0)))


def knife(name: str, side: str, **kw: Any) -> dict[str, Any]:
    return sheet(name, side, sword="Light weapon", **kw)


def current(enc: Encounter[HeimrState]) -> str:
    assert enc.state.turn is not None
    return enc.state.turn.actor


def test_the_game_master_begins() -> None:
    enc = Encounter(find("heimr"), setup([knife("a", "n"), knife("b", "s")]))
    legal = list(enc.legal_actions("gm"))
    assert str(MeleePolicy().choose(view(enc), legal, numpy.random.default_rng(0))) == "gm begin"


@pytest.mark.rule("H-ATK-3")
def test_it_attacks_the_enemy_whose_defence_is_weakest() -> None:
    enc = begun(knife("a", "n", dex=3), knife("b", "s"), knife("c", "s"))
    assert current(enc) == "a"  # initiative with these dice
    b, c = enc.state.combatants["b"], enc.state.combatants["c"]
    assert b.defence is not None and c.defence is not None
    b.defence.result, c.defence.result = 9, 4
    assert choice(enc) == "a attack c"
    c.defence.result = 9
    assert choice(enc) == "a attack b"  # a tie goes to the first id
    b.effects.append(ActiveEffect("Daze", 0, 0, injury=True))
    b.defence.result = 20
    assert choice(enc) == "a attack b"  # the dazed cannot defend (H-EFF-5)


@pytest.mark.rule("H-FAT-3")
def test_it_takes_a_breather_two_above_base_fatigue() -> None:
    enc = begun(knife("a", "n", dex=3, sta=2), knife("b", "s"))
    me = enc.state.combatants[current(enc)]
    base = me.fatigue
    me.fatigue = base + 1
    assert "attack" in choice(enc)
    me.fatigue = base + 2
    assert choice(enc) == f"{me.id} breather"


@pytest.mark.rule("H-ACT-3")
def test_without_a_weapon_it_draws_one_then_ends_the_turn() -> None:
    enc = begun(
        sheet("a", "n", carried=["Light weapon"]), sheet("b", "s", carried=["Light weapon"])
    )
    me = current(enc)
    assert choice(enc) == f"{me} draw 'Light weapon'"
    enc.push(choice(enc))
    assert choice(enc) == f"{me} end"


@pytest.mark.rule("H-HP-2", "H-EFF-5")
def test_a_dazed_character_ends_its_turn() -> None:
    enc = begun(knife("a", "n"), knife("b", "s"))
    me = enc.state.combatants[current(enc)]
    me.effects.append(ActiveEffect("Daze", 0, 0, injury=True))
    assert choice(enc) == f"{me.id} end"


def test_it_plays_only_heimr() -> None:
    with pytest.raises(ValueError, match="heimr"):
        MeleePolicy("tempo")
