"""Damage, knockout, survival, instant death, minions, wounds, first aid and magical
healing (D-DMG-1, D-KO-1, D-KO-2, D-WOUND-1, D-HEAL-1), worked out by hand."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.diestep.state import DieStepState

from diestep_builders import fight, results, roll, sheet, texts, who


def ana(**kw: Any) -> dict[str, Any]:
    return sheet("ana", "heroes", **{"att": 8, "defence": 6, "ref": 8, "weapon": "sword", **kw})


def orc(**kw: Any) -> dict[str, Any]:
    return sheet("orc", "orcs", **{"defence": 6, "ref": 6, "hp": 2, **kw})


def shaman(**kw: Any) -> dict[str, Any]:
    return sheet("shaman", "orcs", **{"ref": 6, "int": 6, **kw})


def knock_out_the_orc(
    *others: dict[str, Any], faces: tuple[int, ...] = (7, 2)
) -> Encounter[DieStepState]:
    """Ana's ATT 6 against the orc's DEF 3: two successes, its 2 HP gone (under the 4
    that would kill it outright)."""
    enc = fight([ana(), orc(), *others], faces=faces)
    roll(enc, 6, 3)
    enc.push("ana attack orc")
    enc.push("orc take")
    return enc


# -- D-DMG-1 ----------------------------------------------------------------------------


@pytest.mark.rule("D-DMG-1")
def test_one_damage_per_success_hp_stop_at_zero_and_mp_empty() -> None:
    # 6 against 2: three successes against 2 HP (and 3 MP): 0 HP, knocked out, 0 MP.
    enc = fight([ana(), orc(mp=3), shaman()], faces=[7, 2, 1])
    roll(enc, 6, 2)
    enc.push("ana attack orc")
    enc.push("orc take")
    o = who(enc, "orc")
    assert (o.hp, o.mp, o.knocked_out, o.ko_lethal, o.dead) == (0, 0, True, True, False)
    assert "Orc takes 3 lethal damage (0/2 HP)" in texts(enc)


# -- D-KO-1 -----------------------------------------------------------------------------


@pytest.mark.rule("D-KO-1")
@pytest.mark.parametrize(
    ("face", "wait", "dead", "wound", "hp"),
    [
        (1, 1, True, "", 0),  # 1: dead
        (2, 10, True, "mortal", 0),  # 2: mortally wounded, dead within ten minutes
        (3, 60, False, "badly", 1),  # 3: badly wounded, awake in about an hour
        (4, 5, False, "", 1),  # 4+: awake after five minutes with a single HP
    ],
)
def test_the_survival_roll_after_the_encounter(
    face: int, wait: int, dead: bool, wound: str, hp: int
) -> None:
    enc = knock_out_the_orc()
    assert enc.is_over() and who(enc, "orc").survival is None  # owed
    roll(enc, face)
    enc.push("gm survival")
    assert who(enc, "orc").survival == face and who(enc, "orc").wound == wound
    if wait > 1:
        enc.push(f"gm wait minutes={wait - 1}")
        assert not who(enc, "orc").dead and who(enc, "orc").knocked_out
    enc.push("gm wait minutes=1")
    o = who(enc, "orc")
    assert (o.dead, o.hp, o.knocked_out) == (dead, hp, not dead and hp == 0)


@pytest.mark.rule("D-KO-1")
def test_no_survival_roll_after_a_non_lethal_knockout() -> None:
    # An unarmed strike is not lethal (D-UNARMED-1): STR d8 two ranks down, d4 rolls 4
    # against DEF 2: two successes, the orc's 2 HP gone. It simply wakes later.
    enc = fight([ana(weapon=None, str=8), orc()], faces=[7, 2])
    roll(enc, 4, 2)
    enc.push("ana strike orc")
    enc.push("orc take")
    assert enc.is_over() and not who(enc, "orc").ko_lethal
    with pytest.raises(IllegalAction, match="owes no survival roll"):
        enc.push("gm survival orc")
    enc.push("gm wait minutes=5")
    assert who(enc, "orc").hp == 1 and not who(enc, "orc").knocked_out


@pytest.mark.rule("D-KO-1")
def test_the_roll_of_a_character_woken_in_combat_stuns_its_first_turn() -> None:
    enc = knock_out_the_orc(shaman(), faces=(7, 2, 5))  # order: Ana, shaman, orc
    enc.push("ana end")
    roll(enc, 4)  # the orc's survival roll, made at once: 4, awake
    enc.push("shaman heal orc hp=1")
    enc.push("shaman end")
    assert "Orc is stunned and loses the turn" in texts(enc)
    assert enc.state.current == "ana"


# -- D-KO-2 -----------------------------------------------------------------------------


@pytest.mark.rule("D-KO-2")
def test_lethal_damage_of_twice_the_hp_in_one_hit_kills_outright() -> None:
    # ATT d20 rolls 16 against DEF 4: four successes, twice the orc's 2 HP.
    enc = fight([ana(att=20), orc()], faces=[7, 2])
    roll(enc, 16, 4)
    enc.push("ana attack orc")
    enc.push("orc take")
    assert who(enc, "orc").dead


@pytest.mark.rule("D-KO-2")
def test_once_knocked_out_the_hp_once_over_kills() -> None:
    # The orc (3 HP) lies at 0; 6 against 2 is three successes = its 3 HP: dead.
    enc = fight([ana(), orc(hp=3), shaman()], faces=[7, 2, 1], place={"orc": {"hp": 0}})
    roll(enc, 6, 2)
    enc.push("ana attack orc")
    assert who(enc, "orc").dead


@pytest.mark.rule("D-KO-2")
def test_minions_die_when_knocked_out_by_lethal_damage_only() -> None:
    # 6 against 3: 2 damage knocks out the 2-HP minion; lethal, so it dies.
    enc = fight([ana(), orc(minion=True), shaman()], faces=[7, 2, 1])
    roll(enc, 6, 3)
    enc.push("ana attack orc")
    enc.push("orc take")
    assert who(enc, "orc").dead
    # An unarmed d4 rolling 4 against 2: knocked out, not lethal: it lives.
    enc = fight([ana(weapon=None, str=8), orc(minion=True), shaman()], faces=[7, 2, 1])
    roll(enc, 4, 2)
    enc.push("ana strike orc")
    enc.push("orc take")
    assert who(enc, "orc").knocked_out and not who(enc, "orc").dead


@pytest.mark.rule("D-KO-2")
def test_a_character_with_zero_hp_dies_from_any_lethal_hit() -> None:
    enc = fight([ana(), orc(hp=0), shaman()], faces=[7, 2, 1])
    assert not who(enc, "orc").knocked_out  # 0 HP to begin with, still fighting
    roll(enc, 2, 2)
    enc.push("ana attack orc")
    enc.push("orc take")
    assert who(enc, "orc").dead


# -- D-WOUND-1 --------------------------------------------------------------------------


def mortally_wounded() -> Encounter[DieStepState]:
    """The orc knocked out, the encounter ended by the game master, survival roll 2."""
    enc = knock_out_the_orc(shaman(), faces=(7, 2, 5))
    enc.push("gm over")
    roll(enc, 2)
    enc.push("gm survival")
    assert who(enc, "orc").wound == "mortal"
    return enc


@pytest.mark.rule("D-WOUND-1")
def test_first_aid_saves_the_mortally_wounded_with_one_hp() -> None:
    # The shaman's INT d6 rolls 3 against the kit's d4 rolling 2: saved.
    enc = mortally_wounded()
    roll(enc, 3, 2)
    enc.push("shaman aid orc supplies=kit")
    o = who(enc, "orc")
    assert (o.hp, o.wound, o.permanent_injury) == (1, "badly", True)
    enc.push("gm wait minutes=10")
    assert not o.dead and not who(enc, "orc").dead and not who(enc, "orc").knocked_out


@pytest.mark.rule("D-WOUND-1")
def test_failed_first_aid_cannot_be_tried_again_and_the_wound_kills() -> None:
    # Improvised bandages: a d8 difficulty; INT 2 against 5 fails.
    enc = mortally_wounded()
    roll(enc, 2, 5)
    enc.push("shaman aid orc supplies=improvised")
    assert results(enc, "roll")[-1]["die"] == "d8"
    with pytest.raises(IllegalAction, match="already been tried"):
        enc.push("ana aid orc")
    enc.push("gm wait minutes=10")
    assert who(enc, "orc").dead


@pytest.mark.rule("D-WOUND-1")
def test_first_aid_comes_after_the_encounter() -> None:
    enc = knock_out_the_orc(shaman(), faces=(7, 2, 5))
    enc.push("ana end")
    with pytest.raises(IllegalAction, match=r"after the encounter \(D-WOUND-1\)"):
        enc.push("shaman aid orc")


@pytest.mark.rule("D-WOUND-1")
def test_badly_wounded_half_ap_every_roll_disadvantaged_no_mp_until_full_hp() -> None:
    # Ana badly wounded at 3/6 HP: 3 AP halved to 1. No attack (2 AP), no MP.
    enc = fight(
        [ana(mp=2), orc(att=8, hp=6, weapon="axe")],
        faces=[7, 7, 2],
        place={"ana": {"wound": "badly", "hp": 3}},
    )
    assert enc.state.initiative["ana"] == 7  # REF rolled twice, the lower: 7, 7
    assert enc.state.turn is not None and enc.state.turn.pool == 1
    with pytest.raises(IllegalAction, match=r"1 AP left; a major action costs 2"):
        enc.push("ana attack orc")
    enc.push("ana end")
    roll(enc, 3, 6, 2)  # the orc's ATT 3; Ana's DEF d6 disadvantaged: 6, 2 -> 2
    enc.push("orc attack ana")
    enc.push("ana take")
    assert who(enc, "ana").hp == 3 - 1
    enc.push("gm heal ana hp=4")  # back to 6/6: the penalties go
    assert who(enc, "ana").wound == ""
    enc.push("orc end")
    assert enc.state.turn is not None and enc.state.turn.pool == 3
    # With 4 AP (halved to 2) a spell is affordable, but not its MP.
    enc = fight([ana(mp=2, ap=4), orc()], faces=[7, 7, 2], place={"ana": {"wound": "badly"}})
    with pytest.raises(IllegalAction, match=r"badly wounded and cannot use MP \(D-WOUND-1\)"):
        enc.push("ana spell orc mp=1")


@pytest.mark.rule("D-WOUND-1")
def test_merely_wounded_has_no_penalty() -> None:
    enc = fight([ana(), orc(att=8, hp=6, weapon="axe")], faces=[7, 2], place={"ana": {"hp": 3}})
    assert enc.state.turn is not None and enc.state.turn.pool == 3
    enc.push("ana end")
    roll(enc, 3, 6)  # one face for Ana's DEF
    enc.push("orc attack ana")
    enc.push("ana take")
    assert results(enc, "roll")[-1]["faces"] == [6]


# -- D-HEAL-1 ---------------------------------------------------------------------------


@pytest.mark.rule("D-HEAL-1")
def test_healing_at_zero_hp_makes_the_survival_roll_at_once_a_one_is_too_late() -> None:
    enc = knock_out_the_orc(shaman(), faces=(7, 2, 5))
    enc.push("ana end")
    roll(enc, 1)
    enc.push("shaman heal orc hp=2")
    assert who(enc, "orc").dead and "the healing comes too late" in texts(enc)


@pytest.mark.rule("D-HEAL-1")
def test_healed_from_zero_hp_is_stunned_for_a_turn() -> None:
    enc = knock_out_the_orc(shaman(), faces=(7, 2, 5))
    enc.push("ana end")
    roll(enc, 5)
    enc.push("shaman heal orc hp=2")
    o = who(enc, "orc")
    assert (o.hp, o.knocked_out, o.stunned) == (2, False, 1)
    enc.push("shaman end")  # the orc's turn is lost
    enc.push("ana end")
    enc.push("shaman end")
    assert enc.state.current == "orc" and not who(enc, "orc").stunned


@pytest.mark.rule("D-HEAL-1")
def test_a_healed_mortal_wound_stuns_for_the_encounter_then_badly_wounded() -> None:
    enc = knock_out_the_orc(shaman(), faces=(7, 2, 5))
    enc.push("ana end")
    roll(enc, 2)  # survival 2: mortally wounded, healed to 1 HP of 2
    enc.push("shaman heal orc hp=1")
    o = who(enc, "orc")
    assert (o.hp, o.wound, o.stunned_encounter, o.permanent_injury) == (1, "badly", True, True)
    for _ in range(2):  # round after round its turn is lost
        enc.push("shaman end")
        enc.push("ana end")
    assert texts(enc).count("Orc is stunned and loses the turn") == 2
    enc.push("shaman heal orc hp=1")  # full HP: the stun and the bad wound end
    assert not who(enc, "orc").stunned_encounter and who(enc, "orc").wound == ""
    assert who(enc, "orc").permanent_injury  # no ritual: the injury stays


@pytest.mark.rule("D-HEAL-1")
def test_a_healing_ritual_advantages_the_roll_restores_all_hp_and_prevents_injury() -> None:
    # After the encounter: FOR with advantage, faces 1 and 2 -> 2 (mortally wounded,
    # where a plain roll of the first face would have killed); the ritual restores all
    # HP and leaves no permanent injury.
    enc = knock_out_the_orc(shaman(), faces=(7, 2, 5))
    enc.push("gm over")
    roll(enc, 1, 2)
    enc.push("shaman heal orc ritual=yes")
    o = who(enc, "orc")
    assert results(enc, "roll")[-1]["faces"] == [1, 2]
    assert (o.dead, o.hp, o.wound, o.permanent_injury) == (False, 2, "", False)
    enc = knock_out_the_orc(shaman(), faces=(7, 2, 5))
    enc.push("ana end")
    with pytest.raises(IllegalAction, match=r"not cast in combat \(D-HEAL-1\)"):
        enc.push("shaman heal orc ritual=yes")
