"""What the books keep of diestep (its ``sheets`` and ``carry`` capabilities): the
campaign and sheet models, the combatant of an encounter file, the ``hp`` and the
``wound`` carried out of a fight (D-WOUND-1), and rest between encounters (D-REC-1).

>>> from fracas.rules.diestep.tables import Campaign
>>> c = Campaign.load({})
>>> SHEETS.rest(c, {"name": "Rook", "side": "a"}, {"hp": 2}, 60)
({}, 'rested 1 hour: full HP')
>>> SHEETS.rest(c, {"name": "Rook", "side": "a"}, {"hp": 1, "wound": "badly"}, 3 * 24 * 60)
({'hp': 1, 'wound': 'badly'}, 'rested 3 days: still badly wounded (7 days of rest heal it)')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fracas.engine.capabilities import FieldCarry, ModelSheets
from fracas.rules.diestep.setup import Placement
from fracas.rules.diestep.tables import Campaign, Sheet, package_data

__all__ = ["CARRY", "SHEETS"]

DAY = 24 * 60


def _span(minutes: int) -> str:
    if minutes % DAY == 0:
        days = minutes // DAY
        return f"{days} day{'s' if days != 1 else ''}"
    if minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{minutes} minutes"


class DieStepSheets(ModelSheets):
    def rest(
        self, campaign: Campaign, sheet: Mapping[str, Any], carried: Mapping[str, Any], minutes: int
    ) -> tuple[dict[str, Any], str]:
        """D-REC-1: what a character carries after ``minutes`` of rest: the wounded are
        whole after about an hour, the badly wounded after a week (a hero) or a month
        (anyone else); a mortal wound needs first aid or magic. :class:`ValueError` when
        rest cannot help."""
        tables = campaign.tables
        who = Sheet.model_validate(sheet)
        rested = f"rested {_span(minutes)}"
        if carried.get("dead"):
            raise ValueError(f"{who.name} is dead: no rest heals that")
        wound = carried.get("wound") or ""
        if wound == "mortal":
            raise ValueError(
                f"{who.name} is mortally wounded: only first aid or magic saves it (D-WOUND-1)"
            )
        if wound == "badly":
            days = tables.recovery.hero_days if who.hero else tables.recovery.other_days
            if minutes < days * DAY:
                return dict(carried), f"{rested}: still badly wounded ({days} days of rest heal it)"
            return {}, f"{rested}: healed of the bad wound, full HP"
        if "hp" not in carried:
            return dict(carried), f"{rested}: unhurt"
        if minutes < tables.minutes.rest:
            return dict(carried), f"{rested}: not yet whole (about an hour of rest)"
        return {}, f"{rested}: full HP"


SHEETS = DieStepSheets(Campaign, Sheet, package_data, Placement, "region")
CARRY = FieldCarry({"hp": "hp", "wound": "wound"})
