"""Melee, dodge and ranged rolls, tactics and willpower (HC-CS-1, HC-DODGE-1, HC-AGI-1,
HC-TAC-1, HC-WP-1), each worked by hand from seed 001.

Every round below is: both sides post, the DM closes, initiative d20s in setup order
(Ylva first), then the declarations in initiative order; a potential hit makes the
target roll its dodge d20, once a round.
"""

from __future__ import annotations

import pytest

from fracas.engine import ScriptedDice
from fracas.rules.classic import combat
from fracas.rules.classic.modifiers import total

from classic_builders import encounter, kinds, play, refused, sheet, texts

SWORD = {"Sword": "one-handed"}  # 70-110 cm: +1e attack, +7e defence, 2 damage (Medium weapon)


def orc(**kw: object) -> dict[str, object]:
    return sheet("orc", "orcs", npc=True, **kw)  # type: ignore[arg-type]


# -- HC-CS-1 -----------------------------------------------------------------------------


@pytest.mark.rule("HC-CS-1")
def test_melee_hits_when_d20_plus_attack_reaches_the_defence_and_the_shield_stacks() -> None:
    # Ylva: CS 6, a one-handed sword: attack d20 + 6 + 1e.
    # The orc: CS 5, a one-handed axe (+7e) and a shield (+5e, stacking): defence 17.
    ylva = sheet("ylva", "north", stats={"CS": 6, "K": 4}, weapons=SWORD, main="Sword")
    o = orc(weapons={"Axe": "one-handed", "Shield": "shield"}, main="Axe", off="Shield")
    # Initiative 15 and 3; first attack d20 9: 9 + 7 = 16 < 17, a miss (with the shield's
    # bonus not stacking, the defence would be 12 and this a hit). Second attack 10: 17,
    # equal to the defence: a potential hit. The orc dodges d20 12 + 5 - 1e (shield) = 16,
    # not above 17: the sword hits for 2.
    enc = encounter([ylva, o], faces=[15, 3, 9, 10, 12])
    play(enc, "gm open", "ylva attack orc", "ylva attack orc", "ylva done", "orc done", "gm close")
    out = texts(enc)
    assert "16 against defence 17: a miss" in out
    assert "17 against defence 17: a potential hit" in out
    assert "Orc's dodge: d20 shows 12, 16 (-1e Shield)" in out
    assert "Orc loses 2 hit points (3 left)" in out
    assert enc.state.combatants["orc"].hp == 3


@pytest.mark.rule("HC-CS-1")
def test_the_defence_table_and_two_weapon_fighting() -> None:
    # Combat skill 5 plus: unarmed +3, small +5, 30-70 cm +6, 70-110 cm +7, two-handed
    # +8, pole-arm +10, staff +10; a shield +5 on top of unarmed; two weapons: the main
    # hand's +7 and half the off hand's +5, rounded down (+2): +9.
    kinds_ = ["small", "one-handed short", "one-handed", "two-handed", "pole-arm", "staff"]
    fighters = [sheet(f"f{i}", "a", weapons={"W": k}, main="W") for i, k in enumerate(kinds_)]
    fighters += [
        sheet("bare", "a"),
        sheet("shielded", "a", weapons={"S": "shield"}, off="S"),
        sheet("twin", "a", weapons={"Sword": "one-handed", "Knife": "small"}, main="Sword",
              off="Knife"),
        sheet("foe", "b"),
    ]  # fmt: skip
    enc = encounter(fighters)
    scores = {cid: combat.defence(enc.state, f)[0] for cid, f in enc.state.combatants.items()}
    assert scores == {
        "f0": 10, "f1": 11, "f2": 12, "f3": 13, "f4": 15, "f5": 15,
        "bare": 8, "shielded": 13, "twin": 14, "foe": 8,
    }  # fmt: skip


@pytest.mark.rule("HC-CS-1")
def test_weapon_attack_modifiers_from_the_table() -> None:
    # A pole-arm attacks at +3e: d20 7 + CS 5 + 3 = 15 against the foe's unarmed 8.
    # Bare hands add nothing: d20 7 + 5 = 12.
    pike = sheet("pike", "a", weapons={"Pike": "pole-arm"}, main="Pike")
    # The foe dodges d20 1 + 5 = 6: hit. The foe's 12 misses the pike's defence 5 + 10.
    enc = encounter([pike, sheet("foe", "b")], faces=[20, 1, 7, 1, 7])
    play(enc, "gm open", "pike attack foe", "pike done", "foe attack pike", "foe done", "gm close")
    assert "12 against defence 15: a miss" in texts(enc)
    rolls = kinds(enc, "roll")
    assert rolls[0] == "Pike's attack: d20 shows 7, 15 (+3e Pike)"
    assert rolls[2] == "Foe's attack: d20 shows 7, 12"


# -- HC-DODGE-1 --------------------------------------------------------------------------


def _armoured(skills: tuple[str, ...] = ()) -> list[dict[str, object]]:
    # Ylva wears light and medium armour: dodge 5 - 1e - 2e = +2 (penalties stack), or
    # with Armourstacking only the highest, -2e: +3.
    ylva = sheet("ylva", "north", armour=["light", "medium"], skills=skills)
    return [ylva, orc(weapons={"Axe": "one-handed"}, main="Axe")]


@pytest.mark.rule("HC-DODGE-1")
def test_a_dodge_equal_to_the_attack_is_a_hit() -> None:
    # Orc attack d20 11 + 5 + 1e = 17 against Ylva's unarmed defence 8: a potential hit.
    # Ylva dodges d20 15 + 2 = 17: not strictly higher, so the attack hits (2 damage).
    enc = encounter(_armoured(), faces=[1, 20, 11, 15])
    play(enc, "gm open", "ylva done", "orc attack ylva", "orc done", "gm close")
    assert "Ylva's dodge: d20 shows 15, 17 (-1e light armour, -2e medium armour)" in texts(enc)
    assert "17 is not above 17: a hit" in texts(enc)
    assert enc.state.combatants["ylva"].hp == 3


@pytest.mark.rule("HC-DODGE-1", "HC-ACT-1")
def test_armourstacking_keeps_the_highest_penalty_and_only_one_dodge_a_round() -> None:
    # With Armourstacking the same d20 15 dodges: 15 + 3 = 18 > 17. The orc's second
    # attack (d20 12: 18, a potential hit) finds Ylva's reactive action spent: a hit.
    enc = encounter(_armoured(("Armourstacking",)), faces=[1, 20, 11, 15, 12])
    play(enc, "gm open", "ylva done", "orc attack ylva", "orc attack ylva", "orc done")
    play(enc, "gm close")
    out = texts(enc)
    assert "Ylva's dodge: d20 shows 15, 18 (-2e medium armour)" in out
    assert "18 beats 17: dodged" in out
    assert "Ylva has dodged once this round already: a hit" in out
    assert isinstance(enc.dice, ScriptedDice) and enc.dice.remaining() == 0
    assert enc.state.combatants["ylva"].hp == 3


@pytest.mark.rule("HC-DODGE-1")
def test_the_dodge_kept_for_one_attacker() -> None:
    # Ylva keeps her dodge for the second orc: the first orc's potential hit is not dodged.
    two = [sheet("ylva", "north"), orc(), sheet("grak", "orcs", npc=True)]
    enc = encounter(two, faces=[1, 20, 19, 10, 10, 18])
    play(enc, "gm open", "ylva dodge grak", "ylva done", "orc attack ylva", "orc done")
    play(enc, "grak attack ylva", "grak done", "gm close")
    # Orc d20 10 + 5 = 15 >= 8: "keeps the dodge"; Grak d20 10: 15, Ylva dodges 18 + 5 = 23.
    out = texts(enc)
    assert "Ylva keeps the dodge for Grak: a hit" in out and "23 beats 15: dodged" in out


# -- HC-AGI-1 ----------------------------------------------------------------------------


@pytest.mark.rule("HC-AGI-1")
def test_a_bow_needs_15_and_a_drawn_arrow() -> None:
    # Agility 6, a bow (+0e): the agility roll must reach 15. Draw an arrow, shoot:
    # d20 9 + 6 = 15, a potential hit; the orc dodges 10 + 5 = 15, not above: 3 damage.
    archer = sheet("ylva", "north", stats={"A": 6, "K": 4}, weapons={"Bow": "bow"}, main="Bow")
    enc = encounter([archer, orc()], faces=[10, 1, 9, 10])
    play(enc, "gm open", "ylva draw arrow", "ylva attack orc", "ylva done", "orc done")
    play(enc, "gm close")
    assert "Ylva's agility roll: d20 shows 9, 15" in texts(enc)
    assert "15 needs 15: a potential hit" in texts(enc)
    assert enc.state.combatants["orc"].hp == 2
    # Next round, no arrow drawn: the attack is not offered, and refused when declared.
    assert "ylva attack orc" not in enc.legal_actions()
    err = refused(enc, "ylva attack orc")
    assert err.rule == "HC-AGI-1" and "Ylva has no arrow drawn" in str(err)
    # One arrow is one shot: drawn, then shot, the post has none left for an alternative.
    play(enc, "ylva draw arrow")
    assert "ylva attack orc" in enc.legal_actions()
    play(enc, "ylva attack orc")
    assert refused(enc, "ylva draw arrow").rule == "HC-ACT-1"  # the round is full


@pytest.mark.rule("HC-AGI-1")
def test_throwing_weapons_are_thrown_one_at_a_time_from_the_two_drawn() -> None:
    # Two knives drawn in the first round; one thrown each round, then none is left.
    # Round 1: initiative 10 and 1, Ylva's d20 1 + 5 = 6 < 17 misses. Round 2 the same.
    thrower = sheet("ylva", "north", weapons={"Knives": "throwing"}, carried=["Knives"])
    enc = encounter([thrower, orc()], faces=[10, 1, 1, 10, 1, 1])
    play(enc, "gm open", "ylva draw Knives", "ylva attack orc", "ylva done", "orc done", "gm close")
    play(enc, "ylva attack orc")
    assert refused(enc, "ylva attack orc").rule == "HC-AGI-1"  # the second is in the air
    play(enc, "ylva done", "orc done", "gm close")
    ylva = enc.state.combatants["ylva"]
    assert ylva.loaded == 0 and ylva.main_hand is None  # both thrown: empty-handed again


@pytest.mark.rule("HC-AGI-1")
def test_crossbow_and_throwing_weapons_need_more_and_a_bow_needs_agility_5() -> None:
    # A crossbow needs 15 + 1 = 16: d20 10 + agility 5 = 15 misses.
    xbow = sheet("ylva", "north", weapons={"Crossbow": "crossbow"}, main="Crossbow")
    enc = encounter([xbow, orc()], faces=[10, 1, 10])
    play(enc, "gm open", "ylva draw arrow", "ylva attack orc", "ylva done", "orc done")
    play(enc, "gm close")
    assert "15 needs 16: a miss" in texts(enc)
    # Throwing weapons need 15 + 2 = 17: d20 12 + 5 = 17 is a potential hit.
    thrower = sheet("ylva", "north", weapons={"Knives": "throwing"}, carried=["Knives"])
    enc = encounter([thrower, orc()], faces=[10, 1, 12, 1])
    play(enc, "gm open", "ylva draw Knives", "ylva attack orc", "ylva done", "orc done")
    play(enc, "gm close")
    assert "Ylva draws two of Knives" in texts(enc)
    assert "17 needs 17: a potential hit" in texts(enc)
    assert enc.state.combatants["ylva"].loaded == 1
    # A bow needs agility 5: with agility 4 the attack is refused when declared.
    weak = sheet("ylva", "north", stats={"A": 4, "K": 6}, weapons={"Bow": "bow"}, main="Bow")
    enc = encounter([weak, orc()])
    play(enc, "gm open")
    err = refused(enc, "ylva attack orc")
    assert err.rule == "HC-AGI-1" and "needs agility 5" in str(err)


# -- HC-TAC-1 ----------------------------------------------------------------------------


@pytest.mark.rule("HC-TAC-1")
def test_aggressive_adds_to_attack_and_takes_from_defence() -> None:
    # Ylva aggressive: attack d20 5 + 5 + 1e + 1t = 12 reaches the orc's defence 5 + 7 = 12
    # (11 without the tactic: a miss); the orc dodges 1 + 5 = 6: hit.
    # Ylva's defence is 5 + 7 - 1t = 11: the orc's d20 5 + 5 + 1 = 11 reaches it; she
    # dodges 1 + 5 = 6: hit.
    ylva = sheet("ylva", "north", weapons=SWORD, main="Sword")
    o = orc(weapons={"Axe": "one-handed"}, main="Axe")
    enc = encounter([ylva, o], faces=[20, 1, 5, 1, 5, 1])
    play(enc, "gm open", "ylva tactic aggressive", "ylva attack orc", "ylva done")
    play(enc, "orc attack ylva", "orc done", "gm close")
    out = texts(enc)
    assert "Ylva's attack: d20 shows 5, 12 (+1e Sword, +1t aggressive)" in out
    assert "12 against defence 12: a potential hit" in out
    assert "11 against defence 11: a potential hit" in out
    assert [f.hp for f in enc.state.combatants.values()] == [3, 3]


@pytest.mark.rule("HC-TAC-1")
def test_defensive_and_mobile_and_no_tactic_with_a_spell() -> None:
    ylva = sheet("ylva", "north", weapons=SWORD, main="Sword")
    enc = encounter([ylva, orc()])
    who = enc.state.combatants["ylva"]
    who.plan.tactic = "defensive"  # +1t defence, -1t attack
    assert combat.defence(enc.state, who)[0] == 5 + 7 + 1
    assert total(combat.tactic(who, "attack")) == -1
    who.plan.tactic = "mobile"  # +1t dodge, -1t attack
    assert total(combat.dodge_modifiers(enc.state, who, melee=True)) == 1
    assert combat.defence(enc.state, who)[0] == 12
    who.plan.tactic = "normal"
    play(enc, "gm open", "ylva cast orc spell=Frost")
    assert refused(enc, "ylva tactic mobile").rule == "HC-TAC-1"
    play(enc, "ylva retract", "ylva tactic mobile")
    assert refused(enc, "ylva cast orc").rule == "HC-TAC-1"
    assert refused(enc, "ylva tactic defensive").rule == "HC-TAC-1"  # one tactic a round


# -- HC-WP-1 (spending) ------------------------------------------------------------------


@pytest.mark.rule("HC-WP-1")
def test_each_willpower_spent_before_a_roll_adds_2() -> None:
    # Ylva spends 2 willpower on an attack: d20 3 + 5 + 2 x 2 + 1e = 13 against the orc's
    # defence 12 (9 without it: a miss). The orc dodges 2 + 5 = 7: hit.
    # The orc attacks her (d20 10: 16 against 12); her dodge has 1 willpower in it:
    # d20 9 + 5 + 2 = 16, not above 16: hit. Ylva ends with 10 - 2 - 1 = 7 willpower.
    ylva = sheet("ylva", "north", weapons=SWORD, main="Sword")
    o = orc(weapons={"Axe": "one-handed"}, main="Axe")
    enc = encounter([ylva, o], faces=[20, 1, 3, 2, 10, 9])
    play(enc, "gm open", "ylva attack orc willpower=2", "ylva willpower spend=1 roll=dodge")
    play(enc, "ylva done", "orc attack ylva", "orc done", "gm close")
    out = texts(enc)
    assert "Ylva spends 2 willpower: +4 to the roll" in out
    assert "13 against defence 12: a potential hit" in out
    assert "Ylva's dodge: d20 shows 9, 16" in out
    assert enc.state.combatants["ylva"].willpower == 7


@pytest.mark.rule("HC-WP-1")
def test_no_more_willpower_than_there_is() -> None:
    enc = encounter([sheet("ylva", "north", willpower=4), orc()])
    play(enc, "gm open", "ylva attack orc willpower=3")
    err = refused(enc, "ylva willpower spend=2 roll=initiative")
    assert err.rule == "HC-WP-1" and "1 willpower left" in str(err)
    assert refused(enc, "ylva willpower spend=1 roll=luck").rule == "HC-WP-1"
