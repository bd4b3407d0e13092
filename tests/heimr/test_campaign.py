"""Heimr campaign data, character sheets and their arithmetic, checked against seed 000.

Expected values are worked out by hand from the seed's text and tables in each test.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.rules.heimr import Campaign, CharacterSheet, Items, SituationalPenalty
from fracas.rules.heimr.sheet import (
    SEED_TRAINING_COSTS,
    add_attribute_progress,
    attribute_progress_required,
    base_fatigue,
    base_potential,
    divide_xp,
    training_cost,
    training_total,
)
from fracas.yamlfile import CampaignError, deep_merge, parse_yaml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "heimr" / "campaign.yaml"

HEIMR = Campaign.default()


def write(tmp_path: Path, text: str, name: str = "campaign.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def sheet(attributes: dict[str, int] | None = None, **fields: object) -> CharacterSheet:
    """A sheet with every standard attribute 0 unless given, 4 hit points, 3 willpower."""
    values = {a: 0 for a in ("str", "dex", "sta", "int", "soc", "emp")} | (attributes or {})
    data = {"name": "Tester", "side": "a", "attributes": values, "hit_points": 4, "willpower": 3}
    return CharacterSheet.model_validate(data | fields)


def penalty(target: str, amount: int) -> SituationalPenalty:
    return SituationalPenalty(target=target, amount=amount)


# -- H-CHAR-1: attributes ----------------------------------------------------------------


@pytest.mark.rule("H-CHAR-1")
def test_six_attributes_with_short_names_and_groups() -> None:
    # Seed table: Strength str, Dexterity dex, Stamina sta are Physical;
    # Intelligence int, Sociability soc, Empathy emp are Mental.
    names = {short: (a.name, a.group) for short, a in HEIMR.attributes.items()}
    assert names == {
        "str": ("Strength", "physical"),
        "dex": ("Dexterity", "physical"),
        "sta": ("Stamina", "physical"),
        "int": ("Intelligence", "mental"),
        "soc": ("Sociability", "mental"),
        "emp": ("Empathy", "mental"),
    }
    assert HEIMR.groups() == {"physical", "mental"}


@pytest.mark.rule("H-CHAR-1", "H-DICE-6")
def test_a_campaign_defines_its_own_attributes(tmp_path: Path) -> None:
    # The seed's intrigue example: str, dex and sta folded into "Physical", with social
    # attributes such as manipulation and composure.
    path = write(
        tmp_path,
        """
        attributes: !replace
          phy: {name: Physical, group: body}
          man: {name: Manipulation, group: social}
          com: {name: Composure, group: social}
        abilities: !replace
          Brawl: {attributes: [phy], base_consistency: 1}
          Bluff: {attributes: [man, com], base_consistency: 0}
        weapons: !replace {}
        shields: !replace {}
        tables:
          fatigue: {attribute: phy}
        characters:
          vera:
            name: Vera
            side: court
            attributes: {phy: -1, man: 3, com: 0}
            hit_points: 3
            willpower: 4
        """,
    )
    court = Campaign.load(path)
    vera = court.characters["vera"]
    assert sorted(court.attributes) == ["com", "man", "phy"]
    assert court.groups() == {"body", "social"}
    # Bluff: base potential floor((3 + 0) / 2) = 1; a penalty of 2 on the "social" group
    # lowers its consistency from 0 to -2.
    challenge = court.ability_challenge(vera, "Bluff", [penalty("social", 2)])
    assert (challenge.consistency, challenge.potential) == (-2, 1)
    assert court.base_fatigue(vera) == 5  # 4 - (-1), from the attribute the table names


# -- H-CHAR-2: ability consistency and potential -----------------------------------------


@pytest.mark.rule("H-CHAR-2")
def test_consistency_is_base_plus_trained() -> None:
    hero = sheet(
        {"dex": 2}, abilities={"Dueling": {"trained_consistency": 2, "trained_potential": 1}}
    )
    # Dueling: base consistency 0 (decisions.md) + 2 trained; base potential dex 2 + 1 trained.
    assert HEIMR.ability_consistency(hero, "Dueling") == 2
    assert HEIMR.ability_potential(hero, "Dueling") == 3
    # An untrained ability has its base values: Brawl base 1, str 0.
    assert str(HEIMR.ability_challenge(hero, "Brawl")) == "C1P0"


@pytest.mark.rule("H-CHAR-2")
@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([2], 2),  # the seed: strength 2 gives brawl a base potential of 2
        ([0, 3], 1),  # the seed: 0 and 3 average 1.5, rounded down to 1
        ([-1, 0], -1),  # -0.5 rounded down is -1 (floor, decisions.md)
        ([-2, -1], -2),  # -1.5 rounded down is -2
        ([1, 2, 2], 1),  # 5 / 3 = 1.67 rounded down
    ],
)
def test_base_potential_is_the_average_rounded_down(values: list[int], expected: int) -> None:
    assert base_potential(values) == expected


@pytest.mark.rule("H-CHAR-2")
def test_changing_an_attribute_changes_derived_potentials() -> None:
    # Sword and shield is based on str and dex: floor((0 + 3) / 2) = 1, then
    # floor((1 + 3) / 2) = 2 once str rises; Agility (dex) does not change.
    before = sheet({"str": 0, "dex": 3})
    after = before.model_copy(update={"attributes": {**before.attributes, "str": 1}})
    assert HEIMR.base_potential(before, "Sword and shield") == 1
    assert HEIMR.base_potential(after, "Sword and shield") == 2
    assert HEIMR.base_potential(after, "Agility") == HEIMR.base_potential(before, "Agility") == 3


@pytest.mark.rule("H-CHAR-2")
def test_base_consistency_outside_minus_two_to_three_is_refused(tmp_path: Path) -> None:
    path = write(
        tmp_path, "abilities:\n  Lock picking: {attributes: [dex], base_consistency: -3}\n"
    )
    with pytest.raises(CampaignError, match=r"line 2, abilities\.Lock picking\.base_consistency"):
        Campaign.load(path)


# -- H-CHAR-3: standard abilities ----------------------------------------------------------


@pytest.mark.rule("H-CHAR-3")
def test_six_standard_abilities_and_their_attributes() -> None:
    standard = ["Brawl", "Agility", "Survival", "Perception", "Persuasion", "Insight"]
    based_on = [HEIMR.abilities[name].attributes for name in standard]
    assert based_on == [["str"], ["dex"], ["sta"], ["int"], ["soc"], ["emp"]]
    for name in standard:
        assert -2 <= HEIMR.abilities[name].base_consistency <= 3


@pytest.mark.rule("H-CHAR-3", "H-CHAR-2")
def test_a_campaign_adds_abilities(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        abilities:
          Intimidation: {attributes: [soc, str], base_consistency: 0}
          Lock picking: {attributes: [dex], base_consistency: -2}
        """,
    )
    campaign = Campaign.load(path)
    thug = sheet({"str": 3, "soc": 0, "dex": 1})
    assert str(campaign.ability_challenge(thug, "Intimidation")) == "C0P1"  # floor(3 / 2)
    assert str(campaign.ability_challenge(thug, "lock picking")) == "C-2P1"
    assert "Brawl" in campaign.abilities  # the standard set stays


# -- H-CHAR-4: attribute rolls ----------------------------------------------------------------


@pytest.mark.rule("H-CHAR-4", "H-DICE-6")
def test_attribute_roll_takes_the_gms_consistency_and_the_attribute_as_potential() -> None:
    hero = sheet({"str": 2, "emp": -1})
    # Arm wrestling is "fairly consistent (4 to 6)": the GM picks 5.
    assert str(HEIMR.attribute_challenge(hero, "str", 5)) == "C5P2"
    # Gauging emotions: consistency 0 or 1.
    assert str(HEIMR.attribute_challenge(hero, "emp", 1)) == "C1P-1"
    # A penalty on the physical group reaches a strength roll; one on dex does not.
    tired = [penalty("physical", 2), penalty("dex", 1)]
    assert str(HEIMR.attribute_challenge(hero, "str", 5, tired)) == "C3P2"


# -- H-CHAR-5: sheets from campaign data -----------------------------------------------------


@pytest.mark.rule("H-CHAR-5")
def test_the_example_campaign_loads_its_characters() -> None:
    campaign = Campaign.load(EXAMPLE)
    ylva = campaign.characters["ylva"]
    assert (ylva.hit_points, ylva.willpower, ylva.skills) == (4, 3, ["First aid"])
    assert (ylva.items.sword_hand, ylva.items.off_hand) == ("Medium weapon", "Medium shield")
    assert campaign.characters["eirik"].items.carried == ["Light weapon", "quiver of arrows"]
    assert {c.side for c in campaign.characters.values()} == {"shieldwall", "raiders"}
    # Ylva, sword and shield: C 1 + 2 = 3; P floor((1 + 1) / 2) + 2 = 3.
    assert str(campaign.ability_challenge(ylva, "Shield and sword")) == "C3P3"
    # Astrid, great weapon: Swordmanship C 0 + 2, P floor((2 + 2) / 2) + 1; sta 2: fatigue 2.
    astrid = campaign.characters["astrid"]
    assert str(campaign.ability_challenge(astrid, "Swordmanship")) == "C2P3"
    assert campaign.base_fatigue(astrid) == 2
    # Hrolf, brawler: Brawl C 1 + 2, P 3 + 2.
    assert str(campaign.ability_challenge(campaign.characters["hrolf"], "Brawl")) == "C3P5"
    # Eirik, archer: Archery C -1 + 3, P 3 + 1.
    assert str(campaign.ability_challenge(campaign.characters["eirik"], "Archery")) == "C2P4"


@pytest.mark.rule("H-CHAR-5", "H-XP-2", "H-XP-3")
def test_example_characters_follow_the_examples_convention() -> None:
    # decisions.md: attributes from -1 to 3 adding up to 3, 60 XP of training, and one
    # attribute progress for every training point.
    campaign = Campaign.load(EXAMPLE)
    for character in campaign.characters.values():
        assert sum(character.attributes.values()) == 3
        assert all(-1 <= v <= 3 for v in character.attributes.values())
        spent = sum(
            training_total(t.trained_consistency) + training_total(t.trained_potential)
            for t in character.abilities.values()
        )
        assert spent == 60, character.name
        progress: dict[str, int] = {}
        for label, t in character.abilities.items():
            attribute = t.progress_attribute or campaign.ability(label).attributes[0]
            points = t.trained_consistency + t.trained_potential
            progress[attribute] = progress.get(attribute, 0) + points
        assert progress == character.attribute_progress, character.name


# -- H-DICE-6: situational penalties ---------------------------------------------------------


@pytest.mark.rule("H-DICE-6")
def test_penalty_lowers_consistency() -> None:
    # The seed: a penalty of two on a challenge with consistency three leaves one.
    hero = sheet(abilities={"Agility": {"trained_consistency": 2}})
    assert HEIMR.ability_consistency(hero, "Agility") == 3
    assert HEIMR.ability_consistency(hero, "Agility", [penalty("Agility", 2)]) == 1


@pytest.mark.rule("H-DICE-6")
def test_penalty_on_an_attribute_or_group_reaches_every_ability_based_on_it() -> None:
    hero = sheet()
    on_dex = [penalty("dex", 1)]
    # The seed's example: a penalty on dexterity also affects athletics (here Agility).
    assert HEIMR.ability_consistency(hero, "Agility", on_dex) == 0  # base 1 - 1
    assert HEIMR.ability_consistency(hero, "Archery", on_dex) == -2  # base -1 - 1
    assert HEIMR.ability_consistency(hero, "Sword and shield", on_dex) == 0  # str + dex
    assert HEIMR.ability_consistency(hero, "Brawl", on_dex) == 1  # str only: untouched
    on_mental = [penalty("mental", 2)]  # a hangover while solving a puzzle
    assert HEIMR.ability_consistency(hero, "Perception", on_mental) == -2
    assert HEIMR.ability_consistency(hero, "Brawl", on_mental) == 1


@pytest.mark.rule("H-DICE-6")
def test_penalties_add_up_and_each_counts_once() -> None:
    # Darkness (2 on everything physical), a sprained wrist (1 on dex), and a penalty on
    # the ability itself (1): Sword and shield (str + dex, base 1) gets 2 + 1 + 1 = 4,
    # the physical penalty counting once although both its attributes are physical.
    penalties = [penalty("physical", 2), penalty("dex", 1), penalty("shield and sword", 1)]
    assert HEIMR.penalty_on("Sword and shield", penalties) == 4
    assert HEIMR.ability_consistency(sheet(), "Sword and shield", penalties) == -3


@pytest.mark.rule("H-DICE-6", "H-MOD-2")
def test_tower_shield_penalty_reaches_stamina_abilities() -> None:
    # Tower shield "Sta -1": a penalty of 1 on sta, so Survival (sta) drops from 0 to -1.
    penalties = HEIMR.item_penalties(Items(sword_hand="Medium weapon", off_hand="Tower shield"))
    assert penalties == [penalty("sta", 1)]
    assert HEIMR.ability_consistency(sheet(), "Survival", penalties) == -1
    assert HEIMR.ability_consistency(sheet(), "Agility", penalties) == 1
    assert HEIMR.item_penalties(Items(off_hand="Small shield")) == []


@pytest.mark.rule("H-DICE-6")
def test_unknown_penalty_target_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"unknown penalty target 'dexterity'"):
        HEIMR.ability_consistency(sheet(), "Agility", [penalty("dexterity", 1)])


# -- H-XP-1..3: experience, training, attribute progress -------------------------------------


@pytest.mark.rule("H-XP-1")
def test_xp_is_divided_rounded_down_and_the_rest_carried_over() -> None:
    # The seed: 10 XP among four characters is 2 XP each with 2 remaining.
    first = divide_xp(10, 4)
    assert (first.each, first.remainder) == (2, 2)
    # The 2 remaining join the next award: 7 + 2 = 9 among four is 2 each, 1 left.
    second = divide_xp(7, 4, carried=first.remainder)
    assert (second.each, second.remainder) == (2, 1)
    with pytest.raises(ValueError):
        divide_xp(10, 0)


@pytest.mark.rule("H-XP-1")
@given(
    xp=st.integers(min_value=0, max_value=10_000),
    characters=st.integers(min_value=1, max_value=12),
    carried=st.integers(min_value=0, max_value=11),
)
def test_xp_division_conserves_points(xp: int, characters: int, carried: int) -> None:
    share = divide_xp(xp, characters, carried)
    assert share.each * characters + share.remainder == xp + carried
    assert 0 <= share.remainder < characters


@pytest.mark.rule("H-XP-2")
def test_training_costs_follow_the_seeds_table() -> None:
    # Seed table: new height 1..7 costs 5, 10 (5+5), 15 (5+10), 25 (10+15), 40 (15+25),
    # 65 (25+40), 105 (40+65); totals 5, 15, 30, 55, 95, 160, 265 (errata.md).
    assert [training_cost(n) for n in range(1, 8)] == [5, 10, 15, 25, 40, 65, 105]
    assert [training_total(n) for n in range(1, 8)] == [5, 15, 30, 55, 95, 160, 265]
    assert training_total(0) == 0
    # Beyond the table the rule goes on: 65 + 105, 105 + 170.
    assert (training_cost(8), training_cost(9)) == (170, 275)
    assert HEIMR.tables.training_costs == list(SEED_TRAINING_COSTS)


@pytest.mark.rule("H-XP-2")
@given(level=st.integers(min_value=3, max_value=40))
def test_each_cost_is_the_sum_of_the_two_before_and_totals_add_up(level: int) -> None:
    assert training_cost(level) == training_cost(level - 1) + training_cost(level - 2)
    assert training_total(level) == sum(training_cost(n) for n in range(1, level + 1))
    assert training_total(level) - training_total(level - 1) == training_cost(level)


@pytest.mark.rule("H-XP-2", "H-XP-3")
def test_training_spends_xp_and_adds_attribute_progress() -> None:
    hero = sheet({"dex": 1}, xp=30, abilities={"Archery": {"trained_consistency": 1}})
    # The second point of trained consistency costs 10; dex progress 0 -> 1.
    step = HEIMR.train(hero, "Archery", "consistency")
    assert (step.cost, step.sheet.xp, step.attribute) == (10, 20, "dex")
    assert step.sheet.abilities["Archery"].trained_consistency == 2
    assert step.sheet.attribute_progress == {"dex": 1}
    # Trained potential is a separate count: its first point costs 5.
    step = HEIMR.train(step.sheet, "Archery", "potential")
    assert (step.cost, step.sheet.xp) == (5, 15)
    assert str(HEIMR.ability_challenge(step.sheet, "Archery")) == "C1P2"  # -1 + 2, 1 + 1
    # The third consistency point costs 15, exactly what is left; then nothing is left.
    step = HEIMR.train(step.sheet, "Archery", "consistency")
    assert (step.cost, step.sheet.xp) == (15, 0)
    with pytest.raises(ValueError, match="has 0 XP; Archery potential 2 costs 10"):
        HEIMR.train(step.sheet, "Archery", "potential")


@pytest.mark.rule("H-XP-3")
def test_attribute_progress_requirements() -> None:
    # Seed table by the new value: -2: 8, -1: 6, 0: 4, 1: 6, 2: 8, 3: 10, 4 or more: 12.
    table = {-2: 8, -1: 6, 0: 4, 1: 6, 2: 8, 3: 10, 4: 12, 5: 12, 9: 12}
    assert {v: attribute_progress_required(v) for v in table} == table
    assert HEIMR.tables.attribute_progress == {-2: 8, -1: 6, 0: 4, 1: 6, 2: 8, 3: 10, 4: 12}
    assert attribute_progress_required(-3) == 8  # decisions.md: the nearest end


@pytest.mark.rule("H-XP-3")
def test_attribute_rises_when_progress_reaches_the_requirement_and_resets() -> None:
    # An attribute of 1 needs 8 progress to become 2.
    assert add_attribute_progress(1, 6) == (1, 7)
    assert add_attribute_progress(1, 7) == (2, 0)
    # From -1, four points reach 0 (requirement 4); six more reach 1 (requirement 6).
    assert add_attribute_progress(-1, 0, points=4) == (0, 0)
    assert add_attribute_progress(-1, 0, points=10) == (1, 0)
    assert add_attribute_progress(-1, 0, points=11) == (1, 1)


@pytest.mark.rule("H-XP-3", "H-CHAR-2")
def test_training_a_multi_attribute_ability_progresses_the_chosen_attribute() -> None:
    hero = sheet({"str": 1}, xp=100, attribute_progress={"dex": 3})
    with pytest.raises(ValueError, match="Sword and shield is based on str, dex: choose one"):
        HEIMR.train(hero, "Sword and shield", "potential")
    with pytest.raises(ValueError, match="not 'sta'"):
        HEIMR.train(hero, "Sword and shield", "potential", attribute="sta")
    # dex 0 -> 1 needs 6 progress; dex has 3, so three training points raise it.
    step = HEIMR.train(hero, "Shield and sword", "potential", attribute="dex")
    step = HEIMR.train(step.sheet, "Shield and sword", "potential", attribute="dex")
    assert not step.attribute_increased
    assert HEIMR.base_potential(step.sheet, "Sword and shield") == 0  # floor((1 + 0) / 2)
    step = HEIMR.train(step.sheet, "Shield and sword", "consistency", attribute="dex")
    assert step.attribute_increased
    assert (step.sheet.attributes["dex"], step.sheet.attribute_progress["dex"]) == (1, 0)
    # The derived potential follows: floor((1 + 1) / 2) + 2 trained.
    assert HEIMR.base_potential(step.sheet, "Sword and shield") == 1
    assert HEIMR.ability_potential(step.sheet, "Sword and shield") == 3
    # XP: potential 5 + 10, consistency 5.
    assert step.sheet.xp == 100 - 20


@pytest.mark.rule("H-XP-3")
def test_progress_already_at_the_requirement_is_a_load_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        characters:
          sven:
            name: Sven
            side: a
            attributes: {str: 0, dex: 0, sta: 0, int: 0, soc: 0, emp: 0}
            hit_points: 4
            willpower: 2
            attribute_progress: {str: 6}
        """,
    )
    with pytest.raises(CampaignError) as caught:
        Campaign.load(path)
    assert str(caught.value) == (
        f"{path}, line 8, characters.sven.attribute_progress.str: "
        "6 already reaches the 6 needed for str 1"
    )


# -- H-FAT-3 ------------------------------------------------------------------------------------


@pytest.mark.rule("H-FAT-3")
@pytest.mark.parametrize(("sta", "expected"), [(3, 1), (-2, 6), (4, 1), (-3, 7), (0, 4), (9, 1)])
def test_base_fatigue_is_four_minus_stamina_at_least_one(sta: int, expected: int) -> None:
    # The seed: stamina 3 gives 1, -2 gives 6, 4 still gives 1, -3 gives 7.
    assert base_fatigue(sta) == expected
    assert HEIMR.base_fatigue(sheet({"sta": sta})) == expected


# -- H-MOD-2: the medieval armoury -------------------------------------------------------------


@pytest.mark.rule("H-MOD-2")
def test_weapon_table_is_the_seeds() -> None:
    rows = {
        name: (w.range, w.damage, w.potential_bonus, w.wielding, HEIMR.weapon_abilities(name))
        for name, w in HEIMR.weapons.items()
    }
    assert rows == {
        "Light weapon": ("melee", 1, 2, "either-hand", ["Knife fighting"]),
        "Medium weapon": ("melee", 2, 3, "one-or-two-hands", ["Dueling", "Sword and shield"]),
        "Great weapon": ("melee", 3, 5, "two-hands", ["Swordmanship"]),
        "Pole arm": ("melee", 2, 4, "two-hands", ["Pole arms"]),
        "Bow": (6, 3, 1, "two-hands", ["Archery"]),
        "Crossbow": (4, 3, 0, "two-hands", ["Archery"]),  # bonus "-"
        "Throwing weapon": (1, 1, 0, "sword-hand", ["Throwing", "Knife fighting"]),
        "Blowgun": (2, 0, 1, "sword-hand", ["Blowguns"]),
    }


@pytest.mark.rule("H-MOD-2")
def test_shield_table_is_the_seeds() -> None:
    rows = {
        name: (s.potential_bonus, [(p.target, p.amount) for p in s.penalties], s.wielding)
        for name, s in HEIMR.shields.items()
    }
    assert rows == {
        "Buckler": (0, [], "off-hand"),
        "Small shield": (2, [], "off-hand"),
        "Medium shield": (3, [], "off-hand"),
        "Tower shield": (5, [("sta", 1)], "off-hand"),
    }
    assert HEIMR.weapon_abilities("Buckler") == ["Dueling", "Sword and shield"]
    assert HEIMR.weapon_abilities("Tower shield") == ["Sword and shield"]


@pytest.mark.rule("H-MOD-2")
def test_a_campaign_adds_weapons_and_overrides_values(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        weapons:
          Hand axe:
            range: melee
            damage: 2
            potential_bonus: 1
            wielding: either-hand
            abilities: [Knife fighting]
          Crossbow: {potential_bonus: 2}
        tables:
          climbing: {Rope: 3}
        """,
    )
    campaign = Campaign.load(path)
    assert campaign.weapons["Hand axe"].damage == 2
    assert campaign.weapons["Crossbow"].potential_bonus == 2
    assert campaign.weapons["Crossbow"].range == 4  # the rest of the row stays
    assert campaign.tables.climbing["Rope"] == 3
    assert campaign.tables.climbing["Tree"] == 5


@pytest.mark.rule("H-MOD-2", "H-ATK-2")
@pytest.mark.parametrize(
    ("items", "message"),
    [
        ("{sword_hand: Great weapon, off_hand: Buckler}", "the Great weapon takes both hands"),
        (
            "{off_hand: Medium weapon}",
            "a Medium weapon is wielded one-or-two-hands, not in the off-hand",
        ),
        ("{sword_hand: Small shield}", "a Small shield is wielded in the off-hand"),
        ("{sword_hand: Longsword}", "unknown weapon 'Longsword'"),
    ],
)
def test_wielding_is_checked(tmp_path: Path, items: str, message: str) -> None:
    path = write(
        tmp_path,
        f"""
        characters:
          sven:
            name: Sven
            side: a
            attributes: {{str: 0, dex: 0, sta: 0, int: 0, soc: 0, emp: 0}}
            hit_points: 4
            willpower: 2
            items: {items}
        """,
    )
    with pytest.raises(CampaignError, match=rf"line 8, characters\.sven\.items\.\w+: {message}"):
        Campaign.load(path)


# -- the shipped tables (data only; the rules that read them are tested in play) --


def test_effects_and_their_default_numbers() -> None:
    effects = HEIMR.tables.effects
    # "either two (as in seconds) or one (as in point)": Hit and Drain cost points.
    defaults = {name: (e.number, e.unit) for name, e in effects.items() if not e.reaction}
    assert defaults == {
        "Hit": (1, "points"),
        "Drain": (1, "points"),
        "Fall": (2, "seconds"),
        "Drop": (2, "seconds"),
        "Stumble": (2, "seconds"),
        "Daze": (2, "seconds"),
        "Break": (1, "points"),
        "Bind": (2, "seconds"),
        "Weaken": (2, "seconds"),
    }
    assert {n for n, e in effects.items() if e.reaction} == {"Resist", "Miss"}
    assert sorted(HEIMR.tables.bind_locations) == ["Arm", "Body", "Feet", "Hands", "Leg"]


@pytest.mark.parametrize(
    ("hit_points", "level"),
    [(3, None), (1, None), (0, "Bloodied"), (-1, "Bloodied"), (-2, "Mangled")]
    + [(-3, "Mangled"), (-4, "Mutilated"), (-5, "Mutilated"), (-6, "Dead"), (-20, "Dead")],
)
def test_injury_levels(hit_points: int, level: str | None) -> None:
    assert HEIMR.tables.injury_level(hit_points) == level


def test_injury_level_timers() -> None:
    levels = HEIMR.tables.injury_levels
    # Mangled: dies in 10 minutes, unconscious half way (5); Mutilated: unconscious at
    # once, dies after two minutes; Bloodied needs treatment and allows no short rest.
    assert (levels["Mangled"].unconscious_after_minutes, levels["Mangled"].dies_after_minutes) == (
        5,
        10,
    )
    mutilated = levels["Mutilated"]
    assert (mutilated.unconscious_after_minutes, mutilated.dies_after_minutes) == (0, 2)
    assert levels["Bloodied"].needs_treatment and not levels["Bloodied"].short_rest
    assert levels["Bloodied"].dies_after_minutes is None


def test_body_parts_by_d6_and_their_injury_effects() -> None:
    tables = HEIMR.tables
    parts = [tables.body_part(face) for face in range(1, 7)]
    assert parts == ["left leg", "right leg", "other arm", "sword arm", "torso", "torso"]
    effects = [tables.injury_effects[part] for part in parts]
    assert effects == ["Fall", "Fall", "Drop", "Drop", "Daze", "Daze"]
    with pytest.raises(ValueError):
        tables.body_part(7)


def test_environment_tables() -> None:
    t = HEIMR.tables
    assert t.movement_limits == {
        "Single door": 2,
        "Thick vegetation": 2,
        "Double door": 4,
        "Window": 1,
        "Ladder": 1,
    }
    assert t.crossing_challenges == {
        "Window": 5,
        "1.5 meter jump": 1,
        "2 meter jump": 3,
        "2.5 meter jump": 6,
        "3 meter jump": 9,
        "Rope swing": 4,
    }
    assert t.structural_barriers == {
        "Regular door": 2,
        "Strong door": 4,
        "Regular gate": 6,
        "Wooden wall": 4,
        "Stone wall": 6,
    }
    assert t.climbing == {
        "Ladder or stairs": None,
        "Rope ladder": 2,
        "Rope": 4,
        "Rock face": 6,
        "Steep rock face": 9,
        "Tree": 5,
        "Stone wall": 11,
    }
    concealment = {n: (c.effectiveness, c.effectiveness_max) for n, c in t.concealment.items()}
    assert concealment == {
        "Thick tree": (2, None),
        "Wooden cart or crate": (2, None),
        "Shrubbery": (1, None),
        "Stone merlon": (5, None),
        "Wooden table": (3, None),
        "Tall grass": (1, None),
        "Darkness": (1, 3),
        "Extreme weather": (1, 3),
    }
    assert (t.concealment["Thick tree"].height, t.concealment["Thick tree"].height_or_more) == (
        4,
        True,
    )
    assert t.lighting == {"Torch": 1, "Camp fire": 2}


# -- errors people see ------------------------------------------------------------------------


def test_malformed_yaml_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "characters:\n  ylva:\n    name: Ylva\n     side: a\n")
    with pytest.raises(CampaignError) as caught:
        Campaign.load(path)
    assert str(caught.value) == f"{path}, line 4: mapping values are not allowed here"


def test_wrong_type_names_file_line_and_field(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        characters:
          ylva:
            name: Ylva
            side: shieldwall
            attributes:
              str: two
              dex: 1
              sta: 1
              int: 0
              soc: 0
              emp: 0
            hit_points: 4
            willpower: 3
        """,
    )
    with pytest.raises(CampaignError) as caught:
        Campaign.load(path)
    assert str(caught.value) == (
        f"{path}, line 6, characters.ylva.attributes.str: Input should be a valid integer"
    )


@pytest.mark.rule("H-CHAR-5")
def test_missing_and_unexpected_fields(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        characters:
          ylva:
            name: Ylva
            side: shieldwall
            atributes: {str: 1}
        """,
    )
    with pytest.raises(CampaignError) as caught:
        Campaign.load(path)
    lines = str(caught.value).splitlines()
    assert f"{path}, line 2, characters.ylva.attributes: Field required" in lines
    assert f"{path}, line 2, characters.ylva.hit_points: Field required" in lines
    assert f"{path}, line 5, characters.ylva.atributes: Extra inputs are not permitted" in lines


def test_unknown_ability_names_file_line_field_and_the_known_ones(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        characters:
          ylva:
            name: Ylva
            side: shieldwall
            attributes: {str: 1, dex: 1, sta: 1, int: 0, soc: 0, emp: 0}
            hit_points: 4
            willpower: 3
            abilities:
              Agility: {trained_consistency: 1}
              Duelling: {trained_consistency: 1}
        """,
    )
    with pytest.raises(CampaignError) as caught:
        Campaign.load(path)
    message = str(caught.value)
    assert message.startswith(
        f"{path}, line 10, characters.ylva.abilities.Duelling: unknown ability 'Duelling' (known: "
    )
    assert "Agility, Archery, Blowguns, Brawl, Dueling," in message
    assert message.endswith("; did you mean 'Dueling'?")


def test_check_sheet_for_sheets_made_in_code() -> None:
    HEIMR.check_sheet(sheet(abilities={"knife fighting": {"trained_potential": 1}}))
    with pytest.raises(CampaignError) as caught:
        HEIMR.check_sheet(sheet(abilities={"Duelling": {}}, items={"off_hand": "Pavise"}))
    first, second = str(caught.value).splitlines()
    assert first.startswith("character 'Tester', abilities.Duelling: unknown ability 'Duelling'")
    assert second.startswith(
        "character 'Tester', items.off_hand: unknown weapon or shield 'Pavise'"
    )


def test_unknown_attribute_in_a_sheet_and_in_an_ability(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        abilities:
          Sailing: {attributes: [dex, wis], base_consistency: 1}
        characters:
          ylva:
            name: Ylva
            side: shieldwall
            attributes: {str: 1, dex: 1, sta: 1, int: 0, soc: 0, emp: 0, luck: 2}
            hit_points: 4
            willpower: 3
        """,
    )
    with pytest.raises(CampaignError) as caught:
        Campaign.load(path)
    lines = str(caught.value).splitlines()
    assert lines[0].startswith(f"{path}, line 2, abilities.Sailing.attributes[1]: ")
    assert "unknown attribute 'wis' (known: dex, emp, int, soc, sta, str)" in lines[0]
    assert lines[1].startswith(f"{path}, line 7, characters.ylva.attributes.luck: unknown")


def test_one_error_per_field_and_unknown_weapon_ability(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        weapons:
          Sling:
            range: far
            damage: 1
            wielding: sword-hand
            abilities: [Slinging]
        """,
    )
    with pytest.raises(CampaignError) as caught:
        Campaign.load(path)
    assert str(caught.value) == (
        f"{path}, line 3, weapons.Sling.range: "
        "Input should be 'melee'; or Input should be a valid integer"
    )
    path.write_text(path.read_text().replace("far", "3"))
    with pytest.raises(CampaignError, match=r"line 6, weapons\.Sling\.abilities\[0\]: unknown"):
        Campaign.load(path)


def test_duplicate_keys_and_unreadable_files(tmp_path: Path) -> None:
    path = write(tmp_path, "tables:\n  lighting: {Torch: 1}\n  lighting: {Torch: 2}\n")
    with pytest.raises(CampaignError, match=r"line 3, tables\.lighting: duplicate key"):
        Campaign.load(path)
    with pytest.raises(CampaignError, match=r"missing\.yaml: cannot read the file"):
        Campaign.load(tmp_path / "missing.yaml")
    listing = write(tmp_path, "- a\n- b\n", "list.yaml")
    with pytest.raises(CampaignError, match=r"list\.yaml, line 1: the file should hold a mapping"):
        Campaign.load(listing)


def test_later_files_win_and_errors_point_at_the_file_that_wrote_the_value(
    tmp_path: Path,
) -> None:
    base = write(tmp_path, "tables:\n  movement_limits: {Gate: 3}\n", "base.yaml")
    override = write(tmp_path, "tables:\n  movement_limits:\n    Gate: 0\n", "override.yaml")
    assert Campaign.load(base).tables.movement_limits["Gate"] == 3
    with pytest.raises(CampaignError) as caught:
        Campaign.load(base, override)
    assert str(caught.value) == (
        f"{override}, line 3, tables.movement_limits.Gate: "
        "Input should be greater than or equal to 1"
    )


# -- yamlfile helpers ---------------------------------------------------------------------------


def test_deep_merge() -> None:
    base = {"a": {"x": 1, "y": [1, 2]}, "b": 1}
    assert deep_merge(base, {"a": {"y": [3]}, "c": None}) == {
        "a": {"x": 1, "y": [3]},
        "b": 1,
        "c": None,
    }
    assert base == {"a": {"x": 1, "y": [1, 2]}, "b": 1}  # untouched
    replaced = parse_yaml("a: !replace {z: 0}\n", "c.yaml").data
    assert deep_merge(base, replaced) == {"a": {"z": 0}, "b": 1}


json_values = st.recursive(
    st.none() | st.integers() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner),
    max_leaves=10,
)


@given(base=st.dictionaries(st.text(max_size=2), json_values), over=json_values)
def test_deep_merge_keeps_every_key_and_the_overrides_values(
    base: dict[str, object], over: object
) -> None:
    merged = deep_merge(base, over)
    if not isinstance(over, dict):
        assert merged == over
        return
    assert set(merged) == set(base) | set(over)
    for key, value in over.items():
        if not isinstance(value, dict) or not isinstance(base.get(key), dict):
            assert merged[key] == value


def test_locations_follow_merge_keys_and_lists() -> None:
    doc = parse_yaml("base: &b {x: 1}\nitem:\n  <<: *b\n  y:\n    - 1\n    - 2\n", "m.yaml")
    assert doc.data == {"base": {"x": 1}, "item": {"x": 1, "y": [1, 2]}}
    assert doc.location(("item", "y", 1)).line == 6
    assert doc.location(("item", "y", 1, "deeper")).line == 6
    assert doc.location(("nowhere",)).line == 1


def test_problems_from_a_model_validator_point_at_their_own_lines() -> None:
    doc = parse_yaml("tables:\n  body_parts:\n    6: head\n", "t.yaml")
    with pytest.raises(CampaignError) as caught:
        Campaign.from_documents(doc)
    assert str(caught.value).startswith(
        "t.yaml, line 3, tables.body_parts[6]: unknown body part 'head' (known: left leg, "
    )
