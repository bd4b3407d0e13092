"""Between fights in the Heimr Tabletop Rulebook (HC-CAMP-1, HC-ARM-1): a month of active
play, money, willpower bought, hero points spent outside a fight, leadership and the
Underbelly's wealth; and what a character's charisma, wealth and weapons give it.

Each change takes a sheet's data and gives it back changed, with a line saying what
happened; :class:`ValueError` says why the rules refuse it (the sheet is untouched).

>>> from fracas.rules.classic.campaign import ClassicCampaign
>>> t = ClassicCampaign.default()
>>> ylva = {"name": "Ylva", "side": "north", "statistics": {"W": 7}, "willpower": 9}
>>> after, line = month(t, ylva, "2026-03")
>>> after["xp"], after["money"], after["willpower"], line
(20, 15, 10, '2026-03: 20 XP, income 3s, willpower 9 -> 10')
>>> purse(t, 67)
'1g 3s 2c'
>>> abilities(t, "one-handed")
['Dueling', 'Swordmanship', 'Shield and sword']
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from fracas.rules.classic import social
from fracas.rules.classic.campaign import ClassicCampaign, Sheet
from fracas.rules.classic.sheet import creation, current

__all__ = [
    "HERO_USES",
    "abilities",
    "buy_willpower",
    "check_leads",
    "hero",
    "lead",
    "money",
    "month",
    "purse",
    "starting_money",
    "summary",
    "underbelly",
    "wealth_now",
]

MONTH = re.compile(r"[0-9]{4}-(0[1-9]|1[0-2])")
HERO_USES = ("dm", "money", "prayer")


def _month_number(text: str) -> int:
    """Months since year 0, to count the half year of hero point use 6."""
    if not MONTH.fullmatch(text):
        raise ValueError(f"{text[:20]!r} is not a month: write 2026-03")
    year, number = text.split("-")
    return int(year) * 12 + int(number) - 1


def _sheet(data: Mapping[str, Any]) -> Sheet:
    return Sheet.model_validate(data)


def wealth_now(tables: ClassicCampaign, sheet: Sheet) -> int:
    """Wealth as it stands: raised with XP, +1 a board held in the Underbelly, one less
    while control of the faction is lost (HC-CAMP-1)."""
    up = tables.upkeep
    held = sheet.underbelly_boards * up.underbelly_per_board
    return current(tables, sheet)["wealth"] + held - (up.lost_faction if sheet.lost_faction else 0)


def purse(tables: ClassicCampaign, copper: int) -> str:
    """Copper as gold, silver and copper pieces (``-`` for debt)."""
    coins = tables.upkeep.coins
    sign, left, parts = ("-" if copper < 0 else ""), abs(copper), []
    for coin in sorted(coins, key=lambda c: -coins[c]):
        count, left = divmod(left, coins[coin])
        if count:
            parts.append(f"{count}{coin[0]}")
    return sign + (" ".join(parts) or "0c")


def starting_money(tables: ClassicCampaign, sheet: Sheet) -> int:
    """HC-CAMP-1: the starting gold of the wealth created with, in copper (none: 0)."""
    gold = social.starting_gold(tables, creation(tables, sheet)["wealth"])
    return 0 if gold is None else gold * tables.upkeep.coins["gold"]


def month(
    tables: ClassicCampaign, data: Mapping[str, Any], when: str
) -> tuple[dict[str, Any], str]:
    """HC-CAMP-1: a month the character was played actively: 20 XP, the month's free
    income by wealth, and one free willpower (never above 10). A month counts once."""
    sheet = _sheet(data)
    _month_number(when)
    if when in sheet.months_played:
        raise ValueError(f"{sheet.name} has had {when} already (HC-CAMP-1)")
    up = tables.upkeep
    income = social.income(tables, wealth_now(tables, sheet))
    willpower = min(up.willpower_most, sheet.willpower + up.free_willpower_per_month)
    out = copy.deepcopy(dict(data))
    out["xp"] = sheet.xp + up.xp_per_month
    out["money"] = sheet.money + income
    out["willpower"] = willpower
    out["months_played"] = sorted([*sheet.months_played, when])
    line = (
        f"{when}: {up.xp_per_month} XP, income {purse(tables, income)}, "
        f"willpower {sheet.willpower} -> {willpower}"
    )
    return out, line


def money(
    tables: ClassicCampaign, data: Mapping[str, Any], copper: int, reason: str = ""
) -> tuple[dict[str, Any], str]:
    """Money gained (``copper`` above 0) or spent (below 0); no more spent than held."""
    sheet = _sheet(data)
    if copper < 0 and sheet.money + copper < 0:
        have = purse(tables, sheet.money)
        raise ValueError(f"{sheet.name} has {have}, not {purse(tables, -copper)} to spend")
    out = {**copy.deepcopy(dict(data)), "money": sheet.money + copper}
    verb = "gains" if copper >= 0 else "spends"
    why = f" ({reason})" if reason else ""
    return out, f"{verb} {purse(tables, abs(copper))}{why}: {purse(tables, out['money'])}"


def buy_willpower(
    tables: ClassicCampaign, data: Mapping[str, Any], points: int
) -> tuple[dict[str, Any], str]:
    """HC-CAMP-1: willpower bought, a silver a point, up to 10."""
    sheet = _sheet(data)
    up = tables.upkeep
    if sheet.willpower + points > up.willpower_most:
        raise ValueError(
            f"{sheet.name} has {sheet.willpower} willpower: at most {up.willpower_most} "
            f"(HC-CAMP-1), so not {points} more"
        )
    price = points * up.willpower_price
    if price > sheet.money:
        raise ValueError(
            f"{points} willpower costs {purse(tables, price)}; {sheet.name} has "
            f"{purse(tables, sheet.money)} (HC-CAMP-1)"
        )
    out = copy.deepcopy(dict(data))
    out["money"], out["willpower"] = sheet.money - price, sheet.willpower + points
    return out, f"buys {points} willpower for {purse(tables, price)}: {out['willpower']}"


def hero(
    tables: ClassicCampaign, data: Mapping[str, Any], use: str, when: str, note: str = ""
) -> tuple[dict[str, Any], str]:
    """HC-CAMP-1: a hero point spent outside a fight: 5 (agreed with the DM), 6 (15
    copper, once every half year) or 7 (during a prayer)."""
    sheet = _sheet(data)
    up = tables.upkeep
    if use not in up.hero_uses:
        raise ValueError(
            f"unknown hero point use {use[:20]!r}: known are {', '.join(up.hero_uses)}"
        )
    if sheet.hero_points < 1:
        raise ValueError(f"{sheet.name} has no hero point to spend")
    out = {**copy.deepcopy(dict(data)), "hero_points": sheet.hero_points - 1}
    line = f"spends a hero point ({up.hero_uses[use]})"
    if use == "money":
        now = _month_number(when)
        last = sheet.hero_money_month
        if last is not None and now - _month_number(last) < up.hero_money_months:
            raise ValueError(
                f"{sheet.name} earned money with a hero point in {last}: once every "
                f"{up.hero_money_months} months (HC-CAMP-1)"
            )
        out["money"] = sheet.money + up.hero_money
        out["hero_money_month"] = when
        line += f": {purse(tables, out['money'])}"
    return out, line + (f": {note}" if note else "")


def check_leads(tables: ClassicCampaign, sheet: Sheet) -> str | None:
    """Why the sheet may not lead what it leads (HC-CAMP-1), or ``None``: the charisma
    it has now, the wealth it started with."""
    charisma = current(tables, sheet)["charisma"]
    wealth = creation(tables, sheet)["wealth"]
    for what in sheet.leads:
        needs_c = tables.charisma.leads.get(what)
        needs_w = tables.wealth.leads.get(what)
        if needs_c is None and needs_w is None:
            known = ", ".join(dict.fromkeys([*tables.charisma.leads, *tables.wealth.leads]))
            return f"nothing to lead called {what[:40]!r}: known are {known}"
        if needs_c is not None and charisma < needs_c:
            return f"leading {what} needs charisma {needs_c}; {sheet.name} has {charisma}"
        if needs_w is not None and wealth < needs_w:
            return f"leading {what} needs a starting wealth of {needs_w}; {sheet.name} had {wealth}"
    return None


def lead(
    tables: ClassicCampaign, data: Mapping[str, Any], what: str, stop: bool = False
) -> tuple[dict[str, Any], str]:
    """HC-CAMP-1: the character takes the lead of ``what`` (or gives it up)."""
    sheet = _sheet(data)
    leads = [w for w in sheet.leads if w != what] + ([] if stop else [what])
    problem = check_leads(tables, sheet.model_copy(update={"leads": leads}))
    if problem is not None:
        raise ValueError(f"{problem} (HC-CAMP-1)")
    out = {**copy.deepcopy(dict(data)), "leads": leads}
    return out, f"{'no longer leads' if stop else 'leads'} {what}"


def underbelly(
    tables: ClassicCampaign, data: Mapping[str, Any], boards: int, lost: bool
) -> tuple[dict[str, Any], str]:
    """HC-CAMP-1: the Underbelly boards the character holds alone (+1 wealth each while
    it lasts), and whether it has lost control of its faction (one wealth less)."""
    out = {**copy.deepcopy(dict(data)), "underbelly_boards": boards, "lost_faction": lost}
    wealth = wealth_now(tables, _sheet(out))
    lost_text = ", control of its faction lost" if lost else ""
    return out, f"holds {boards} Underbelly board(s){lost_text}: wealth {wealth}"


def abilities(tables: ClassicCampaign, weapon_type: str) -> list[str]:
    """HC-ARM-1: the abilities this book's armoury gives a weapon type (none if unlisted)."""
    weapon = tables.weapons.get(weapon_type)
    if weapon is None or weapon.armoury is None:
        return []
    return list(tables.armoury_abilities.get(weapon.armoury, []))


def summary(tables: ClassicCampaign, data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What the books show of a character beyond its sheet: what charisma and wealth give
    it (HC-SOC-1, HC-CAMP-1), its money, and its weapons' abilities (HC-ARM-1)."""
    sheet = _sheet(data)
    stats = current(tables, sheet)
    charisma, wealth = stats["charisma"], wealth_now(tables, sheet)
    gold = social.starting_gold(tables, creation(tables, sheet)["wealth"])
    rows = [
        ("charisma", str(charisma)),
        ("people commanded", str(social.commands(tables, charisma))),
        ("group as figurehead", str(social.group_size(tables, charisma))),
        ("extra figureheads", str(social.figureheads(tables, charisma))),
        ("wealth", str(wealth)),
        ("income a month", purse(tables, social.income(tables, wealth))),
        ("starting gold", "none" if gold is None else f"{gold}g"),
        ("employees", str(social.employees(tables, wealth))),
        ("money", purse(tables, sheet.money)),
        ("may lead", ", ".join(_may_lead(tables, sheet)) or "nothing"),
        ("leads", ", ".join(sheet.leads) or "nothing"),
        ("months played", str(len(sheet.months_played))),
    ]
    for item, kind in sheet.weapons.items():
        rows.append((f"{item} ({kind})", ", ".join(abilities(tables, kind)) or "no ability"))
    return rows


def _may_lead(tables: ClassicCampaign, sheet: Sheet) -> list[str]:
    every = dict.fromkeys([*tables.charisma.leads, *tables.wealth.leads])
    return [
        w for w in every if check_leads(tables, sheet.model_copy(update={"leads": [w]})) is None
    ]
