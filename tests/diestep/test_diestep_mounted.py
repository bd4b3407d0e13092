"""Mounted combat, prone, helpless and surprised (D-MOUNT-1, D-PRONE-1), worked out by
hand from the seed's text."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.diestep.state import DieStepState

from diestep_builders import fight, results, roll, sheet, texts, who

LINE = {"a": {"borders": ["b"]}, "b": {"borders": ["c"]}, "c": {"borders": ["d"]}, "d": {}}


def knight(**kw: Any) -> dict[str, Any]:
    return sheet(
        "knight", "heroes", **{"att": 8, "ref": 6, "weapon": "sword", "riding": True, **kw}
    )


def horse(**kw: Any) -> dict[str, Any]:
    return sheet("horse", "heroes", **{"ref": 10, "ap": 4, "mount": True, "weapon": "hooves", **kw})


def bandit(**kw: Any) -> dict[str, Any]:
    return sheet("bandit", "bandits", **{"att": 8, "defence": 6, "ref": 6, "weapon": "axe", **kw})


def rolls(enc: Encounter[DieStepState], what: str) -> list[dict[str, Any]]:
    return [r for r in results(enc, "roll") if what in str(r["what"])]


def mounted(*people: dict[str, Any], faces: list[int], **place: Any) -> Encounter[DieStepState]:
    spots = {"knight": {"mounted_on": "horse"}, **place}
    return fight(list(people), faces=faces, place=spots)


# -- D-MOUNT-1 --------------------------------------------------------------------------


@pytest.mark.rule("D-MOUNT-1")
def test_rider_and_mount_act_as_one_at_the_better_place_with_the_higher_ap() -> None:
    # REF: knight 2, horse 9, bandit 5. The pair acts at the horse's place, first,
    # with the horse's 4 AP; the horse has no turn of its own.
    enc = mounted(knight(), horse(), bandit(), faces=[2, 9, 5])
    assert enc.state.order == ["knight", "horse", "bandit"]
    turn = enc.state.turn
    assert turn is not None and (turn.actor, turn.partner, turn.pool) == ("knight", "horse", 4)
    enc.push("knight end")
    assert enc.state.current == "bandit"
    enc.push("bandit end")
    assert enc.state.current == "knight"


@pytest.mark.rule("D-MOUNT-1")
def test_the_mounts_extra_ap_only_move_the_riders_extra_ap_never_do() -> None:
    enc = mounted(knight(), horse(), bandit(att=2, weapon=None), faces=[2, 9, 5])
    roll(enc, 1, 1, 6)  # an advantaged attack (mounted), then the bandit's DEF
    enc.push("knight attack bandit")
    enc.push("bandit take")
    with pytest.raises(IllegalAction, match=r"mount's extra AP can only be used for movement"):
        enc.push("knight attack bandit")  # 2 + 2 of the knight's 3
    enc.push("horse move there")  # the other 2 AP: movement
    enc.push("knight move here")
    assert who(enc, "knight").region == who(enc, "horse").region == "here"
    # A knight with 4 AP on a pony with 2: only 2 AP may move the pair.
    enc = mounted(knight(ap=4), horse(ap=2), bandit(weapon=None), faces=[2, 9, 5])
    enc.push("knight move there")
    enc.push("knight move here")
    with pytest.raises(IllegalAction, match=r"rider's extra AP cannot be used for movement"):
        enc.push("knight move there")


@pytest.mark.rule("D-MOUNT-1")
def test_a_mount_runs_three_regions_a_runner_on_foot_two() -> None:
    enc = fight(
        [knight(), horse(), bandit()],
        faces=[2, 9, 1],
        place={
            "knight": {"mounted_on": "horse", "region": "a"},
            "horse": {"region": "a"},
            "bandit": {"region": "a"},
        },
        regions=LINE,
    )
    enc.push("knight run d via=b,c")
    assert who(enc, "knight").region == who(enc, "horse").region == "d"
    enc.push("knight end")
    with pytest.raises(IllegalAction, match=r"at most 2 regions that way \(D-MOUNT-1\)"):
        enc.push("bandit run d via=b,c")


@pytest.mark.rule("D-MOUNT-1")
def test_the_mount_dodges_for_both_the_rider_never_dodges_nor_strikes() -> None:
    enc = mounted(knight(), horse(), bandit(), faces=[2, 9, 5])
    with pytest.raises(IllegalAction, match=r"riders make no unarmed attacks \(D-MOUNT-1\)"):
        enc.push("knight strike bandit")
    enc.push("knight end")
    roll(enc, 5)
    enc.push("bandit attack knight")
    offered = sorted(str(a) for a in enc.legal_actions())
    assert offered == ["horse dodge", "knight parry", "knight take"]
    with pytest.raises(IllegalAction, match=r"a rider cannot dodge: horse dodges for both"):
        enc.push("knight dodge")
    roll(enc, 7)
    enc.push("horse dodge")  # the horse's REF d10: 7 against 5, a miss
    assert rolls(enc, "dodge")[0]["who"] == "horse" and who(enc, "knight").hp == 6
    assert who(enc, "horse").debt == 1


@pytest.mark.rule("D-MOUNT-1")
@pytest.mark.parametrize(("weapon", "faces"), [("axe", [2, 5]), ("spear", [5])])
def test_a_mounted_one_handed_attack_is_advantaged_unless_facing_a_long_weapon(
    weapon: str, faces: list[int]
) -> None:
    enc = mounted(knight(), horse(), bandit(weapon=weapon), faces=[2, 9, 5])
    roll(enc, *faces, 1)
    enc.push("knight attack bandit")
    enc.push("bandit take")
    assert rolls(enc, "weapon")[0]["faces"] == faces


@pytest.mark.rule("D-MOUNT-1")
def test_ranged_attacks_from_a_moving_mount_are_disadvantaged() -> None:
    enc = fight(
        [knight(weapon="javelin", ap=4), horse(), bandit()],
        faces=[2, 9, 1],
        place={
            "knight": {"mounted_on": "horse", "region": "a"},
            "horse": {"region": "a"},
            "bandit": {"region": "c"},
        },
        regions=LINE,
    )
    enc.push("horse move b")
    roll(enc, 6, 2, 1)
    enc.push("knight attack bandit")
    enc.push("bandit take")
    assert rolls(enc, "weapon")[0]["why"] == ["from a moving mount (dis)"]


@pytest.mark.rule("D-MOUNT-1")
def test_an_unskilled_rider_halves_its_ap_is_disadvantaged_and_mounts_exclusively() -> None:
    squire = sheet("squire", "heroes", att=8, ref=6, weapon="sword")
    enc = fight([squire, horse(), bandit()], faces=[6, 1, 5])
    enc.push("squire mount horse")  # exclusive when unskilled: all 3 AP; it provokes
    enc.push("bandit pass")
    assert enc.state.turn is not None and enc.state.turn.left == 0
    enc.push("squire end")
    roll(enc, 5)
    enc.push("bandit attack squire")
    roll(enc, 6, 2)  # the squire's parry, a physical action: disadvantaged, 2
    enc.push("squire parry")
    assert rolls(enc, "parry")[0]["why"] == ["unskilled rider (dis)"]
    enc.push("bandit end")
    turn = enc.state.turn
    assert turn is not None and (turn.rider_cap, turn.pool) == (1, 4 - 1)  # 3 // 2; 1 owed
    with pytest.raises(IllegalAction, match="D-MOUNT-1"):
        enc.push("squire attack bandit")  # a major action, beyond the rider's 1 AP


@pytest.mark.rule("D-MOUNT-1")
def test_a_skilled_rider_mounts_with_a_minor_action() -> None:
    enc = fight([knight(), horse(), bandit(weapon=None)], faces=[6, 1, 5])
    enc.push("knight mount horse")
    assert enc.state.turn is not None and enc.state.turn.left == 2
    assert who(enc, "horse").rider == "knight"


# -- D-PRONE-1 --------------------------------------------------------------------------


@pytest.mark.rule("D-PRONE-1")
def test_a_prone_character_crawls_attacks_worse_except_with_a_crossbow_and_stands_slowly() -> None:
    archer = sheet("archer", "heroes", att=8, ref=8, weapon="bow")
    enc = fight(
        [archer, bandit()],
        faces=[8, 1],
        place={"archer": {"prone": True}, "bandit": {"region": "there"}},
    )
    with pytest.raises(IllegalAction, match=r"not standing: crawl or stand up \(D-PRONE-1\)"):
        enc.push("archer move there")
    roll(enc, 7, 2, 1)
    enc.push("archer attack bandit")
    enc.push("bandit take")
    assert rolls(enc, "weapon")[0]["why"] == ["prone (dis)"]
    with pytest.raises(IllegalAction, match=r"1 AP left; a major action costs 2"):
        enc.push("archer stand")  # standing up is a major action
    # A crossbow is not hampered; and a prone target defends normally against it.
    enc = fight(
        [sheet("archer", "heroes", att=8, ref=8, weapon="crossbow"), bandit()],
        faces=[8, 1],
        place={"archer": {"prone": True}, "bandit": {"region": "there", "prone": True}},
    )
    roll(enc, 7, 2)
    enc.push("archer attack bandit")
    enc.push("bandit take")
    assert rolls(enc, "weapon")[0]["why"] == [] and rolls(enc, "passive")[0]["why"] == []
    enc = fight([archer, bandit()], faces=[8, 1], place={"archer": {"prone": True}})
    enc.push("archer stand")
    assert enc.state.turn is not None and enc.state.turn.left == 1


@pytest.mark.rule("D-PRONE-1")
def test_helpless_loses_its_turns_and_defends_with_a_d2_with_disadvantage() -> None:
    bo = sheet("bo", "heroes", ref=2)
    enc = fight(
        [sheet("ana", "heroes", ref=8), bandit(), bo],
        faces=[7, 5, 1],
        place={"ana": {"helpless": True}},
    )
    assert enc.state.current == "bandit" and "Ana is helpless and loses the turn" in texts(enc)
    roll(enc, 2, 2, 1)  # ATT 2 against a d2 rolled twice: 2, 1 -> 1; double
    enc.push("bandit attack ana")
    assert enc.to_move == "bandit"  # no active defence
    passive = rolls(enc, "passive")[0]
    assert passive["die"] == "d2 dis" and passive["result"] == 1
    assert who(enc, "ana").hp == 4


@pytest.mark.rule("D-PRONE-1")
def test_surprised_rolls_turn_order_and_passive_defence_disadvantaged_weapons_not_ready() -> None:
    enc = fight([bandit(), knight()], faces=[5, 6, 2], place={"knight": {"surprised": True}})
    assert enc.state.initiative["knight"] == 2  # REF twice, the lower: 6, 2
    roll(enc, 3, 5, 2)
    enc.push("bandit attack knight")
    enc.push("knight take")  # his first turn has not come: disadvantaged
    assert rolls(enc, "passive")[0]["why"] == ["surprised (dis)"]
    enc.push("bandit end")
    with pytest.raises(IllegalAction, match="no weapon ready"):
        enc.push("knight attack bandit")
    enc.push("knight draw")  # minor
    assert who(enc, "knight").ready and not who(enc, "knight").surprised
