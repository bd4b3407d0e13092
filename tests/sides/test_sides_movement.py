"""Movement, opportunity attacks, running and charging (S-MOVE-1..4)."""

from __future__ import annotations

import pytest

from fracas.engine import IllegalAction
from fracas.rules.sides.campaign import load

from sides_builders import darna, encounter, orc, play, started, texts


@pytest.mark.rule("S-MOVE-1")
@pytest.mark.parametrize(
    ("units", "exploration", "combat"),
    [
        ("feet", 120, 40),
        ("feet", 90, 30),
        ("feet", 60, 20),
        ("feet", 40, 15),  # a third is 13', rounded up to 15'
        ("metres", 36, 12),
        ("metres", 27, 9),
        ("metres", 18, 6),
        ("metres", 12, 4.5),  # 4 m, rounded up to 4.5 m
    ],
)
def test_combat_movement_is_a_third_of_exploration_movement(
    units: str, exploration: float, combat: float
) -> None:
    enc = encounter(darna(movement=exploration), orc(movement=exploration), units=units)
    assert enc.state.combatants["darna"].stats.movement == combat


@pytest.mark.rule("S-MOVE-1")
def test_the_rounding_reproduces_the_seeds_table() -> None:
    # Values off the table: a third, rounded up to 5' (1.5 m); the table rows agree.
    tables = load({})
    for feet, combat in tables.movement.feet.items():
        assert tables.combat_movement(feet + 0.001, "feet") in (combat, combat + 5)
    assert tables.combat_movement(100, "feet") == 35  # 33.3' -> 35'
    assert tables.combat_movement(30, "metres") == 10.5  # 10 m -> 10.5 m


@pytest.mark.rule("S-MOVE-1")
def test_a_move_goes_at_most_the_combat_movement_in_parts() -> None:
    # Darna's combat movement is 20': 12' then 8' is all of it; 1' more is refused.
    enc = started(darna(), orc(at=100))
    play(enc, "darna move orc by=12", "darna move to=20")
    assert enc.state.combatants["darna"].position == 20
    with pytest.raises(IllegalAction) as err:
        enc.push("darna move orc by=1")
    assert err.value.rule == "S-MOVE-1"
    assert "0' more" in str(err.value)


@pytest.mark.rule("S-MOVE-1")
def test_distances_in_metres() -> None:
    # In metres: combat movement 6 m (exploration 18 m); melee range 1.5 m.
    enc = started(darna(movement=18), orc(movement=18, at=7.5), units="metres")
    enc.push("darna move orc")  # 6 m: stops at 1.5 m from the orc, at 6
    assert enc.state.combatants["darna"].position == 6
    assert "6 m" in texts(enc)[0]


@pytest.mark.rule("S-MOVE-2")
def test_moving_away_from_melee_gives_an_opportunity_attack() -> None:
    # Darna and the orc start the round 5' apart: in melee. Darna moves 20' away.
    enc = started(darna(at=25), orc(at=30))
    enc.push("darna move orc dir=away")
    assert enc.state.combatants["darna"].position == 5
    assert enc.to_move == "orc"
    assert [str(a) for a in enc.legal_actions("orc")] == ["orc attack darna", "orc pass"]
    with pytest.raises(IllegalAction) as err:
        enc.push("darna done")
    assert err.value.rule == "S-MOVE-2"
    # The orc's one melee attack, at once: Strength 9 - Evasion 0 = 9; 6+3 = 9 hits;
    # the sword's 1d6 shows 3: Darna has no armour and loses 3 of her 4 Stamina.
    play(enc, "orc attack darna", faces=[6, 3, 3])
    d = enc.state.combatants["darna"]
    assert (d.stamina, d.health) == (1, 6)
    assert enc.to_move == "darna"  # her phase goes on


@pytest.mark.rule("S-MOVE-2")
def test_no_opportunity_attack_without_melee_at_the_start_of_the_round() -> None:
    # 10' apart at the round's start; Darna steps in to 5' and away again: no attack.
    enc = started(darna(at=20), orc(at=30))
    play(enc, "darna move orc by=5", "darna move orc dir=away by=10")
    assert enc.state.pending == [] and enc.to_move == "darna"


@pytest.mark.rule("S-MOVE-2")
def test_the_opponent_may_let_the_mover_go() -> None:
    enc = started(darna(at=25), orc(at=30))
    play(enc, "darna move orc dir=away by=1")  # 6' away: out of melee range
    enc.push("orc pass")
    assert enc.state.combatants["darna"].stamina == 4
    enc.push("darna move orc dir=away by=5")  # one opportunity attack a round
    assert enc.state.pending == []


@pytest.mark.rule("S-MOVE-3")
def test_a_run_goes_twice_the_combat_movement() -> None:
    enc = started(darna(), orc(at=100))
    with pytest.raises(IllegalAction) as err:
        enc.push("darna run to=-41")  # 40' is twice her 20'
    assert err.value.rule == "S-MOVE-3"
    enc.push("darna run to=-40")
    assert enc.state.combatants["darna"].position == -40
    for refused in ("darna move orc", "darna charge orc", "darna shoot orc"):
        with pytest.raises(IllegalAction) as err:
            enc.push(refused)
        assert err.value.rule == "S-MOVE-3"


@pytest.mark.rule("S-MOVE-3")
def test_a_runner_may_not_come_within_melee_range_of_an_enemy() -> None:
    # The orc stands at 30: a 40' run toward it would pass it; 25' would end 5' from it.
    enc = started(darna(), orc(at=30))
    for line in ("darna run to=40", "darna run orc by=25", "darna run orc"):
        with pytest.raises(IllegalAction) as err:
            enc.push(line)
        assert err.value.rule == "S-MOVE-3"
    enc.push("darna run orc by=24")  # ends 6' away: allowed
    assert enc.state.combatants["darna"].position == 24


@pytest.mark.rule("S-MOVE-3")
def test_a_runner_fights_only_if_charged_and_then_last() -> None:
    # Darna (acting) runs 15' away from the orc she stood in melee with (it lets her
    # go); the orc charges her (First Strike). Melee: the orc strikes first, Darna last.
    # Orc: 9 - 0 = 9: 2+2 = 4 hits, 1d6 = 2: Darna loses 2 Stamina.
    # Darna: Last Strike: 10 - 1 = 9: 3+3 = 6 hits; mace 1d6 = 5 - leather 1 = 4: the orc
    # (Health 4) dies. Had she not been charged she could not fight.
    enc = started(darna(at=-5), orc(at=0))
    enc.push("darna run orc dir=away by=15")  # from -5 to -20
    assert enc.state.pending == [["orc", "darna", "moves away from melee"]]
    play(enc, "orc pass", "darna done")
    enc.push("orc charge darna")  # 15' to stand 5' from her
    enc.push("orc done")
    assert enc.to_move == "darna"  # the acting side declares first
    play(enc, "darna attack orc", "orc attack darna", faces=[2, 2, 2, 3, 3, 5])
    lines = texts(enc)
    assert lines.index("First Strike:") < lines.index("Last Strike:")
    assert enc.state.combatants["darna"].stamina == 2
    assert enc.state.combatants["orc"].dead
    assert enc.is_over()


@pytest.mark.rule("S-MOVE-3")
def test_a_runner_not_charged_does_not_fight() -> None:
    # Darna runs 25' toward the orc (to 25, 25' from it); the orc walks 20' up to her,
    # no charge: in the melee she may not attack; the orc may: 9 - 0 = 9, 6+6 misses.
    enc = started(darna(), orc(at=50))
    play(enc, "darna run orc by=25", "darna done", "orc move darna", "orc done")
    assert enc.state.phase == "melee" and enc.to_move == "orc"
    with pytest.raises(IllegalAction) as err:
        enc.push("darna attack orc")
    assert err.value.rule == "S-MOVE-3"
    play(enc, "orc attack darna", faces=[6, 6, 1, 2])  # then round 2: 1 to 2
    assert enc.state.round == 2 and enc.state.winner == "orcs"


@pytest.mark.rule("S-MOVE-4")
def test_a_charge_ends_in_melee_range_with_first_strike() -> None:
    # The orc at 25: 20' of movement brings Darna to 20, 5' from it.
    # Melee: Darna strikes first: 10 - 1 = 9; 4+5 = 9 hits; mace 6 - 1 = 5: the orc
    # (Health 4) dies before it can strike back. Its attack is lost.
    enc = started(darna(), orc(at=25))
    enc.push("darna charge orc")
    assert enc.state.combatants["darna"].position == 20
    play(enc, "darna done", "orc done", "darna attack orc")
    play(enc, "orc attack darna", faces=[4, 5, 6])
    assert enc.state.combatants["orc"].dead
    assert "Orc is taken out before striking" in texts(enc)
    assert enc.state.combatants["darna"].stamina == 4
    assert enc.dice.remaining() == 0


@pytest.mark.rule("S-MOVE-4")
def test_a_charge_reaches_only_enemies_within_movement() -> None:
    enc = started(darna(), orc(at=26))  # 21' to melee range: 1' too far
    with pytest.raises(IllegalAction) as err:
        enc.push("darna charge orc")
    assert err.value.rule == "S-MOVE-4"
    enc.push("darna move orc by=1")
    with pytest.raises(IllegalAction) as err:
        enc.push("darna charge orc")  # a charge is instead of moving
    assert err.value.rule == "S-MOVE-4"


@pytest.mark.rule("S-MOVE-4", "S-MELEE-1")
def test_a_weapon_that_negates_the_charge_strikes_at_the_same_time() -> None:
    # The orc holds a spear: Darna's charge gives no First Strike against it. Both
    # strike together: Darna 4+4 = 8 <= 9 hits for 6 - 1 = 5 (the orc dies), the orc
    # 1+2 = 3 <= 9 hits for 4: Darna loses her 4 Stamina anyway.
    enc = started(darna(), orc(at=25, weapons=["Spear"]))
    play(enc, "darna charge orc", "darna done", "orc done", "darna attack orc")
    play(enc, "orc attack darna", faces=[4, 4, 6, 1, 2, 4])
    assert "negates the charge" in " ".join(texts(enc, 5))
    assert enc.state.combatants["orc"].dead
    assert enc.state.combatants["darna"].stamina == 0
