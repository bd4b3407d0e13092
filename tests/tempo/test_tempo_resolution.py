"""Checks and their reading (T-DICE-1, T-RES-1, T-RES-2), worked by hand from seed 003.

A check is the Prismatic Dice Pool plus the skill rating: the index of the first die
(Black 0 ... White 7) showing a 6, plus 8 for each throw without one.
"""

from __future__ import annotations

import pytest

from tempo_builders import encounter, kinds, pool, sheet, who


@pytest.mark.rule("T-DICE-1")
def test_a_check_is_the_first_six_plus_eight_a_reroll_plus_the_rating() -> None:
    # Astrid is Off Guard: she cannot react, so the attack is unopposed.
    # First throw 2,3,4,5,1,2,3,4 shows no 6: roll again and add 8. Second throw
    # 1,1,6,...: Orange (2) shows the first 6. Pool 8 + 2 = 10, melee 2: 12.
    # Second attack: Black shows a 1 and Red the first 6: the first 6 counts, not the
    # first 1 (the errata's reading): pool 1, total 3.
    faces = [2, 3, 4, 5, 1, 2, 3, 4] + [1, 1, 6, 1, 1, 1, 1, 6] + [1]
    faces += [1, 6, 2, 2, 2, 2, 2, 2] + [1]
    enc = encounter(
        [sheet("ylva", "north", melee=2), sheet("astrid", "south", hp=30)],
        faces,
        place={"astrid": {"prepared": False}},
    )
    enc.push("ylva melee-attack astrid")
    roll = kinds(enc, "roll")[0]
    assert (roll["pool"], roll["rating"], roll["result"]) == (10, 2, 12)
    enc.push("ylva melee-attack astrid")
    roll = kinds(enc, "roll")[0]
    assert (roll["pool"], roll["result"]) == (1, 3)


def hits(defence: int, armour: str) -> tuple[list[str], int]:
    """Ylva (melee 2) attacks Astrid (evasion 1, the given defence and armour), who evades:
    Ylva's pool 4 + 2 = 6, Astrid's pool 1 + 1 = 2, damage d6 face 5 + 2 = 7."""
    enc = encounter(
        [
            sheet("ylva", "north", melee=2),
            sheet("astrid", "south", evasion=1, combat_defence=defence, armour=armour),
        ],
        pool(4) + pool(1) + [5],
    )
    enc.push("ylva melee-attack astrid")
    enc.push("astrid evade")
    return [o["outcome"] for o in kinds(enc, "outcome")], who(enc, "astrid").hp


@pytest.mark.rule("T-RES-1")
def test_opposed_each_side_subtracts_the_others_result() -> None:
    # Combat Defence 3, Mail (protection 3): Hit from 3, Critical Hit from 3 + 3 = 6.
    # Ylva 6 - 2 = 4: a Hit (not the Critical Hit 6 alone would give): 7 - 3 = 4 damage,
    # 12 -> 8. Astrid 2 - 6 = -4: below Evade's DT 0, Failure (2 alone would succeed
    # and cancel the attack).
    assert hits(3, "Mail") == (["Hit", "Failure"], 8)


@pytest.mark.rule("T-RES-1")
def test_unopposed_the_result_is_read_as_it_is() -> None:
    # Astrid lets the attack go: Ylva's 6 is read alone, a Critical Hit against
    # Combat Defence (Armoured) 6: 7 damage ignoring the mail, 12 -> 5.
    enc = encounter(
        [
            sheet("ylva", "north", melee=2),
            sheet("astrid", "south", combat_defence=3, armour="Mail"),
        ],
        pool(4) + [5],
    )
    enc.push("ylva melee-attack astrid")
    enc.push("astrid pass")
    assert kinds(enc, "outcome")[0]["margin"] == 6
    assert kinds(enc, "outcome")[0]["outcome"] == "Critical Hit"
    assert who(enc, "astrid").hp == 5


@pytest.mark.rule("T-RES-2")
@pytest.mark.parametrize(
    ("result", "outcome", "hp"),
    [
        (1, "Miss", 12),  # below Combat Defence 2: no damage is rolled
        (2, "Hit", 9),  # Combat Defence 2: d6 face 4 + 2 = 6, less Mail 3: 3 damage
        (4, "Hit", 9),
        (5, "Critical Hit", 6),  # Combat Defence (Armoured) 2 + 3 = 5: 6, armour ignored
        (9, "Critical Hit", 6),
    ],
)
def test_an_attacks_thresholds_are_the_targets_combat_defences(
    result: int, outcome: str, hp: int
) -> None:
    # Ylva has melee 0, so her result is the pool; Astrid lets it go.
    enc = encounter(
        [sheet("ylva", "north"), sheet("astrid", "south", combat_defence=2, armour="Mail")],
        pool(result) + [4],
    )
    enc.push("ylva melee-attack astrid")
    enc.push("astrid pass")
    assert kinds(enc, "outcome")[0]["outcome"] == outcome
    assert who(enc, "astrid").hp == hp


@pytest.mark.rule("T-RES-2")
@pytest.mark.parametrize(("result", "pinned"), [(2, False), (3, True)])
def test_a_pin_is_read_against_the_targets_grapple_defence(result: int, pinned: bool) -> None:
    # Both Grappled; Astrid's Grapple Defence is 3. Ylva (grapple 0) pins; Astrid could
    # Struggle but lets it go. A result of 2 fails, 3 pins her.
    enc = encounter(
        [sheet("ylva", "north"), sheet("astrid", "south", grapple_defence=3)],
        pool(result),
        place={
            "ylva": {"status": "Grappled", "engaged_with": "astrid"},
            "astrid": {"status": "Grappled"},
        },
    )
    enc.push("ylva pin")
    enc.push("astrid pass")
    assert who(enc, "astrid").status == ("Pinned" if pinned else "Grappled")
    assert who(enc, "ylva").status == "Grappled"
