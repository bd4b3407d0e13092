"""Character creation, progress and the social tables (HC-STAT-1, HC-STAT-2, HC-XP-1,
HC-SOC-1, HC-WP-1) and the stacking of modifiers (HC-MOD-1), worked from seed 001."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import EngineError
from fracas.rules.classic import social
from fracas.rules.classic.campaign import ClassicCampaign, Sheet
from fracas.rules.classic.modifiers import Modifier, total
from fracas.rules.classic.sheet import SheetError, check, knowledge_in, xp_cost

from classic_builders import encounter, play, sheet, texts

TABLES = ClassicCampaign.default()


def make(**fields: Any) -> Sheet:
    return Sheet(name="Ylva", side="north", **fields)


def error(**fields: Any) -> SheetError:
    with pytest.raises(SheetError) as err:
        check(TABLES, make(**fields))
    return err.value


# -- HC-STAT-1 ---------------------------------------------------------------------------


@pytest.mark.rule("HC-STAT-1")
def test_statistics_not_chosen_are_five_and_spend_exactly_the_35_points() -> None:
    # Seven statistics at 5 each: 7 x 5 = 35, all the points and no warning.
    assert check(TABLES, make()) == []
    enc = encounter([sheet("ylva", "north"), sheet("orc", "orcs")])
    assert enc.state.combatants["ylva"].profile.statistics == {
        "combat_skill": 5,
        "agility": 5,
        "dodge": 5,
        "initiative": 5,
        "knowledge": 5,
        "charisma": 5,
        "wealth": 5,
    }


@pytest.mark.rule("HC-STAT-1")
def test_spending_more_than_35_points_names_the_character_and_the_rule() -> None:
    # CS 7 (agility 5 allows it) and the rest at 5: 7 + 6 x 5 = 37 > 35.
    err = error(statistics={"CS": 7})
    assert err.rule == "HC-STAT-1" and err.character == "Ylva"
    assert str(err) == "Ylva: the statistics spend 37 of 35 points (HC-STAT-1)"


@pytest.mark.rule("HC-STAT-1")
def test_no_statistic_above_10_at_creation() -> None:
    # Wealth 11 paid for by charisma 1 keeps the sum at 35 (11 + 1 + 5 x 5), but 11 > 10.
    err = error(statistics={"wealth": 11, "charisma": 1}, background="heir")
    assert "wealth 11 is above 10 at creation" in str(err)
    # 10 is allowed: wealth 10, charisma 1, knowledge 4 and four 5s make 35.
    assert check(TABLES, make(statistics={"W": 10, "C": 1, "K": 4}, background="heir")) == []
    # Below the minimum of 1 (a decision: the XP table starts at 1).
    assert "charisma 0 is below 1" in str(error(statistics={"C": 0, "W": 10}, background="x"))


@pytest.mark.rule("HC-STAT-1")
def test_values_above_7_or_below_4_warn_unless_the_background_explains_them() -> None:
    # Wealth 8, charisma 3, knowledge 4: 8 + 3 + 4 + 4 x 5 = 35. 8 > 7 and 3 < 4 warn;
    # 4 is not below 4 and so does not.
    stats = {"wealth": 8, "charisma": 3, "knowledge": 4}
    assert check(TABLES, make(statistics=stats)) == [
        "Ylva: charisma 3 is below 4: note in the background how (HC-STAT-1)",
        "Ylva: wealth 8 is above 7: note in the background how (HC-STAT-1)",
    ]
    assert check(TABLES, make(statistics=stats, background="A merchant's daughter.")) == []


@pytest.mark.rule("HC-STAT-1")
def test_an_unknown_statistic_and_a_broken_sheet_in_an_encounter_are_clear_errors() -> None:
    assert "unknown statistic 'luck'" in str(error(statistics={"luck": 5}))
    with pytest.raises(EngineError, match=r"Orc: the statistics spend 40 of 35 points"):
        encounter([sheet("ylva", "north"), sheet("orc", "orcs", stats={"W": 10})])
    # The warnings of the characters in play are posted when the DM opens the fight.
    enc = encounter([sheet("ylva", "north", stats={"W": 7, "C": 3}), sheet("orc", "orcs")])
    play(enc, "gm open")
    assert "Ylva: wealth 7 is above 7" not in " ".join(texts(enc))
    assert "Ylva: charisma 3 is below 4: note in the background how (HC-STAT-1)" in texts(enc)


# -- HC-STAT-2 ---------------------------------------------------------------------------


@pytest.mark.rule("HC-STAT-2")
def test_agility_caps_combat_skill_dodge_and_initiative() -> None:
    # A value of 7 needs agility 2; 8 needs 3; 9 needs 4.
    ok = {"CS": 7, "A": 2, "W": 3, "C": 8}  # 7 + 2 + 5 + 5 + 5 + 8 + 3 = 35
    assert check(TABLES, make(statistics=ok, background="b")) == []
    err = error(statistics={"CS": 7, "A": 1, "W": 4, "C": 8}, background="b")
    assert err.rule == "HC-STAT-2"
    assert "combat_skill 7 needs agility 2 or more, not 1" in str(err)
    err = error(statistics={"D": 8, "A": 2, "W": 5, "C": 5, "K": 5}, background="b")
    assert "dodge 8 needs agility 3 or more, not 2" in str(err)
    # Agility itself and the other statistics are not capped.
    assert check(TABLES, make(statistics={"A": 1, "K": 9}, background="b")) == []


# -- HC-XP-1 -----------------------------------------------------------------------------


@pytest.mark.rule("HC-XP-1")
def test_raising_a_statistic_costs_the_seeds_table() -> None:
    # 1->2 220, 2->3 160, ... 9->10 300, 10->11 400, 11->12 520.
    assert [xp_cost(TABLES, n, n + 1) for n in range(1, 12)] == [
        220, 160, 120, 100, 100, 120, 160, 220, 300, 400, 520
    ]  # fmt: skip
    # 5 -> 8: 100 + 120 + 160 = 380.
    assert xp_cost(TABLES, 5, 8) == 380
    with pytest.raises(ValueError, match="beyond 12"):
        xp_cost(TABLES, 11, 13)


@pytest.mark.rule("HC-XP-1")
def test_a_sheet_pays_for_its_raises_and_needs_the_dm_above_10() -> None:
    # Initiative 5 -> 7 costs 100 + 120 = 220 XP; 219 XP is not enough.
    assert check(TABLES, make(raised={"I": 2}, xp=220)) == []
    assert "cost 220 XP, more than 219" in str(error(raised={"I": 2}, xp=219))
    # Wealth 10 (created) -> 11: 400 XP and a DM's permission.
    created = {"W": 10, "C": 1, "K": 4}  # 10 + 1 + 4 + 4 x 5 = 35
    err = error(statistics=created, raised={"W": 1}, xp=400, background="b")
    assert err.rule == "HC-XP-1" and "needs a DM's permission" in str(err)
    sheet_ = make(statistics=created, raised={"W": 1}, xp=400, background="b", dm_permission=True)
    assert check(TABLES, sheet_) == []
    # Raised statistics still obey the agility cap (HC-STAT-2): CS 5 -> 7 with agility 1.
    assert error(statistics={"A": 1, "K": 9}, raised={"CS": 2}, xp=220, background="b").rule == (
        "HC-STAT-2"
    )


# -- HC-WP-1 (the pool) ------------------------------------------------------------------


@pytest.mark.rule("HC-WP-1")
def test_willpower_starts_at_10_and_is_never_above_10() -> None:
    assert make().willpower == 10
    assert error(willpower=11).rule == "HC-WP-1"


# -- HC-SOC-1 ----------------------------------------------------------------------------


@pytest.mark.rule("HC-SOC-1")
def test_the_charisma_tables() -> None:
    assert [social.commands(TABLES, c) for c in (3, 4, 5, 6, 7, 8, 9, 10)] == [
        0, 5, 10, 20, 40, 80, 160, 320
    ]  # fmt: skip
    # A figurehead of charisma 6 holds 30; members of charisma 3, 2 and 1 cost 1 + 2 + 3.
    assert social.group_size(TABLES, 6, [6, 3, 2, 1]) == 30 - 6
    assert [social.figureheads(TABLES, c) for c in (5, 6, 10)] == [0, 1, 5]
    # Leading an Underbelly faction needs charisma 6 and wealth 8; a fleet charisma 8.
    assert social.leads(TABLES, 6, 8) == ["Underbelly faction"]
    assert social.leads(TABLES, 8, 7) == ["Heimr fleet"]


@pytest.mark.rule("HC-SOC-1")
def test_the_wealth_tables() -> None:
    assert [social.income(TABLES, w) for w in (1, 5, 6, 7, 12)] == [1, 5, 8, 15, 275]
    # "13+": each point above 12 adds 75c income and 75g starting gold, 500 employees.
    assert social.income(TABLES, 13) == 350 and social.starting_gold(TABLES, 14) == 425
    assert social.starting_gold(TABLES, 4) is None and social.starting_gold(TABLES, 5) == 5
    assert [social.employees(TABLES, w) for w in (6, 7, 10, 12, 13)] == [0, 20, 1000, 2000, 2500]


@pytest.mark.rule("HC-SOC-1")
def test_knowledge_categories_trade_two_down_for_one_up_and_stay_at_most_10() -> None:
    # Knowledge 6: Arcane down to 4 (-2) pays for Divine 7 (+1). Unnamed categories are 6.
    stats = {"K": 6, "W": 4}
    ok = make(statistics=stats, knowledge_categories={"Arcane": 4, "Divine": 7})
    assert check(TABLES, ok) == []
    assert knowledge_in(TABLES, ok, "divine") == 7 and knowledge_in(TABLES, ok, "Utgard") == 6
    # Down 2 and up 2 is not the trade.
    bad = error(statistics=stats, knowledge_categories={"Arcane": 4, "Divine": 8})
    assert bad.rule == "HC-SOC-1" and "raised by 2 and lowered by 2" in str(bad)
    # Knowledge 10: a category cannot go to 11 at creation.
    at_ten = {"K": 10, "W": 1, "C": 4}
    big = error(
        statistics=at_ten,
        knowledge_categories={"Arcane": 8, "Divine": 11},
        background="a sage",
    )
    assert "Divine 11 is above 10" in str(big)
    assert "unknown knowledge category 'Cooking'" in str(error(knowledge_categories={"Cooking": 5}))


# -- HC-MOD-1 ----------------------------------------------------------------------------


@pytest.mark.rule("HC-MOD-1")
def test_bonuses_of_one_type_do_not_stack_penalties_do() -> None:
    # Two equipment bonuses +7e and +5e: only +7. Two conditional penalties -2c and -5c:
    # both, -7. Bonuses of different types add: +7e and +1t.
    assert total([Modifier(7, "e", "sword"), Modifier(5, "e", "dagger")]) == 7
    assert total([Modifier(-2, "c", "prone"), Modifier(-5, "c", "blinded")]) == -7
    assert total([Modifier(7, "e", "sword"), Modifier(1, "t", "aggressive")]) == 8
    # A bonus and a penalty of one type: the highest bonus plus every penalty.
    mods = [Modifier(2, "env", "hill"), Modifier(1, "env", "wind"), Modifier(-1, "env", "mud")]
    assert total(mods) == 2 - 1


@pytest.mark.rule("HC-MOD-1")
def test_untyped_modifiers_do_not_stack_and_named_exceptions_do() -> None:
    # Untyped: "assume they do not stack": +3 and +2 give +3; -1 and -4 give -4.
    assert total([Modifier(3, None, "a"), Modifier(2, None, "b")]) == 3
    assert total([Modifier(-1, None, "a"), Modifier(-4, None, "b")]) == -4
    # The shield's defence bonus stacks with the weapon's (+7e and +5e = +12).
    assert total([Modifier(7, "e", "sword"), Modifier(5, "e", "shield", stacks=True)]) == 12
    # Every type of the seed's table is known.
    assert sorted(TABLES.modifier_types) == ["c", "e", "env", "m", "p", "t"]
