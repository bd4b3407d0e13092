"""Damage, Protection, Armour Piercing (S-DMG-1); Stamina and Health (S-HP-1)."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.rules.sides.attacks import damage_after_protection

from sides_builders import darna, orc, play, started, texts


def hit(damage: list[int], **orc_changes: Any) -> int:
    """Darna, in melee with the orc from the round's start, hits it (4+4 <= 9) and the orc
    holds; returns the orc's Health left (it starts with 10)."""
    enc = started(darna(at=25), orc(at=30, health=10, **orc_changes))
    play(enc, "darna done", "orc done", "darna attack orc")
    play(enc, "orc hold", faces=[4, 4, *damage, 1, 2])
    return enc.state.combatants["orc"].health


@pytest.mark.rule("S-DMG-1")
def test_the_seeds_leather_armour_example() -> None:
    # The mace does 1d6: a 3; leather's Protection 1: the orc takes 2.
    assert hit([3]) == 8


@pytest.mark.rule("S-DMG-1")
def test_the_seeds_thick_metal_armour_example() -> None:
    # Protection 3; the mace pierces "Metal; 2": Protection 1 is left; a 4 does 3.
    assert hit([4], armour="Thick metal armour") == 7


@pytest.mark.rule("S-DMG-1")
def test_armour_piercing_bypasses_only_its_category_and_only_up_to_its_number() -> None:
    assert hit([4], armour="Dragon scale armour") == 9  # 4 - 3: Metal piercing does not apply
    assert hit([3], armour="Chain mail") == 7  # Protection 2, both pierced: 3
    assert damage_after_protection(3, 1, 1) == 3  # piercing 2 against Protection 1: no bonus


@pytest.mark.rule("S-DMG-1")
def test_protection_can_absorb_a_whole_hit() -> None:
    enc = started(darna(at=25, weapons=["Sword"]), orc(at=30, armour="Thick metal armour"))
    play(enc, "darna done", "orc done", "darna attack orc")
    play(enc, "orc hold", faces=[4, 4, 2, 1, 2])  # 2 - 3: no damage, never healing
    assert enc.state.combatants["orc"].health == 4
    assert "damage 2 - Protection 3 = 0" in texts(enc)


@pytest.mark.rule("S-DMG-1")
def test_two_weapons_roll_twice_and_keep_the_higher() -> None:
    enc = started(darna(at=25, off_hand="Hand axe"), orc(at=30, health=10))
    play(enc, "darna done", "orc done", "darna attack orc")
    play(enc, "orc hold", faces=[4, 4, 2, 5, 1, 2])  # 2 and 5: 5 - 1 = 4
    assert enc.state.combatants["orc"].health == 6
    assert "damage 2 and 5, the higher 5 - Protection 1 = 4" in texts(enc)


@pytest.mark.rule("S-DMG-1")
def test_two_handed_weapons_do_1d6_plus_1() -> None:
    enc = started(darna(at=25, weapons=["Battle axe"]), orc(at=30, health=10))
    play(enc, "darna done", "orc done", "darna attack orc")
    play(enc, "orc hold", faces=[4, 4, 3, 1, 2])  # 3 + 1 - 1 = 3
    assert enc.state.combatants["orc"].health == 7


@pytest.mark.rule("S-HP-1")
def test_player_characters_lose_stamina_first_then_health_with_the_leftover() -> None:
    # Darna: Stamina 4, Health 6. 3 points: Stamina 1. Then 3 more: 1 Stamina, 2 Health.
    enc = started(darna(), orc(at=100))
    enc.push("gm damage darna points=3")
    d = enc.state.combatants["darna"]
    assert (d.stamina, d.health) == (1, 6)
    enc.push("gm damage darna points=3")
    d = enc.state.combatants["darna"]
    assert (d.stamina, d.health) == (0, 4)
    assert texts(enc) == ["Darna loses 1 Stamina (left 0) and 2 Health (left 4)"]


@pytest.mark.rule("S-HP-1")
def test_non_player_characters_lose_health_and_die_at_zero() -> None:
    enc = started(darna(), orc(at=100))
    enc.push("gm damage orc points=3")
    assert enc.state.combatants["orc"].health == 1
    enc.push("gm damage orc points=3")
    o = enc.state.combatants["orc"]
    assert o.health == 0 and o.dead
    assert enc.is_over() and enc.to_move is None


@pytest.mark.rule("S-HP-1")
def test_a_player_character_dies_at_health_zero() -> None:
    enc = started(darna(), orc(at=100))
    enc.push("gm damage darna points=10")  # 4 Stamina, 6 Health
    assert enc.state.combatants["darna"].dead
    assert "Darna dies" in texts(enc)
