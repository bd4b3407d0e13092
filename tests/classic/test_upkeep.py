"""Between fights in the Heimr Tabletop Rulebook (HC-CAMP-1) and its armoury lists
(HC-ARM-1): the rules' functions, the books at the terminal and on the web."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.rules.classic import upkeep
from fracas.rules.classic.campaign import ClassicCampaign
from fracas.rules.heimr.campaign import Campaign as HeimrCampaign

T = ClassicCampaign.default()
runner = CliRunner()


def sheet(**more: Any) -> dict[str, Any]:
    return {"name": "Ylva", "side": "n", **more}


@pytest.mark.rule("HC-CAMP-1")
def test_a_month_gives_20_xp_the_income_and_one_willpower_once() -> None:
    ylva = sheet(statistics={"W": 9}, willpower=4, xp=7, money=3)
    after, _ = upkeep.month(T, ylva, "2026-04")
    # wealth 9: 60c a month; 4 + 1 willpower; 7 + 20 XP
    assert (after["xp"], after["money"], after["willpower"]) == (27, 63, 5)
    with pytest.raises(ValueError, match="has had 2026-04 already"):
        upkeep.month(T, after, "2026-04")
    full, _ = upkeep.month(T, sheet(willpower=10), "2026-05")
    assert full["willpower"] == 10  # never above 10
    with pytest.raises(ValueError, match="not a month"):
        upkeep.month(T, ylva, "2026-13")


@pytest.mark.rule("HC-CAMP-1")
def test_willpower_is_bought_for_a_silver_each_up_to_ten() -> None:
    poor = sheet(willpower=7, money=9)  # a silver is 5 copper
    after, _ = upkeep.buy_willpower(T, poor, 1)
    assert (after["willpower"], after["money"]) == (8, 4)
    with pytest.raises(ValueError, match="3 willpower costs 3s; Ylva has 1s 4c"):
        upkeep.buy_willpower(T, poor, 3)
    exact, _ = upkeep.buy_willpower(T, sheet(willpower=8, money=10), 2)
    assert (exact["willpower"], exact["money"]) == (10, 0)  # exactly to the top
    with pytest.raises(ValueError, match="at most 10"):
        upkeep.buy_willpower(T, sheet(willpower=9, money=100), 2)


@pytest.mark.rule("HC-CAMP-1")
def test_money_starting_gold_and_spending_no_more_than_held() -> None:
    rich = sheet(statistics={"W": 8, "C": 2})
    assert upkeep.starting_money(T, _sheet(rich)) == 30 * 50  # 30 gold of 50 copper
    assert upkeep.starting_money(T, _sheet(sheet(statistics={"W": 3, "C": 7}))) == 0
    spent, line = upkeep.money(T, sheet(money=20), -20, "a sword")
    assert spent["money"] == 0 and line.startswith("spends 4s (a sword)")
    with pytest.raises(ValueError, match="not 4s 1c to spend"):
        upkeep.money(T, sheet(money=20), -21)


def _sheet(data: dict[str, Any]) -> Any:
    from fracas.rules.classic.campaign import Sheet

    return Sheet.model_validate(data)


@pytest.mark.rule("HC-CAMP-1")
def test_hero_points_used_outside_a_fight() -> None:
    ylva = sheet(hero_points=2, money=0)
    paid, _ = upkeep.hero(T, ylva, "money", "2026-01")
    assert (paid["hero_points"], paid["money"]) == (1, 15)  # use 6: 15 copper
    with pytest.raises(ValueError, match="once every 6 months"):
        upkeep.hero(T, paid, "money", "2026-06")
    again, _ = upkeep.hero(T, paid, "money", "2026-07")  # half a year later
    assert again["money"] == 30 and again["hero_points"] == 0
    prayed, line = upkeep.hero(T, paid, "prayer", "2026-02", "to Frigg")
    assert prayed["hero_points"] == 0 and "prayer" in line and prayed["money"] == 15
    with pytest.raises(ValueError, match="no hero point"):
        upkeep.hero(T, prayed, "dm", "2026-02")
    with pytest.raises(ValueError, match="unknown hero point use"):
        upkeep.hero(T, ylva, "initiative", "2026-02")


@pytest.mark.rule("HC-CAMP-1")
def test_leadership_thresholds_and_the_underbelly_s_wealth() -> None:
    # An Underbelly faction: charisma 6 and a starting wealth of 8; a fleet: charisma 8.
    boss = sheet(statistics={"C": 6, "W": 8, "CS": 3, "D": 3, "K": 5})
    led, _ = upkeep.lead(T, boss, "Underbelly faction")
    assert led["leads"] == ["Underbelly faction"]
    with pytest.raises(ValueError, match="needs charisma 8; Ylva has 6"):
        upkeep.lead(T, boss, "Heimr fleet")
    raised = sheet(statistics={"C": 6, "W": 7}, raised={"W": 1})
    with pytest.raises(ValueError, match="starting wealth of 8; Ylva had 7"):
        upkeep.lead(T, raised, "Underbelly faction")  # raised wealth is not starting wealth
    held, _ = upkeep.underbelly(T, boss, 2, False)
    assert upkeep.wealth_now(T, _sheet(held)) == 10
    after, _ = upkeep.month(T, held, "2026-01")
    assert after["money"] == 125  # income at wealth 10
    lost, _ = upkeep.underbelly(T, boss, 0, True)
    assert upkeep.wealth_now(T, _sheet(lost)) == 7


@pytest.mark.rule("HC-CAMP-1", "HC-SOC-1", "HC-ARM-1")
def test_the_summary_shows_people_commanded_income_employees_and_abilities() -> None:
    ylva = sheet(statistics={"C": 7, "W": 9}, money=67, weapons={"sword": "one-handed"})
    shown = dict(upkeep.summary(T, ylva))
    assert shown["people commanded"] == "40"
    assert shown["income a month"] == "1g 2s"  # 60 copper
    assert shown["starting gold"] == "60g" and shown["employees"] == "320"
    assert shown["money"] == "1g 3s 2c"
    assert shown["sword (one-handed)"] == "Dueling, Swordmanship, Shield and sword"


@pytest.mark.rule("HC-ARM-1")
def test_this_book_s_armoury_lists_not_the_core_s() -> None:
    core = HeimrCampaign.default()
    assert "Dueling" not in core.weapons["Light weapon"].abilities
    assert upkeep.abilities(T, "small") == ["Knife fighting", "Dueling"]
    assert "Swordmanship" in upkeep.abilities(T, "one-handed")
    assert "Swordmanship" not in core.weapons["Medium weapon"].abilities
    assert "Swordsmanship" in T.armoury_abilities["Buckler"]
    assert "Swordsmanship" not in core.shields["Buckler"].abilities
    mine = ClassicCampaign.from_data({"armoury_abilities": {"Light weapon": ["Stabbing"]}})
    assert upkeep.abilities(mine, "small") == ["Stabbing"]  # a campaign's own lists
    with pytest.raises(Exception, match="unknown armoury entry"):
        ClassicCampaign.from_data({"armoury_abilities": {"Laser": ["Pew"]}})


def cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["campaign", *args], env={"COLUMNS": "160"})
    return result.exit_code, result.stdout + result.stderr


@pytest.mark.rule("HC-CAMP-1", "HC-ARM-1")
def test_the_books_between_fights_at_the_terminal() -> None:
    assert cli("new", "saga", "--ruleset", "heimr-classic")[0] == 0
    stats = ["--stat", "W=8", "--stat", "C=8", "--stat", "D=4", "--stat", "I=4", "--stat", "K=1"]
    code, out = cli(
        "create",
        "saga",
        "ylva",
        "--name",
        "Ylva",
        "--side",
        "n",
        *stats,
        "--background",
        "born rich",
        "--date",
        "2026-01-02",
    )
    assert code == 0, out
    code, out = cli("month", "saga", "ylva", "--date", "2026-01-20")
    assert code == 0 and "2026-01: 20 XP, income 6s" in out
    code, out = cli("month", "saga", "ylva", "--month", "2026-01", "--date", "2026-01-21")
    assert code == 2 and "has had 2026-01 already" in out and "Traceback" not in out
    assert "buys 1 willpower" not in cli("buy-willpower", "saga", "ylva")[1]  # at 10 already
    code, out = cli("money", "saga", "ylva", "100", "--spend", "--reason", "a horse")
    assert code == 0 and "(a horse)" in out
    code, out = cli("lead", "saga", "ylva", "Heimr fleet")
    assert code == 0 and "leads Heimr fleet" in out
    code, out = cli("show", "saga", "ylva")
    assert "people commanded: 80" in out and "money: 28g 6s" in out
    assert "leads: Heimr fleet" in out
