"""Die ranks, advantage, action kinds, turn order and the attack roll (D-DIE-1, D-ACT-1,
D-ATK-1, D-ATK-2). Every outcome is worked out by hand from the seed's text."""

from __future__ import annotations

import pytest

from fracas.engine import IllegalAction
from fracas.rules.diestep.rolls import ADV, DIS, net

from diestep_builders import fight, results, roll, sheet, texts, who


def ana(**kw: object) -> dict[str, object]:
    base: dict[str, object] = dict(att=8, defence=6, ref=8, weapon="sword", shield=True)
    base.update(kw)
    return sheet("ana", "heroes", **base)  # type: ignore[arg-type]


def orc(**kw: object) -> dict[str, object]:
    base: dict[str, object] = dict(att=8, defence=6, ref=6, weapon="axe")
    base.update(kw)
    return sheet("orc", "orcs", **base)  # type: ignore[arg-type]


def rolled(enc: object, what: str) -> list[dict[str, object]]:
    return [r for r in results(enc, "roll") if what in str(r["what"])]  # type: ignore[arg-type]


# -- D-DIE-1 ----------------------------------------------------------------------------


@pytest.mark.rule("D-DIE-1")
def test_an_unarmed_strike_moves_the_die_two_ranks_down_the_ladder() -> None:
    # STR d8, two ranks down the ladder d2 d3 d4 d6 d8: a d4. The orc is unarmed
    # (no opportunity attack) and rolls DEF d6.
    enc = fight([sheet("ana", "h", str=8, ref=8), sheet("orc", "o", ref=2)], faces=[7, 2])
    roll(enc, 4, 1)
    enc.push("ana strike orc")
    enc.push("orc take")
    strike = rolled(enc, "STR")[0]
    assert strike["die"] == "d4" and strike["result"] == 4


@pytest.mark.rule("D-DIE-1")
def test_a_shift_past_the_bottom_of_the_ladder_stops_at_d2() -> None:
    # STR d3 two ranks down: d2 is the lowest rank, so d2 (not an error).
    enc = fight([sheet("ana", "h", str=3, ref=8), sheet("orc", "o", ref=2)], faces=[7, 2])
    roll(enc, 2, 1)
    enc.push("ana strike orc")
    enc.push("orc take")
    assert rolled(enc, "STR")[0]["die"] == "d2"


@pytest.mark.rule("D-DIE-1")
def test_advantage_keeps_the_higher_of_two_and_disadvantage_the_lower() -> None:
    # Ana blocks: DEF d6 with advantage, faces 2 and 5 -> 5. The orc's ATT 5 against
    # 5 would still succeed (equal succeeds), so use 4: 4 < 5, a miss.
    enc = fight([ana(), orc()], faces=[2, 5])  # the orc acts first
    roll(enc, 4, 2, 5)
    enc.push("orc attack ana")
    enc.push("ana block")
    block = rolled(enc, "block")[0]
    assert block["faces"] == [2, 5] and block["result"] == 5
    assert results(enc)[-1]["successes"] == 0
    # Prone Ana's passive DEF against melee is disadvantaged: faces 5, 2 -> 2.
    enc = fight([ana(), orc()], faces=[2, 5], place={"ana": {"prone": True}})
    roll(enc, 4, 5, 2)
    enc.push("orc attack ana")
    enc.push("ana take")
    assert rolled(enc, "passive")[0]["result"] == 2
    assert results(enc)[-1]["successes"] == 2  # 4 is double 2


@pytest.mark.rule("D-DIE-1")
def test_advantage_and_disadvantage_cancel_one_for_one() -> None:
    # Prone Ana blocks a melee attack: block advantage, prone disadvantage: one die.
    enc = fight([ana(), orc()], faces=[2, 5], place={"ana": {"prone": True}})
    roll(enc, 3, 4)
    enc.push("orc attack ana")
    enc.push("ana block")
    block = rolled(enc, "block")[0]
    assert block["die"] == "d6" and block["faces"] == [4]
    assert net([("a", ADV), ("b", ADV), ("c", DIS)]) == 1  # never more than one re-roll
    assert net([("a", ADV), ("b", DIS), ("c", DIS)]) == -1


# -- D-ACT-1 ----------------------------------------------------------------------------


@pytest.mark.rule("D-ACT-1")
def test_turn_order_by_a_ref_roll_ties_to_the_larger_die() -> None:
    # Ana's REF d8 rolls 3, the orc's REF d6 rolls 5: the orc acts first.
    enc = fight([ana(), orc()], faces=[3, 5])
    assert enc.state.order == ["orc", "ana"] and enc.to_move == "orc"
    # Both roll 4: the larger REF die (Ana's d8) goes first.
    enc = fight([orc(), ana()], faces=[4, 4])
    assert enc.state.order == ["ana", "orc"]


@pytest.mark.rule("D-ACT-1")
def test_three_ap_a_turn_a_major_costs_two_a_minor_one() -> None:
    enc = fight([ana(), orc()], faces=[7, 2])
    roll(enc, 1, 6)
    enc.push("ana attack orc")  # major: 2 AP
    enc.push("orc take")
    assert enc.state.turn is not None and enc.state.turn.left == 1
    with pytest.raises(IllegalAction, match=r"1 AP left; a major action costs 2 \(D-ACT-1\)"):
        enc.push("ana attack orc")
    enc.push("ana prone")  # free: no AP
    assert enc.state.turn.left == 1
    with pytest.raises(IllegalAction, match="D-ACT-1"):
        enc.push("orc attack ana")  # not the orc's turn


@pytest.mark.rule("D-ACT-1")
def test_an_exclusive_action_is_the_turns_only_one_and_takes_all_its_ap() -> None:
    enc = fight([ana(), orc(weapon=None)], faces=[7, 2], place={"ana": {"prone": True}})
    enc.push("ana crawl there")  # exclusive: nothing provokes (the orc is unarmed)
    assert who(enc, "ana").region == "there"
    assert enc.state.turn is not None and enc.state.turn.left == 0
    enc = fight([ana(), orc(weapon=None)], faces=[7, 2], place={"ana": {"prone": True}})
    roll(enc, 1, 1, 6)  # prone: ATT with disadvantage, then the orc's DEF
    enc.push("ana attack orc")
    enc.push("orc take")
    with pytest.raises(IllegalAction, match="exclusive action must be the turn's only one"):
        enc.push("ana crawl there")


@pytest.mark.rule("D-ACT-1")
def test_a_minor_interrupt_spends_an_ap_of_the_next_turn() -> None:
    # The orc parries Ana's attack in her turn: its next turn has 3 - 1 = 2 AP.
    enc = fight([ana(), orc()], faces=[7, 2])
    roll(enc, 2, 6)  # Ana ATT 2; the orc's parry: ATT d8 with disadvantage (an axe
    enc.push("ana attack orc")
    roll(enc, 3)  # is not made to parry) -> faces 6, 3 -> 3; 2 < 3, a miss
    enc.push("orc parry")
    assert who(enc, "orc").debt == 1
    enc.push("ana end")
    assert enc.state.turn is not None and enc.state.turn.actor == "orc"
    assert enc.state.turn.pool == 2


# -- D-ATK-1, D-ATK-2 -------------------------------------------------------------------


@pytest.mark.rule("D-ATK-2")
@pytest.mark.parametrize(
    ("defence", "hits", "hp"),
    [(4, 1, 5), (3, 2, 4), (6, 1, 5), (2, 3, 3)],
)
def test_successes_from_the_published_example(defence: int, hits: int, hp: int) -> None:
    # ATT d8 rolls 6 against DEF d6: 4 is a hit (1 damage), 3 a double success (2),
    # an equal 6 still succeeds (1), 2 is a triple (3).
    enc = fight([ana(), orc()], faces=[7, 2])
    roll(enc, 6, defence)
    enc.push("ana attack orc")
    enc.push("orc take")
    assert results(enc)[-1]["successes"] == hits
    assert who(enc, "orc").hp == hp


@pytest.mark.rule("D-ATK-2")
def test_a_roll_below_the_defence_misses() -> None:
    enc = fight([ana(), orc()], faces=[7, 2])
    roll(enc, 3, 4)
    enc.push("ana attack orc")
    enc.push("orc take")
    assert results(enc)[-1]["successes"] == 0 and who(enc, "orc").hp == 6


@pytest.mark.rule("D-ATK-1")
def test_an_attack_is_a_major_action_against_the_passive_def() -> None:
    enc = fight([ana(), orc()], faces=[7, 2])
    roll(enc, 5, 5)
    enc.push("ana attack orc")
    assert enc.to_move == "orc"  # the defence window: the dice wait for its answer
    enc.push("orc take")
    assert [r["what"] for r in results(enc, "roll")][-2:] == ["ATT (weapon)", "DEF (passive)"]
    assert enc.state.turn is not None and enc.state.turn.left == 1


@pytest.mark.rule("D-ATK-1")
def test_the_passive_defence_is_rolled_even_when_knocked_out() -> None:
    # The orc at 0 HP is knocked out: no window, but its DEF d6 is still rolled. (A
    # second orc stands, or the encounter would be over.)
    grunt = sheet("grunt", "orcs", ref=2)
    enc = fight([ana(), orc(), grunt], faces=[7, 2, 1], place={"orc": {"hp": 0}})
    roll(enc, 5, 6)
    enc.push("ana attack orc")
    assert rolled(enc, "passive")[0]["who"] == "orc"
    assert results(enc)[-1]["successes"] == 0


@pytest.mark.rule("D-ATK-1")
def test_a_spell_rolls_pre_against_the_named_defence() -> None:
    # Ana's PRE d10 rolls 8 against the orc's FOR d4 rolling 4: two successes, 2 damage.
    # A mental spell cannot be parried (melee only), blocked (not a DEF defence) or
    # dodged (no physical effect): no window opens, the dice roll at once.
    enc = fight([ana(pre=10), orc(fort=4)], faces=[7, 2])
    roll(enc, 8, 4)
    enc.push("ana spell orc defence=for")
    assert enc.to_move == "ana"
    assert [r["what"] for r in results(enc, "roll")][-2:] == ["PRE (spell)", "FOR (passive)"]
    assert who(enc, "orc").hp == 4


@pytest.mark.rule("D-ATK-1")
def test_one_kind_of_defence_per_attack_a_block_replaces_the_passive_roll() -> None:
    enc = fight([ana(), orc()], faces=[2, 5])
    roll(enc, 5, 1, 2)  # the orc's ATT 5; Ana's block 1, 2 -> 2; no passive roll follows
    enc.push("orc attack ana")
    enc.push("ana block")
    assert not rolled(enc, "passive")
    assert enc.dice.remaining() == 0  # type: ignore[attr-defined]
    assert who(enc, "ana").hp == 4  # 5 against 2: two successes
    assert texts(enc)[-1] == "Ana takes 2 lethal damage (4/6 HP)"
