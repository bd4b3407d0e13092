"""Charisma, wealth and knowledge tables read for a character (HC-SOC-1).

Values beyond a table's ends: charisma below the lowest row commands nobody, above the
highest row the highest applies; wealth above 12 adds the "13+" step per point;
employees below the lowest row are none (docs/decisions.md).

>>> from fracas.rules.classic.campaign import ClassicCampaign
>>> t = ClassicCampaign.default()
>>> commands(t, 7), group_size(t, 7, [5, 3, 2]), figureheads(t, 8)
(40, 57, 3)
>>> income(t, 14), starting_gold(t, 4), employees(t, 13)
(425, None, 2500)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from fracas.rules.classic.campaign import ClassicCampaign

__all__ = [
    "commands",
    "employees",
    "figureheads",
    "group_size",
    "income",
    "leads",
    "starting_gold",
]


def _row(table: Mapping[int, int], value: int, below: int = 0) -> int:
    """The table's number at ``value``: the highest row above its end, ``below`` under it."""
    if value in table:
        return table[value]
    if value > max(table):
        return table[max(table)]
    return below


def commands(tables: ClassicCampaign, charisma: int) -> int:
    """How many people a character of ``charisma`` can directly supervise or command."""
    return _row(tables.charisma.commands, charisma)


def figureheads(tables: ClassicCampaign, charisma: int) -> int:
    """Additional public figureheads a mayor figurehead of ``charisma`` brings."""
    return _row(tables.charisma.figureheads, charisma)


def group_size(tables: ClassicCampaign, figurehead: int, members: Iterable[int] = ()) -> int:
    """The most people a group of this public figurehead's charisma holds, less one to three
    for each member of low charisma."""
    size = _row(tables.charisma.group, figurehead)
    penalty = sum(tables.charisma.member_penalty.get(c, 0) for c in members)
    return max(0, size - penalty)


def leads(tables: ClassicCampaign, charisma: int, wealth: int) -> list[str]:
    """What a character of this charisma and wealth may lead."""
    out = []
    for what in dict.fromkeys([*tables.charisma.leads, *tables.wealth.leads]):
        need_c = tables.charisma.leads.get(what, 0)
        need_w = tables.wealth.leads.get(what, 0)
        if charisma >= need_c and wealth >= need_w:
            out.append(what)
    return out


def _beyond(tables: ClassicCampaign, wealth: int) -> int:
    return max(0, wealth - max(tables.wealth.table))


def income(tables: ClassicCampaign, wealth: int) -> int:
    """Free income a month, in copper."""
    w = tables.wealth
    top = min(max(wealth, min(w.table)), max(w.table))
    return w.table[top].income + _beyond(tables, wealth) * w.beyond.income


def starting_gold(tables: ClassicCampaign, wealth: int) -> int | None:
    """Starting gold, or ``None`` (debt or no money) for low wealth."""
    w = tables.wealth
    top = min(max(wealth, min(w.table)), max(w.table))
    gold = w.table[top].gold
    if gold is None:
        return None
    return gold + _beyond(tables, wealth) * (w.beyond.gold or 0)


def employees(tables: ClassicCampaign, wealth: int) -> int:
    """Roughly how many people the character's (share in the) organisation employs."""
    w = tables.wealth
    return _row(w.employees, min(wealth, max(w.employees))) + _beyond(tables, wealth) * (
        w.employees_beyond
    )
