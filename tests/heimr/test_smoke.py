"""A duel played with scripted dice, worked by hand: the shape of every Heimr test."""

from __future__ import annotations

import pytest

from heimr_builders import encounter, sheet


@pytest.mark.rule("H-ATK-4", "H-ATK-5")
def test_a_hit_deals_the_weapons_damage_to_the_body_part_of_the_d6() -> None:
    # Both have dex 0: initiative C0P3, one d6 each. Ylva rolls 5, Brannoc 2.
    # Ylva's Dueling: base C0 + trained 2 = C2, P dex 0 + 1 = 1, +3 medium weapon: C2P4.
    ylva = sheet("ylva", "north", abilities={"Dueling": (2, 1)}, sword="Medium weapon")
    # Brannoc has no weapon: his defence is a dodge, Agility base C1, P0.
    brannoc = sheet("brannoc", "south")
    enc = encounter(
        [ylva, brannoc],
        faces=[5, 2]  # initiative: Ylva 5 + 3 = 8, Brannoc 2 + 3 = 5
        + [4, 3, 3]  # Ylva pre-rolls parry C2P4: highest 4 + 4 = 8
        + [3, 2],  # Brannoc pre-rolls dodge C1P0: highest 3
    )
    enc.push("gm begin")
    assert enc.to_move == "ylva"
    # Attack C2P4: d6 4 (sword arm), d10s 2 and 1 -> 4 + 4 = 8 > dodge 3: a hit for 2.
    # The used dodge showed d6 3, below Brannoc's fatigue 4 - sta 0 = 4: fatigue 5 (H-FAT-2).
    enc.dice.add([4, 2, 1] + [6, 1])  # then Brannoc re-rolls his dodge, C-1 (one dodge)
    enc.push("ylva attack brannoc")
    b = enc.state.combatants["brannoc"]
    assert b.hp == 2
    assert b.fatigue == 5
    assert any("hit in the sword arm" in e.text for e in enc.log[-1].events)
