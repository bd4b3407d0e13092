"""What the books keep of heimr-classic (its ``sheets`` and ``carry`` capabilities): the
campaign and sheet models, characters made with creation points (HC-STAT-1, HC-STAT-2,
HC-SOC-1), statistics raised with XP (HC-XP-1) and the DM's permission to go above 10,
willpower and hero points kept between fights (HC-WP-1), the months of active play,
money, willpower bought, hero points used outside a fight, leadership and the
Underbelly (HC-CAMP-1, :mod:`.upkeep`), and what a character carries
out of a fight: ``hit_points`` and the ``conditions`` a fight may start with."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from fracas.engine.capabilities import FieldCarry, ModelSheets
from fracas.rules.classic import upkeep
from fracas.rules.classic.campaign import ClassicCampaign, Sheet, package_data
from fracas.rules.classic.setup import Placement
from fracas.rules.classic.sheet import SheetError, check, current, xp_cost

__all__ = ["CARRY", "SHEETS"]

#: The changes between fights the books take (HC-CAMP-1).
UPKEEP = ("month", "money", "buy", "hero", "lead", "underbelly")
#: Conditions a combatant may not start with (the setup refuses dying and fear).
NOT_LASTING = ("dying", "fear")


class ClassicSheets(ModelSheets):
    creates_by_points = True
    awards_xp = True  # the rulebook gives each character its XP: nothing is divided
    permits = True
    points: Mapping[str, int | None] = {"willpower": 10, "hero_points": None}

    def sheet_warnings(self, campaign: ClassicCampaign, sheet: Sheet) -> list[str]:
        """What the creation rules warn of; :class:`ValueError` for what they refuse."""
        try:
            found = check(campaign, sheet)
        except SheetError as err:
            raise ValueError(str(err)) from None
        problem = upkeep.check_leads(campaign, sheet)
        if problem is not None:
            raise ValueError(f"{sheet.name}: {problem} (HC-CAMP-1)")
        return found

    def created(self, campaign: ClassicCampaign, data: Mapping[str, Any]) -> dict[str, Any]:
        """HC-CAMP-1: a character made by points starts with its wealth's starting gold."""
        sheet = Sheet.model_validate(data)
        return {**copy.deepcopy(dict(data)), "money": upkeep.starting_money(campaign, sheet)}

    def upkeep(
        self, campaign: ClassicCampaign, data: Mapping[str, Any], payload: Mapping[str, Any]
    ) -> tuple[dict[str, Any], str]:
        """HC-CAMP-1: one change between fights (``payload["what"]``: month, money, buy,
        hero, lead or underbelly); :class:`ValueError` says why not."""
        what = payload.get("what")
        if what == "month":
            return upkeep.month(campaign, data, str(payload.get("month", "")))
        if what == "money":
            return upkeep.money(
                campaign, data, int(payload["copper"]), str(payload.get("reason", ""))
            )
        if what == "buy":
            return upkeep.buy_willpower(campaign, data, int(payload.get("amount", 1)))
        if what == "hero":
            use, when = str(payload.get("use", "")), str(payload.get("month", ""))
            return upkeep.hero(campaign, data, use, when, str(payload.get("note", "")))
        if what == "lead":
            stop = bool(payload.get("stop", False))
            return upkeep.lead(campaign, data, str(payload.get("lead", "")), stop)
        if what == "underbelly":
            boards = int(payload.get("boards", 0))
            return upkeep.underbelly(campaign, data, boards, bool(payload.get("lost", False)))
        raise ValueError(f"unknown upkeep {str(what)[:20]!r}: known are {', '.join(UPKEEP)}")

    def summary(self, campaign: ClassicCampaign, data: Mapping[str, Any]) -> list[tuple[str, str]]:
        """What charisma, wealth and weapons give the character (HC-CAMP-1, HC-ARM-1)."""
        return upkeep.summary(campaign, data)

    def raise_statistic(
        self, campaign: ClassicCampaign, data: Mapping[str, Any], statistic: str, points: int
    ) -> tuple[dict[str, Any], str, int, int]:
        """HC-XP-1: ``data`` (a sheet) with ``statistic`` raised by ``points``; its name,
        the value reached and the XP it costs. :class:`ValueError` says why not."""
        name = campaign.statistic(statistic)
        if name is None:
            known = ", ".join(campaign.statistics)
            raise ValueError(f"unknown statistic {statistic!r}: known are {known}")
        sheet = Sheet.model_validate(data)
        before = current(campaign, sheet)[name]
        try:
            cost = xp_cost(campaign, before, before + points)
        except ValueError as err:
            raise ValueError(f"{name} {before + points}: {err} (HC-XP-1)") from None
        raised = dict(data.get("raised") or {})
        short = next((k for k in raised if campaign.statistic(k) == name), name)
        raised[short] = int(raised.get(short, 0)) + points
        return {**copy.deepcopy(dict(data)), "raised": raised}, name, before + points, cost


class ClassicCarry(FieldCarry):
    def __init__(self) -> None:
        super().__init__({"hit_points": "hp"})
        self.fields = (*self.fields, "conditions")

    def carried(self, start: Any, end: Any) -> dict[str, Any]:
        condition = super().carried(start, end)
        lasting = [c.name for c in end.conditions if c.name not in NOT_LASTING]
        if lasting:
            condition["conditions"] = sorted(set(lasting))
        return condition


SHEETS = ClassicSheets(ClassicCampaign, Sheet, package_data, Placement, "position")
CARRY = ClassicCarry()
