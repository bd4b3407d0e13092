"""Rounds, initiative, phases and surprise (S-ROUND-1, S-ROUND-2, S-SURPRISE-1)."""

from __future__ import annotations

import pytest

from fracas.engine import IllegalAction
from fracas.rules import find

from sides_builders import darna, encounter, orc, play, started


@pytest.mark.rule("S-ROUND-1")
def test_the_higher_side_chooses_and_ties_are_rolled_again() -> None:
    # party 3, orcs 3: a tie, both roll again; party 2, orcs 5: the orcs choose.
    enc = encounter(darna(), orc(), faces=[3, 3, 2, 5])
    enc.push("gm begin")
    assert enc.state.winner == "orcs"
    assert enc.to_move == "orcs"
    assert [str(a) for a in enc.legal_actions("orcs")] == ["orcs act", "orcs react"]
    with pytest.raises(IllegalAction) as err:
        enc.push("party act")
    assert err.value.rule == "S-ROUND-1"
    with pytest.raises(IllegalAction) as err:
        enc.push("darna move orc")  # nobody moves before the choice
    assert err.value.rule == "S-ROUND-1"
    # The orcs react: the party acts first, and Darna is the first to move.
    enc.push("orc react")  # any member may speak for its side
    assert (enc.state.acting, enc.state.reacting) == ("party", "orcs")
    assert enc.to_move == "darna"


@pytest.mark.rule("S-ROUND-1")
def test_a_round_is_ten_seconds_and_the_next_round_rolls_again() -> None:
    # Nobody is in melee: both phases pass, the melee is empty, round 2 rolls 6 to 1.
    enc = started(darna(), orc(at=100), initiative=(4, 1))
    ruleset = find("sides")
    assert ruleset.observe(enc.state, None)["clock"] == 0
    play(enc, "darna done", "orc done", faces=[1, 6])
    assert enc.state.round == 2
    assert enc.state.winner == "orcs"
    assert ruleset.observe(enc.state, None)["clock"] == 10


@pytest.mark.rule("S-ROUND-2")
def test_the_acting_side_moves_then_the_reacting_side_then_melee() -> None:
    # Party wins 4 to 1 and reacts: the orcs' phase comes first.
    enc = started(darna(), orc(at=45), choice="react")
    assert enc.state.phase == "acting" and enc.state.phasing == "orcs"
    assert enc.to_move == "orc"
    with pytest.raises(IllegalAction) as err:
        enc.push("darna move orc")
    assert err.value.rule == "S-ROUND-2"
    with pytest.raises(IllegalAction) as err:
        enc.push("orc attack darna")  # melee waits for the melee phase
    assert err.value.rule == "S-ROUND-2"
    enc.push("orc move darna")  # 20' toward Darna: from 45 to 25
    enc.push("orc done")
    assert enc.state.phase == "reacting" and enc.to_move == "darna"
    with pytest.raises(IllegalAction) as err:
        enc.push("orc move darna")  # the orcs' phase is over
    assert err.value.rule == "S-ROUND-2"
    enc.push("darna charge orc")  # 25' away: 20' of movement + 5' of melee range
    enc.push("darna done")
    assert enc.state.phase == "melee"
    assert enc.to_move == "orc"  # the acting side declares first
    with pytest.raises(IllegalAction) as err:
        enc.push("darna move orc dir=away")  # moving is over in the melee
    assert err.value.rule == "S-ROUND-2"


@pytest.mark.rule("S-ROUND-2")
def test_the_game_master_ends_a_phase() -> None:
    enc = started(darna(), darna(name="Brok", at=-10), orc(at=100))
    assert enc.to_move == "darna"
    enc.push("brok done")  # any character of the phasing side, in any order
    assert enc.to_move == "darna"
    with pytest.raises(IllegalAction) as err:
        enc.push("brok move orc")
    assert err.value.rule == "S-ROUND-2"
    enc.push("gm next")  # Darna is done too: the orcs' phase
    assert enc.state.phase == "reacting" and enc.to_move == "orc"


@pytest.mark.rule("S-SURPRISE-1")
def test_a_surprised_side_does_not_act_in_the_first_round() -> None:
    # The referee rolls 1d6 per side: party 2 (surprised: 1 or 2), orcs 3 (not).
    enc = encounter(darna(), orc(at=20), faces=[2, 3])
    enc.push("gm surprise")
    assert enc.state.surprised == ["party"]
    # Round 1: no initiative roll; the orcs act; the party has no phase.
    enc.push("gm begin")
    assert enc.dice.remaining() == 0
    assert (enc.state.acting, enc.state.phase, enc.to_move) == ("orcs", "acting", "orc")
    with pytest.raises(IllegalAction) as err:
        enc.push("darna move orc dir=away")
    assert err.value.rule == "S-SURPRISE-1"
    enc.push("orc charge darna")  # 15' to stand 5' from Darna
    enc.push("orc done")
    # The party's phase is skipped, and Darna does not strike back in the melee:
    # only the orc attacks: Strength 9 - Evasion 0 (Darna's Agility 8) = 9; 4+4 = 8 hits,
    # 1d6 = 5: Darna loses 4 Stamina, then 1 Health. Then round 2 rolls initiative: 5, 2.
    assert enc.state.phase == "melee" and enc.to_move == "orc"
    with pytest.raises(IllegalAction) as err:
        enc.push("darna attack orc")
    assert err.value.rule == "S-SURPRISE-1"
    play(enc, "orc attack darna", faces=[4, 4, 5, 5, 2])
    d = enc.state.combatants["darna"]
    assert (d.stamina, d.health) == (0, 5)
    assert enc.state.round == 2 and enc.state.winner == "party"


@pytest.mark.rule("S-SURPRISE-1")
def test_a_side_not_surprised_on_three_or_more() -> None:
    # Rolls 3 and 6: nobody is surprised; round 1 rolls initiative as usual.
    enc = encounter(darna(), orc(), faces=[3, 6, 1, 2])
    enc.push("gm surprise")
    assert enc.state.surprised == []
    enc.push("gm begin")
    assert enc.state.winner == "orcs"


@pytest.mark.rule("S-SURPRISE-1")
def test_when_every_side_is_surprised_the_first_round_passes() -> None:
    enc = encounter(darna(), orc(), faces=[1, 2, 6, 5])
    enc.push("gm surprise")
    enc.push("gm begin")  # round 1 passes; round 2 rolls 6 to 5
    assert enc.state.round == 2 and enc.state.winner == "party"
