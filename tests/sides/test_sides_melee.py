"""Simultaneous melee with First Strike and Last Strike (S-MELEE-1)."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import IllegalAction

from sides_builders import darna, orc, play, started, texts


@pytest.mark.rule("S-MELEE-1")
def test_melee_attacks_are_simultaneous() -> None:
    # In melee from the round's start, nobody charged: both strike at once.
    # Darna: 10 - 1 = 9; 4+4 hits; mace 5 - leather 1 = 4: the orc (Health 4) dies.
    # The orc strikes all the same: 9 - 0 = 9; 1+2 hits; sword 4: Darna's 4 Stamina.
    enc = started(darna(at=25), orc(at=30))
    play(enc, "darna done", "orc done", "darna attack orc")
    play(enc, "orc attack darna", faces=[4, 4, 5, 1, 2, 4])
    assert enc.state.combatants["orc"].dead
    assert enc.state.combatants["darna"].stamina == 0
    assert "Orc is taken out before striking" not in texts(enc)


@pytest.mark.rule("S-MELEE-1")
def test_first_strike_kills_before_the_foe_strikes_back() -> None:
    # Darna charges (First Strike): the same dice, but the orc dies before its attack.
    enc = started(darna(), orc(at=25))
    play(enc, "darna charge orc", "darna done", "orc done", "darna attack orc")
    play(enc, "orc attack darna", faces=[4, 4, 5])
    assert enc.state.combatants["orc"].dead
    assert enc.state.combatants["darna"].stamina == 4
    assert enc.dice.remaining() == 0  # the orc's attack is never rolled


@pytest.mark.rule("S-MELEE-1")
def test_first_strike_that_does_not_take_the_foe_out_is_answered() -> None:
    # Darna's First Strike hits for 2 - 1 = 1 (the orc keeps 3); the orc strikes back.
    enc = started(darna(), orc(at=25))
    play(enc, "darna charge orc", "darna done", "orc done", "darna attack orc")
    play(enc, "orc attack darna", faces=[4, 4, 2, 1, 1, 3, 1, 2])
    assert enc.state.combatants["orc"].health == 3
    assert enc.state.combatants["darna"].stamina == 1


@pytest.mark.rule("S-MELEE-1")
def test_both_with_first_strike_strike_together() -> None:
    # Darna (no Stamina here, Health 3) charges the grunt (to 20); the brute charges
    # Darna (45 -> 25). Darna fights the brute: both have First Strike (hers from her own
    # charge), so both strike at once: Darna 4+4 hits, mace 6 - 1 = 5 kills the brute;
    # the brute 1+1 hits for 3 and kills Darna all the same. The grunt's attack, in the
    # simultaneous strike after, finds her down.
    enc = started(darna(stamina=None, health=3), orc(name="Grunt", at=25), orc(name="Brute", at=45))
    play(enc, "darna charge grunt", "darna done", "brute charge darna", "gm next")
    assert enc.state.combatants["brute"].position == 25
    play(enc, "darna attack brute", "grunt attack darna")
    play(enc, "brute attack darna", faces=[4, 4, 6, 1, 1, 3])
    lines = texts(enc)
    assert lines.index("First Strike:") < lines.index("the simultaneous strike:")
    assert enc.state.combatants["brute"].dead and enc.state.combatants["darna"].dead
    assert "Darna is already down: Grunt's attack is lost" in lines


def shooter(name: str, side: str, at: float) -> dict[str, Any]:
    return darna(
        name=name,
        side=side,
        at=at,
        attributes={"Strength": 7, "Agility": 8},
        weapons=["Shortbow", "Dagger"],
        stamina=None,
        health=3,
    )


@pytest.mark.rule("S-MELEE-1")
def test_both_with_last_strike_strike_together() -> None:
    # Each shoots the other point-blank (close: 8 + 1 = 9; 6+6 misses both times). In the
    # melee both have Last Strike: together. Daggers: 1+1 hits, 4 damage, each Health 3.
    enc = started(shooter("Ana", "party", 25), shooter("Gob", "goblins", 30))
    play(enc, "ana shoot gob", "ana done", "gob shoot ana", "gob done", faces=[6, 6, 6, 6])
    play(enc, "ana attack gob", "gob attack ana", faces=[1, 1, 4, 1, 1, 4])
    assert enc.state.combatants["ana"].dead and enc.state.combatants["gob"].dead
    assert "Last Strike:" in texts(enc)


@pytest.mark.rule("S-MELEE-1")
def test_only_enemies_within_melee_range_are_attacked() -> None:
    enc = started(darna(at=25), orc(at=30), orc(name="Archer", at=60, weapons=["Shortbow"]))
    play(enc, "darna done", "gm next")
    with pytest.raises(IllegalAction) as err:
        enc.push("darna attack archer")
    assert err.value.rule == "S-MELEE-1"
    assert [str(a) for a in enc.legal_actions("darna")] == ["darna attack orc", "darna hold"]
    # The archer has no melee weapon and nobody near: it does not take part.
    with pytest.raises(IllegalAction) as err:
        enc.push("archer hold")
    assert err.value.rule == "S-MELEE-1"
