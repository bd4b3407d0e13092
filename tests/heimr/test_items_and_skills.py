"""Break on items (H-EFF-6) and Weaken on skills (H-EFF-8)."""

from __future__ import annotations

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, sheet


def duel() -> Encounter[HeimrState]:
    # dex 0 for both: initiative C0P3 with one d6 each, Ylva 6 + 3 against Brannoc 1 + 3.
    # Stance "none" pre-rolls no defence, so the only dice are the initiative.
    ylva = sheet(
        "ylva",
        "north",
        sword="Medium weapon",
        off="Medium shield",
        carried=["Light weapon"],
        skills=["First aid", "Battle cry"],
        willpower=4,
    )
    brannoc = sheet("brannoc", "south", sword="Great weapon")
    enc = encounter([ylva, brannoc], faces=[6, 1], stances={"ylva": "none", "brannoc": "none"})
    enc.push("gm begin")
    return enc


@pytest.mark.rule("H-EFF-6")
def test_break_destroys_an_item_only_when_as_strong_as_its_toughness() -> None:
    enc = duel()

    def ylva():  # the state is replaced on every push: look it up afresh
        return enc.state.combatants["ylva"]

    # The medium shield's toughness is 3 (tables.item_toughness): Break 2 falls short.
    enc.push("gm effect ylva name=Break number=2 item='Medium shield'")
    assert ylva().shield is not None and ylva().shield.name == "Medium shield"
    assert "holds: Break 2 against toughness 3" in enc.log[-1].events[-1].text
    # Break 3 reaches it: the shield is destroyed and the hand is empty.
    enc.push("gm effect ylva name=Break number=3 item='Medium shield'")
    assert ylva().shield is None
    # A carried light weapon (toughness 1) breaks at the default number, 1 point.
    enc.push("gm effect ylva name=Break item='Light weapon'")
    assert [i.name for i in ylva().carried] == []
    # Break is called on an item the character has.
    with pytest.raises(IllegalAction) as err:
        enc.push("gm effect ylva name=Break item=Bow")
    assert err.value.rule == "H-EFF-6"


@pytest.mark.rule("H-EFF-8")
def test_weaken_makes_skills_cost_one_more_willpower_while_it_lasts() -> None:
    enc = duel()

    def willpower() -> int:
        return enc.state.combatants["ylva"].willpower

    enc.push("ylva skill 'First aid' as=free")  # cost 1: willpower 4 -> 3
    assert willpower() == 3
    enc.push("gm effect ylva name=Weaken")  # 2 seconds, called in her turn: her next turn
    enc.push("ylva skill 'Battle cry' as=free")  # 1 + 1 while Weakened: 3 -> 1
    assert willpower() == 1
    with pytest.raises(IllegalAction) as err:
        enc.push("ylva skill 'First aid'")  # costs 2 while Weakened; she has 1
    assert err.value.rule == "H-EFF-8"
    for action in ["ylva end", "brannoc end", "ylva end", "brannoc end"]:
        enc.push(action)
    assert not enc.state.combatants["ylva"].has("Weaken")
    enc.push("ylva skill 'First aid'")  # no longer Weakened: cost 1
    assert willpower() == 0


def test_a_skill_needs_to_be_on_the_sheet() -> None:
    enc = duel()
    with pytest.raises(IllegalAction, match="no skill 'Fireball'"):
        enc.push("ylva skill Fireball")


@pytest.mark.rule("H-ATK-2")
@pytest.mark.rule("H-ACT-8")
def test_a_two_hands_weapon_fills_both_hands_when_drawing() -> None:
    """Nothing is drawn beside a two-hands weapon, and one is drawn only into two free hands."""
    archer = sheet("ylva", "north", sword="Bow", carried=["Light weapon"])
    brute = sheet("brannoc", "south", off="Medium shield", carried=["Great weapon"])
    enc = encounter([archer, brute], faces=[6, 1], stances={"ylva": "none", "brannoc": "none"})
    enc.push("gm begin")
    assert enc.to_move == "ylva"
    with pytest.raises(IllegalAction, match="no free hand") as err:
        enc.push("ylva draw 'Light weapon'")
    assert err.value.rule == "H-ACT-3"
    assert not [a for a in enc.legal_actions() if a.verb == "draw"]
    enc.push("ylva end")
    with pytest.raises(IllegalAction, match="no free hand"):
        enc.push("brannoc draw 'Great weapon'")  # the shield holds one of the two hands
