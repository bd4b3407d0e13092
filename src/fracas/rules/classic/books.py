"""What the books keep of heimr-classic (its ``sheets`` and ``carry`` capabilities): the
campaign and sheet models, characters made with creation points (HC-STAT-1, HC-STAT-2,
HC-SOC-1), statistics raised with XP (HC-XP-1) and the DM's permission to go above 10,
willpower and hero points kept between fights (HC-WP-1), and what a character carries
out of a fight: ``hit_points`` and the ``conditions`` a fight may start with."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from fracas.engine.capabilities import FieldCarry, ModelSheets
from fracas.rules.classic.campaign import ClassicCampaign, Sheet, package_data
from fracas.rules.classic.setup import Placement
from fracas.rules.classic.sheet import SheetError, check, current, xp_cost

__all__ = ["CARRY", "SHEETS"]

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
            return check(campaign, sheet)
        except SheetError as err:
            raise ValueError(str(err)) from None

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
