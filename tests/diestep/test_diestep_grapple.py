"""Unarmed strikes, grabs, holds and escapes (D-UNARMED-1, D-GRAB-1, D-ESCAPE-1),
worked out by hand from the seed's text."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.diestep.state import DieStepState

from diestep_builders import fight, results, roll, sheet, texts, who


def ana(**kw: Any) -> dict[str, Any]:
    return sheet("ana", "heroes", **{"str": 8, "defence": 6, "ref": 8, **kw})


def orc(**kw: Any) -> dict[str, Any]:
    return sheet("orc", "orcs", **{"str": 6, "defence": 6, "ref": 6, **kw})


def rolls(enc: Encounter[DieStepState], what: str) -> list[dict[str, Any]]:
    return [r for r in results(enc, "roll") if what in str(r["what"])]


# -- D-UNARMED-1 ------------------------------------------------------------------------


@pytest.mark.rule("D-UNARMED-1")
def test_a_strike_at_an_armed_foe_first_meets_its_weapon() -> None:
    enc = fight([ana(), orc(att=8, weapon="axe")], faces=[7, 2])
    enc.push("ana strike orc")
    assert enc.to_move == "orc" and not rolls(enc, "strike")  # the strike waits
    roll(enc, 2, 3)
    enc.push("orc opportunity ana")
    enc.push("ana take")  # ATT 2 against DEF 3: a miss
    roll(enc, 4, 2)  # now the strike: STR d8 two ranks down is a d4: 4 against 2
    enc.push("orc take")
    assert rolls(enc, "strike")[0]["die"] == "d4"
    assert "Orc takes 2 non-lethal damage (4/6 HP)" in texts(enc)


@pytest.mark.rule("D-UNARMED-1")
def test_a_strike_is_lethal_only_against_the_unconscious() -> None:
    # The orc (3 HP) lies knocked out: d4 rolls 3 against DEF 1, three successes,
    # lethal now, and once its HP: dead (D-KO-2).
    enc = fight(
        [ana(), orc(hp=3), sheet("grunt", "orcs", ref=2)], faces=[7, 2, 1], place={"orc": {"hp": 0}}
    )
    roll(enc, 3, 1)
    enc.push("ana strike orc")
    assert who(enc, "orc").dead
    # Awake, the same three successes only knock it out, not lethally.
    enc = fight([ana(), orc(hp=3), sheet("grunt", "orcs", ref=2)], faces=[7, 2, 1])
    roll(enc, 3, 1)
    enc.push("ana strike orc")
    enc.push("orc take")
    o = who(enc, "orc")
    assert (o.knocked_out, o.ko_lethal, o.dead) == (True, False, False)


# -- D-GRAB-1 ---------------------------------------------------------------------------


def grabbed(faces: tuple[int, int], **place: Any) -> Encounter[DieStepState]:
    """Ana grabs the orc: her STR d8 two ranks down (d4) against its STR d6."""
    bo = sheet("bo", "heroes", att=8, ref=2, weapon="sword")
    goblin = sheet("goblin", "orcs", att=8, ref=2, weapon="dagger")
    enc = fight([ana(), orc(), bo, goblin], faces=[7, 5, 1, 1], place=place)
    enc.push("ana grab orc")
    assert sorted(a.verb for a in enc.legal_actions("orc")) == ["dodge", "parry", "take"]
    roll(enc, *faces)
    enc.push("orc take")
    return enc


@pytest.mark.rule("D-GRAB-1")
def test_one_success_is_a_partial_grab_neither_moves_and_others_are_hard_to_hit() -> None:
    enc = grabbed((3, 3))  # 3 against STR 3: one success
    assert rolls(enc, "STR (passive)")[0]["result"] == 3
    assert who(enc, "orc").hold == "partial" and who(enc, "ana").holding == "orc"
    with pytest.raises(IllegalAction, match="cannot move without letting go"):
        enc.push("ana move there")
    enc.push("ana end")
    with pytest.raises(IllegalAction, match=r"grabbed and cannot move.*\(D-GRAB-1\)"):
        enc.push("orc move there")
    enc.push("orc strike bo")
    enc.push("bo pass")  # Bo's sword would get the first blow (D-UNARMED-1); he lets it go
    roll(enc, 3, 1, 6)  # the orc strikes Bo, not Ana: STR d3 twice, the lower, 1
    enc.push("bo take")
    assert rolls(enc, "strike")[0]["why"] == ["grappling someone else (dis)"]


@pytest.mark.rule("D-GRAB-1")
def test_a_grab_is_sustained_each_turn_with_a_minor_action_or_let_go() -> None:
    enc = grabbed((3, 3))
    enc.push("ana end")  # made this turn: nothing to sustain
    for cid in ("orc", "bo", "goblin"):
        enc.push(f"{cid} end")
    enc.push("ana hold")  # minor: 1 AP
    assert enc.state.turn is not None and enc.state.turn.left == 2
    enc.push("ana end")
    assert who(enc, "orc").held_by == "ana"
    for cid in ("orc", "bo", "goblin"):
        enc.push(f"{cid} end")
    enc.push("ana end")  # not sustained: released
    assert who(enc, "orc").held_by is None
    assert "Ana lets go of Orc: the grab was not sustained" in texts(enc)


@pytest.mark.rule("D-GRAB-1")
def test_a_full_hold_disadvantages_the_held_and_turns_the_holders_defences() -> None:
    enc = grabbed((4, 2))  # 4 against STR 2: double, a full hold
    assert who(enc, "orc").hold == "full"
    enc.push("ana end")
    # The held orc attacks Ana: its STR d3 is disadvantaged (a physical action), and
    # Ana's DEF is advantaged against her own target.
    roll(enc, 3, 2, 1, 5)
    enc.push("orc strike ana")
    enc.push("ana take")
    assert rolls(enc, "STR (strike)")[0]["result"] == 2
    assert rolls(enc, "passive")[-1]["why"] == ["holding the attacker (adv)"]
    enc.push("orc end")
    enc.push("bo end")
    # The goblin attacks Ana: her defence is disadvantaged, holding someone.
    roll(enc, 5, 6, 1)
    enc.push("goblin attack ana")
    enc.push("ana take")
    assert rolls(enc, "passive")[-1]["why"] == ["holding someone (dis)"]
    assert who(enc, "ana").hp == 6 - 5


@pytest.mark.rule("D-GRAB-1")
def test_force_down_is_minor_and_crush_is_major_with_no_active_defence() -> None:
    enc = grabbed((4, 2))
    enc.push("ana end")
    for cid in ("orc", "bo", "goblin"):
        enc.push(f"{cid} end")
    enc.push("ana down")  # 1 AP: the orc is prone
    assert who(enc, "orc").prone
    roll(enc, 4, 5, 2)  # crush: d4 4 against DEF, fully held and prone: lower of 5, 2
    enc.push("ana crush")
    assert enc.to_move == "ana"  # no window: no block, parry or dodge
    assert who(enc, "orc").hp == 6 - 2
    assert enc.state.turn is not None and enc.state.turn.left == 0


@pytest.mark.rule("D-GRAB-1")
def test_a_throw_is_advantaged_and_lethal_on_hard_ground() -> None:
    enc = fight(
        [ana(), orc(), sheet("goblin", "orcs", ref=2)],
        faces=[7, 5, 1],
        regions={"here": {"ground": "hard"}},
    )
    roll(enc, 4, 2)
    enc.push("ana grab orc")
    enc.push("orc take")
    enc.push("ana end")
    enc.push("orc end")
    enc.push("goblin end")
    roll(enc, 1, 4, 3, 2)  # d4 with advantage: 1, 4 -> 4; DEF held: 3, 2 -> 2
    enc.push("ana throw orc")
    damage = results(enc, "damage")[-1]
    assert damage == {"who": "orc", "damage": 2, "lethal": True, "hp": 4}
    assert who(enc, "orc").prone and who(enc, "orc").held_by is None


@pytest.mark.rule("D-GRAB-1")
def test_dragging_the_held_one_region_is_exclusive_and_provokes() -> None:
    enc = grabbed((4, 2))
    enc.push("ana end")
    for cid in ("orc", "bo", "goblin"):
        enc.push(f"{cid} end")
    enc.push("ana drag there")
    assert enc.to_move == "goblin"  # an exclusive action provokes
    enc.push("goblin pass")
    assert who(enc, "ana").region == who(enc, "orc").region == "there"


@pytest.mark.rule("D-GRAB-1")
def test_grabbing_an_armed_foe_provokes_it_first() -> None:
    enc = fight([ana(), orc(att=8, weapon="axe")], faces=[7, 2])
    enc.push("ana grab orc")
    assert enc.to_move == "orc"
    assert [a.verb for a in enc.legal_actions("orc")] == ["opportunity", "pass"]


# -- D-ESCAPE-1 -------------------------------------------------------------------------


@pytest.mark.rule("D-ESCAPE-1")
@pytest.mark.parametrize(
    ("faces", "held", "left", "turn_over"),
    [
        ((1, 1), True, 1, False),  # 1 against 2: fails, and costs a major action
        ((3, 3), False, 0, True),  # 3 against 2: escapes; a major action, turn over
        ((5, 6), False, 2, False),  # 5 against 2: double, only a minor action
        ((6, 6), False, 3, False),  # 6 against 2: triple, a free action
    ],
)
def test_escape_costs_by_how_well_it_goes(
    faces: tuple[int, int], held: bool, left: int, turn_over: bool
) -> None:
    enc = grabbed((4, 2))  # a full hold: the orc's STR is rolled twice, the lower kept
    enc.push("ana end")
    roll(enc, *faces, 2)  # the grappler's STR two ranks down: d4 rolls 2
    enc.push("orc escape")
    assert rolls(enc, "escape")[0]["die"] == "d6 dis"
    assert rolls(enc, "hold on")[0]["die"] == "d4"
    assert (who(enc, "orc").held_by == "ana") == held
    if turn_over:
        assert enc.state.current == "bo"
    else:
        assert enc.state.turn is not None and enc.state.turn.left == left


@pytest.mark.rule("D-ESCAPE-1")
def test_a_partial_grab_is_escaped_without_disadvantage() -> None:
    enc = grabbed((3, 3))
    enc.push("ana end")
    roll(enc, 2, 2)  # one face each; a tie goes to the one escaping (D-ATK-2)
    enc.push("orc escape")
    assert rolls(enc, "escape")[0]["faces"] == [2]
    assert who(enc, "orc").held_by is None
    with pytest.raises(IllegalAction, match=r"not held \(D-ESCAPE-1\)"):
        enc.push("bo escape")


@pytest.mark.rule("D-ESCAPE-1")
@pytest.mark.parametrize(
    ("faces", "grappler", "free", "ap_left", "next_up"),
    [
        ((2, 2), 3, False, 1, "orc"),  # 2 against 3: no success, a major action spent
        ((3, 3), 3, True, 0, "bo"),  # 3 against 3: a tie escapes; major, the turn is over
        ((5, 5), 3, True, 0, "bo"),  # 5 against 3: one short of double, still major
        ((6, 6), 3, True, 2, "orc"),  # 6 against 3: exactly double, a minor action
        ((5, 5), 2, True, 2, "orc"),  # 5 against 2: one short of triple, still minor
        ((6, 6), 2, True, 3, "orc"),  # 6 against 2: exactly triple, a free action
        ((6, 6), 1, True, 3, "orc"),  # 6 against 1: beyond triple, still free
    ],
)
def test_escape_costs_at_each_number_of_successes_and_whose_turn_follows(
    faces: tuple[int, int], grappler: int, free: bool, ap_left: int, next_up: str
) -> None:
    # The orc, fully held, rolls STR d6 with disadvantage (both faces alike, so the kept
    # one is plain); Ana holds on with STR d8 two ranks down, a d4, rolling ``grappler``.
    # Turn order: Ana 7, the orc 5, Bo 1, the goblin 1. The orc's turn has 3 AP.
    enc = grabbed((4, 2))
    enc.push("ana end")
    roll(enc, *faces, grappler)
    enc.push("orc escape")
    assert (who(enc, "orc").held_by is None) == free
    assert who(enc, "ana").holding == (None if free else "orc")
    assert enc.to_move == next_up
    if next_up == "orc":
        assert enc.state.turn is not None and enc.state.turn.left == ap_left
    else:
        assert enc.state.current == "bo"
