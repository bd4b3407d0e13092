"""Heights: moving and climbing (H-GRID-5), falling and jumping (H-GRID-6), holding on
(H-GRID-7) and the climbing position (H-POS-5), worked by hand from seed 000.

See battlefield_builders for the characters: stamina 3 (fatigue 1), dex 0, initiative
one d6 each in setup order, stance "none" unless a test names one. Climbing, landing and
holding on roll Agility, C1P0 unless trained.

Two battlefields recur: a wall walk C2 of height 4 (or 3) reached from B2 by a rope
(CR 4), and a tree in B2 (its ground 0, its top 4 or more, CR 5).
"""

from __future__ import annotations

from typing import Any

import pytest

from battlefield_builders import (
    BOW,
    KNIFE,
    State,
    begun,
    challenges,
    person,
    refused,
    rolls,
    said,
    where,
)


def rope_to(height: int, climb: str = "Rope") -> dict[str, Any]:
    """C2 is ``height`` high; the border B2-C2 is climbed by ``climb``."""
    return {
        "squares": {"C2": {"height": height}},
        "borders": [{"between": ["B2", "C2"], "climb": climb}],
    }


def tree(top: int = 4) -> dict[str, Any]:
    return {"squares": {"B2": {"top": top, "climb": "Tree"}}}


def ylva_first(field: dict[str, Any], ylva: dict[str, Any] | None = None, **kw: Any) -> State:
    """Ylva (north, B2 unless told, 10 hit points) acts before Hrolf (south, A1)."""
    squares = {"ylva": "B2", "hrolf": "A1"} | kw.pop("squares", {})
    people = [person("ylva", "north", hp=10, **(ylva or {})), person("hrolf", "south", hp=10)]
    return begun(people, [6, 1], squares=squares, battlefield=field, **kw)


def at(height: int) -> dict[str, dict[str, int]]:
    return {"ylva": {"height": height}}


def climber(enc: State) -> str | None:
    return enc.state.combatants["ylva"].climbing


# -- H-GRID-5: free up and down 1, climbing from 2 ---------------------------------------------


@pytest.mark.rule("H-GRID-5")
def test_moving_up_or_down_one_height_is_free_two_is_not() -> None:
    # C2 is 1 high, A2 2 high; Hrolf stands on A2.
    field = {"squares": {"C2": {"height": 1}, "A2": {"height": 2}}}
    enc = ylva_first(field, squares={"hrolf": "A2"})
    assert refused(enc, "ylva move A2") == "H-GRID-5"  # 2 up: climb first
    used = enc.dice.position
    enc.push("ylva move C2")
    assert (where(enc, "ylva"), enc.dice.position) == (("C2", 1), used)  # no roll
    enc.push("ylva end")
    assert refused(enc, "hrolf move B2") == "H-GRID-6"  # 2 down: jump or climb
    enc.push("hrolf end")
    enc.push("ylva move B2")  # 1 down
    assert where(enc, "ylva") == ("B2", 0)


@pytest.mark.rule("H-GRID-5")
def test_a_height_of_two_or_more_is_climbed_one_height_a_climb_action() -> None:
    enc = ylva_first(rope_to(3))
    assert refused(enc, "ylva move C2") == "H-GRID-5"
    # Agility C1P0 against the rope's CR 4: [2, 4] -> 4. One height up, in climbing
    # position; climbing is an ongoing action, so the turn is over.
    enc.dice.add([2, 4])
    enc.push("ylva climb up toward=C2")
    assert rolls(enc)[0] == ("ylva climbs up (CR 4)", "C1P0", [2, 4], 4)
    assert (where(enc, "ylva"), climber(enc), enc.to_move) == (("B2", 1), "C2", "hrolf")
    enc.push("hrolf end")
    enc.dice.add([2, 4])
    enc.push("ylva climb up toward=C2")
    assert where(enc, "ylva") == ("B2", 2)
    enc.push("hrolf end")
    assert refused(enc, "ylva climb up toward=C2") == "H-GRID-5"  # 1 below: high enough
    enc.push("ylva move C2")  # the last height up is free
    assert (where(enc, "ylva"), climber(enc)) == (("C2", 3), None)


@pytest.mark.rule("H-GRID-5")
def test_a_ladder_or_stairs_is_climbed_without_a_roll() -> None:
    enc = ylva_first(rope_to(2, "Ladder or stairs"))
    used = enc.dice.position
    enc.push("ylva climb up toward=C2")
    assert (where(enc, "ylva"), enc.dice.position) == (("B2", 1), used)


@pytest.mark.rule("H-GRID-5", "H-GRID-6")
def test_a_failed_climb_is_a_fall_from_the_height_being_reached() -> None:
    # Ylva is 2 up the tree (CR 5). Climbing: [2, 3] -> 3 < 5, she falls from 3, not 2:
    # landing is agility CR 2 + 2 x 3 = 8 (from 2 it would be 6), [3, 7] -> 7 fails, and
    # her hit points go to 3 - 3 = 0, the injury in the legs.
    enc = ylva_first(tree(), place=at(2))
    enc.dice.add([2, 3] + [3, 7])
    enc.push("ylva climb up")
    assert rolls(enc) == [
        ("ylva climbs up (CR 5)", "C1P0", [2, 3], 3),
        ("ylva lands (CR 8)", "C1P0", [3, 7], 7),
    ]
    assert "loses the grip at height 3" in said(enc)
    ylva = enc.state.combatants["ylva"]
    assert (ylva.hp, ylva.injuries, where(enc, "ylva")) == (0, ["left leg", "right leg"], ("B2", 0))
    assert ylva.prone


@pytest.mark.rule("H-GRID-5", "H-GRID-6")
def test_falling_off_the_outside_of_a_wall_lands_at_its_foot() -> None:
    # Ylva on the wall walk C2 (height 4) climbs down the rope toward B2: [1, 1] -> 1 < 4.
    # She falls from height 3 to the ground of B2: CR 2 + 2 x 3 = 8, [2, 5] -> 5 fails,
    # hit points 3 - 3 = 0.
    enc = ylva_first(rope_to(4), squares={"ylva": "C2"})
    enc.dice.add([1, 1] + [2, 5])
    enc.push("ylva climb down toward=B2")
    assert [r[0] for r in rolls(enc)] == ["ylva climbs down (CR 4)", "ylva lands (CR 8)"]
    assert where(enc, "ylva") == ("B2", 0)
    assert enc.state.combatants["ylva"].hp == 0


@pytest.mark.rule("H-GRID-5", "H-GRID-6")
def test_a_climber_down_the_outside_of_a_wall_may_jump_to_its_foot() -> None:
    enc = ylva_first(rope_to(4), squares={"ylva": "C2"})
    enc.dice.add([2, 4])  # 4 reaches the rope's CR 4: at height 3, toward B2
    enc.push("ylva climb down toward=B2")
    assert (where(enc, "ylva"), climber(enc)) == (("C2", 3), "B2")
    enc.push("hrolf end")
    enc.dice.add([2, 6])  # the jump from 3: CR 2 x 3 = 6, reached
    enc.push("ylva jump")
    assert rolls(enc) == [("ylva lands (CR 6)", "C1P0", [2, 6], 6)]
    assert (where(enc, "ylva"), enc.state.combatants["ylva"].hp) == (("B2", 0), 10)


@pytest.mark.rule("H-GRID-5")
def test_melee_reaches_one_height_at_minus_1_upward_and_plus_1_downward() -> None:
    # Crates in B2 (top 2): Ylva on the ground, Hrolf 1 up, Asa 2 up, all with knives.
    # Initiative: ylva 6, hrolf 4, asa 1. Nobody defends.
    enc = begun(
        [
            person("ylva", "north", hp=10, **KNIFE),
            person("hrolf", "south", hp=10, **KNIFE),
            person("asa", "south", **KNIFE),
        ],
        [6, 4, 1],
        place={"hrolf": {"height": 1}, "asa": {"height": 2}},
        battlefield={"squares": {"B2": {"top": 2}}},
    )
    assert refused(enc, "ylva attack asa") == "H-GRID-5"
    assert refused(enc, "ylva brawl asa") == "H-GRID-5"
    enc.dice.add([5])  # up at Hrolf: C1 - 1 = C0P2, [5] -> 7
    enc.push("ylva attack hrolf")
    assert challenges(enc) == {"ylva attacks hrolf with the Light weapon": "C0P2"}
    enc.push("ylva end")
    enc.dice.add([5, 5, 5])  # down at Ylva: C1 + 1 = C2P2
    enc.push("hrolf attack ylva")
    assert challenges(enc) == {"hrolf attacks ylva with the Light weapon": "C2P2"}


@pytest.mark.rule("H-GRID-5")
@pytest.mark.parametrize(("height", "reached"), [(1, True), (2, False)])
def test_a_charge_reaches_one_height_above_the_ground_it_arrives_on(
    height: int, reached: bool
) -> None:
    field = {"squares": {"C2": {"top": 3, "climb": "Tree"}}}
    enc = ylva_first(field, KNIFE, squares={"hrolf": "C2"}, place={"hrolf": {"height": height}})
    if reached:
        assert "ylva charge hrolf" in enc.legal_actions()
    else:
        assert refused(enc, "ylva charge hrolf") == "H-GRID-5"


# -- H-GRID-6: falling and jumping --------------------------------------------------------------


@pytest.mark.rule("H-GRID-6")
@pytest.mark.parametrize(
    ("landing", "hp", "injuries"),
    [
        ([2, 9], -1, ["left leg", "right leg"]),  # 9 < 10: reduced to 3 - 4 = -1
        ([2, 10], 10, []),  # 10 reaches 2 + 2 x 4 = 10: unhurt
    ],
)
def test_a_fall_from_4_needs_agility_10_and_failing_leaves_3_minus_4_hit_points(
    landing: list[int], hp: int, injuries: list[str]
) -> None:
    # 3 up the tree, Ylva (10 hit points) climbs for the top: [1, 4] -> 4 < 5, she falls
    # from 4. Hit points are set to 3 - 4, not reduced by a damage that anything she
    # wears could lessen: armour does not protect from a fall.
    enc = ylva_first(tree(), place=at(3))
    enc.dice.add([1, 4] + landing)
    enc.push("ylva climb up")
    assert rolls(enc)[1][:2] == ("ylva lands (CR 10)", "C1P0")
    ylva = enc.state.combatants["ylva"]
    assert (ylva.hp, ylva.injuries) == (hp, injuries)
    assert ylva.prone  # a fall lands prone (docs/decisions.md)


@pytest.mark.rule("H-GRID-6")
@pytest.mark.parametrize(
    ("height", "hp", "injuries"),
    [
        (2, 1, []),  # 3 - 2 = 1: hurt, not injured
        (3, 0, ["left leg", "right leg"]),
        (6, -3, ["left leg", "right leg"]),  # the seed's example: -3
        (7, -4, ["left leg", "right leg", "torso"]),  # at -4 or -5 the torso too
        (8, -5, ["left leg", "right leg", "torso"]),
    ],
)
def test_a_failed_landing_leaves_3_minus_the_height_injuring_the_legs_and_at_minus_4_the_torso(
    height: int, hp: int, injuries: list[str]
) -> None:
    # A jump from ``height`` up the tree: CR 2 x height, [1, 1] -> 1 fails it.
    enc = ylva_first(tree(8), place=at(height))
    enc.dice.add([1, 1])
    enc.push("ylva jump")
    assert rolls(enc)[0][0] == f"ylva lands (CR {2 * height})"
    ylva = enc.state.combatants["ylva"]
    assert (ylva.hp, ylva.injuries) == (hp, injuries)


@pytest.mark.rule("H-GRID-6")
@pytest.mark.parametrize(
    ("height", "faces", "hp", "prone"),
    [
        (4, [2, 8], 10, False),  # CR 2 x 4 = 8 reached (a fall would need 10)
        (4, [2, 7], -1, True),  # 7 < 8: 3 - 4 = -1, the legs injured (Fall: prone)
        (1, [], 10, False),  # from 1: no roll
    ],
)
def test_a_jump_down_needs_twice_the_height(
    height: int, faces: list[int], hp: int, prone: bool
) -> None:
    enc = ylva_first(tree(), place=at(height))
    enc.dice.add(faces)
    enc.push("ylva jump")  # a free action
    ylva = enc.state.combatants["ylva"]
    assert (where(enc, "ylva"), ylva.hp, ylva.prone) == (("B2", 0), hp, prone)
    assert enc.dice.remaining() == 0
    assert enc.to_move == "ylva"  # a free action: her turn goes on


# -- H-GRID-7: holding on ---------------------------------------------------------------------


def shot_on_the_rope(climb: str = "Rope") -> State:
    """Ylva (Agility trained to C3) has climbed 1 up toward C2 (height 4): C3P0 [2, 4, 4, 4]
    -> 4, the CR of the rope. Bjorn (bow) in A2 shoots her: C-1P1, [5, 5] -> 6, and she
    does not defend: 3 hit points in the torso (d6 5)."""
    enc = begun(
        [
            person("ylva", "north", hp=10, abilities={"Agility": (2, 0)}),
            person("bjorn", "south", **BOW),
        ],
        [6, 1],
        squares={"bjorn": "A2"},
        battlefield=rope_to(4, climb),
    )
    enc.dice.add([2, 4, 4, 4])
    enc.push("ylva climb up toward=C2")
    assert (where(enc, "ylva"), climber(enc)) == (("B2", 1), "C2")
    return enc


@pytest.mark.rule("H-GRID-7", "H-POS-5")
@pytest.mark.parametrize(("hold", "held"), [([1, 3], False), ([1, 4], True)])
def test_a_climber_hit_by_an_attack_rolls_to_hold_on_at_consistency_1(
    hold: list[int], held: bool
) -> None:
    enc = shot_on_the_rope()
    # Holding on: a climb at consistency 1 (not her C3), C1P0, against the rope's CR 4.
    # Failing, she falls from height 1: no landing roll below 2, but she lies prone.
    # The shot is C-2P1 (distance 2: one square and one climb): [5, 5, 5] -> 6, a hit.
    enc.dice.add([5, 5, 5] + hold)
    enc.push("bjorn attack ylva")
    assert rolls(enc)[1] == ("ylva holds on (CR 4)", "C1P0", hold, max(hold))
    ylva = enc.state.combatants["ylva"]
    assert ylva.hp == 7
    assert (where(enc, "ylva"), ylva.climbing, ylva.prone) == (
        (("B2", 1), "C2", False) if held else (("B2", 0), None, True)
    )


@pytest.mark.rule("H-GRID-7", "H-POS-5")
def test_an_effect_on_a_climber_makes_it_hold_on_unless_negated() -> None:
    enc = shot_on_the_rope()
    enc.push("gm effect ylva name=Daze reaction=Resist")  # negated: nothing to hold on to
    assert rolls(enc) == []
    enc.dice.add([1, 3])  # C1P0 [1, 3] -> 3 < 4: she falls
    enc.push("gm effect ylva name=Daze")
    assert rolls(enc)[0][:2] == ("ylva holds on (CR 4)", "C1P0")
    assert where(enc, "ylva") == ("B2", 0)


@pytest.mark.rule("H-GRID-7", "H-POS-5")
def test_a_climb_without_a_challenge_requirement_needs_no_holding_on() -> None:
    enc = begun(
        [person("ylva", "north", hp=10), person("bjorn", "south", **BOW)],
        [6, 1],
        squares={"bjorn": "A2"},
        battlefield=rope_to(4, "Ladder or stairs"),
    )
    enc.push("ylva climb up toward=C2")
    enc.dice.add([5, 5, 5])  # C-2 (distance 2: one square, one climb): a hit; no hold-on
    enc.push("bjorn attack ylva")
    assert [r[0] for r in rolls(enc)] == ["bjorn attacks ylva with the Bow"]
    assert (where(enc, "ylva"), climber(enc)) == (("B2", 1), "C2")


# -- H-POS-5: the climbing position --------------------------------------------------------------


@pytest.mark.rule("H-POS-5")
def test_a_climber_defends_at_minus_2_and_attacks_at_minus_1() -> None:
    # Ylva (knife, dodging) and Hrolf (knife) in B2; the rope to C2 (height 4).
    # Her dodge pre-rolled at the start: C1P0 [2, 2] -> 2.
    enc = begun(
        [person("ylva", "north", hp=10, **KNIFE), person("hrolf", "south", hp=10, **KNIFE)],
        [6, 1, 2, 2],
        stances={"ylva": "dodge"},
        battlefield=rope_to(4),
    )
    # She climbs 1 ([2, 4] -> 4, the CR). The climb is ongoing (-2 on defence until her
    # next turn), and she is in climbing position (-2 more): her dodge, pre-rolled at
    # the end of the turn, is C1 - 4 = C-3P0, [5, 5, 5, 5] -> 5.
    enc.dice.add([2, 4] + [5] * 4)
    enc.push("ylva climb up toward=C2")
    assert challenges(enc)["ylva's dodge"] == "C-3P0"
    assert "C-2 climbing" in said(enc)
    # Hrolf strikes up at her: C1 - 1 = C0P2, [5] -> 7 > 5, 1 in the torso. Her next dodge:
    # C1 - 2 - 2 - 2 (one dodge used) = C-5P0, six dice. Hit, she holds on: C1P0 [2, 5].
    enc.dice.add([5] + [5] * 6 + [2, 5])
    enc.push("hrolf attack ylva")
    assert challenges(enc) == {
        "hrolf attacks ylva with the Light weapon": "C0P2",
        "ylva's dodge": "C-5P0",
        "ylva holds on (CR 4)": "C1P0",
    }
    enc.push("hrolf end")
    # Her knife at Hrolf below: C1, +1 against a lower target, -1 while climbing: C1P2.
    enc.dice.add([5, 5])
    enc.push("ylva attack hrolf")
    assert challenges(enc)["ylva attacks hrolf with the Light weapon"] == "C1P2"
    assert "C+1 against a lower target, C-1 climbing" in said(enc)


@pytest.mark.rule("H-POS-5")
@pytest.mark.parametrize(
    ("items", "free"),
    [
        ({}, True),
        (KNIFE, True),  # the off-hand is free
        ({"sword": "Light weapon", "off": "Light weapon"}, False),
        ({"sword": "Great weapon"}, False),  # two hands
        (BOW, False),
        ({"sword": "Medium weapon", "off": "Medium shield"}, False),
    ],
)
def test_climbing_needs_a_free_hand(items: dict[str, str], free: bool) -> None:
    enc = ylva_first(rope_to(4), items)
    if free:
        assert "ylva climb up toward=C2" in enc.legal_actions()
    else:
        assert refused(enc, "ylva climb up toward=C2") == "H-POS-5"
