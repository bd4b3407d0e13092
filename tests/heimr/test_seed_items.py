"""The seed items of issue 22 in play, with scripted dice worked out by hand.

Dueling with a medium weapon, dex 0: C0P3, one d6 (its face is the result before
potential). Initiative for dex 0 and willpower 3: C0P3, one d6. Survival and
Perception with their attribute 0: C0P0, one d6.
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction, ScriptedDice, view
from fracas.rules import find
from fracas.rules.heimr import combat, terrain
from fracas.rules.heimr.state import HeimrState

from heimr_builders import setup, sheet, texts


def refused(enc: Encounter[HeimrState], action: str, rule: str, words: str = "") -> None:
    with pytest.raises(IllegalAction) as err:
        enc.push(action)
    assert err.value.rule == rule, err.value
    assert words in str(err.value)


def duel(
    ylva: dict[str, Any] | None = None,
    brannoc: dict[str, Any] | None = None,
    faces: list[int] | None = None,
    tables: dict[str, Any] | None = None,
    **extra: Any,
) -> Encounter[HeimrState]:
    """Ylva (north) acts first, then Brannoc (south): initiative faces 6 and 1, and no
    pre-rolled defences (stance none), unless the caller says otherwise."""
    people = [
        ylva or sheet("ylva", "north", sword="Medium weapon"),
        brannoc or sheet("brannoc", "south", sword="Medium weapon", hp=10),
    ]
    data = setup(
        people,
        stances=extra.pop("stances", {"ylva": "none", "brannoc": "none"}),
        **extra,
    )
    if tables:
        data["campaign"]["tables"] = tables
    return Encounter(find("heimr"), data, ScriptedDice([6, 1] if faces is None else faces))


def me(enc: Encounter[HeimrState], cid: str = "ylva") -> Any:
    return enc.state.combatants[cid]


# -- the worked examples of the fatigue chapter -----------------------------------------


@pytest.mark.rule("H-FAT-3", "H-FAT-2")
def test_a_stamina_of_minus_3_gives_base_fatigue_seven_and_every_roll_tires() -> None:
    # "A character with a base fatigue of seven (stamina of -3) will have one extra
    # fatigue every time they roll, because they can never throw seven with a D6."
    enc = duel(ylva=sheet("ylva", "north", sta=-3, sword="Medium weapon"))
    enc.push("gm begin")
    assert combat.base_fatigue(enc.state, me(enc)) == 7 and me(enc).fatigue == 7
    for turn, face in enumerate([6, 1, 6], start=1):
        enc.dice.add([face])  # even a six is below seven: fails outright, and tires
        enc.push("ylva attack brannoc")
        assert me(enc).fatigue == 7 + turn
        assert "fails outright on fatigue" in " ".join(texts(enc, 1))
        enc.push("ylva end")
        enc.push("brannoc end")


@pytest.mark.rule("H-FAT-1")
def test_a_fatigue_of_7_and_a_roll_of_6_fails_whatever_the_potential() -> None:
    # "if a character has a fatigue of 7 and rolls 6 (not counting potential) this means
    # the action automatically fails, even if the challenge would have been 7 or higher
    # when adding potential. If this is an attack, the opponent does not have to defend."
    enc = duel(
        place={"ylva": {"fatigue": 7}},
        faces=[6, 1] + [2, 5],  # Brannoc pre-rolls his dodge: 5
        stances={"ylva": "none", "brannoc": "dodge"},
    )
    enc.push("gm begin")
    enc.dice.add([6])  # 6 + 3 = 9 would beat the dodge 5; 6 is below fatigue 7
    enc.push("ylva attack brannoc")
    b = me(enc, "brannoc")
    assert b.hp == 10 and b.uses == {} and b.defence is not None and b.defence.result == 5
    assert "ylva's attack fails outright on fatigue: brannoc need not defend" in texts(enc, 1)


# -- H-ACT-8: draw, put away, get; ammunition drawn and spent ------------------------------


@pytest.mark.rule("H-ACT-8")
def test_draw_takes_only_what_is_easily_accessible_and_get_takes_from_the_pouch() -> None:
    ylva = sheet("ylva", "north")
    ylva["items"].update(carried=["Light weapon"], pouch=["Medium weapon"])
    enc = duel(ylva=ylva)
    enc.push("gm begin")
    refused(enc, "ylva draw 'Medium weapon'", "H-ACT-8", "pouch, not easily accessible")
    enc.push("ylva draw 'Light weapon'")  # standard
    assert me(enc).sword_hand.name == "Light weapon"
    enc.push("ylva end")
    enc.push("brannoc end")
    enc.push("ylva get 'Medium weapon'")  # ongoing: from the pouch, into the free hand
    assert me(enc).off_hand is None or me(enc).off_hand.name == "Medium weapon"
    assert "takes the Medium weapon from the pouch" in " ".join(texts(enc, 1))
    assert me(enc).pouch == [] and enc.state.current == "brannoc"  # ongoing: the turn ended
    enc.push("brannoc end")
    enc.push("ylva sheathe 'Light weapon'")  # put away where it is easily accessible
    assert [i.name for i in me(enc).carried] == ["Light weapon"]


@pytest.mark.rule("H-ACT-8")
def test_counted_ammunition_is_drawn_before_each_shot_and_the_shot_spends_it() -> None:
    eirik = sheet("eirik", "north", sword="Bow")
    eirik["items"]["ammunition"] = {"Arrow": 2}
    enc = duel(
        ylva=eirik,
        squares={"eirik": "B1", "brannoc": "B3"},
        faces=[6, 1] + [3] * 40,
        stances={"eirik": "none", "brannoc": "none"},
    )
    enc.push("gm begin")
    refused(enc, "eirik attack brannoc", "H-ACT-8", "no Arrow drawn")
    assert "eirik draw Arrow" in [str(a) for a in enc.legal_actions()]
    enc.push("eirik draw Arrow")
    assert me(enc, "eirik").drawn_ammunition == "Arrow" and me(enc, "eirik").ammunition == {
        "Arrow": 1
    }
    refused(enc, "eirik attack brannoc", "H-ACT-1")  # the draw was the standard action
    enc.push("eirik end")
    enc.push("brannoc end")
    enc.push("eirik attack brannoc")
    assert me(enc, "eirik").drawn_ammunition is None
    assert "eirik shoots the drawn Arrow: 1 left" in texts(enc, 1)
    enc.push("eirik end")
    enc.push("brannoc end")
    refused(enc, "eirik attack brannoc", "H-ACT-8")  # nothing drawn: no shot every turn
    enc.push("eirik draw Arrow")
    enc.push("eirik end")
    enc.push("brannoc end")
    enc.push("eirik sheathe Arrow")  # put it back where it is easily accessible
    assert me(enc, "eirik").ammunition == {"Arrow": 1}


@pytest.mark.rule("H-ACT-8")
def test_the_last_arrow_spent_leaves_none_to_draw() -> None:
    eirik = sheet("eirik", "north", sword="Bow")
    eirik["items"]["ammunition"] = {"Arrow": 0}
    enc = duel(ylva=eirik, stances={"eirik": "none", "brannoc": "none"})
    enc.push("gm begin")
    refused(enc, "eirik draw Arrow", "H-ACT-8", "no Arrow left")


# -- H-SKILL-1, H-EFF-11, H-HP-3: skills -----------------------------------------------------

SKILLS = {
    "skills": {
        "Shield bash": {"effects": ["Stumble"], "needs": {"holding": ["Medium shield"]}},
        "Aimed blow": {"kind": "upcoming"},
        "Sleeper hold": {"effects": ["Daze"], "needs": {"skills": ["Wrestling"]}},
        "Mend": {"combat": False},
        "Second wind": {"kind": "free", "rested": True},
    }
}


def skilled(**extra: Any) -> Encounter[HeimrState]:
    ylva = sheet(
        "ylva",
        "north",
        sword="Medium weapon",
        off="Medium shield",
        willpower=5,
        skills=["Shield bash", "Aimed blow", "Sleeper hold", "Mend", "Second wind"],
    )
    enc = duel(ylva=ylva, tables=SKILLS, faces=[6, 1] + [3] * 60, **extra)
    enc.push("gm begin")
    return enc


@pytest.mark.rule("H-SKILL-1")
def test_a_skill_needs_its_prerequisite_and_some_are_no_combat_action() -> None:
    enc = skilled()
    refused(enc, "ylva skill 'Sleeper hold'", "H-SKILL-1", "needs the skill Wrestling")
    refused(enc, "ylva skill Mend", "H-SKILL-1", "cannot be used as a combat action")
    enc.push("ylva drop 'Medium shield'")  # free
    refused(enc, "ylva skill 'Shield bash'", "H-SKILL-1", "Medium shield")


@pytest.mark.rule("H-SKILL-1")
def test_one_skill_is_used_or_prepared_at_a_time() -> None:
    enc = skilled()
    # Ready a skill for Brannoc's turn (standard), then prepare another (upcoming).
    enc.push("ylva ready action=\"skill 'Shield bash' effect=Stumble on=brannoc\" trigger=moves")
    enc.push("ylva skill 'Aimed blow'")  # the table makes it upcoming: the turn ends
    assert me(enc).skill_in_use == "Aimed blow" and enc.state.current == "brannoc"
    refused(enc, "ylva trigger", "H-INIT-4", "one skill used or prepared at a time")
    enc.push("brannoc end")
    enc.push("ylva skill 'Second wind'")  # the prepared skill completes first
    assert "ylva uses the prepared Aimed blow" in texts(enc, 1)
    assert me(enc).skill_in_use is None


@pytest.mark.rule("H-SKILL-1")
def test_a_prepared_skill_is_lost_when_its_user_is_hit_by_an_effect() -> None:
    enc = skilled()
    enc.push("ylva skill 'Aimed blow'")
    enc.push("gm effect ylva name=Weaken")
    assert me(enc).skill_in_use is None and me(enc).upcoming is None


@pytest.mark.rule("H-EFF-11")
def test_players_call_effects_only_with_the_matching_skill() -> None:
    # In bordering squares: a Stumble bars the way from its source (H-EFF-4).
    enc = skilled(squares={"ylva": "B2", "brannoc": "B3"})
    offered = [str(a) for a in enc.legal_actions()]
    assert "ylva skill 'Shield bash' effect=Stumble on=brannoc" in offered
    refused(enc, "ylva effect brannoc name=Stumble", "H-ACT-3", "only the game master")
    refused(enc, "ylva skill 'Shield bash' effect=Daze on=brannoc", "H-EFF-11", "calls Stumble")
    refused(enc, "ylva skill 'Second wind' effect=Stumble on=brannoc", "H-EFF-11")
    # "Stumble four": the number called replaces the default two.
    enc.push("ylva skill 'Shield bash' effect=Stumble on=brannoc number=4")
    (stumble,) = me(enc, "brannoc").effects
    assert (stumble.name, stumble.number, stumble.source) == ("Stumble", 4, "ylva")
    assert me(enc).willpower == 4


@pytest.mark.rule("H-HP-3")
def test_a_rested_skill_is_free_once_and_a_short_rest_regains_it() -> None:
    enc = skilled()
    enc.push("ylva skill 'Second wind'")  # free action; its rested use costs nothing
    assert me(enc).willpower == 5 and me(enc).rested_used == ["Second wind"]
    enc.push("ylva end")
    enc.push("brannoc end")
    enc.push("ylva skill 'Second wind'")  # used again: its cost, 1
    assert me(enc).willpower == 4
    enc.push("gm effect brannoc name=Hit number=30")  # the fight is over
    enc.push("ylva rest")
    assert me(enc).rested_used == []
    assert any("rested skills regained: Second wind" in t for t in texts(enc, 1))


# -- H-ACT-3: conceal an item, observe a character for hidden items --------------------------


@pytest.mark.rule("H-ACT-3")
def test_a_concealed_item_is_hidden_from_other_sides_until_found_by_perception() -> None:
    ylva = sheet("ylva", "north", sword="Light weapon")
    enc = duel(ylva=ylva, faces=[6, 1])
    enc.push("gm begin")
    enc.dice.add([5])  # Survival C0P0: 5, the CR to find it
    enc.push("ylva conceal 'Light weapon'")  # ongoing: her turn ends
    south = view(enc, "south")
    seen = south["state"]["combatants"]["ylva"]
    assert seen["weapons"] == [] and seen["concealed_items"] == []
    assert "Light weapon" not in str(south)  # neither the item nor the roll leak
    assert view(enc, "north")["state"]["combatants"]["ylva"]["concealed_items"] == ["Light weapon"]
    assert view(enc, None)["state"]["combatants"]["ylva"]["conceal_cr"] == 5
    enc.dice.add([4])  # Perception 4: below 5, nothing found
    enc.push("brannoc observe ylva")
    assert "brannoc finds nothing hidden on ylva" in texts(enc, 1)
    assert view(enc, "south")["state"]["combatants"]["ylva"]["concealed_items"] == []
    enc.push("brannoc end")
    enc.push("ylva end")
    enc.dice.add([5])  # Perception 5: found
    enc.push("brannoc observe ylva")
    assert view(enc, "south")["state"]["combatants"]["ylva"]["concealed_items"] == ["Light weapon"]
    enc.push("brannoc end")
    enc.push("ylva draw 'Light weapon'")  # a concealed item is drawn from hiding
    assert me(enc).sword_hand.name == "Light weapon" and me(enc).concealed == []


# -- H-POS-2: sleeping --------------------------------------------------------------------


@pytest.mark.rule("H-POS-2")
def test_a_sleeper_wakes_at_a_soft_sound_on_nine_a_loud_one_on_five_and_when_hit() -> None:
    enc = duel(place={"brannoc": {"sleeping": True}})
    enc.push("gm begin")
    b = me(enc, "brannoc")
    assert b.sleeping and b.prone and b.helpless
    enc.dice.add([6])  # Perception C0P0 6 against a soft sound's CR 9: sleeps on
    enc.push("gm sound brannoc loud=no")
    assert me(enc, "brannoc").sleeping
    enc.dice.add([5])  # 5 against a loud sound's CR 5: wakes, still prone
    enc.push("gm sound brannoc loud=yes")
    b = me(enc, "brannoc")
    assert not b.sleeping and not b.helpless and b.prone
    enc.push("gm sleep brannoc")
    enc.push("gm effect brannoc name=Hit")  # hit: wakes
    assert not me(enc, "brannoc").sleeping and me(enc, "brannoc").hp == 9
    refused(enc, "gm sound loud=yes", "H-POS-2", "nobody is asleep")


@pytest.mark.rule("H-POS-2")
def test_a_sleeper_takes_no_action_and_is_shown_asleep() -> None:
    enc = duel(place={"ylva": {"sleeping": True}})
    enc.push("gm begin")
    refused(enc, "ylva attack brannoc", "H-POS-2", "helpless")
    assert view(enc, "south")["state"]["combatants"]["ylva"]["sleeping"] is True


# -- H-EFF-7: Bind on an arm or a leg --------------------------------------------------------


@pytest.mark.rule("H-EFF-7")
def test_a_bound_arm_holds_its_hand_and_a_bound_leg_holds_its_place() -> None:
    ylva = sheet("ylva", "north", sword="Medium weapon", off="Medium shield")
    enc = duel(ylva=ylva, faces=[6, 1] + [3] * 20)
    enc.push("gm begin")
    enc.push("gm effect ylva name=Bind part='sword arm'")
    refused(enc, "ylva attack brannoc", "H-EFF-7", "arm is bound")
    refused(enc, "ylva defend parry", "H-EFF-7", "no parrying")
    enc.push("ylva defend block")  # the other arm is free: the shield still blocks
    enc = duel(ylva=ylva, faces=[6, 1] + [3] * 20)
    enc.push("gm begin")
    enc.push("gm effect ylva name=Bind part='other arm'")
    refused(enc, "ylva defend block", "H-EFF-7", "no blocking")
    enc.push("ylva attack brannoc")  # the sword arm is free
    enc = duel(ylva=ylva, faces=[6, 1] + [3] * 20)
    enc.push("gm begin")
    enc.push("gm effect ylva name=Bind part=leg")
    for action in ("ylva move B3", "ylva run B3", "ylva prone"):
        if action == "ylva prone":
            enc.push(action)  # dropping prone is no moving away
            refused(enc, "ylva crawl B3", "H-EFF-7", "leg is bound")
        else:
            refused(enc, action, "H-EFF-7", "cannot walk")


# -- H-GRID-9: the concealment table's Height ------------------------------------------------


@pytest.mark.rule("H-GRID-9")
def test_a_cover_conceals_only_below_its_height() -> None:
    field = {
        "columns": 3,
        "rows": 3,
        "squares": {
            "B2": {"concealment": ["Wooden table"], "top": 3},  # effectiveness 3, height 1
            "B3": {"height": 4, "name": "tower"},
        },
    }
    archer = sheet("eirik", "north", sword="Bow")
    enc = duel(ylva=archer, squares={"eirik": "B1", "brannoc": "B2"}, battlefield=field)
    state = enc.state
    e, b = me(enc, "eirik"), me(enc, "brannoc")
    assert terrain.concealment(state, e, b) == 3  # from the ground: behind the table
    e.height = 1  # seen from above the table's top (ground 0 + height 1): no cover
    assert terrain.concealment(state, e, b) == 0
    e.height, b.height = 0, 1  # up on a ladder in B2, above the table: no cover
    assert terrain.concealment(state, e, b) == 0
    assert state.battlefield.concealment("B2") == 3  # no heights asked: the cover's own


@pytest.mark.rule("H-GRID-9", "H-POS-4")
def test_a_hider_climbing_above_its_cover_is_seen_again() -> None:
    field = {
        "columns": 3,
        "rows": 3,
        "squares": {"B2": {"concealment": ["Shrubbery"], "top": 2, "climb": "Ladder or stairs"}},
    }
    eirik = sheet("eirik", "north")
    enc = duel(
        ylva=eirik,
        squares={"brannoc": "B1"},
        battlefield=field,
        stances={"eirik": "none", "brannoc": "none"},
    )
    enc.push("gm begin")
    enc.dice.add([5])  # Survival C0P0: hidden at CR 5
    enc.push("eirik hide")
    assert me(enc, "eirik").hide_cr == 5
    enc.push("eirik climb up")  # to height 1: the shrubbery is 1 high
    assert me(enc, "eirik").hide_cr is None
    assert "eirik is no longer hidden: nothing in B2 conceals it" in texts(enc, 1)
