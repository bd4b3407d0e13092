"""Character creation and progress: the seven statistics, their caps and XP costs.

:func:`check` reads a sheet against the campaign's tables and raises one
:class:`SheetError` naming the character and the rule it breaks; what the rules only
frown upon (an extreme statistic without a word in the background) comes back as
warnings.

>>> from fracas.rules.classic.campaign import ClassicCampaign, Sheet
>>> tables = ClassicCampaign.default()
>>> xp_cost(tables, 4, 7)  # 4->5 100, 5->6 100, 6->7 120
320
>>> ylva = Sheet(name="Ylva", side="north", statistics={"CS": 8, "A": 3, "K": 4})
>>> for warning in check(tables, ylva):
...     print(warning)
Ylva: combat_skill 8 is above 7: note in the background how (HC-STAT-1)
Ylva: agility 3 is below 4: note in the background how (HC-STAT-1)
"""

from __future__ import annotations

from collections.abc import Iterator

from fracas.engine import EngineError
from fracas.rules.classic.campaign import ClassicCampaign, Sheet

__all__ = ["SheetError", "check", "creation", "current", "knowledge_in", "xp_cost"]


class SheetError(EngineError):
    """A character sheet that breaks a rule of creation or progress.

    >>> print(SheetError("HC-STAT-1", "Ylva", "spends 36 of 35 points"))
    Ylva: spends 36 of 35 points (HC-STAT-1)
    """

    def __init__(self, rule: str, character: str, reason: str) -> None:
        self.rule = rule
        self.character = character
        self.reason = reason
        super().__init__(f"{character}: {reason} ({rule})")


def _named(tables: ClassicCampaign, sheet: Sheet, values: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, value in values.items():
        name = tables.statistic(key)
        if name is None:
            known = ", ".join(f"{n} ({a})" for n, a in tables.statistics.items())
            raise SheetError(
                "HC-STAT-1", sheet.name, f"unknown statistic {key!r}: known are {known}"
            )
        if name in out:
            raise SheetError("HC-STAT-1", sheet.name, f"{name} is given twice")
        out[name] = value
    return out


def creation(tables: ClassicCampaign, sheet: Sheet) -> dict[str, int]:
    """HC-STAT-1: the statistics as created, 5 where the sheet says nothing."""
    given = _named(tables, sheet, sheet.statistics)
    return {name: given.get(name, tables.creation.default) for name in tables.statistics}


def current(tables: ClassicCampaign, sheet: Sheet) -> dict[str, int]:
    """The statistics now: as created plus the points raised with XP (HC-XP-1)."""
    raised = _named(tables, sheet, sheet.raised)
    return {name: v + raised.get(name, 0) for name, v in creation(tables, sheet).items()}


def xp_cost(tables: ClassicCampaign, start: int, end: int) -> int:
    """HC-XP-1: the XP to raise a statistic from ``start`` to ``end``."""
    total = 0
    for value in range(start, end):
        if value not in tables.xp_costs:
            top = max(tables.xp_costs) + 1
            raise ValueError(f"a statistic cannot be raised beyond {top}")
        total += tables.xp_costs[value]
    return total


def knowledge_in(tables: ClassicCampaign, sheet: Sheet, category: str) -> int:
    """HC-SOC-1: the knowledge of one category; categories not chosen equal knowledge."""
    base = current(tables, sheet)["knowledge"]
    for name, value in sheet.knowledge_categories.items():
        if name.casefold() == category.casefold():
            return value + (base - creation(tables, sheet)["knowledge"])
    return base


def check(tables: ClassicCampaign, sheet: Sheet) -> list[str]:
    """Raise :class:`SheetError` for the first broken rule; return the warnings."""
    made = creation(tables, sheet)
    now = current(tables, sheet)
    c = tables.creation
    for name, value in made.items():
        if value > c.maximum:
            raise SheetError(
                "HC-STAT-1", sheet.name, f"{name} {value} is above {c.maximum} at creation"
            )
        if value < c.minimum:
            raise SheetError("HC-STAT-1", sheet.name, f"{name} {value} is below {c.minimum}")
    spent = sum(made.values())
    if spent > c.points:
        raise SheetError(
            "HC-STAT-1", sheet.name, f"the statistics spend {spent} of {c.points} points"
        )
    _check_agility(tables, sheet, now)
    _check_xp(tables, sheet, made, now)
    _check_knowledge(tables, sheet, made["knowledge"])
    if not 0 <= sheet.willpower <= 10:
        raise SheetError(
            "HC-WP-1", sheet.name, f"willpower {sheet.willpower}: it is between 0 and 10"
        )
    return list(_warnings(tables, sheet, made, spent))


def _check_agility(tables: ClassicCampaign, sheet: Sheet, now: dict[str, int]) -> None:
    cap = tables.agility_cap
    for name in cap.capped:
        needed = cap.agility_needed(now[name])
        if needed is not None and now["agility"] < needed:
            raise SheetError(
                "HC-STAT-2",
                sheet.name,
                f"{name} {now[name]} needs agility {needed} or more, not {now['agility']}",
            )


def _check_xp(
    tables: ClassicCampaign, sheet: Sheet, made: dict[str, int], now: dict[str, int]
) -> None:
    cost = 0
    for name, value in now.items():
        if value == made[name]:
            continue
        try:
            cost += xp_cost(tables, made[name], value)
        except ValueError as err:
            raise SheetError("HC-XP-1", sheet.name, f"{name} {value}: {err}") from None
        if value >= tables.xp_needs_permission_from and not sheet.dm_permission:
            raise SheetError(
                "HC-XP-1",
                sheet.name,
                f"raising {name} to {value} needs a DM's permission (dm_permission: true)",
            )
    if cost > sheet.xp:
        raise SheetError(
            "HC-XP-1", sheet.name, f"the raised statistics cost {cost} XP, more than {sheet.xp}"
        )


def _check_knowledge(tables: ClassicCampaign, sheet: Sheet, knowledge: int) -> None:
    k = tables.knowledge
    known = {cat.casefold(): cat for cat in k.categories}
    lowered = raised = 0
    for name, value in sheet.knowledge_categories.items():
        if name.casefold() not in known:
            raise SheetError(
                "HC-SOC-1",
                sheet.name,
                f"unknown knowledge category {name!r}: known are {', '.join(k.categories)}",
            )
        if value > tables.creation.maximum:
            raise SheetError(
                "HC-SOC-1",
                sheet.name,
                f"knowledge of {name} {value} is above {tables.creation.maximum} at creation",
            )
        if value < 0:
            raise SheetError("HC-SOC-1", sheet.name, f"knowledge of {name} {value} is below 0")
        lowered += max(0, knowledge - value)
        raised += max(0, value - knowledge)
    if lowered * k.raise_by != raised * k.lower_by:
        raise SheetError(
            "HC-SOC-1",
            sheet.name,
            f"the knowledge categories are raised by {raised} and lowered by {lowered}: "
            f"each {k.raise_by} up takes {k.lower_by} down elsewhere",
        )


def _warnings(
    tables: ClassicCampaign, sheet: Sheet, made: dict[str, int], spent: int
) -> Iterator[str]:
    c = tables.creation
    note = "note in the background how (HC-STAT-1)"
    if not sheet.background.strip():
        for name, value in made.items():
            if value > c.warn_above:
                yield f"{sheet.name}: {name} {value} is above {c.warn_above}: {note}"
            elif value < c.warn_below:
                yield f"{sheet.name}: {name} {value} is below {c.warn_below}: {note}"
    if spent < c.points:
        yield f"{sheet.name}: {c.points - spent} of {c.points} creation points unspent (HC-STAT-1)"
