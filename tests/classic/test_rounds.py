"""The round of play by post, initiative and the action economy (HC-ROUND-1, HC-ROUND-2,
HC-INIT-1, HC-INITM-1, HC-ACT-1), worked by hand from seed 001."""

from __future__ import annotations

import pytest

from fracas.engine import ScriptedDice

from classic_builders import encounter, kinds, play, refused, sheet, texts

SWORD = {"Sword": "one-handed"}


def orc(name: str = "orc", **kw: object) -> dict[str, object]:
    return sheet(name, "orcs", npc=True, **kw)  # type: ignore[arg-type]


# -- HC-ROUND-1 --------------------------------------------------------------------------


@pytest.mark.rule("HC-ROUND-1")
def test_the_dm_opens_each_posts_once_the_dm_closes_and_resolves_in_initiative_order() -> None:
    ylva = sheet("ylva", "north", weapons=SWORD, main="Sword")
    enc = encounter([ylva, orc(weapons=SWORD, main="Sword")], faces=[1, 20, 1, 1])
    assert enc.to_move == "gm"
    assert refused(enc, "ylva attack orc").rule == "HC-ROUND-1"  # not open yet
    play(enc, "gm open")
    assert enc.to_move == "ylva"
    play(enc, "ylva attack orc", "ylva done")
    err = refused(enc, "ylva attack orc")
    assert err.rule == "HC-ROUND-1" and "one post a round" in str(err)
    assert enc.to_move == "orc"
    play(enc, "orc attack ylva", "orc done")
    assert enc.to_move == "gm"
    assert "only the DM" in str(refused(enc, "orc close"))
    # Ylva posted first, but the orc rolls 20 + 5 against her 1 + 5: the orc acts first.
    # Orc d20 1 + 6 = 7 < 12: a miss; Ylva d20 1 + 6 = 7 < 12: a miss.
    play(enc, "gm close")
    attacks = kinds(enc, "attack")
    assert attacks == ["Orc attacks Ylva with Sword", "Ylva attacks Orc with Sword"]
    # The round was 6 seconds; the next one opens with nothing declared.
    assert (enc.state.round, enc.state.clock) == (2, 6)
    assert texts(enc)[-1] == "round 2 opens"
    assert enc.state.declared.declarations == [] and enc.state.posted == []
    assert enc.to_move == "ylva"


@pytest.mark.rule("HC-ROUND-1")
def test_declarations_naming_unknown_characters_or_verbs_are_refused_clearly() -> None:
    enc = encounter([sheet("ylva", "north"), orc()])
    play(enc, "gm open")
    err = refused(enc, "bob attack orc")
    assert str(err) == "no character called 'bob' (there are ylva, orc) (HC-ROUND-1)"
    assert "no character called 'brannoc'" in str(refused(enc, "ylva attack brannoc"))
    assert "unknown action 'fly'" in str(refused(enc, "ylva fly"))
    assert "no character called 'bob'" in str(refused(enc, "ylva attack orc else=bob"))
    # A player may take its declarations back before it posts.
    play(enc, "ylva attack orc", "ylva retract", "ylva done")
    assert "Ylva posts: nothing" in texts(enc)


# -- HC-ROUND-2 --------------------------------------------------------------------------


def _skirmish(*faces: int) -> list[dict[str, object]]:
    asa = sheet("asa", "north", weapons={"Axe": "two-handed"}, main="Axe")
    ylva = sheet("ylva", "north", weapons=SWORD, main="Sword")
    return [asa, ylva, orc("orc1"), orc("orc2"), orc("orc3")]


@pytest.mark.rule("HC-ROUND-2")
def test_a_vanished_target_gives_way_to_the_listed_alternative() -> None:
    # Initiative (setup order): Asa 20, Ylva 10, orcs 1, 2, 3. Asa's great axe hits orc1
    # (d20 10 + 5 + 2 = 17 >= 8; dodge 1 + 5 = 6): 3 damage, 1 -> -2, dying.
    # Ylva declared orc1, else orc2: orc2 it is (d20 1 + 6 = 7 < 8: a miss).
    enc = encounter(
        _skirmish(), faces=[20, 10, 1, 2, 3, 10, 1, 1], place={"orc1": {"hit_points": 1}}
    )
    play(enc, "gm open", "asa attack orc1", "asa done", "ylva attack orc1 else=orc2")
    assert "Ylva declares: attack orc1, else attack orc2" in texts(enc)
    play(enc, "ylva done", "orc1 done", "orc2 done", "orc3 done", "gm close")
    out = texts(enc)
    assert "orc1 is gone: ylva does the alternative, ylva attack orc2" in out
    assert "Ylva attacks Orc2 with Sword" in out


@pytest.mark.rule("HC-ROUND-2")
def test_without_alternatives_a_random_other_target_is_rolled() -> None:
    # As above, but Ylva lists nothing: a d2 over the orcs still there (orc2, orc3)
    # shows 2: orc3.
    enc = encounter(
        _skirmish(), faces=[20, 10, 1, 2, 3, 10, 1, 2, 1], place={"orc1": {"hit_points": 1}}
    )
    play(enc, "gm open", "asa attack orc1", "asa done", "ylva attack orc1", "ylva done")
    play(enc, "orc1 done", "orc2 done", "orc3 done", "gm close")
    assert "orc1 is gone: ylva turns on orc3 at random" in texts(enc)
    assert any(r.notation == "d2" and "random other target" in r.purpose for r in enc.dice.drawn)
    # An alternative naming nobody known is refused when declared.
    assert "no character called 'nonsense'" in str(refused(enc, "ylva attack orc2 else=nonsense"))


@pytest.mark.rule("HC-ROUND-2")
def test_a_melee_target_that_walked_away_is_gone_too() -> None:
    # The orc (faster) walks out to the Street; Ylva's sword finds nobody in the Pub:
    # her alternative, to follow, is taken.
    ylva = sheet("ylva", "north", weapons=SWORD, main="Sword")
    enc = encounter([ylva, orc()], faces=[1, 20], positions={"Pub": ["Street"], "Street": []})
    play(enc, "gm open", "ylva attack orc else='move Street'", "ylva done")
    play(enc, "orc move Street", "orc done", "gm close")
    assert "orc is gone: ylva does the alternative, ylva move Street" in texts(enc)
    assert enc.state.combatants["ylva"].position == "Street"


# -- HC-INIT-1 ---------------------------------------------------------------------------


def _order(first: dict[str, object], second: dict[str, object], *faces: int) -> list[str]:
    enc = encounter([first, second], faces=faces)
    play(enc, "gm open", "gm close")
    return enc.state.order


@pytest.mark.rule("HC-INIT-1")
def test_d20_plus_initiative_highest_first() -> None:
    # Ylva: initiative 7 (agility 5 allows it), d20 5: 12. Orc: 5, d20 8: 13. Orc first.
    ylva = sheet("ylva", "north", stats={"I": 7, "K": 3})
    assert _order(ylva, orc(), 5, 8) == ["orc", "ylva"]
    # d20 7 for Ylva: 14 against 13, Ylva first.
    assert _order(ylva, orc(), 7, 8) == ["ylva", "orc"]


@pytest.mark.rule("HC-INIT-1")
def test_ties_go_to_the_higher_initiative_then_the_higher_agility() -> None:
    # Orc initiative 5 rolls 8: 13. Ylva initiative 6 rolls 7: 13. A tie: Ylva's higher
    # initiative statistic wins, though the orc stands first in the setup.
    ylva = sheet("ylva", "north", stats={"I": 6, "K": 4})
    assert _order(orc(), ylva, 8, 7) == ["ylva", "orc"]
    # Both initiative 5, both roll 8: Ylva's agility 6 beats the orc's 5.
    quick = sheet("ylva", "north", stats={"A": 6, "K": 4})
    assert _order(orc(), quick, 8, 8) == ["ylva", "orc"]


@pytest.mark.rule("HC-INIT-1")
def test_a_full_tie_is_a_coin_flip_through_the_dice() -> None:
    # Everything equal: a d2. 1 puts the one first in the setup (the orc) first, 2 the other.
    ylva = sheet("ylva", "north")
    assert _order(orc(), ylva, 8, 8, 1) == ["orc", "ylva"]
    assert _order(orc(), ylva, 8, 8, 2) == ["ylva", "orc"]
    # Three tied: a coin for each pair compared. b against a: 1, a stays first: [a, b];
    # c against a: 2, c goes before a: [c, a, b].
    three = [orc("a"), orc("b"), orc("c"), sheet("ylva", "north")]
    enc = encounter(three, faces=[8, 8, 8, 1, 1, 2])
    play(enc, "gm open", "gm close")
    assert enc.state.order == ["c", "a", "b", "ylva"]
    assert [r.notation for r in enc.dice.drawn].count("d2") == 2


# -- HC-INITM-1 --------------------------------------------------------------------------


@pytest.mark.rule("HC-INITM-1")
def test_lowering_initiative_acts_just_after_the_named_character() -> None:
    # Ylva rolls 20 (25), Asa 10 (15), the orc 1 (6). Ylva waits for the orc: Asa, orc, Ylva.
    enc = encounter([sheet("ylva", "north"), sheet("asa", "north"), orc()], faces=[20, 10, 1])
    play(enc, "gm open", "ylva after orc", "ylva done", "gm close")
    assert enc.state.order == ["asa", "orc", "ylva"]
    # Waiting in a circle is refused.
    play(enc, "orc after ylva")
    err = refused(enc, "ylva after orc")
    assert err.rule == "HC-INITM-1" and "already waits" in str(err)


@pytest.mark.rule("HC-INITM-1")
def test_a_delayed_action_fires_when_its_trigger_comes() -> None:
    # "When he tries to move, I hit him!" Ylva (20) delays her attack until the orc (1)
    # moves: it resolves before the move, while the orc is still in the Pub.
    # Ylva d20 10 + 6 = 16 >= 8; the orc dodges 1 + 5 = 6: hit, 2. Then the orc moves.
    ylva = sheet("ylva", "north", weapons=SWORD, main="Sword")
    field = {"Pub": ["Street"], "Street": []}
    enc = encounter([ylva, orc()], faces=[20, 1, 10, 1], positions=field)
    play(enc, "gm open", "ylva attack orc trigger='orc move'", "ylva done")
    play(enc, "orc move Street", "orc done", "gm close")
    out = texts(enc)
    assert out.index("'orc move': Ylva acts") < out.index("Orc moves to Street")
    assert enc.state.combatants["orc"].hp == 3
    # The trigger comes before Ylva's own place in the order (the orc is faster): it
    # does not fire, and the delayed attack is lost.
    enc = encounter([ylva, orc()], faces=[1, 20], positions=field)
    play(enc, "gm open", "ylva attack orc trigger='orc move'", "ylva done")
    play(enc, "orc move Street", "orc done", "gm close")
    assert "Ylva's attack waited for 'orc move', which never came" in texts(enc)


# -- HC-ACT-1 ----------------------------------------------------------------------------


@pytest.mark.rule("HC-ACT-1")
def test_two_half_actions_or_one_full_and_any_number_of_free_actions() -> None:
    ylva = sheet("ylva", "north", weapons={"Dagger": "small"}, carried=["Dagger", "Rope"])
    enc = encounter([ylva, orc()], positions={"Pub": ["Street"], "Street": []})
    play(enc, "gm open", "ylva attack orc", "ylva move Street")
    err = refused(enc, "ylva attack orc")
    assert err.rule == "HC-ACT-1" and "two half actions or one full action" in str(err)
    play(enc, "ylva speak text=Ha!", "ylva speak text=Again!", "ylva tactic aggressive")
    play(enc, "ylva retract", "ylva draw Rope")  # an item: a full action
    assert refused(enc, "ylva draw Dagger").rule == "HC-ACT-1"
    play(enc, "ylva retract", "ylva draw Dagger", "ylva sheathe Dagger")  # weapons: half each
    play(enc, "ylva retract", "ylva crawl Street")  # crawling is a full action
    assert refused(enc, "ylva move Pub").rule == "HC-ACT-1"
    play(enc, "ylva retract", "ylva cast spell=Spark move=Street")  # full, with a move
    assert refused(enc, "ylva attack orc").rule == "HC-ACT-1"


@pytest.mark.rule("HC-ACT-1")
def test_a_spell_moves_one_position_and_touches() -> None:
    # Ylva (20) steps into the Street and touches the orc there (1): d20 10 + 5 = 15,
    # no weapon modifier, against its unarmed defence 8; the orc dodges 2 + 5 = 7: hit,
    # the spell's 1 damage.
    field = {"Pub": ["Street"], "Street": []}
    enc = encounter([sheet("ylva", "north"), orc()], faces=[20, 1, 10, 2], positions=field,
                    place={"orc": {"position": "Street"}})  # fmt: skip
    play(enc, "gm open", "ylva cast orc spell=Frost move=Street damage=1", "ylva done")
    play(enc, "orc done", "gm close")
    out = texts(enc)
    assert out.index("Ylva moves to Street") < out.index("Ylva attacks Orc with a touch")
    assert "Ylva's attack: d20 shows 10, 15" in out
    assert enc.state.combatants["orc"].hp == 4


@pytest.mark.rule("HC-ACT-1")
def test_one_reactive_action_beside_the_rest_and_items() -> None:
    ylva = sheet("ylva", "north", weapons=SWORD, main="Sword")
    enc = encounter([ylva, orc(), orc("grak")], faces=[20, 1, 2])
    play(enc, "gm open", "ylva attack orc", "ylva attack orc", "ylva dodge grak")
    assert "one reactive action a round" in str(refused(enc, "ylva dodge orc"))
    # Dropping is free, picking up half: the sword dropped and picked up again.
    play(enc, "ylva retract", "ylva drop Sword", "ylva pick Sword", "ylva attack orc")
    play(enc, "ylva done", "orc done", "grak done")
    assert isinstance(enc.dice, ScriptedDice)
    enc.dice.add([1])  # Ylva's attack: d20 1 + 6 = 7 < 8, a miss
    play(enc, "gm close")
    out = texts(enc)
    assert "Ylva drops Sword" in out and "Ylva picks up Sword" in out
    assert enc.state.combatants["ylva"].main_hand == "Sword"
