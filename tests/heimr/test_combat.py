"""Attacks, defences and positions (H-ATK-1..5, H-ATK-8..10, H-DEF-1..4, H-POS-1..2),
worked by hand from seed 000 with scripted dice.

Every character has stamina 3, so base fatigue is 1 (H-FAT-3) and no roll fails
outright or tires, unless a test says otherwise. The abilities used:

- Light weapon (knife): Knife fighting, base C1, P dex + 2 (the weapon's P+2); damage 1.
  A knife fighter pre-rolls a parry with it, C1P2 with dex 0.
- Unarmed: a dodge, Agility base C1, P dex: C1P0 with dex 0.
- Brawl: base C1, P str.
- Bow: Archery, base C-1, P dex + 1; range 6; damage 3.

With dex 0 the initiative roll is C0P3 (willpower 3): one d6 each, in setup order.
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, sheet

State = Encounter[HeimrState]
KNIFE = {"sword": "Light weapon"}
TWO_KNIVES = {"sword": "Light weapon", "off": "Light weapon"}


def person(name: str, side: str, **kw: Any) -> dict[str, Any]:
    """A character with stamina 3: fatigue 1 never gets in the way."""
    return sheet(name, side, sta=3, **kw)


def rolls(enc: State, last: int = 1) -> list[tuple[str, str, list[int], int]]:
    """(purpose, challenge, faces, result) of every roll in the last ``last`` log entries."""
    return [
        (e.data["purpose"], e.data["challenge"], e.data["faces"], e.data["result"])
        for entry in enc.log[-last:]
        for e in entry.events
        if e.kind == "roll"
    ]


def events(enc: State, kind: str, last: int = 1) -> list[dict[str, Any]]:
    return [dict(e.data) for entry in enc.log[-last:] for e in entry.events if e.kind == kind]


def refused(enc: State, action: str) -> str:
    """The rule ID an illegal action is refused with."""
    with pytest.raises(IllegalAction) as err:
        enc.push(action)
    return err.value.rule


def duel(ylva: dict[str, Any], hrolf: dict[str, Any], faces: list[int], **kw: Any) -> State:
    """Ylva acts first (initiative d6 6 -> 9), Hrolf second (4 -> 7); ``faces`` are their
    pre-rolled defences, Ylva's then Hrolf's."""
    enc = encounter([ylva, hrolf], faces=[6, 4, *faces], **kw)
    enc.push("gm begin")
    assert enc.state.order == [ylva["name"], hrolf["name"]]
    return enc


def knife_against_bare_hands(hrolf_dodge: list[int]) -> State:
    """Ylva with a knife against unarmed Hrolf in B2; Ylva's parry [3, 3] -> 5."""
    return duel(person("ylva", "north", **KNIFE), person("hrolf", "south"), [3, 3, *hrolf_dodge])


def hp(enc: State, cid: str) -> int:
    return enc.state.combatants[cid].hp


# -- H-ATK-1: melee and combat clusters ------------------------------------------------------


@pytest.mark.rule("H-ATK-1")
def test_melee_reaches_only_characters_in_the_same_square() -> None:
    ylva = person("ylva", "north", **KNIFE)
    enc = duel(ylva, person("hrolf", "south"), [3, 3, 3, 3], squares={"hrolf": "C2"})
    assert refused(enc, "ylva attack hrolf") == "H-ATK-1"
    assert refused(enc, "ylva brawl hrolf") == "H-ATK-1"


@pytest.mark.rule("H-ATK-1")
def test_a_melee_attack_forms_a_combat_cluster_until_its_members_move_out() -> None:
    # Ylva and Asa (knives, north) and Hrolf (unarmed, south), all in B2.
    # Initiative: ylva 6 -> 9, asa 5 -> 8, hrolf 4 -> 7. Hrolf's dodge [3, 3] -> 3.
    enc = encounter(
        [
            person("ylva", "north", **KNIFE),
            person("asa", "north", **KNIFE),
            person("hrolf", "south"),
        ],
        faces=[6, 5, 4] + [3, 3] * 3,
    )
    enc.push("gm begin")
    assert enc.state.clusters == []
    # Knife [1, 1] -> 1 + 2 = 3 against the dodge 3: a miss, yet they are now a cluster.
    # Hrolf's next dodge is C-1: [3, 3] -> 3.
    enc.dice.add([1, 1] + [3, 3])
    enc.push("ylva attack hrolf")
    assert [sorted(c) for c in enc.state.clusters] == [["hrolf", "ylva"]]
    enc.dice.add([3, 3])
    enc.push("ylva end")
    # Asa's attack joins her to the same cluster: [1, 1] -> 3, a miss; next dodge C-3.
    enc.dice.add([1, 1] + [3, 3, 3, 3])
    enc.push("asa attack hrolf")
    assert [sorted(c) for c in enc.state.clusters] == [["asa", "hrolf", "ylva"]]
    enc.dice.add([3, 3])
    enc.push("asa end")
    enc.push("hrolf move out")  # out of the cluster, still in B2
    assert enc.state.cluster_of("hrolf") is None
    assert enc.state.combatants["hrolf"].square == "B2"


# -- H-ATK-2: one roll per wielded weapon ----------------------------------------------------


@pytest.mark.rule("H-ATK-2")
def test_a_weapon_in_each_hand_makes_two_attack_rolls_against_one_target() -> None:
    # Hrolf's dodge [4, 3] -> 4.
    enc = duel(person("ylva", "north", **TWO_KNIVES), person("hrolf", "south"), [3, 3, 4, 3])
    # First knife [5, 3] -> 5 + 2 = 7 > 4: a hit in the torso (d6 5), 1 damage.
    # Hrolf's dodge is rolled again at C-1 (one dodge used): [6, 2] keeps 2.
    # Second knife [4, 1] -> 4 + 2 = 6 > 2: a hit in the sword arm (d6 4), 1 damage.
    # Then his next dodge, C-3: [3, 3, 3, 3] -> 3.
    enc.dice.add([5, 3] + [6, 2] + [4, 1] + [3, 3, 3, 3])
    enc.push("ylva attack hrolf")
    attacks = [r for r in rolls(enc) if r[0].startswith("ylva attacks")]
    assert [(r[1], r[3]) for r in attacks] == [("C1P2", 7), ("C1P2", 6)]
    assert [d["part"] for d in events(enc, "damage")] == ["torso", "sword arm"]
    assert hp(enc, "hrolf") == 2
    assert enc.dice.remaining() == 0


# -- H-ATK-3: the defences are seen before the target is chosen --------------------------------


@pytest.mark.rule("H-ATK-3")
def test_an_attacker_sees_its_opponents_pre_rolled_defences() -> None:
    enc = knife_against_bare_hands([4, 3])  # Hrolf's dodge 4; Ylva's parry [3, 3] -> 5
    north = enc.ruleset.observe(enc.state, "north")["combatants"]
    south = enc.ruleset.observe(enc.state, "south")["combatants"]
    assert north["hrolf"]["defence"] == {"kind": "dodge", "result": 4}
    assert south["ylva"]["defence"] == {"kind": "parry", "result": 5}
    assert "hp" not in north["hrolf"]  # the defence shows, the hit points do not


# -- H-ATK-4: defence equal or higher is a miss; a hit deals the weapon's damage ------------


@pytest.mark.rule("H-ATK-4")
@pytest.mark.parametrize(
    ("attack", "hit"),
    [
        ([3, 1], False),  # 3 + 2 = 5, equal to the dodge 5: a miss
        ([4, 1], True),  # 4 + 2 = 6, above it: a hit, 1 damage (the knife's)
        ([1, 1], False),  # 1 + 2 = 3: a miss
    ],
)
def test_a_defence_equal_to_the_attack_is_a_miss(attack: list[int], hit: bool) -> None:
    enc = knife_against_bare_hands([5, 2])  # Hrolf's dodge: [5, 2] -> 5
    enc.dice.add([*attack, 3, 3])  # then his dodge rolled again at C-1
    enc.push("ylva attack hrolf")
    assert events(enc, "defence")[0]["hit"] is hit
    assert hp(enc, "hrolf") == (3 if hit else 4)


@pytest.mark.rule("H-ATK-4")
def test_a_called_hit_effect_replaces_the_weapons_damage() -> None:
    enc = knife_against_bare_hands([5, 2])
    # [5, 9] -> 9 + 2 = 11 > 5: a hit; "hit 3" is called, so 3 hit points, not the knife's 1.
    enc.dice.add([5, 9] + [3, 3])
    enc.push("ylva attack hrolf hit=3")
    assert hp(enc, "hrolf") == 1


# -- H-ATK-5: body parts ---------------------------------------------------------------------


@pytest.mark.rule("H-ATK-5")
@pytest.mark.parametrize(
    ("d6", "part"),
    [
        (1, "left leg"),
        (2, "right leg"),
        (3, "other arm"),
        (4, "sword arm"),
        (5, "torso"),
        (6, "torso"),
    ],
)
def test_the_attacks_d6_picks_the_body_part(d6: int, part: str) -> None:
    enc = knife_against_bare_hands([5, 2])
    # [d6, 10]: the d10's 10 is the highest, 10 + 2 = 12 > 5, whatever the d6 shows.
    enc.dice.add([d6, 10] + [3, 3])
    enc.push("ylva attack hrolf")
    assert [d["part"] for d in events(enc, "damage")] == [part]


@pytest.mark.rule("H-ATK-5")
def test_aiming_at_a_body_part_costs_2_consistency_and_hits_that_part() -> None:
    enc = knife_against_bare_hands([5, 2])
    # Aimed: C1 - 2 = C-1, the lowest die kept: [6, 9] -> 6 + 2 = 8 > 5, a hit in the left
    # leg (the d6 6 alone would have hit the torso).
    enc.dice.add([6, 9] + [3, 3])
    enc.push("ylva attack hrolf part='left leg'")
    assert rolls(enc)[0][:2] == ("ylva attacks hrolf with the Light weapon", "C-1P2")
    assert [d["part"] for d in events(enc, "damage")] == ["left leg"]


# -- H-ATK-8: brawl attacks ------------------------------------------------------------------


def brawl(faces: list[int], **ylva: Any) -> State:
    """Unarmed Ylva (str 1: Brawl C1P1) against unarmed Hrolf, whose dodge is [5, 2] -> 5."""
    return duel(person("ylva", "north", str=1, **ylva), person("hrolf", "south"), [3, 3, *faces])


@pytest.mark.rule("H-ATK-8")
@pytest.mark.parametrize(
    ("attack", "hrolf_hp", "touch"),
    [
        ([6, 5], 3, False),  # 6 + 1 = 7 > 5: a hit, Hit 1
        ([4, 2], 4, True),  # 4 + 1 = 5, equal to the defence: a touch, no hit points
        ([3, 2], 4, True),  # 3 + 1 = 4, one below it: still a touch
        ([2, 2], 4, False),  # 2 + 1 = 3, two below: a miss
    ],
)
def test_a_brawl_hit_costs_1_and_equal_or_one_below_only_touches(
    attack: list[int], hrolf_hp: int, touch: bool
) -> None:
    enc = brawl([5, 2])
    enc.dice.add([*attack, 3, 3])  # Hrolf's dodge is rolled again at C-1
    enc.push("ylva brawl hrolf effect=hit")
    assert rolls(enc)[0][:2] == ("ylva brawls hrolf (hit)", "C1P1")
    assert hp(enc, "hrolf") == hrolf_hp
    assert any(d.get("touch") for d in events(enc, "brawl")) is touch


@pytest.mark.rule("H-ATK-8")
def test_a_brawl_grab_binds_the_body_part_its_d6_picks() -> None:
    enc = brawl([5, 2])
    # [3, 8] -> 8 + 1 = 9 > 5: the grab holds; the d6 3 picks the other arm, a Bind on
    # the arm. No hit points are lost.
    enc.dice.add([3, 8] + [3, 3])
    enc.push("ylva brawl hrolf effect=bind")
    hrolf = enc.state.combatants["hrolf"]
    assert (hrolf.held_by, enc.state.combatants["ylva"].holding) == ("ylva", "hrolf")
    assert [(e.name, e.part) for e in hrolf.effects] == [("Bind", "arm")]
    assert hrolf.hp == 4


@pytest.mark.rule("H-ATK-8")
@pytest.mark.parametrize(
    ("items", "can_grab"),
    [
        ({}, True),
        ({"sword": "Light weapon"}, True),  # the off-hand is free
        ({"sword": "Great weapon"}, False),  # two hands on the weapon
        ({"sword": "Medium weapon", "off": "Small shield"}, False),
        ({"sword": "Light weapon", "off": "Light weapon"}, False),
    ],
)
def test_a_grab_needs_a_free_hand(items: dict[str, str], can_grab: bool) -> None:
    enc = brawl([5, 2], **items)
    assert ("ylva brawl hrolf effect=bind" in enc.legal_actions()) is can_grab
    assert "ylva brawl hrolf effect=hit" in enc.legal_actions()  # a punch needs none
    if not can_grab:
        assert refused(enc, "ylva brawl hrolf effect=bind") == "H-ATK-8"


# -- H-ATK-9: brawling an armed opponent -------------------------------------------------------


def brawl_the_knife() -> State:
    """Unarmed Ylva (str 1, dodge [4, 2] -> 4) against Hrolf's knife (parry [3, 3] -> 5)."""
    ylva = person("ylva", "north", str=1)
    return duel(ylva, person("hrolf", "south", **KNIFE), [4, 2, 3, 3])


@pytest.mark.rule("H-ATK-9")
def test_brawling_an_armed_opponent_provokes_its_strike_and_a_hit_ends_the_brawl() -> None:
    enc = brawl_the_knife()
    # Hrolf strikes first, as if readied: knife C1P2 [5, 6] -> 6 + 2 = 8 against Ylva's
    # pre-rolled dodge 4: a hit, torso (d6 5), 1 damage. The brawl is never rolled.
    # Ylva's dodge was used: she pre-rolls again at C-1, [3, 3].
    enc.dice.add([5, 6] + [3, 3])
    enc.push("ylva brawl hrolf")
    assert [r[0] for r in rolls(enc)] == [
        "hrolf strikes at ylva with the Light weapon",
        "ylva's dodge",
    ]
    assert (hp(enc, "ylva"), hp(enc, "hrolf")) == (3, 4)
    # The provoked attack does not change the order, and it is still Ylva's turn.
    assert (enc.state.order, enc.to_move) == (["ylva", "hrolf"], "ylva")
    assert refused(enc, "ylva brawl hrolf") == "H-ACT-1"  # the standard action is spent


@pytest.mark.rule("H-ATK-9")
def test_dodging_the_provoked_strike_lets_the_brawl_go_on() -> None:
    enc = brawl_the_knife()
    # Strike [2, 1] -> 2 + 2 = 4, equal to Ylva's dodge 4: dodged. Her next dodge, C-1:
    # [3, 3] -> 3. Then the brawl, C1P1: [6, 5] -> 7 > Hrolf's parry 5: Hit 1. His one
    # parry is spent (one knife), so he pre-rolls a dodge, C1P0: [3, 3].
    enc.dice.add([2, 1] + [3, 3] + [6, 5] + [3, 3])
    enc.push("ylva brawl hrolf")
    assert (hp(enc, "ylva"), hp(enc, "hrolf")) == (4, 3)
    assert enc.state.order == ["ylva", "hrolf"]


@pytest.mark.rule("H-ATK-9")
def test_a_dodged_melee_attack_in_the_opponents_last_turn_lets_the_brawler_in() -> None:
    # Hrolf acts first this time: initiative ylva 4 -> 7, hrolf 6 -> 9.
    ylva = person("ylva", "north", str=1)
    enc = encounter([ylva, person("hrolf", "south", **KNIFE)], faces=[4, 6] + [3, 3] + [4, 2])
    enc.push("gm begin")
    # Hrolf's knife [1, 1] -> 3 against Ylva's dodge 4: dodged. Her next dodge: [3, 3].
    enc.dice.add([1, 1] + [3, 3] + [3, 3])
    enc.push("hrolf attack ylva")
    enc.push("hrolf end")  # his parry, [3, 3] -> 5
    # No strike this time: the brawl is rolled at once, [6, 5] -> 7 > 5, Hit 1.
    enc.dice.add([6, 5] + [3, 3])
    enc.push("ylva brawl hrolf")
    assert [r[0] for r in rolls(enc)] == ["ylva brawls hrolf (hit)", "hrolf's dodge"]
    assert hp(enc, "hrolf") == 3


# -- H-ATK-10: holding a grab ----------------------------------------------------------------


def grabbed(*others: dict[str, Any], faces: tuple[int, ...] = ()) -> State:
    """Ylva (str 1) grabs Hrolf by the other arm in round 1; ``others`` act after them.

    Initiative d6s: ylva 6, hrolf 5, then 4, 3, ... for the others. Ylva's dodge [4, 2]
    -> 4, Hrolf's [5, 2] -> 5, then ``faces`` for the others' defences. The grab: Brawl
    C1P1 [3, 8] -> 9 > 5; Hrolf pre-rolls his dodge again at C-1, [4, 4] -> 4.
    """
    people = [person("ylva", "north", str=1), person("hrolf", "south"), *others]
    initiative = [6, 5, 4, 3, 2][: len(people)]
    enc = encounter(people, faces=initiative + [4, 2, 5, 2, *faces])
    enc.push("gm begin")
    enc.dice.add([3, 8] + [4, 4])
    enc.push("ylva brawl hrolf effect=bind")
    assert enc.state.combatants["hrolf"].held_by == "ylva"
    return enc


@pytest.mark.rule("H-ATK-10")
def test_a_character_holding_a_grab_cannot_defend_while_the_held_one_can() -> None:
    # The seed: "If you have an opponent grabbed using bind, you can not make any
    # defensive rolls" - "you" being the one who has the opponent grabbed.
    bjorn = person("bjorn", "north", **KNIFE)
    asa = person("asa", "south", **KNIFE)
    enc = grabbed(bjorn, asa, faces=(3, 3, 3, 3))  # the knives' parries: 5 each
    enc.dice.add([4, 2])
    enc.push("ylva end")  # her dodge [4, 2] -> 4
    enc.dice.add([3, 3])
    enc.push("hrolf end")  # his dodge, no dodge used since his turn began: [3, 3] -> 3
    # Bjorn attacks the held Hrolf, who dodges: knife [2, 1] -> 4 > 3, a hit in the
    # right leg. His dodge was used: [3, 3] at C-1 -> 3.
    enc.dice.add([2, 1] + [3, 3] + [3, 3])
    enc.push("bjorn attack hrolf")
    assert events(enc, "defence")[0]["kind"] == "dodge"
    enc.push("bjorn end")
    # Asa attacks the holder: knife [1, 1] -> 3, below Ylva's dodge 4, but she cannot
    # defend: a hit in the left leg, 1 damage. Her pre-rolled dodge stays unused.
    enc.dice.add([1, 1])
    enc.push("asa attack ylva")
    assert hp(enc, "ylva") == 3
    assert enc.state.combatants["ylva"].defence.result == 4
    # A weapon's damage is not an effect: the hold goes on.
    assert enc.state.combatants["hrolf"].held_by == "ylva"


@pytest.mark.rule("H-ATK-10")
def test_the_holder_may_release_the_grab_at_any_time() -> None:
    enc = grabbed()
    enc.dice.add([4, 2])
    enc.push("ylva end")
    assert enc.to_move == "hrolf"
    enc.push("ylva release")  # in Hrolf's turn
    assert enc.state.combatants["hrolf"].held_by is None
    assert enc.state.combatants["hrolf"].effects == []


@pytest.mark.rule("H-ATK-10")
@pytest.mark.parametrize(
    ("hrolf", "ylva", "broken"),
    [
        ([4, 3], [4, 4], False),  # Brawl C1P0: 4 against Ylva's Brawl C1P1: 5 - stopped
        ([6, 5], [4, 4], True),  # 6 passes the requirement 5: the hold is lost
        ([5, 5], [4, 4], True),  # 5 equal to it passes too
    ],
)
def test_the_holders_brawl_roll_is_the_requirement_of_the_helds_physical_actions(
    hrolf: list[int], ylva: list[int], broken: bool
) -> None:
    enc = grabbed()
    enc.dice.add([4, 2])
    enc.push("ylva end")
    # Hrolf punches Ylva: his Brawl roll, then Ylva's Brawl roll as its requirement.
    # Passed, the hold is lost and the punch lands: Ylva held him when he struck, so
    # she made no defence roll. Stopped, the action fails and the hold goes on.
    enc.dice.add([*hrolf, *ylva])
    enc.push("hrolf brawl ylva")
    assert [r[0] for r in rolls(enc)] == ["hrolf brawls ylva (hit)", "ylva holds hrolf back"]
    assert (enc.state.combatants["hrolf"].held_by is None) is broken
    assert hp(enc, "ylva") == (3 if broken else 4)
    assert enc.dice.remaining() == 0


@pytest.mark.rule("H-ATK-10")
def test_the_hold_ends_when_the_holder_receives_an_effect() -> None:
    enc = grabbed()
    enc.push("gm effect ylva name=Weaken")
    assert enc.state.combatants["hrolf"].held_by is None
    assert enc.state.combatants["ylva"].holding is None


@pytest.mark.rule("H-ATK-10")
def test_a_brawl_hit_on_the_holder_is_an_effect_and_ends_the_hold() -> None:
    # Asa (south, unarmed, str 0) punches Ylva, who holds Hrolf and cannot defend:
    # Brawl C1P0 [2, 1] -> 2, a hit all the same: the Hit 1 effect ends the hold.
    enc = grabbed(person("asa", "south"), faces=(3, 3))
    enc.dice.add([4, 2] + [3, 3])
    enc.push("ylva end")
    enc.push("hrolf end")
    enc.dice.add([2, 1])
    enc.push("asa brawl ylva")
    assert hp(enc, "ylva") == 3
    assert enc.state.combatants["hrolf"].held_by is None


# -- H-DEF-1: dodge, block, parry --------------------------------------------------------------


@pytest.mark.rule("H-DEF-1")
def test_dodge_rolls_agility_block_the_shields_ability_and_parry_the_weapons() -> None:
    # Ylva, dex 2, unarmed: dodge, Agility C1, P dex 2.
    # Hrolf, str 2, medium weapon and small shield: block, Sword and shield C1, P the
    # average of str 2 and dex 0 = 1, + the shield's 2 = C1P3.
    # Asa, dex 1, medium weapon: parry, Dueling C0, P dex 1 + the weapon's 3 = C0P4.
    ylva = person("ylva", "north", dex=2)
    hrolf = person("hrolf", "south", str=2, sword="Medium weapon", off="Small shield")
    asa = person("asa", "south", dex=1, sword="Medium weapon")
    # Initiative: ylva C2P3 [6, 1, 1] -> 9, hrolf C0P3 [5] -> 8, asa C1P3 [4, 1] -> 7.
    enc = encounter([ylva, hrolf, asa], faces=[6, 1, 1, 5, 4, 1] + [3, 3] + [3, 3] + [3])
    enc.push("gm begin")
    assert [r[:2] for r in rolls(enc) if "'s " in r[0]] == [
        ("ylva's dodge", "C1P2"),
        ("hrolf's block", "C1P3"),
        ("asa's parry", "C0P4"),
    ]


@pytest.mark.rule("H-DEF-1")
def test_a_block_needs_a_shield_and_a_parry_a_melee_weapon() -> None:
    archer = person("hrolf", "south", sword="Bow")
    enc = duel(person("ylva", "north"), archer, [3, 3, 3, 3])
    assert refused(enc, "ylva defend block") == "H-DEF-1"
    assert refused(enc, "ylva defend parry") == "H-DEF-1"
    enc.dice.add([3, 3])
    enc.push("ylva end")
    assert refused(enc, "hrolf defend parry") == "H-DEF-1"  # a bow is no melee weapon


@pytest.mark.rule("H-DEF-1", "H-DEF-2")
def test_a_parry_cannot_stop_a_shot_and_is_kept_for_the_first_melee_attack() -> None:
    # Asa (north, bow, C2), Ylva (north, knife) and Hrolf (south, knife) in B2.
    # Initiative: ylva 5 -> 8, asa 6 -> 9, hrolf 4 -> 7: order asa, ylva, hrolf.
    # Defences: asa dodge [3, 3], ylva parry [3, 3], hrolf parry [3, 3] -> 5.
    enc = encounter(
        [
            person("ylva", "north", **KNIFE),
            person("asa", "north", sword="Bow"),
            person("hrolf", "south", **KNIFE),
        ],
        faces=[5, 6, 4] + [3, 3] * 3,
        squares={"asa": "C2"},
    )
    enc.push("gm begin")
    # The shot: Archery C-1P1, one square away (no penalty, floor(1 / 2) = 0): [4, 6]
    # keeps 4, + 1 = 5. Hrolf holds a parry, so he rolls a dodge now, after the attack is
    # declared: Agility C1P0 [6, 2] -> 6 >= 5, a miss.
    enc.dice.add([4, 6] + [6, 2])
    enc.push("asa attack hrolf")
    assert rolls(enc)[1][:2] == ("hrolf's dodge", "C1P0")
    hrolf = enc.state.combatants["hrolf"]
    assert (hrolf.defence.kind, hrolf.defence.result) == ("parry", 5)
    enc.dice.add([3, 3])
    enc.push("asa end")
    # Ylva's knife [3, 2] -> 5 meets the kept parry 5: a miss. With one knife Hrolf has
    # no second parry, so his next defence is a dodge, C1 - 2 (one dodge used) = C-1.
    enc.dice.add([3, 2] + [3, 3])
    enc.push("ylva attack hrolf")
    assert events(enc, "defence")[0] == {
        "who": "hrolf",
        "kind": "parry",
        "defence": 5,
        "attack": 5,
        "hit": False,
    }
    assert rolls(enc)[-1][:2] == ("hrolf's dodge", "C-1P0")


# -- H-DEF-2: pre-rolled defences --------------------------------------------------------------


@pytest.mark.rule("H-DEF-2")
def test_the_defence_is_pre_rolled_at_the_end_of_the_turn_and_again_once_used() -> None:
    knife = person("hrolf", "south", **KNIFE)
    enc = duel(person("ylva", "north", **KNIFE), knife, [3, 3, 3, 3])
    enc.dice.add([3, 3])
    enc.push("ylva end")
    enc.push("hrolf defend dodge")  # the kind is chosen before any attack
    enc.dice.add([5, 2])
    enc.push("hrolf end")
    assert rolls(enc) == [("hrolf's dodge", "C1P0", [5, 2], 5)]
    # Ylva's knife [4, 1] -> 6 > 5: a hit. The used dodge is rolled again at once (C-1).
    enc.dice.add([4, 1] + [2, 6])
    enc.push("ylva attack hrolf")
    assert [r[:2] for r in rolls(enc)] == [
        ("ylva attacks hrolf with the Light weapon", "C1P2"),
        ("hrolf's dodge", "C-1P0"),
    ]
    assert enc.state.combatants["hrolf"].defence.result == 2


@pytest.mark.rule("H-DEF-2")
def test_fatigue_changes_only_when_a_pre_rolled_defence_is_used() -> None:
    # Hrolf has stamina 0: fatigue 4. His pre-rolled dodge [2, 6] -> 6: its d6 2 is below
    # his fatigue, yet rolling it does not tire him.
    hrolf = sheet("hrolf", "south")
    enc = duel(person("ylva", "north", **KNIFE), hrolf, [3, 3, 2, 6])
    assert enc.state.combatants["hrolf"].fatigue == 4
    # Using it against Ylva's knife ([1, 1] -> 3, a miss) does: fatigue 5. The new dodge
    # (C-1) [5, 6] -> 5 is not used and changes nothing.
    enc.dice.add([1, 1] + [5, 6])
    enc.push("ylva attack hrolf")
    assert enc.state.combatants["hrolf"].fatigue == 5


# -- H-DEF-3: defending against several attacks -----------------------------------------------


@pytest.mark.rule("H-DEF-3")
def test_each_dodge_since_the_last_turn_costs_2_on_the_next_and_the_turn_restores_them() -> None:
    # Ylva (two knives) and Asa (knife) against unarmed Hrolf; order ylva, asa, hrolf.
    enc = encounter(
        [
            person("ylva", "north", **TWO_KNIVES),
            person("asa", "north", **KNIFE),
            person("hrolf", "south"),
        ],
        faces=[6, 5, 4] + [3, 3] * 3,
    )
    enc.push("gm begin")
    # Every attack [1, 1] -> 3 meets the dodge 3; each used dodge is rolled again at 2
    # less consistency: C1 - 2 = C-1, then C-3, then C-5 (all faces 3: result 3).
    enc.dice.add([1, 1] + [3] * 2 + [1, 1] + [3] * 4 + [3, 3])
    enc.push("ylva attack hrolf")
    enc.push("ylva end")
    enc.dice.add([1, 1] + [3] * 6 + [3, 3])
    enc.push("asa attack hrolf")
    enc.push("asa end")
    # His own turn restores the defence uses: the end-of-turn dodge is C1 again.
    enc.dice.add([3, 3])
    enc.push("hrolf end")
    dodges = [r[1] for r in rolls(enc, last=5) if r[0] == "hrolf's dodge"]
    assert dodges == ["C-1P0", "C-3P0", "C-5P0", "C1P0"]


@pytest.mark.rule("H-DEF-3")
def test_dodge_and_block_count_their_uses_separately() -> None:
    # Hrolf (south): knife and small shield, set to pre-roll a parry (Knife fighting C1P2).
    # Asa and Bjorn (north, bows) shoot from C2 and A2; Ylva (north, knife) is in B2.
    # Initiative: ylva 4 -> 7, asa 6 -> 9, bjorn 5 -> 8, hrolf 3 -> 6.
    people = [
        person("ylva", "north", **KNIFE),
        person("asa", "north", sword="Bow"),
        person("bjorn", "north", sword="Bow"),
        person("hrolf", "south", sword="Light weapon", off="Small shield"),
    ]
    enc = encounter(
        people,
        faces=[4, 6, 5, 3] + [3, 3] * 4,
        squares={"asa": "C2", "bjorn": "A2"},
        stances={"hrolf": "parry"},
        # Bjorn shoots from Asa's blind spot: without the module the counts stand alone.
        modules={"blind_spots": False},
    )
    enc.push("gm begin")
    assert enc.state.order == ["asa", "bjorn", "ylva", "hrolf"]
    # Asa's shot [2, 9] -> 2 + 1 = 3. Hrolf holds a parry, so he blocks now: Sword and
    # shield C1, P average(str 0, dex 0) 0 + 2 = C1P2, [4, 3] -> 6: a miss.
    enc.dice.add([2, 9] + [4, 3] + [3, 3])
    enc.push("asa attack hrolf defence=block")
    enc.push("asa end")
    # Bjorn's shot [2, 9] -> 3: Hrolf dodges now, and the block did not cost his dodge
    # anything: Agility C1P0, [4, 3] -> 4, a miss.
    enc.dice.add([2, 9] + [4, 3] + [3, 3])
    enc.push("bjorn attack hrolf defence=dodge")
    enc.push("bjorn end")
    # Ylva's knife [1, 1] -> 3 meets the kept parry (5): a miss. No second parry: the
    # next defence is a block, at C1 - 2 for the one block so far (the dodge not counted).
    enc.dice.add([1, 1] + [4, 3])
    enc.push("ylva attack hrolf")
    shown = [r[:2] for r in rolls(enc, last=5) if r[0].startswith("hrolf's")]
    assert shown == [
        ("hrolf's block", "C1P2"),
        ("hrolf's dodge", "C1P0"),
        ("hrolf's block", "C-1P2"),
    ]


@pytest.mark.rule("H-DEF-3")
def test_one_parry_per_wielded_melee_weapon_between_turns() -> None:
    # Hrolf has two knives: two parries (C1P2, no penalty between them), then a dodge.
    enc = duel(
        person("ylva", "north", **TWO_KNIVES), person("hrolf", "south", **TWO_KNIVES), [3, 3, 3, 3]
    )
    # Each knife [1, 1] -> 3 against the parry 5: two misses.
    enc.dice.add([1, 1] + [3, 3] + [1, 1] + [3, 3])
    enc.push("ylva attack hrolf")
    assert [r[:2] for r in rolls(enc) if r[0].startswith("hrolf's")] == [
        ("hrolf's parry", "C1P2"),
        ("hrolf's dodge", "C1P0"),
    ]
    enc.dice.add([3, 3] + [3, 3])
    enc.push("ylva end")
    enc.push("hrolf end")  # his turn restored the parries
    assert rolls(enc)[0][:2] == ("hrolf's parry", "C1P2")


# -- H-DEF-4: not defending ------------------------------------------------------------------


@pytest.mark.rule("H-DEF-4")
def test_not_defending_is_a_hit_with_no_defence_penalty() -> None:
    enc = knife_against_bare_hands([6, 9])  # Hrolf's dodge: 9
    # [1, 1] -> 3 would miss the dodge 9, but Hrolf does not defend: a hit, left leg.
    enc.dice.add([1, 1])
    enc.push("ylva attack hrolf defence=none")
    hrolf = enc.state.combatants["hrolf"]
    assert hrolf.hp == 3
    # His dodge is neither used nor rolled again, and no use is counted against the next.
    assert [r[0] for r in rolls(enc)] == ["ylva attacks hrolf with the Light weapon"]
    assert (hrolf.defence.result, hrolf.uses) == (9, {})


# -- H-POS-1: prone ---------------------------------------------------------------------------


@pytest.mark.rule("H-POS-1")
def test_prone_costs_2_consistency_on_attacks_and_defences() -> None:
    enc = knife_against_bare_hands([3, 3])
    enc.push("ylva prone")
    # The knife C1 - 2 = C-1: [4, 5] -> 4 + 2 = 6 > 3, a hit.
    enc.dice.add([4, 5] + [3, 3])
    enc.push("ylva attack hrolf")
    assert rolls(enc)[0][:2] == ("ylva attacks hrolf with the Light weapon", "C-1P2")
    # Her parry pre-rolled at the end of the turn: C1 - 2 = C-1 too.
    enc.dice.add([3, 3])
    enc.push("ylva end")
    assert rolls(enc)[0][:2] == ("ylva's parry", "C-1P2")


@pytest.mark.rule("H-POS-1")
def test_a_prone_brawler_rolls_at_2_less_consistency() -> None:
    enc = brawl([5, 2])
    enc.push("ylva prone")
    enc.dice.add([6, 5] + [3, 3])  # Brawl C1 - 2 = C-1: the lowest, 5 + 1 = 6 > 5
    enc.push("ylva brawl hrolf")
    assert rolls(enc)[0][:2] == ("ylva brawls hrolf (hit)", "C-1P1")
    assert hp(enc, "hrolf") == 3


@pytest.mark.rule("H-POS-1")
def test_a_ranged_attack_on_a_prone_target_costs_2_more() -> None:
    # Asa shoots from C2 at Hrolf, prone in B2: Archery C-1 - 2 = C-3, P1.
    # Hrolf's pre-rolled dodge is prone too: C1 - 2 = C-1.
    asa = person("asa", "north", sword="Bow")
    enc = duel(
        asa,
        person("hrolf", "south"),
        [3, 3, 3, 3],
        squares={"asa": "C2"},
        place={"hrolf": {"prone": True}},
    )
    assert rolls(enc)[-1][:2] == ("hrolf's dodge", "C-1P0")
    # The lowest 6, + 1 = 7 > 3: a hit, 3 damage. His next dodge: C1 - 2 - 2 = C-3.
    enc.dice.add([6, 9, 9, 9] + [3, 3, 3, 3])
    enc.push("asa attack hrolf")
    assert rolls(enc)[0][:2] == ("asa attacks hrolf with the Bow", "C-3P1")
    assert hp(enc, "hrolf") == 1


@pytest.mark.rule("H-POS-1")
def test_a_prone_character_moves_only_by_crawling() -> None:
    enc = knife_against_bare_hands([3, 3])
    enc.push("ylva prone")
    assert refused(enc, "ylva move C2") == "H-POS-1"
    assert refused(enc, "ylva run C2") == "H-POS-1"
    assert "ylva crawl C2" in enc.legal_actions()


# -- H-POS-2: helpless -------------------------------------------------------------------------


@pytest.mark.rule("H-POS-2")
def test_a_helpless_character_takes_no_action_and_makes_no_defence() -> None:
    # Hrolf is beaten to -4 hit points: Mutilated, unconscious at once, so prone and
    # helpless (H-HP-1). Asa keeps the south side standing.
    enc = encounter(
        [person("ylva", "north", **KNIFE), person("hrolf", "south"), person("asa", "south")],
        faces=[6, 5, 4] + [3, 3] + [6, 9] + [3, 3],
    )
    enc.push("gm begin")
    enc.push("gm effect hrolf name=Hit number=8")
    hrolf = enc.state.combatants["hrolf"]
    assert (hrolf.hp, hrolf.helpless, hrolf.prone) == (-4, True, True)
    # [1, 1] -> 3 would never pass his dodge of 9; helpless, he cannot defend.
    enc.dice.add([1, 1])
    enc.push("ylva attack hrolf")
    assert hp(enc, "hrolf") == -5
    assert events(enc, "defence") == [{"who": "hrolf"}]
    enc.dice.add([3, 3])
    enc.push("ylva end")
    assert enc.to_move == "hrolf"
    assert refused(enc, "hrolf speak text='help'") == "H-POS-2"
    assert refused(enc, "hrolf defend dodge") == "H-POS-2"
    enc.push("hrolf end")  # all that is left
    assert enc.to_move == "asa"
