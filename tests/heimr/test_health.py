"""Health (H-HP-1..5) in play: injury levels, injury effects, short rest, stabilizing and
the dying clock, with hit points taken by called Hit effects or scripted attacks.

Brannoc has 4 hit points, so Hit 4 leaves him at 0 (Bloodied), Hit 6 at -2 (Mangled),
Hit 8 at -4 (Mutilated). Out of combat ``gm wait`` moves the in-game clock; in combat
every round moves it 2 seconds (H-HP-5, docs/decisions.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction
from fracas.rules.heimr import effects
from fracas.rules.heimr.state import HeimrState

from heimr_builders import encounter, sheet, texts


def refuses(enc: Encounter[HeimrState], action: str, rule: str) -> None:
    with pytest.raises(IllegalAction) as err:
        enc.push(action)
    assert err.value.rule == rule, err.value


def camp(**kw: Any) -> Encounter[HeimrState]:
    """Out of combat: Ylva (north) and Brannoc (south, 4 hit points)."""
    ylva = sheet("ylva", "north", sta=3, sword="Medium weapon")
    brannoc = sheet("brannoc", "south", sta=3, hp=4, **kw)
    return encounter([ylva, brannoc], stances={"ylva": "none", "brannoc": "none"})


def wait(enc: Encounter[HeimrState], seconds: int) -> None:
    enc.push(f"gm wait seconds={seconds}")


# -- H-HP-1, H-HP-5: injury levels and their clocks -------------------------------------------


@pytest.mark.rule("H-HP-1", "H-HP-5")
def test_bloodied_at_zero_or_minus_one_is_not_dying() -> None:
    enc = camp()
    enc.push("gm effect brannoc name=Hit number=5")  # 4 - 5 = -1: Bloodied
    assert "brannoc is Bloodied" in texts(enc)
    wait(enc, 24 * 60 * 60)  # a day: Bloodied has no clock
    b = enc.state.combatants["brannoc"]
    assert (b.dead, b.unconscious) == (False, False)


@pytest.mark.rule("H-HP-1", "H-HP-5")
def test_mangled_falls_unconscious_after_five_minutes_and_dies_after_ten() -> None:
    enc = camp()
    enc.push("gm effect brannoc name=Hit number=6")  # -2: Mangled, at clock 0
    b = enc.state.combatants["brannoc"]
    assert (b.unconscious, b.dead) == (False, False)
    wait(enc, 299)
    assert not enc.state.combatants["brannoc"].unconscious
    wait(enc, 1)  # 300 s = 5 minutes: half way
    b = enc.state.combatants["brannoc"]
    assert (b.unconscious, b.dead) == (True, False)
    wait(enc, 299)
    assert not enc.state.combatants["brannoc"].dead
    wait(enc, 1)  # 600 s = 10 minutes
    assert enc.state.combatants["brannoc"].dead


@pytest.mark.rule("H-HP-1", "H-HP-5")
def test_mutilated_is_unconscious_at_once_and_dies_after_two_minutes() -> None:
    enc = camp()
    enc.push("gm effect brannoc name=Hit number=9")  # -5: Mutilated
    b = enc.state.combatants["brannoc"]
    assert (b.unconscious, b.helpless, b.prone, b.dead) == (True, True, True, False)
    wait(enc, 119)
    assert not enc.state.combatants["brannoc"].dead
    wait(enc, 1)  # 120 s
    assert enc.state.combatants["brannoc"].dead


@pytest.mark.rule("H-HP-1")
def test_a_worse_level_starts_its_own_count_and_below_minus_five_is_death() -> None:
    # docs/decisions.md: Mangled at 0 s, Mutilated at 240 s dies 2 minutes later, at 360 s
    # (not at once, as counting from 0 s would have it).
    enc = camp()
    enc.push("gm effect brannoc name=Hit number=6")  # -2 Mangled
    wait(enc, 240)
    enc.push("gm effect brannoc name=Hit number=2")  # -4 Mutilated
    assert enc.state.combatants["brannoc"].unconscious
    wait(enc, 119)
    assert not enc.state.combatants["brannoc"].dead
    wait(enc, 1)
    assert enc.state.combatants["brannoc"].dead
    # Below the seed's table (-5) the campaign's Dead level kills at once.
    enc = camp()
    enc.push("gm effect brannoc name=Hit number=10")  # -6
    assert enc.state.combatants["brannoc"].dead


@pytest.mark.rule("H-HP-5")
def test_in_combat_each_round_is_two_seconds_on_the_dying_clock() -> None:
    # Three combatants, so that two sides still stand while Brannoc is out.
    ylva = sheet("ylva", "north", sta=3)
    brannoc = sheet("brannoc", "south", sta=3, hp=4)
    cato = sheet("cato", "south", sta=3)
    enc = encounter(
        [ylva, brannoc, cato],
        faces=[6, 5, 1],  # initiative 9, 8, 4: Ylva, Brannoc, Cato
        stances={"ylva": "none", "brannoc": "none", "cato": "none"},
    )
    enc.push("gm effect brannoc name=Hit number=8")  # -4 Mutilated at 0 s: dies at 120 s
    wait(enc, 100)  # out of combat: the clock at 100 s
    enc.push("gm begin")
    # Ten rounds of three turns: 2 seconds a round, 20 seconds (not 3 x 2 a round).
    for rounds in range(1, 11):
        for who in ("ylva", "brannoc", "cato"):
            enc.push(f"{who} end")
        assert enc.state.clock == 100 + 2 * rounds
        assert enc.state.combatants["brannoc"].dead == (rounds == 10)
    assert "brannoc dies of a mutilated injury" in texts(enc, 1)
    assert enc.to_move == "ylva"  # the dead have no turns
    enc.push("ylva end")
    assert enc.to_move == "cato"


# -- H-HP-2: injury effects -----------------------------------------------------------------


@pytest.mark.rule("H-HP-2", "H-ATK-5")
def test_injury_effects_follow_the_body_part_hit_and_add_up_while_injured() -> None:
    ylva = sheet("ylva", "north", sta=3, sword="Medium weapon")
    brannoc = sheet("brannoc", "south", sta=3, hp=4, sword="Light weapon")
    enc = encounter([ylva, brannoc], faces=[6, 1], stances={"ylva": "none", "brannoc": "none"})
    enc.push("gm begin")
    # Ylva's attacks are C0P3, a single d6 that also picks the body part (H-ATK-5);
    # Brannoc pre-rolls no defence, so each hits; hit=N replaces the damage (H-EFF-2).
    enc.dice.add([4])  # sword arm: 4 - 4 = 0, Bloodied: Drop, his sword falls
    enc.push("ylva attack brannoc hit=4")
    b = enc.state.combatants["brannoc"]
    assert (b.hp, b.sword_hand, [i.name for i in b.dropped]) == (0, None, ["Light weapon"])
    enc.push("ylva end")
    refuses(enc, "brannoc get 'Light weapon'", "H-EFF-3")  # Drop lasts while injured
    enc.push("brannoc end")
    assert [e.name for e in enc.state.combatants["brannoc"].effects] == ["Drop"]
    enc.dice.add([1])  # left leg: -1, still Bloodied: Fall as well
    enc.push("ylva attack brannoc hit=1")
    assert enc.state.combatants["brannoc"].prone
    enc.push("ylva end")
    refuses(enc, "brannoc stand", "H-EFF-3")
    enc.push("brannoc end")
    enc.dice.add([5])  # torso: -2, Mangled: Daze as well
    enc.push("ylva attack brannoc hit=1")
    b = enc.state.combatants["brannoc"]
    assert [e.name for e in b.effects] == ["Drop", "Fall", "Daze"]
    assert not effects.can_defend(b)
    enc.push("ylva end")
    refuses(enc, "brannoc crawl A2", "H-EFF-5")  # dazed: no actions
    for _ in range(3):  # turns go by: the effects last while he is injured
        enc.push("brannoc end")
        enc.push("ylva end")
    assert [e.name for e in enc.state.combatants["brannoc"].effects] == ["Drop", "Fall", "Daze"]
    enc.push("gm heal brannoc hp=1")  # no longer injured: the effects end
    b = enc.state.combatants["brannoc"]
    assert (b.effects, b.injuries) == ([], [])


# -- H-HP-3: short rest ---------------------------------------------------------------------


@pytest.mark.rule("H-HP-3")
def test_a_short_rest_restores_hit_points_only_from_one_or_more() -> None:
    enc = camp()
    enc.push("gm effect brannoc name=Hit number=3")  # 1 hit point left
    enc.push("brannoc rest")
    assert enc.state.combatants["brannoc"].hp == 4  # back to his maximum
    assert enc.state.clock == 5 * 60  # five uninterrupted in-game minutes
    enc.push("gm effect brannoc name=Hit number=4")  # 0: Bloodied, "can't take a short rest"
    refuses(enc, "brannoc rest", "H-HP-3")
    enc.push("gm heal brannoc hp=1")  # treated: 1 hit point, no longer injured
    enc.push("brannoc rest")
    assert enc.state.combatants["brannoc"].hp == 4


@pytest.mark.rule("H-HP-3")
def test_there_is_no_short_rest_during_combat() -> None:
    enc = camp()
    enc.dice.add([6, 1])
    enc.push("gm begin")
    refuses(enc, "ylva rest", "H-HP-3")


# -- H-HP-4: stabilized, and reopened -------------------------------------------------------


@pytest.mark.rule("H-HP-4", "H-HP-5")
def test_a_stabilized_character_stops_dying_and_a_reopened_injury_counts_from_zero() -> None:
    enc = camp()
    refuses(enc, "gm stabilize brannoc", "H-HP-4")  # not injured
    enc.push("gm effect brannoc name=Hit number=7")  # -3: Mangled at 0 s
    refuses(enc, "gm reopen brannoc", "H-HP-4")  # nothing stabilized to reopen
    wait(enc, 400)
    assert enc.state.combatants["brannoc"].unconscious  # since 300 s
    enc.push("gm stabilize brannoc")
    b = enc.state.combatants["brannoc"]
    assert (b.unconscious, b.helpless, b.dead) == (False, False, False)  # awake again
    wait(enc, 3600)  # long past 10 minutes: no longer dying
    assert not enc.state.combatants["brannoc"].dead
    enc.push("gm reopen brannoc")  # at 4000 s: the count restarts from zero
    wait(enc, 299)
    assert not enc.state.combatants["brannoc"].unconscious
    wait(enc, 1)
    assert enc.state.combatants["brannoc"].unconscious  # 5 minutes after reopening
    wait(enc, 299)
    assert not enc.state.combatants["brannoc"].dead
    wait(enc, 1)
    assert enc.state.combatants["brannoc"].dead  # 10 minutes after reopening


@pytest.mark.rule("H-HP-4")
def test_a_reopened_mutilation_knocks_out_at_once() -> None:
    enc = camp()
    enc.push("gm effect brannoc name=Hit number=8")  # -4 Mutilated: unconscious at once
    enc.push("gm stabilize brannoc")
    assert not enc.state.combatants["brannoc"].unconscious
    wait(enc, 600)
    enc.push("gm reopen brannoc")  # counting from zero: Mutilated is unconscious at 0
    assert enc.state.combatants["brannoc"].unconscious
    wait(enc, 119)
    assert not enc.state.combatants["brannoc"].dead
    wait(enc, 1)
    assert enc.state.combatants["brannoc"].dead
