"""Awareness, the minimum ranged defence, block, parry, dodge and opportunity attacks
(D-DEF-1, D-DEF-2, D-OA-1), worked out by hand from the seed's text."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.diestep.state import DieStepState

from diestep_builders import fight, results, roll, sheet, who


def ana(**kw: Any) -> dict[str, Any]:
    return sheet(
        "ana",
        "heroes",
        **{"att": 8, "defence": 6, "ref": 8, "weapon": "sword", "shield": True, **kw},
    )


def orc(**kw: Any) -> dict[str, Any]:
    return sheet("orc", "orcs", **{"att": 8, "defence": 6, "ref": 6, "weapon": "axe", **kw})


def rolls(enc: Encounter[DieStepState], what: str) -> list[dict[str, Any]]:
    return [r for r in results(enc, "roll") if what in str(r["what"])]


def verbs(enc: Encounter[DieStepState], actor: str) -> list[str]:
    return sorted(a.verb for a in enc.legal_actions(actor))


# -- D-DEF-1 ----------------------------------------------------------------------------


@pytest.mark.rule("D-DEF-1")
def test_an_unaware_target_cannot_defend_actively_and_its_passive_defence_is_disadvantaged() -> (
    None
):
    # Ana has not seen the orc: no defence window, and her DEF d6 is rolled twice,
    # keeping the lower: faces 5, 2 -> 2. The orc's ATT 4 is double 2: 2 damage.
    enc = fight([ana(), orc()], faces=[2, 5], place={"ana": {"unaware_of": ["orc"]}})
    roll(enc, 4, 5, 2)
    enc.push("orc attack ana")
    assert enc.to_move == "orc"  # nothing to answer
    passive = rolls(enc, "passive")[0]
    assert passive["faces"] == [5, 2] and passive["result"] == 2
    assert who(enc, "ana").hp == 4
    assert who(enc, "ana").unaware_of == []  # she knows now
    with pytest.raises(IllegalAction, match="none is open"):
        enc.push("ana block")


@pytest.mark.rule("D-DEF-1")
def test_an_indirect_attack_on_the_unaware_is_not_disadvantaged() -> None:
    # A poison (indirect): the orc's PRE d6 rolls 3 against Ana's FOR d6, one face, 3.
    enc = fight([ana(), orc()], faces=[2, 5], place={"ana": {"unaware_of": ["orc"]}})
    roll(enc, 3, 3)
    enc.push("orc spell ana defence=for indirect=yes")
    assert rolls(enc, "passive")[0]["faces"] == [3]
    assert who(enc, "ana").hp == 5


@pytest.mark.rule("D-DEF-1")
@pytest.mark.parametrize(("where", "die"), [("there", "d4"), ("far", "d6")])
def test_a_ranged_attack_meets_the_minimum_defence_for_its_range(where: str, die: str) -> None:
    # Ana (DEF d3) is unaware of the archer: a d3 with disadvantage, but the minimum
    # at 1 region is a d4 (at 2 a d6), rolled with no disadvantage: one face.
    archer = sheet("archer", "orcs", att=8, ref=6, weapon="bow")
    regions = {"here": {"borders": ["there"]}, "there": {"borders": ["far"]}, "far": {}}
    enc = fight(
        [ana(defence=3), archer],
        faces=[2, 5],
        place={"ana": {"unaware_of": ["archer"]}, "archer": {"region": where}},
        regions=regions,
    )
    roll(enc, 4, 4)
    enc.push("archer attack ana")
    passive = rolls(enc, "passive")[0]
    assert passive["die"] == die and passive["faces"] == [4]
    assert results(enc)[-1]["successes"] == 1


@pytest.mark.rule("D-DEF-1")
def test_the_minimum_does_not_lower_a_better_die() -> None:
    # Ana's DEF d8 is above the d4 minimum: her own die, still disadvantaged (unaware).
    archer = sheet("archer", "orcs", att=8, ref=6, weapon="bow")
    enc = fight(
        [ana(defence=8), archer],
        faces=[2, 5],
        place={"ana": {"unaware_of": ["archer"]}, "archer": {"region": "there"}},
    )
    roll(enc, 4, 7, 1)
    enc.push("archer attack ana")
    passive = rolls(enc, "passive")[0]
    assert passive["die"] == "d8 dis" and passive["result"] == 1
    assert who(enc, "ana").hp == 6 - 4  # 4 against 1: four successes


LINE = ["here", "r1", "r2", "r3", "r4", "r5"]
LONGBOW = {"weapons": {"longbow": {"kind": "ranged", "hands": 2, "range": 6}}}


@pytest.mark.rule("D-DEF-1")
@pytest.mark.parametrize(
    ("distance", "defence", "die", "faces"),
    [
        (0, 3, "d3 dis", [3, 1]),  # point-blank: no minimum, the unaware d3 disadvantaged
        (1, 3, "d4", [1]),  # the table: d4 at one region
        (2, 3, "d6", [1]),  # d6 at two
        (3, 3, "d8", [1]),  # d8 at three
        (4, 3, "d10", [1]),  # d10 at four
        (5, 3, "d10", [1]),  # beyond the table, its last die
        (2, 4, "d6", [1]),  # a d4 is raised to the d6 of two regions
        (2, 6, "d6", [1]),  # her own d6 equals the minimum: the minimum, no disadvantage
        (2, 8, "d8 dis", [5, 1]),  # one step better than the minimum: her own die, unaware
        (4, 10, "d10", [1]),  # d10 at four regions equals the minimum
        (4, 12, "d12 dis", [5, 1]),  # a d12 is better
    ],
)
def test_the_minimum_defence_die_at_each_range(
    distance: int, defence: int, die: str, faces: list[int]
) -> None:
    # A longbow reaches six regions down a line of regions; Ana is unaware of the archer,
    # so her own DEF is disadvantaged, but a minimum for the range is rolled plainly.
    # REF: Ana 2, the archer 5: the archer shoots first, ATT d8 showing 8.
    archer = sheet("archer", "orcs", att=8, ref=6, weapon="longbow")
    regions: dict[str, Any] = {
        name: {"borders": LINE[i + 1 : i + 2]} for i, name in enumerate(LINE)
    }
    enc = fight(
        [ana(defence=defence), archer],
        faces=[2, 5],
        place={"ana": {"unaware_of": ["archer"]}, "archer": {"region": LINE[distance]}},
        regions=regions,
        campaign=LONGBOW,
    )
    roll(enc, 8, *faces)
    enc.push("archer attack ana")
    passive = rolls(enc, "passive")[0]
    assert passive["die"] == die and passive["faces"] == faces and passive["result"] == 1
    assert enc.state.tables.minimum_defence(distance) == [None, 4, 6, 8, 10, 10][distance]


# -- D-DEF-2 ----------------------------------------------------------------------------


@pytest.mark.rule("D-DEF-2")
def test_a_block_needs_a_shield_and_rolls_def_with_advantage() -> None:
    enc = fight([ana(), orc()], faces=[7, 2])
    roll(enc, 5)
    enc.push("ana attack orc")
    assert verbs(enc, "orc") == ["dodge", "parry", "take"]
    with pytest.raises(IllegalAction, match=r"no shield ready.*\(D-DEF-2\)"):
        enc.push("orc block")


@pytest.mark.rule("D-DEF-2")
@pytest.mark.parametrize(
    ("defender", "attacker", "faces"),
    [
        (ana(), orc(), [5]),  # a sword parries: ATT d8, one face
        (ana(weapon="axe"), orc(), [5, 1]),  # an axe is not made to parry: the lower
        (ana(weapon=None), orc(), [5, 1]),  # unarmed against a weapon: the lower
        (ana(), orc(size=2), [5, 1]),  # parrying a giant: the lower
    ],
)
def test_a_parry_rolls_att_disadvantaged_by_its_conditions(
    defender: dict[str, Any], attacker: dict[str, Any], faces: list[int]
) -> None:
    enc = fight([defender, attacker], faces=[2, 5])
    roll(enc, 3, *faces)
    enc.push("orc attack ana")
    enc.push("ana parry")
    parry = rolls(enc, "parry")[0]
    assert parry["faces"] == faces and parry["result"] == min(faces)
    assert results(enc)[-1]["successes"] == (3 if min(faces) == 1 else 0)  # 3 vs 5 or 1


@pytest.mark.rule("D-DEF-2")
def test_no_parry_against_a_ranged_attack_but_a_block_or_a_dodge() -> None:
    archer = sheet("archer", "orcs", att=8, ref=6, weapon="bow")
    enc = fight([ana(), archer], faces=[2, 5], place={"archer": {"region": "there"}})
    roll(enc, 6)
    enc.push("archer attack ana")
    assert verbs(enc, "ana") == ["block", "dodge", "take"]
    with pytest.raises(IllegalAction, match="a parry answers melee attacks only"):
        enc.push("ana parry")


@pytest.mark.rule("D-DEF-2")
def test_a_dodge_rolls_ref_disadvantaged_without_room() -> None:
    # In a cramped region Ana's REF d8 dodge is rolled twice, keeping the lower.
    enc = fight([ana(), orc()], faces=[2, 5], regions={"here": {"cramped": True}})
    roll(enc, 4, 8, 3)
    enc.push("orc attack ana")
    enc.push("ana dodge")
    dodge = rolls(enc, "dodge")[0]
    assert dodge["die"] == "d8 dis" and dodge["result"] == 3
    assert who(enc, "ana").hp == 5  # 4 against 3: one success


@pytest.mark.rule("D-DEF-2")
def test_blocks_and_dodges_answer_physical_spells_only() -> None:
    # A fire bolt defended by DEF: block or dodge; a physical spell against PRE: dodge.
    enc = fight([ana(), orc()], faces=[2, 5])
    roll(enc, 2)
    enc.push("orc spell ana defence=def")
    assert verbs(enc, "ana") == ["block", "dodge", "take"]
    enc = fight([ana(), orc()], faces=[2, 5])
    enc.push("orc spell ana defence=pre physical=yes")
    assert verbs(enc, "ana") == ["dodge", "take"]


# -- D-OA-1 -----------------------------------------------------------------------------


def three(**place: Any) -> Encounter[DieStepState]:
    """Ana, the orc and a goblin, all in ``here``; Ana acts first, then orc, goblin."""
    goblin = sheet("goblin", "orcs", att=6, ref=4, weapon="dagger")
    return fight([ana(), orc(), goblin], faces=[7, 5, 3], place=place)


@pytest.mark.rule("D-OA-1")
def test_leaving_a_region_with_a_minor_action_provokes_each_enemy_in_it() -> None:
    enc = three()
    enc.push("ana move there")
    assert enc.to_move == "orc" and who(enc, "ana").region == "here"  # before she goes
    roll(enc, 2, 3)
    enc.push("orc opportunity ana")
    enc.push("ana take")  # 2 against 3: a miss
    assert enc.to_move == "goblin"
    enc.push("goblin pass")
    assert who(enc, "ana").region == "there" and enc.to_move == "ana"
    assert who(enc, "orc").debt == 1  # a minor interrupt, from the orc's next turn


@pytest.mark.rule("D-OA-1")
def test_an_exclusive_action_provokes() -> None:
    enc = three(ana={"prone": True})
    enc.push("ana crawl there")
    assert enc.to_move == "orc"


@pytest.mark.rule("D-OA-1")
def test_aiming_a_ranged_attack_provokes_before_the_shot() -> None:
    archer = sheet("archer", "heroes", att=8, ref=8, weapon="bow")
    enc = fight([archer, orc(), ana()], faces=[8, 5, 1], place={"ana": {"region": "there"}})
    enc.push("archer attack orc")  # the orc stands in the archer's region
    assert enc.to_move == "orc"
    roll(enc, 6, 6)
    enc.push("orc opportunity archer")  # the archer has no shield, no melee weapon:
    enc.push("archer take")  # 6 against 6: one success
    assert who(enc, "archer").hp == 5
    assert enc.to_move == "orc"  # now the shot itself: the orc answers it


@pytest.mark.rule("D-OA-1")
def test_running_into_a_region_or_past_an_enemy_provokes_on_arrival() -> None:
    regions = {"a": {"borders": ["b"]}, "b": {"borders": ["c"]}, "c": {}}
    enc = fight(
        [ana(), orc()],
        faces=[7, 2],
        place={"ana": {"region": "a"}, "orc": {"region": "b"}},
        regions=regions,
    )
    enc.push("ana run c via=b")  # past the orc in b
    assert who(enc, "ana").region == "c" and enc.to_move == "orc"
    enc.push("orc pass")
    enc = fight(
        [ana(), orc()],
        faces=[7, 2],
        place={"ana": {"region": "a"}, "orc": {"region": "b"}},
        regions=regions,
    )
    enc.push("ana run b")
    assert who(enc, "ana").region == "b" and enc.to_move == "orc"


@pytest.mark.rule("D-OA-1")
def test_only_aware_enemies_with_a_melee_weapon_and_an_ap_to_owe_may_attack() -> None:
    archer = sheet("archer", "orcs", att=8, ref=4, weapon="bow")
    enc = fight([ana(), orc(), archer], faces=[7, 5, 3], place={"orc": {"unaware_of": ["ana"]}})
    enc.push("ana move there")  # the orc cannot see her, the archer holds a bow
    assert who(enc, "ana").region == "there" and enc.to_move == "ana"


@pytest.mark.rule("D-OA-1")
def test_an_opportunity_attack_is_a_basic_melee_attack_on_the_provoker() -> None:
    bo = sheet("bo", "heroes", ref=2, weapon="sword")
    enc = fight([ana(), orc(), bo], faces=[7, 5, 1])
    enc.push("ana move there")
    with pytest.raises(IllegalAction, match=r"the opportunity attack is on Ana \(D-OA-1\)"):
        enc.push("orc opportunity bo")
    with pytest.raises(IllegalAction, match="D-ACT-1"):
        enc.push("orc attack ana")  # a window is open: only its answers


@pytest.mark.rule("D-OA-1")
def test_a_provoker_knocked_out_by_the_opportunity_attack_never_acts() -> None:
    bo = sheet("bo", "heroes", ref=2, weapon="sword")
    enc = fight([ana(hp=3), orc(), bo], faces=[7, 5, 1])
    enc.push("ana move there")
    roll(enc, 6, 2)
    enc.push("orc opportunity ana")
    enc.push("ana take")  # 6 against 2: three successes, Ana is knocked out
    assert who(enc, "ana").knocked_out and who(enc, "ana").region == "here"
    assert enc.to_move == "orc"  # her turn is over
