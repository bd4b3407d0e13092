"""Conditions (HC-COND-1) and hero points (HC-HERO-1), worked by hand from seed 001."""

from __future__ import annotations

import pytest

from fracas.engine import ScriptedDice
from fracas.rules.classic import combat
from fracas.rules.classic.modifiers import total

from classic_builders import encounter, play, refused, sheet, texts

SWORD = {"Sword": "one-handed"}
AXE = {"Axe": "one-handed"}


def orc(name: str = "orc", **kw: object) -> dict[str, object]:
    return sheet(name, "orcs", npc=True, weapons=AXE, main="Axe", **kw)  # type: ignore[arg-type]


# -- HC-COND-1 ---------------------------------------------------------------------------


@pytest.mark.rule("HC-COND-1")
def test_prone_cannot_walk_but_can_stand_or_crawl() -> None:
    enc = encounter(
        [sheet("ylva", "north"), orc()],
        positions={"Pub": ["Street"], "Street": []},
        place={"ylva": {"conditions": ["prone"]}},
    )
    play(enc, "gm open")
    err = refused(enc, "ylva move Street")
    assert err.rule == "HC-COND-1" and "cannot walk" in str(err)
    play(enc, "ylva stand", "ylva move Street")  # half + half
    play(enc, "ylva retract", "ylva crawl Street")  # or crawl: a full action
    assert refused(enc, "ylva stand").rule == "HC-ACT-1"  # no time left


@pytest.mark.rule("HC-COND-1")
def test_prone_penalties_to_melee_dodge_and_ranged_both_ways() -> None:
    # Ylva lies prone with a sword; the orc stands; the archer (agility 6, bow) lies prone.
    # Initiative: Ylva 20, orc 10, archer 1.
    # Ylva: d20 10 + 5 + 1e - 2c (prone, melee) = 14 >= 12; the orc dodges 1 + 5 = 6: hit.
    # Orc: d20 10 + 5 + 1e = 16 >= 12; Ylva dodges 10 + 5 - 2c (prone, against melee) = 13.
    # Archer: d20 10 + 6 - 4c (prone, ranged) - 2c (the target is prone) = 10 < 15: a miss.
    archer = sheet("archer", "orcs", npc=True, stats={"A": 6, "K": 4}, weapons={"Bow": "bow"},
                   main="Bow")  # fmt: skip
    enc = encounter(
        [sheet("ylva", "north", weapons=SWORD, main="Sword"), orc(), archer],
        faces=[20, 10, 1, 10, 1, 10, 10, 10],
        place={"ylva": {"conditions": ["prone"]}, "archer": {"conditions": ["prone"]}},
    )
    play(enc, "gm open", "ylva attack orc", "ylva done", "orc attack ylva", "orc done")
    play(enc, "archer draw arrow", "archer attack ylva", "archer done", "gm close")
    out = texts(enc)
    assert "Ylva's attack: d20 shows 10, 14 (+1e Sword, -2c prone)" in out
    assert "Ylva's dodge: d20 shows 10, 13 (-2c prone)" in out
    assert "Archer's agility roll: d20 shows 10, 10 (-4c prone, -2c Ylva prone)" in out
    assert "10 needs 15: a miss" in out


@pytest.mark.rule("HC-COND-1")
@pytest.mark.parametrize(("dodge", "dodged"), [(15, True), (14, False)])
def test_prone_dodges_a_ranged_attack_without_the_melee_penalty(dodge: int, dodged: bool) -> None:
    # Seed 001: prone is -2c on the dodge "against melee attacks" only. The archer
    # (agility 6) shoots prone Ylva: d20 15 + 6 - 2c (Ylva prone) = 19 >= 15, a potential
    # hit. Ylva dodges d20 + 5 with no prone penalty: 15 + 5 = 20 beats 19; 14 + 5 = 19
    # does not (with the melee penalty 15 would give 18 and no dodge).
    archer = sheet("archer", "orcs", npc=True, stats={"A": 6, "K": 4}, weapons={"Bow": "bow"},
                   main="Bow")  # fmt: skip
    enc = encounter(
        [sheet("ylva", "north"), archer],
        faces=[1, 20, 15, dodge],
        place={"ylva": {"conditions": ["prone"]}},
    )
    play(enc, "gm open", "archer draw arrow", "archer attack ylva", "archer done")
    play(enc, "ylva done", "gm close")
    out = texts(enc)
    assert "Archer's agility roll: d20 shows 15, 19 (-2c Ylva prone)" in out
    assert f"Ylva's dodge: d20 shows {dodge}, {dodge + 5}" in out
    assert ("20 beats 19: dodged" in out) == dodged
    assert enc.state.combatants["ylva"].hp == (5 if dodged else 2)


@pytest.mark.rule("HC-COND-1")
def test_blinded_is_minus_5_to_weapon_skill_agility_and_dodge() -> None:
    enc = encounter([sheet("ylva", "north", weapons=SWORD, main="Sword"), orc()])
    play(enc, "gm open", "gm condition ylva name=blinded")
    ylva = enc.state.combatants["ylva"]
    assert combat.defence(enc.state, ylva)[0] == 5 + 7 - 5
    assert total(combat.dodge_modifiers(enc.state, ylva, melee=False)) == -5
    assert total(combat.common(enc.state, ylva, "agility")) == -5


@pytest.mark.rule("HC-COND-1")
def test_blinded_rolls_initiative_without_the_penalty() -> None:
    # Seed 001: blinded is -5c on weapon skills, agility and dodge; initiative is none of
    # them. At the close of the round blinded Ylva (initiative 5) rolls d20 7 + 5 = 12,
    # the orc d20 3 + 5 = 8.
    enc = encounter(
        [sheet("ylva", "north"), orc()], faces=[7, 3], place={"ylva": {"conditions": ["blinded"]}}
    )
    play(enc, "gm open", "gm close")
    assert "Ylva rolls initiative d20+5: 7 -> 12" in texts(enc)
    assert enc.state.initiative["ylva"] == 12


@pytest.mark.rule("HC-COND-1")
def test_helpless_and_sleeping_do_nothing_and_are_hit_without_a_roll() -> None:
    # Only the initiative dice are rolled: the orc's attack on helpless Ylva hits (2).
    enc = encounter([sheet("ylva", "north"), orc()], faces=[5, 6])
    play(enc, "gm open", "gm condition ylva name=helpless")
    assert refused(enc, "ylva attack orc").rule == "HC-COND-1"
    assert enc.to_move == "orc"  # the helpless are not waited for
    play(enc, "orc attack ylva", "orc done", "gm close")
    assert "Ylva is helpless: the attack hits" in texts(enc)
    assert enc.state.combatants["ylva"].hp == 3
    play(enc, "gm lift ylva name=helpless", "gm condition ylva name=sleeping")
    ylva = enc.state.combatants["ylva"]
    assert ylva.prone and ylva.helpless
    assert refused(enc, "ylva stand").rule == "HC-COND-1"


@pytest.mark.rule("HC-COND-1")
def test_confused_only_mumbles_and_cannot_dodge() -> None:
    # The orc's d20 4 + 6 = 10 >= 8 is a potential hit; confused Ylva cannot dodge it.
    enc = encounter([sheet("ylva", "north"), orc()], faces=[5, 6, 4])
    play(enc, "gm open", "gm condition ylva name=confused")
    assert refused(enc, "ylva attack orc").rule == "HC-COND-1"
    play(enc, "ylva speak text='Where am I?'", "ylva done", "orc attack ylva", "orc done")
    play(enc, "gm close")
    assert "Ylva: Where am I?" in texts(enc)
    assert "Ylva is confused and cannot dodge: a hit" in texts(enc)


@pytest.mark.rule("HC-COND-1")
def test_dying_dies_in_10_minutes_unless_healed() -> None:
    # Ylva at 1 hit point takes a great axe's 3: -2, Mangled, dying (the Health chapter's
    # level with a 10 minute clock). Initiative 1, 20, 1: Ylva and Asa tie on everything,
    # a coin flip (1: Ylva first). Orc d20 10 + 5 + 2e = 17 >= 8; Ylva dodges 1 + 5 = 6.
    great = sheet("orc", "orcs", npc=True, weapons={"Axe": "two-handed"}, main="Axe")
    three = [sheet("ylva", "north", hp=5), great, sheet("asa", "north")]
    enc = encounter(three, faces=[1, 20, 1, 1, 10, 1], place={"ylva": {"hit_points": 1}})
    play(enc, "gm open", "orc attack ylva", "orc done", "gm close")
    assert "Ylva is Mangled: dying, and dies in 10 minutes unless healed" in texts(enc)
    ylva = enc.state.combatants["ylva"]
    assert ylva.prone and ylva.helpless and not ylva.in_fight
    assert refused(enc, "ylva done").rule == "HC-COND-1"
    # The round took 6 seconds; 593 more make 599: alive. One more: 600, dead.
    play(enc, "gm wait seconds=593")
    assert not ylva.dead and not enc.state.combatants["ylva"].dead
    play(enc, "gm wait seconds=1")
    assert enc.state.combatants["ylva"].dead and "Ylva dies" in texts(enc)
    # Healed in time, the dying ends.
    enc.pop()
    play(enc, "gm heal ylva hp=2", "gm wait seconds=600")
    assert not enc.state.combatants["ylva"].dead
    assert enc.state.combatants["ylva"].in_fight
    # The DM may call the condition itself: 10 minutes from now (clock 6 + 593 + 600).
    play(enc, "gm condition asa name=dying")
    assert enc.state.combatants["asa"].condition("dying").dies_at == 1199 + 600  # type: ignore[union-attr]


@pytest.mark.rule("HC-COND-1")
def test_fear_moves_one_position_away_from_its_source() -> None:
    # A line of positions: Gate - Yard - Hall. Ylva stands in the Yard, the troll at the Gate.
    line = {"Gate": ["Yard"], "Yard": ["Hall"], "Hall": []}
    enc = encounter(
        [sheet("ylva", "north"), orc("troll")],
        positions=line,
        place={"ylva": {"position": "Yard"}, "troll": {"position": "Gate"}},
    )
    play(enc, "gm open", "gm condition ylva name=fear source=troll")
    err = refused(enc, "ylva done")
    assert err.rule == "HC-COND-1" and "move at least one position away from Gate" in str(err)
    play(enc, "ylva move Gate")  # towards the troll: still not away
    assert refused(enc, "ylva done").rule == "HC-COND-1"
    play(enc, "ylva retract", "ylva move Hall", "ylva done")
    assert "ylva" in enc.state.posted


# -- HC-HERO-1 ---------------------------------------------------------------------------


@pytest.mark.rule("HC-HERO-1")
def test_two_attacks_on_npcs_hit_automatically_but_not_on_player_characters() -> None:
    # Only initiative is rolled: both sword attacks on the orc hit, 2 + 2.
    ylva = sheet("ylva", "north", weapons=SWORD, main="Sword", hero=1)
    enc = encounter([ylva, orc()], faces=[20, 1])
    play(enc, "gm open", "ylva hero use=hits", "ylva attack orc", "ylva attack orc", "ylva done")
    play(enc, "orc done", "gm close")
    assert enc.state.combatants["orc"].hp == 1
    assert isinstance(enc.dice, ScriptedDice) and enc.dice.remaining() == 0
    assert enc.state.combatants["ylva"].hero_points == 0
    assert refused(enc, "ylva hero use=hits").rule == "HC-HERO-1"  # none left
    # Against Asa, a player character on the other side, the attack is rolled: d20 1 + 6
    # = 7 < 12, a miss.
    asa = sheet("asa", "south", weapons=SWORD, main="Sword")
    enc = encounter([ylva, asa], faces=[20, 1, 1])
    play(enc, "gm open", "ylva hero use=hits", "ylva attack asa", "ylva done", "asa done")
    play(enc, "gm close")
    assert "7 against defence 12: a miss" in texts(enc)


@pytest.mark.rule("HC-HERO-1")
def test_two_npc_attacks_are_dodged_automatically() -> None:
    # The orc's d20 15s make 21 twice, both potential hits; the hero point dodges both,
    # with no dodge dice, and Ylva keeps her reactive dodge.
    enc = encounter([sheet("ylva", "north", hero=2), orc()], faces=[20, 1, 15, 15])
    play(enc, "gm open", "ylva hero use=dodges", "ylva done")
    play(enc, "orc attack ylva", "orc attack ylva", "orc done", "gm close")
    assert texts(enc).count("a hero point: Ylva dodges Orc") == 2
    assert enc.state.combatants["ylva"].hp == 5


@pytest.mark.rule("HC-HERO-1")
def test_highest_initiative_next_round_unless_attacking_a_player_character() -> None:
    # Round 1: Ylva spends a hero point. Round 2: she rolls 1 (6) against the orc's 20
    # (25), and still goes first.
    enc = encounter([sheet("ylva", "north", hero=2), orc()], faces=[10, 1, 1, 20])
    play(enc, "gm open", "ylva hero use=initiative", "ylva done", "orc done", "gm close")
    assert enc.state.order == ["ylva", "orc"]
    play(enc, "ylva done", "orc done", "gm close")
    assert enc.state.initiative == {"ylva": 6, "orc": 25}
    assert enc.state.order == ["ylva", "orc"]
    assert "a hero point puts Ylva first this round" in texts(enc)
    # Not in a round in which Ylva attacks a player character, either way round.
    pcs = [sheet("ylva", "north", hero=1), sheet("asa", "south")]
    enc = encounter(pcs)
    play(enc, "gm open", "ylva attack asa")
    assert refused(enc, "ylva hero use=initiative").rule == "HC-HERO-1"
    play(enc, "ylva retract", "ylva hero use=initiative")
    assert refused(enc, "ylva attack asa").rule == "HC-HERO-1"


@pytest.mark.rule("HC-HERO-1")
def test_one_roll_against_an_npc_made_as_good_as_possible() -> None:
    # The attack needs no die: a 20, + 5 + 1e = 26. The orc dodges d20 20 + 5 = 25: hit.
    ylva = sheet("ylva", "north", weapons=SWORD, main="Sword", hero=1)
    enc = encounter([ylva, orc()], faces=[20, 1, 20])
    play(enc, "gm open", "ylva hero use=best roll=attack", "ylva attack orc", "ylva done")
    play(enc, "orc done", "gm close")
    assert "Ylva's attack: a hero point makes it a 20, 26 (+1e Sword)" in texts(enc)
    assert "25 is not above 26: a hit" in texts(enc)
    assert refused(enc, "ylva hero use=best").rule == "HC-HERO-1"
