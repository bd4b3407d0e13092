"""The attack roll and what changes it (S-ATK-1..3, S-CALLED-1, S-IMPROV-1, S-MOUNT-1, S-OPT-1).

Most tests start the round with Darna 5' from the orc (in melee at the round's start),
let both phases pass and roll one attack in the melee; the next round's initiative is
rolled when a round ends with both standing (two more faces).
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.sides.campaign import load
from fracas.rules.sides.state import SidesState

from sides_builders import darna, encounter, orc, play, started, texts

NEXT_ROUND = [1, 2]  # party 1, orcs 2


def to_melee(*combatants: dict[str, Any], **extra: Any) -> Encounter[SidesState]:
    """Darna (at 25) and the orc (at 30) in melee; both phases pass."""
    people = combatants or (darna(at=25), orc(at=30))
    enc = started(*people, **extra)
    enc.push("gm next")
    enc.push("gm next")
    assert enc.state.phase == "melee"
    return enc


def darna_attacks(enc: Encounter[SidesState], faces: list[int], options: str = "") -> str:
    """Darna attacks the orc, the orc holds; the text of Darna's attack."""
    play(enc, f"darna attack orc {options}", "orc hold", faces=faces)
    return next(t for t in texts(enc) if t.startswith("Darna attacks"))


@pytest.mark.rule("S-ATK-1")
def test_the_seeds_darna_attack_example() -> None:
    # Darna's mace attacks with Strength 10; the orc's Evasion is 1: roll 9 or lower.
    # She rolls 7: a hit. (Damage 1d6 = 3 against leather, Protection 1: 2.)
    enc = to_melee()
    line = darna_attacks(enc, [3, 4, 3, *NEXT_ROUND])
    assert "Strength 10 - Evasion 1 = 9; rolls 3+4 = 7: a hit" in line
    assert enc.state.combatants["orc"].health == 2


@pytest.mark.rule("S-ATK-1")
@pytest.mark.parametrize(("faces", "hit"), [([4, 5], True), ([5, 5], False)])
def test_the_attack_rolls_at_or_under_attribute_minus_evasion(faces: list[int], hit: bool) -> None:
    # 9 is at or under 9: a hit (1d6 = 2 - leather 1 = 1 damage); 10 is over: a miss.
    enc = to_melee()
    darna_attacks(enc, [*faces, *([2] if hit else []), *NEXT_ROUND])
    assert (enc.state.combatants["orc"].health < 4) is hit


@pytest.mark.rule("S-ATK-1")
def test_evasion_from_agility() -> None:
    tables = load({})
    assert [tables.evasion_of(a) for a in (2, 8, 9, 11, 12)] == [0, 0, 1, 1, 2]
    enc = encounter(darna(attributes={"Strength": 10, "Agility": 12}), orc(evasion=None))
    assert enc.state.combatants["darna"].stats.evasion == 2
    assert enc.state.combatants["orc"].stats.evasion == 0  # Agility 7


@pytest.mark.rule("S-ATK-1")
def test_a_circumstance_bonus_raises_the_number_to_roll_under() -> None:
    enc = to_melee()
    line = darna_attacks(enc, [5, 5, 1, *NEXT_ROUND], "bonus=1")  # 10 - 1 + 1 = 10
    assert "= 10; rolls 5+5 = 10: a hit" in line


def archer(**changes: Any) -> dict[str, Any]:
    """Ana: Agility 9, a shortbow (close to 50', medium to 100', far to 150') and a dagger."""
    sheet = darna(
        name="Ana",
        attributes={"Strength": 7, "Agility": 9},
        weapons=["Shortbow", "Dagger"],
        stamina=None,
        health=3,
    )
    return {**sheet, **changes}


@pytest.mark.rule("S-ATK-2")
@pytest.mark.parametrize(
    ("at", "faces", "hit", "band"),
    [
        (40, [4, 5], True, "close"),  # 9 - 1 + 1 (close) = 9
        (80, [4, 4], True, "medium"),  # 9 - 1 = 8
        (80, [4, 5], False, "medium"),
        (120, [3, 4], True, "far"),  # 9 - 1 - 1 (far) = 7
        (120, [4, 4], False, "far"),
    ],
)
def test_range_bands(at: int, faces: list[int], hit: bool, band: str) -> None:
    # A hit: the shortbow is two-handed, 1d6 + 1: 3 + 1 - leather 1 = 3 damage.
    enc = started(archer(), orc(at=at))
    play(enc, "ana shoot orc", faces=[*faces, *([3] if hit else [])])
    assert f"({band} range)" in texts(enc)[0]
    assert enc.state.combatants["orc"].health == (1 if hit else 4)


@pytest.mark.rule("S-ATK-2")
def test_no_shot_beyond_far_range() -> None:
    enc = started(archer(), orc(at=151))
    with pytest.raises(IllegalAction) as err:
        enc.push("ana shoot orc")
    assert err.value.rule == "S-ATK-2"


@pytest.mark.rule("S-ATK-2")
def test_split_fire_and_move() -> None:
    # Combat movement 20': half (10') before firing and half after.
    enc = started(archer(), orc(at=150))
    play(enc, "ana move orc by=10", "ana shoot orc", "ana move orc dir=away by=10", faces=[6, 6])
    with pytest.raises(IllegalAction) as err:
        enc.push("ana move orc dir=away by=1")
    assert err.value.rule == "S-ATK-2"
    # More than half before firing: no moving after it.
    enc = started(archer(), orc(at=150))
    play(enc, "ana move orc by=11", "ana shoot orc", faces=[6, 6])
    with pytest.raises(IllegalAction) as err:
        enc.push("ana move orc dir=away by=1")
    assert err.value.rule == "S-ATK-2"
    # Firing first, the whole move after it; or the whole move, then firing.
    enc = started(archer(), orc(at=150))
    play(enc, "ana shoot orc", "ana move orc dir=away by=20", faces=[6, 6])
    enc = started(archer(), orc(at=170))
    play(enc, "ana move orc by=20", "ana shoot orc", faces=[6, 6])


@pytest.mark.rule("S-ATK-2")
def test_a_shooter_cannot_charge() -> None:
    enc = started(archer(), orc(at=20))
    play(enc, "ana shoot orc", faces=[6, 6])
    with pytest.raises(IllegalAction) as err:
        enc.push("ana charge orc")
    assert err.value.rule == "S-ATK-2"


@pytest.mark.rule("S-ATK-2", "S-MELEE-1")
def test_a_shooter_strikes_last_in_melee() -> None:
    # Ana shoots the orc beside her (close: 9 - 1 + 1 = 9; 6+6 misses). In the melee she
    # has Last Strike: the orc strikes first, 9 - 0 = 9, 1+1 hits; its sword's 4 takes
    # her 3 Health: she is taken out and does not strike back.
    enc = started(archer(at=25), orc(at=30))
    play(enc, "ana shoot orc", "ana done", "orc done", faces=[6, 6])
    play(enc, "ana attack orc", "orc attack ana", faces=[1, 1, 4])
    lines = texts(enc)
    assert lines.index("the simultaneous strike:") < lines.index("Last Strike:")
    assert "Ana is taken out before striking" in lines
    assert enc.state.combatants["ana"].dead and enc.is_over()


def mage(**changes: Any) -> dict[str, Any]:
    """Mira: Intelligence 10, a dagger and a shortbow."""
    sheet = darna(
        name="Mira",
        attributes={"Strength": 7, "Agility": 9, "Intelligence": 10},
        weapons=["Dagger", "Shortbow"],
    )
    return {**sheet, **changes}


@pytest.mark.rule("S-ATK-3")
def test_a_caster_cannot_shoot_or_charge() -> None:
    enc = started(mage(), orc(at=20))
    enc.push("mira cast orc spell=Slow")
    for line in ("mira shoot orc", "mira charge orc"):
        with pytest.raises(IllegalAction) as err:
            enc.push(line)
        assert err.value.rule == "S-ATK-3"
    enc = started(mage(), orc(at=20))
    play(enc, "mira shoot orc", faces=[6, 6])
    with pytest.raises(IllegalAction) as err:
        enc.push("mira cast orc spell=Slow")
    assert err.value.rule == "S-ATK-3"


@pytest.mark.rule("S-ATK-3")
def test_a_spell_as_the_referee_sets_it() -> None:
    # Intelligence 10 - difficulty 1 = 9; 3+3 = 6 succeeds; 1d6 = 5 damage, which the
    # referee set: Protection does not apply. The orc (Health 6) keeps 1.
    enc = started(mage(), orc(at=40, health=6))
    play(
        enc,
        "mira cast orc spell='Fire bolt' test=Intelligence difficulty=1 damage=1d6",
        faces=[3, 3, 5],
    )
    assert enc.state.combatants["orc"].health == 1
    assert "Mira casts Fire bolt on Orc" in texts(enc)


@pytest.mark.rule("S-ATK-3", "S-MOVE-2")
def test_casting_in_melee_range_gives_an_opportunity_attack_and_last_strike() -> None:
    enc = started(mage(at=25), orc(at=30))
    enc.push("mira cast orc spell=Slow")
    assert enc.state.pending == [["orc", "mira", "casts a spell within melee range"]]
    assert enc.to_move == "orc"
    play(enc, "orc pass", "mira done", "orc done")
    # Melee: the orc strikes before Mira (Last Strike): 6+6 and 6+6 both miss.
    play(enc, "mira attack orc", "orc attack mira", faces=[6, 6, 6, 6, *NEXT_ROUND])
    lines = [t for t in texts(enc) if "attacks" in t]
    assert lines[0].startswith("Orc attacks") and lines[1].startswith("Mira attacks")


@pytest.mark.rule("S-CALLED-1")
@pytest.mark.parametrize(("faces", "hit"), [([4, 4], True), ([4, 5], False)])
def test_a_called_shot_at_the_hands(faces: list[int], hit: bool) -> None:
    # 10 - Evasion 1 - hands 1 = 8. A hit also makes the orc drop its sword.
    enc = to_melee()
    line = darna_attacks(enc, [*faces, *([2] if hit else []), *NEXT_ROUND], "called=hands")
    assert "- called shot at the hands 1 = 8" in line
    assert enc.state.combatants["orc"].dropped is hit


@pytest.mark.rule("S-CALLED-1")
def test_a_dropped_weapon_must_be_picked_up() -> None:
    # Round 1: the called shot hits (8 <= 8) for 2 - 1 = 1; round 2 (party 6, orcs 1):
    # the orc cannot fight until it picks its sword up, which takes its move.
    enc = to_melee()
    darna_attacks(enc, [4, 4, 2, 6, 1], "called=hands")
    play(enc, "party act", "darna done")
    unarmed = enc.copy()
    play(unarmed, "orc done")
    with pytest.raises(IllegalAction) as err:
        unarmed.push("orc attack darna")
    assert err.value.rule == "S-CALLED-1"
    enc.push("orc pickup")
    assert not enc.state.combatants["orc"].dropped
    with pytest.raises(IllegalAction) as err:
        enc.push("orc move darna dir=away")
    assert err.value.rule == "S-MOVE-1"
    enc.push("orc done")
    assert "orc attack darna" in enc.legal_actions()


@pytest.mark.rule("S-CALLED-1")
def test_called_shot_difficulties() -> None:
    enc = to_melee()
    with pytest.raises(IllegalAction) as err:
        enc.push("darna attack orc called=knee")
    assert err.value.rule == "S-CALLED-1"
    line = darna_attacks(enc, [3, 3, 2, *NEXT_ROUND], "called=eyes")  # 10 - 1 - 3 = 6: hit
    assert "called shot at the eyes 3 = 6" in line
    enc = to_melee()
    line = darna_attacks(enc, [4, 4, *NEXT_ROUND], "called=knee called_difficulty=2")
    assert "= 7; rolls 4+4 = 8: a miss" in line


@pytest.mark.rule("S-IMPROV-1")
def test_an_improvised_action_instead_of_attacking() -> None:
    # Agility 8 - difficulty 1 = 7: 3+4 = 7 succeeds; the referee's 1d6 = 3 damage.
    enc = started(darna(at=25), orc(at=30))
    play(
        enc,
        "darna improvise orc text='kicks the brazier over' test=Agility difficulty=1 damage=1d6",
        faces=[3, 4, 3],
    )
    assert enc.state.combatants["orc"].health == 1
    with pytest.raises(IllegalAction) as err:
        enc.push("darna cast orc")
    assert err.value.rule == "S-IMPROV-1"
    play(enc, "darna done", "orc done")
    # No melee attack this round for Darna.
    with pytest.raises(IllegalAction) as err:
        enc.push("darna attack orc")
    assert err.value.rule == "S-IMPROV-1"
    assert enc.to_move == "orc"


@pytest.mark.rule("S-IMPROV-1")
def test_a_failed_improvised_action_does_nothing() -> None:
    enc = started(darna(at=25), orc(at=30))
    play(enc, "darna improvise orc text='throws a barrel' test=Agility damage=1d6", faces=[4, 5])
    assert enc.state.combatants["orc"].health == 4  # 9 > 8: failure, no damage die


@pytest.mark.rule("S-MOUNT-1")
@pytest.mark.parametrize(
    ("trained", "faces", "hit"),
    [(False, [4, 5], False), (False, [4, 4], True), (True, [4, 5], True)],
)
def test_untrained_riders_attack_at_difficulty_one(
    trained: bool, faces: list[int], hit: bool
) -> None:
    # Untrained: 10 - 1 - 1 = 8; trained: 9. A hit: 1d6 = 2 - leather 1 = 1 damage.
    enc = to_melee(darna(at=25, mounted=True, trained_rider=trained), orc(at=30))
    darna_attacks(enc, [*faces, *([2] if hit else []), *NEXT_ROUND])
    assert (enc.state.combatants["orc"].health < 4) is hit


@pytest.mark.rule("S-MOUNT-1")
def test_a_mounted_charge_deals_one_more_damage() -> None:
    # Mounted, Darna moves as her horse: 120' -> 40'. The orc at 45 is within reach.
    # First Strike: 3+3 = 6 <= 9 hits; 1d6 = 3, +1 for the mounted charge, - leather 1 = 3.
    enc = started(darna(mounted=True, trained_rider=True), orc(at=45))
    assert enc.state.combatants["darna"].stats.movement == 40
    play(enc, "darna charge orc", "darna done", "orc done")
    play(enc, "darna attack orc", "orc hold", faces=[3, 3, 3, *NEXT_ROUND])
    assert enc.state.combatants["orc"].health == 1


@pytest.mark.rule("S-OPT-1")
@pytest.mark.parametrize(
    ("weapon", "faces", "hit"),
    [
        ("Sword", [4, 4], True),  # middle: 9 - 1 = 8
        ("Sword", [4, 5], False),
        ("Spear", [3, 4], True),  # long: 9 - 2 = 7
        ("Spear", [4, 4], False),
        ("Dagger", [4, 5], True),  # short: 9 (the dagger attacks with Agility: 9)
    ],
)
def test_confined_space(weapon: str, faces: list[int], hit: bool) -> None:
    people = (darna(at=25), orc(at=30, weapons=[weapon], attributes={"Strength": 9, "Agility": 9}))
    enc = to_melee(*people, confined_space=True)
    play(enc, "darna hold", "orc attack darna", faces=[*faces, *([1] if hit else []), *NEXT_ROUND])
    assert (enc.state.combatants["darna"].stamina == 3) is hit


@pytest.mark.rule("S-OPT-1")
def test_the_confined_space_rule_is_a_campaign_switch() -> None:
    assert not encounter(darna(), orc()).state.confined_space
    on = {"optional_rules": {"confined_space": True}}
    assert encounter(darna(), orc(), campaign=on).state.confined_space
    assert not encounter(darna(), orc(), campaign=on, confined_space=False).state.confined_space
    # Off: the sword's 9 stands.
    enc = to_melee()
    play(enc, "darna hold", "orc attack darna", faces=[4, 5, 1, *NEXT_ROUND])
    assert enc.state.combatants["darna"].stamina == 3
