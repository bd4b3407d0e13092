"""The battlefield (H-GRID-1..4, H-GRID-8, H-GRID-9, H-POS-3) and moving and shooting
across it (H-ACT-4..6, H-ATK-6, H-ATK-7), worked by hand from seed 000 with scripted dice.

See battlefield_builders for the characters: stamina 3, dex 0, initiative one d6 each in
setup order, stance "none" unless a test names one. Agility is C1P0, a knife C1P2, a bow
C-1P1 (range 6, damage 3).
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import EngineError, view
from fracas.rules.heimr import terrain
from fracas.rules.heimr.battlefield import Battlefield
from fracas.rules.heimr.campaign import Campaign

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
from heimr_builders import encounter

SHOT = "bjorn attacks hrolf with the Bow"


def ylva_and_hrolf(field: dict[str, Any] | None = None, **kw: Any) -> State:
    """Ylva (north, B2) acts before Hrolf (south, A1): initiative d6 6 -> 9 against 1 -> 4."""
    squares = {"ylva": "B2", "hrolf": "A1"} | kw.pop("squares", {})
    people = [person("ylva", "north", **kw.pop("ylva", {})), person("hrolf", "south", hp=10)]
    return begun(people, [6, 1], squares=squares, battlefield=field or {}, **kw)


def one_border(preset: str, a: str = "B2", b: str = "C2", **kw: Any) -> dict[str, Any]:
    return {"borders": [{"between": [a, b], "preset": preset, **kw}]}


# -- H-GRID-1: a grid named like a chessboard --------------------------------------------------


@pytest.mark.rule("H-GRID-1")
def test_the_grid_is_three_by_three_squares_named_like_a_chessboard() -> None:
    enc = ylva_and_hrolf()
    field = enc.state.battlefield
    assert (field.columns, field.rows) == (3, 3)
    # Columns are letters and rows numbers, "from A1 to C3".
    assert sorted(field.squares) == ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"]
    assert field.neighbours("A1") == ["A2", "B1"]
    assert refused(enc, "ylva move D2") == "H-GRID-1"  # no fourth column


@pytest.mark.rule("H-GRID-1")
@pytest.mark.parametrize("key", ["battlefield", "grid"])
def test_a_larger_grid_is_used_on_request(key: str) -> None:
    enc = begun(
        [person("ylva", "north"), person("hrolf", "south")],
        [6, 1],
        squares={"ylva": "D4", "hrolf": "A1"},
        **{key: {"columns": 4, "rows": 4}},
    )
    assert len(enc.state.battlefield.squares) == 16
    assert {"A4", "D1", "D4"} <= set(enc.state.battlefield.squares)
    enc.push("ylva move D3")
    assert where(enc, "ylva") == ("D3", 0)


@pytest.mark.rule("H-GRID-1")
@pytest.mark.parametrize("size", [{"columns": 2}, {"rows": 2}])
def test_a_grid_has_at_least_three_by_three_squares(size: dict[str, int]) -> None:
    with pytest.raises(EngineError, match="greater than or equal to 3"):
        encounter([person("ylva", "north")], battlefield=size)


# -- H-GRID-2: up, down, left and right --------------------------------------------------------


@pytest.mark.rule("H-GRID-2")
def test_in_combat_a_square_borders_only_the_squares_up_down_left_and_right() -> None:
    enc = ylva_and_hrolf()
    moves = {a.target for a in enc.legal_actions("ylva") if a.verb == "move"}
    assert moves == {"A2", "B1", "B3", "C2"}  # not the diagonals A1, A3, C1, C3
    assert refused(enc, "ylva move C3") == "H-GRID-2"
    enc.push("ylva move C2")
    assert where(enc, "ylva") == ("C2", 0)


@pytest.mark.rule("H-GRID-2")
def test_a_border_joins_two_squares_side_by_side_only() -> None:
    with pytest.raises(EngineError, match=r"not bordering squares \(H-GRID-2\)"):
        encounter([person("ylva", "north")], battlefield=one_border("Single door", "A1", "B2"))


# -- H-GRID-3: movement limits, crossing challenges, structural barriers -----------------------


@pytest.mark.rule("H-GRID-3")
@pytest.mark.parametrize(
    ("preset", "limit", "cr", "toughness"),
    [
        # Doors and gates: a movement limit open, a structural barrier closed (gm door).
        ("Single door", 2, None, 2),
        ("Thick vegetation", 2, None, None),
        ("Double door", 4, None, 2),
        ("Window", 1, 5, None),  # a movement limit and a crossing challenge
        ("Ladder", 1, None, None),
        ("1.5 meter jump", None, 1, None),
        ("2 meter jump", None, 3, None),
        ("2.5 meter jump", None, 6, None),
        ("3 meter jump", None, 9, None),
        ("Rope swing", None, 4, None),
        ("Regular door", 2, None, 2),
        ("Strong door", 2, None, 4),
        ("Regular gate", 4, None, 6),
        ("Wooden wall", None, None, 4),
        ("Stone wall", None, None, 6),
    ],
)
def test_the_seeds_barriers_are_border_presets(
    preset: str, limit: int | None, cr: int | None, toughness: int | None
) -> None:
    field = Battlefield.build(one_border(preset), Campaign.default().tables)
    border = field.border("B2", "C2")
    assert border is not None
    assert (border.limit, border.cr, border.toughness) == (limit, cr, toughness)


@pytest.mark.rule("H-GRID-3")
@pytest.mark.parametrize(
    ("agility", "crossed"),
    [
        ([3, 4], False),  # highest 4 < CR 5: no crossing, and prone
        ([2, 5], True),  # 5 reaches CR 5
    ],
)
def test_failing_a_crossing_challenge_leaves_the_character_prone_on_its_side(
    agility: list[int], crossed: bool
) -> None:
    enc = ylva_and_hrolf(one_border("Window"))
    enc.dice.add(agility)
    enc.push("ylva move C2")
    assert rolls(enc) == [("ylva crosses the Window (CR 5)", "C1P0", agility, max(agility))]
    assert where(enc, "ylva") == ("C2" if crossed else "B2", 0)
    assert enc.state.combatants["ylva"].prone is not crossed


@pytest.mark.rule("H-GRID-3")
def test_a_structural_barrier_stops_everyone_until_broken_by_enough_strength() -> None:
    enc = ylva_and_hrolf(one_border("Stone wall"))
    assert refused(enc, "ylva move C2") == "H-GRID-3"
    assert refused(enc, "ylva run C2") == "H-GRID-3"
    enc.push("gm break B2-C2 number=5")  # Break 5 against toughness 6: it holds
    assert refused(enc, "ylva move C2") == "H-GRID-3"
    enc.push("gm break C2-B2 number=6")  # 6 reaches the toughness: broken
    assert "breaks" in said(enc)
    assert view(enc, "north")["state"]["battlefield"]["borders"][0]["toughness"] is None
    enc.push("ylva move C2")
    assert where(enc, "ylva") == ("C2", 0)
    assert refused(enc, "gm break A1-A2 number=9") == "H-GRID-3"  # no barrier there


# -- H-GRID-4: a movement limit's count -------------------------------------------------------


@pytest.mark.rule("H-GRID-4")
def test_a_single_door_lets_two_through_until_the_first_crossers_next_turn() -> None:
    # Ylva, Asa and Sigrid (north) in B2, Hrolf (south) in C2, a single door between.
    # Initiative d6s in setup order: ylva 6, asa 4, sigrid 3, hrolf 5, so the order is
    # Ylva 9, Hrolf 8, Asa 7, Sigrid 6.
    people = [person(n, "north") for n in ("ylva", "asa", "sigrid")] + [person("hrolf", "south")]
    enc = begun(
        people, [6, 4, 3, 5], squares={"hrolf": "C2"}, battlefield=one_border("Single door")
    )
    assert enc.state.order == ["ylva", "hrolf", "asa", "sigrid"]
    for cid in ("ylva", "hrolf"):
        enc.push(f"{cid} end")
    enc.push("asa move C2")  # round 1: Asa is the first through
    enc.push("asa end")
    enc.push("sigrid end")
    enc.push("ylva move C2")  # round 2: the second through; the door is full
    enc.push("ylva end")
    # The count did not reset at the start of the round, nor of Ylva's turn, and it
    # counts crossings either way.
    assert refused(enc, "hrolf move B2") == "H-GRID-4"
    enc.push("hrolf end")
    enc.push("asa end")  # Asa's turn began: the count is back to zero
    enc.push("sigrid move C2")
    assert where(enc, "sigrid") == ("C2", 0)


@pytest.mark.rule("H-GRID-4")
def test_a_window_lets_one_through() -> None:
    # Ylva 9 and Asa 7 (north) in B2, Hrolf 4 (south) in A1: a window B2-C2 (CR 5).
    people = [person("ylva", "north"), person("asa", "north"), person("hrolf", "south")]
    enc = begun(people, [6, 4, 1], squares={"hrolf": "A1"}, battlefield=one_border("Window"))
    enc.dice.add([2, 5])  # 5 reaches CR 5
    enc.push("ylva move C2")
    enc.push("ylva end")
    assert refused(enc, "asa move C2") == "H-GRID-4"


# -- H-GRID-8: difficult terrain ---------------------------------------------------------------


@pytest.mark.rule("H-GRID-8")
def test_difficult_terrain_costs_1_on_melee_attacks_parries_and_dodges() -> None:
    # Ylva and Hrolf, both with knives and parrying, in B2, which is difficult.
    field = {"squares": {"B2": {"terrain": "difficult"}}}
    knife = person("hrolf", "south", hp=10, **KNIFE)
    # Parries pre-rolled at C1 - 1 = C0P2: Ylva [3] -> 5, Hrolf [2] -> 4.
    enc = begun(
        [person("ylva", "north", **KNIFE), knife],
        [6, 1, 3, 2],
        stances={"ylva": "parry", "hrolf": "parry"},
        battlefield=field,
    )
    assert challenges(enc) == {"ylva's parry": "C0P2", "hrolf's parry": "C0P2"}
    # The knife C1 - 1 = C0P2: [5] -> 7 > 4, a hit. Hrolf's one parry is used, so his next
    # defence is a dodge: C1 - 1 = C0P0, [3].
    enc.dice.add([5, 3])
    enc.push("ylva attack hrolf")
    assert challenges(enc) == {
        "ylva attacks hrolf with the Light weapon": "C0P2",
        "hrolf's dodge": "C0P0",
    }
    assert "C-1 difficult terrain" in said(enc)
    assert enc.state.combatants["hrolf"].hp == 9


@pytest.mark.rule("H-GRID-8")
def test_difficult_terrain_leaves_blocks_and_shots_alone_but_not_a_dodge_of_a_shot() -> None:
    # A2 and B2 are difficult. Bjorn shoots from A2 at Hrolf (dodging) in B2, beside Asa
    # (sword and shield, blocking). Initiative: bjorn 6, hrolf 4, asa 1.
    field = {"squares": {sq: {"terrain": "difficult"} for sq in ("A2", "B2")}}
    asa = person("asa", "north", sword="Medium weapon", off="Medium shield")
    enc = begun(
        [person("bjorn", "north", **BOW), person("hrolf", "south", hp=10), asa],
        # Hrolf's dodge C1 - 1 = C0P0: [2] -> 2. Asa's block is not penalised: Sword and
        # shield C1, P 0 + 3 for the shield: [2, 2] -> 5.
        [6, 4, 1, 2, 2, 2],
        squares={"bjorn": "A2"},
        stances={"hrolf": "dodge", "asa": "block"},
        battlefield=field,
    )
    assert challenges(enc) == {"hrolf's dodge": "C0P0", "asa's block": "C1P3"}
    # The bow from difficult A2 keeps C-1P1 (distance 1: no penalty): [4, 6] -> 4 + 1 = 5
    # > 2, a hit in the sword arm for 3. Hrolf's next dodge: C1 - 1 - 2 (one dodge used).
    enc.dice.add([4, 6] + [3, 3, 3])
    enc.push("bjorn attack hrolf")
    assert challenges(enc) == {SHOT: "C-1P1", "hrolf's dodge": "C-2P0"}
    assert enc.state.combatants["hrolf"].hp == 7


# -- H-GRID-9, H-POS-3: concealment -----------------------------------------------------------


def shoot_at(field: dict[str, Any], bjorn: str, hrolf: str, faces: int) -> State:
    """Bjorn (bow) in ``bjorn`` shoots Hrolf (no defence, 10 hit points) in ``hrolf``;
    every die shows 5, so the shot hits whatever its consistency."""
    enc = begun(
        [person("bjorn", "north", **BOW), person("hrolf", "south", hp=10)],
        [6, 1],
        squares={"bjorn": bjorn, "hrolf": hrolf},
        battlefield=field,
    )
    enc.dice.add([5] * faces)
    enc.push("bjorn attack hrolf")
    assert enc.state.combatants["hrolf"].hp == 7
    return enc


@pytest.mark.rule("H-GRID-9", "H-POS-3")
@pytest.mark.parametrize(
    ("cover", "consistency"),
    [
        ([], -2),  # C-1, and -1 for the distance 2 (A2 to C2)
        (["Shrubbery"], -3),
        (["Tall grass"], -3),
        (["Wooden cart or crate"], -4),
        (["Wooden table"], -5),
        (["Stone merlon"], -7),
        (["Shrubbery", "Wooden table"], -5),  # the best cover counts (docs/decisions.md)
    ],
)
def test_concealment_is_a_consistency_penalty_on_attacks_against_the_concealed(
    cover: list[str], consistency: int
) -> None:
    field = {"squares": {"C2": {"concealment": cover}}}
    enc = shoot_at(field, "A2", "C2", 1 - consistency)
    assert challenges(enc)[SHOT] == f"C{consistency}P1"


@pytest.mark.rule("H-GRID-9")
def test_darkness_conceals_everywhere_but_where_a_torch_or_camp_fire_lights() -> None:
    # A moonless 5x5 field (darkness 2): a torch in A1 lights distance 1, a camp fire in
    # E5 distance 2. Darkness adds to the shrubbery in C3.
    field = {
        "columns": 5,
        "rows": 5,
        "darkness": 2,
        "squares": {
            "A1": {"light": "Torch"},
            "E5": {"light": "Camp fire"},
            "C3": {"concealment": ["Shrubbery"]},
        },
    }
    enc = shoot_at(field, "A1", "B2", 5)  # C-1, -1 for the distance 2, -2 for darkness
    assert challenges(enc)[SHOT] == "C-4P1"
    field_now = enc.state.battlefield
    lit = {"A1": 0, "A2": 0, "B1": 0, "E3": 0, "C5": 0, "D4": 0}
    dark = {"B2": 2, "A3": 2, "E2": 2, "C3": 1 + 2}
    assert {sq: field_now.concealment(sq) for sq in lit | dark} == lit | dark


@pytest.mark.rule("H-GRID-9")
def test_a_roof_keeps_off_the_concealment_of_extreme_weather() -> None:
    field = {
        "weather": 1,
        "squares": {"B2": {"roof": True}, "C2": {"concealment": ["Shrubbery"]}},
    }
    enc = shoot_at(field, "A2", "C2", 5)  # C-1, -1 for the distance 2, -2 concealment
    assert challenges(enc)[SHOT] == "C-4P1"
    assert [enc.state.battlefield.concealment(sq) for sq in ("B2", "B3", "C2")] == [0, 1, 2]


@pytest.mark.rule("H-GRID-9", "H-POS-3")
def test_no_concealment_against_opponents_in_ones_own_cluster() -> None:
    # Ylva and Hrolf (knives) in the shrubbery of B2 (concealment 1), Bjorn (bow) in A2.
    # Initiative: ylva 4, hrolf 6, bjorn 1: Hrolf 9, Ylva 7, Bjorn 4. Nobody defends.
    enc = begun(
        [
            person("ylva", "north", hp=10, **KNIFE),
            person("hrolf", "south", hp=10, **KNIFE),
            person("bjorn", "north", **BOW),
        ],
        [4, 6, 1],
        squares={"bjorn": "A2"},
        battlefield={"squares": {"B2": {"concealment": ["Shrubbery"]}}},
    )
    # Hrolf's attack is what makes the cluster, so it is made against a concealed Ylva:
    # C1 - 1 = C0P2, [5] -> 7 (docs/decisions.md).
    enc.dice.add([5])
    enc.push("hrolf attack ylva")
    assert challenges(enc) == {"hrolf attacks ylva with the Light weapon": "C0P2"}
    enc.push("hrolf end")
    # In the cluster now, Ylva's knife keeps C1P2: [5, 5] -> 7.
    enc.dice.add([5, 5])
    enc.push("ylva attack hrolf")
    assert challenges(enc) == {"ylva attacks hrolf with the Light weapon": "C1P2"}
    enc.push("ylva end")
    # From outside the cluster Hrolf is still concealed: C-1, -2 for the cluster of two,
    # -1 for the shrubbery: C-4P1, five dice.
    enc.dice.add([5] * 5)
    enc.push("bjorn attack hrolf")
    assert challenges(enc) == {SHOT: "C-4P1"}


# -- H-ACT-4: charge ----------------------------------------------------------------------------


@pytest.mark.rule("H-ACT-4")
def test_a_charge_moves_into_the_targets_square_and_attacks_there() -> None:
    enc = ylva_and_hrolf(squares={"ylva": "C2", "hrolf": "B2"}, ylva=KNIFE)
    enc.dice.add([5, 5])  # the knife C1P2: [5, 5] -> 7, a hit (Hrolf does not defend)
    enc.push("ylva charge hrolf")
    assert where(enc, "ylva") == ("B2", 0)
    assert challenges(enc) == {"ylva attacks hrolf with the Light weapon": "C1P2"}
    assert enc.state.combatants["hrolf"].hp == 9
    assert sorted(enc.state.clusters[0]) == ["hrolf", "ylva"]
    assert enc.to_move == "hrolf"  # an ongoing action: the turn is over


@pytest.mark.rule("H-ACT-4")
@pytest.mark.parametrize("preset", ["Window", "2 meter jump", "Rope swing"])
def test_no_charge_across_a_border_with_a_challenge_requirement(preset: str) -> None:
    enc = ylva_and_hrolf(one_border(preset), squares={"ylva": "C2", "hrolf": "B2"}, ylva=KNIFE)
    assert refused(enc, "ylva charge hrolf") == "H-ACT-4"
    assert "ylva move B2" in enc.legal_actions()  # moving across it, with a roll, is fine


# -- H-ACT-5: run ------------------------------------------------------------------------------


@pytest.mark.rule("H-ACT-5")
def test_no_run_to_a_location_behind_a_challenge_requirement() -> None:
    enc = ylva_and_hrolf(one_border("2 meter jump"))
    assert refused(enc, "ylva run C2") == "H-ACT-5"
    enc.push("ylva run B3")
    assert where(enc, "ylva") == ("B3", 0)
    assert enc.to_move == "hrolf"  # an ongoing action ends the turn


@pytest.mark.rule("H-ACT-5")
def test_a_runner_cannot_be_charged_from_the_square_it_left_until_its_next_turn() -> None:
    # Ylva (north) and Hrolf (south, knife) in B2; Asa (south, knife) in C3.
    # Initiative: ylva 6, hrolf 4, asa 1.
    enc = begun(
        [
            person("ylva", "north"),
            person("hrolf", "south", **KNIFE),
            person("asa", "south", **KNIFE),
        ],
        [6, 4, 1],
        squares={"asa": "C3"},
    )
    enc.push("ylva run B3")
    assert refused(enc, "hrolf charge ylva") == "H-ACT-5"  # from B2, which she left
    enc.push("hrolf end")
    assert "asa charge ylva" in enc.legal_actions()  # from C3 she may be
    enc.push("asa end")
    enc.push("ylva end")  # her next turn has begun (and ended)
    assert "hrolf charge ylva" in enc.legal_actions()


# -- H-ACT-6: crawl ----------------------------------------------------------------------------


@pytest.mark.rule("H-ACT-6")
def test_a_prone_character_crawls_next_turn_but_not_across_a_challenge_requirement() -> None:
    enc = ylva_and_hrolf(one_border("Window"), place={"ylva": {"prone": True}})
    assert refused(enc, "ylva crawl C2") == "H-ACT-6"
    enc.push("ylva crawl B3")  # upcoming: done with the standard action of her next turn
    assert where(enc, "ylva") == ("B2", 0)
    enc.push("hrolf end")
    enc.push("ylva end")
    assert where(enc, "ylva") == ("B3", 0)


@pytest.mark.rule("H-ACT-6")
def test_crawling_needs_prone_and_the_same_square_since_the_start_of_the_turn() -> None:
    enc = ylva_and_hrolf()
    assert refused(enc, "ylva crawl B3") == "H-ACT-6"  # standing
    enc.push("ylva move B3")
    enc.push("ylva prone")
    assert refused(enc, "ylva crawl B2") == "H-ACT-6"  # she came into B3 this turn


# -- H-ATK-6: the distance of a shot ------------------------------------------------------------


@pytest.mark.rule("H-ATK-6")
@pytest.mark.parametrize(
    ("square", "distance", "consistency"),
    [
        ("A1", 0, -1),  # the same square: no penalty
        ("B1", 1, -1),  # half of 1, rounded down: 0
        ("B2", 2, -2),  # the seed's diagonal: one across and one up, a penalty of 1
        ("C2", 3, -2),
        ("C3", 4, -3),
    ],
)
def test_a_shot_costs_half_the_distance_rounded_down(
    square: str, distance: int, consistency: int
) -> None:
    enc = shoot_at({}, "A1", square, 1 - consistency)
    assert enc.state.battlefield.distance("A1", square) == distance
    assert challenges(enc)[SHOT] == f"C{consistency}P1"


@pytest.mark.rule("H-ATK-6")
def test_climbing_up_to_the_target_counts_and_jumping_down_is_free() -> None:
    # C2 is a rock 3 high. Up: A2 to B2 is one move; B2 to C2 is two climbs (to height 2)
    # and a move up the last 1: distance 4, penalty 2. Down: C2 to B2 is one move (the
    # jump is free), B2 to A2 one more: distance 2, penalty 1.
    enc = begun(
        [person("bjorn", "north", hp=10, **BOW), person("hrolf", "south", hp=10, **BOW)],
        [6, 1],
        squares={"bjorn": "A2", "hrolf": "C2"},
        battlefield={"squares": {"C2": {"height": 3}}},
    )
    assert where(enc, "hrolf") == ("C2", 3)
    enc.dice.add([5] * 4)
    enc.push("bjorn attack hrolf")
    assert challenges(enc) == {SHOT: "C-3P1"}
    enc.push("bjorn end")
    enc.dice.add([5] * 3)
    enc.push("hrolf attack bjorn")
    assert challenges(enc) == {"hrolf attacks bjorn with the Bow": "C-2P1"}


@pytest.mark.rule("H-ATK-6")
def test_a_target_beyond_the_weapons_range_cannot_be_shot() -> None:
    # A throwing weapon reaches 1; a bow 6, on a 5x5 field: A1 to E3 is 6, to E4 is 7.
    enc = begun(
        [
            person("gunnar", "north", sword="Throwing weapon"),
            person("hrolf", "south"),
            person("asa", "south"),
        ],
        [6, 2, 1],
        squares={"gunnar": "A1", "hrolf": "B1", "asa": "B2"},
    )
    assert "gunnar attack hrolf" in enc.legal_actions()  # distance 1
    assert refused(enc, "gunnar attack asa") == "H-ATK-6"  # distance 2
    field = begun(
        [person("bjorn", "north", **BOW), person("hrolf", "south"), person("asa", "south")],
        [6, 2, 1],
        squares={"bjorn": "A1", "hrolf": "E3", "asa": "E4"},
        battlefield={"columns": 5, "rows": 5},
    )
    assert "bjorn attack hrolf" in field.legal_actions()
    assert refused(field, "bjorn attack asa") == "H-ATK-6"


@pytest.mark.rule("H-ATK-6")
def test_the_distance_goes_round_a_wall() -> None:
    # A stone wall between A2 and B2: A2, A1, B1, B2 is 3 moves, a penalty of 1.
    enc = shoot_at(one_border("Stone wall", "A2", "B2"), "A2", "B2", 3)
    assert challenges(enc)[SHOT] == "C-2P1"


@pytest.mark.rule("H-ATK-6")
def test_a_broken_wall_no_longer_lengthens_the_distance() -> None:
    enc = begun(
        [person("bjorn", "north", **BOW), person("hrolf", "south", hp=10)],
        [6, 1],
        squares={"bjorn": "A2", "hrolf": "B2"},
        battlefield=one_border("Stone wall", "A2", "B2"),
    )
    enc.push("gm break A2-B2 number=6")
    enc.dice.add([5] * 3)  # distance 1 now: no penalty, C-1P1 (two of these dice)
    enc.push("bjorn attack hrolf")
    assert challenges(enc)[SHOT] == "C-1P1"


@pytest.mark.rule("H-ATK-6")
def test_a_target_up_a_tree_is_as_far_as_the_climb_to_it() -> None:
    # Hrolf is 3 up the tree of C2. From A2: two moves and at least two climbs (the seed:
    # "the number of turns it would take to climb to that height is included"), a
    # distance of 4 or more and a penalty of at least 2: C-3 or lower.
    field = {"squares": {"C2": {"top": 3, "climb": "Tree"}}}
    enc = begun(
        [person("bjorn", "north", **BOW), person("hrolf", "south", hp=10)],
        [6, 1],
        squares={"bjorn": "A2", "hrolf": "C2"},
        place={"hrolf": {"height": 3}},
        battlefield=field,
    )
    enc.dice.add([5] * 6)
    enc.push("bjorn attack hrolf")
    consistency = int(challenges(enc)[SHOT][1:].split("P")[0])
    assert consistency <= -3


@pytest.mark.rule("H-ATK-6")
def test_terrain_counts_the_distance_of_a_shot_through_broken_walls_and_up_trees() -> None:
    # What the two tests above expect of combat, from terrain.shot_distance: a stone wall
    # A2-B2, to be broken; a tree in C2 with Hrolf 3 up it; Asa in B2.
    field = one_border("Stone wall", "A2", "B2") | {"squares": {"C2": {"top": 3, "climb": "Tree"}}}
    enc = begun(
        [person("bjorn", "north", **BOW), person("hrolf", "south"), person("asa", "south")],
        [6, 2, 1],
        squares={"bjorn": "A2", "hrolf": "C2", "asa": "B2"},
        place={"hrolf": {"height": 3}},
        battlefield=field,
    )
    c = enc.state.combatants
    assert terrain.shot_distance(enc.state, c["bjorn"], c["asa"]) == 3  # round the wall
    assert terrain.shot_distance(enc.state, c["bjorn"], c["hrolf"]) == 4 + 3  # and 3 climbs
    assert terrain.shot_distance(enc.state, c["hrolf"], c["bjorn"]) == 4  # jumping is free
    enc.push("gm break A2-B2 number=6")
    c = enc.state.combatants
    assert terrain.shot_distance(enc.state, c["bjorn"], c["asa"]) == 1
    assert terrain.shot_distance(enc.state, c["bjorn"], c["hrolf"]) == 2 + 3


# -- H-ATK-7: shooting into a combat cluster ---------------------------------------------------


def cluster_of_three(ylva_dodge: list[int], **kw: Any) -> State:
    """Ylva (north, knife, dodging), Asa (north, sword and shield, blocking) and Hrolf
    (south, dodging, 10 hit points) in one cluster in B2; Bjorn (south, bow, Archery
    trained to C3) in A2 is to shoot.

    Initiative d6s: ylva 6, asa 5, hrolf 4, bjorn 3: the order Ylva, Asa, Hrolf, Bjorn.
    Pre-rolled: Ylva's dodge C1P0 [2, 9] -> 9, Asa's block C1P3 [2, 9] -> 12, Hrolf's
    dodge C1P0 [2, 9] -> 9. Ylva and Asa attack Hrolf, who does not defend (defence=none):
    the knife [5, 5] -> 7, 1 in the torso; the sword (Dueling C0P3) [5] -> 8, 2 in the
    torso. Each pre-rolls again at the end of the turn: Ylva's dodge ``ylva_dodge``, Asa's
    block [2, 9] -> 12, Hrolf's dodge [2, 9] -> 9.
    """
    enc = begun(
        [
            person("ylva", "north", hp=10, **KNIFE),
            person("asa", "north", hp=10, sword="Medium weapon", off="Medium shield"),
            person("hrolf", "south", hp=10),
            person("bjorn", "south", abilities={"Archery": (4, 0)}, **BOW),
        ],
        [6, 5, 4, 3] + [2, 9] * 3,
        squares={"bjorn": "A2"},
        stances={"ylva": "dodge", "asa": "block", "hrolf": "dodge"},
        **kw,
    )
    enc.dice.add([5, 5] + ylva_dodge + [5] + [2, 9] + [2, 9])
    for action in ("ylva attack hrolf defence=none", "ylva end"):
        enc.push(action)
    for action in ("asa attack hrolf defence=none", "asa end", "hrolf end"):
        enc.push(action)
    assert sorted(enc.state.clusters[0]) == ["asa", "hrolf", "ylva"]
    assert enc.state.combatants["hrolf"].hp == 7
    assert enc.to_move == "bjorn"
    return enc


@pytest.mark.rule("H-ATK-7")
def test_a_dodged_shot_goes_on_through_the_cluster_until_blocked() -> None:
    enc = cluster_of_three([2, 9])  # Ylva's dodge 9
    # At Hrolf: C3 - 3 (three in the cluster) = C0P1, [3] -> 4 against his dodge 9: he
    # dodges (and rolls his dodge again, C-1: [5, 5]). On to the next in the initiative
    # order from Hrolf, wrapping round: Ylva, at C3 - 2 = C1P1, [3, 4] -> 5 against her
    # dodge 9: dodged ([5, 5] again). Then Asa, C3 - 1 = C2P1, [3, 4, 4] -> 5 against her
    # block 12: blocked, and the shot stops there ([5, 5] for her next block).
    enc.dice.add([3] + [5, 5] + [3, 4] + [5, 5] + [3, 4, 4] + [5, 5])
    enc.push("bjorn attack hrolf")
    shots = [(p, c) for p, c, _, _ in rolls(enc) if p.startswith("bjorn")]
    assert shots == [
        ("bjorn attacks hrolf with the Bow", "C0P1"),
        ("bjorn attacks ylva with the Bow", "C1P1"),
        ("bjorn attacks asa with the Bow", "C2P1"),
    ]
    assert "C-3 firing into a cluster of 3" in said(enc)
    assert [c.hp for c in enc.state.combatants.values()] == [10, 10, 7, 4]
    assert enc.dice.remaining() == 0


@pytest.mark.rule("H-ATK-7")
def test_a_shot_into_the_cluster_stops_at_the_first_hit_and_tires_only_once() -> None:
    enc = cluster_of_three([1, 1], place={"bjorn": {"fatigue": 2}})  # Ylva's dodge 1
    # At Hrolf: C0P1, [3] -> 4 against 9: dodged ([5, 5]). The d6 3 is not below fatigue 2.
    # At Ylva: C1P1, [1, 8] -> 9 against 1: a hit in the left leg (d6 1) for 3, and the
    # shot ends there (her next dodge: [5, 5]). The d6 1 is below fatigue 2, but only the
    # first roll of the shot can raise fatigue.
    enc.dice.add([3] + [5, 5] + [1, 8] + [5, 5])
    enc.push("bjorn attack hrolf")
    shots = [p for p, _, _, _ in rolls(enc) if p.startswith("bjorn")]
    assert shots == ["bjorn attacks hrolf with the Bow", "bjorn attacks ylva with the Bow"]
    assert enc.state.combatants["ylva"].hp == 7
    assert enc.state.combatants["bjorn"].fatigue == 2
    assert enc.dice.remaining() == 0
