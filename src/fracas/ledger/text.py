"""Entries and dates as people read and write them, for the terminal and the web alike.

>>> from datetime import UTC, datetime
>>> from fracas.ledger.ledger import Entry
>>> when = datetime(2026, 3, 1, tzinfo=UTC)
>>> describe(Entry(3, "train", "ylva", {"ability": "Brawl", "track": "potential", "cost": 5,
...     "attribute_raised": False, "progress_attribute": "str"}, when, when, True))
'ylva trains Brawl potential for 5 XP (str progress)'
>>> parse_date("2026-03-01", end_of_day=True).isoformat()
'2026-03-01T23:59:59.999999+00:00'
"""

from __future__ import annotations

from datetime import UTC, datetime, time
from typing import Any

from fracas.ledger.entries import LedgerError
from fracas.ledger.ledger import Entry

__all__ = ["describe", "parse_date"]


def parse_date(text: str, end_of_day: bool = False) -> datetime:
    """An ISO date or date and time; UTC unless it says otherwise. A date alone is that
    day's end (``end_of_day``: to show a sheet as it stood that day) or its noon."""
    text = text.strip()[:40]
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise LedgerError(f"{text!r} is not a date: write 2026-03-01 or 2026-03-01T20:00") from None
    if len(text) <= 10:
        moment = datetime.combine(moment.date(), time.max if end_of_day else time(12))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _xp(gained: dict[str, Any]) -> str:
    return ", ".join(f"{k} +{v}" for k, v in gained.items()) or "no XP"


def describe(entry: Entry) -> str:
    """One line for an entry of the log."""
    p, who = entry.payload, entry.character or ""
    match entry.kind:
        case "character":
            return f"{who}: sheet written ({p.get('sheet', {}).get('name', who)})"
        case "create":
            warned = f"; {len(p.get('warnings', []))} warning(s)" if p.get("warnings") else ""
            return f"{who} created by points{warned}"
        case "award":
            if "each" in p:
                return (
                    f"{p['xp']} XP to {p.get('group')}: {p['each']} each to "
                    f"{', '.join(p['characters'])}, {p['remainder']} left over"
                )
            return f"{p.get('xp')} XP each to {', '.join(p.get('characters', []))}"
        case "train":
            raised = ", raised" if p.get("attribute_raised") else " progress"
            return (
                f"{who} trains {p.get('ability')} {p.get('track')} for {p.get('cost')} XP "
                f"({p.get('progress_attribute')}{raised})"
            )
        case "raise":
            return f"{who} raises {p.get('statistic')} to {p.get('to')} for {p.get('cost')} XP"
        case "permit":
            granted = p.get("granted", True)
            return f"{who}: the DM {'permits' if granted else 'withdraws'} raises above 10"
        case "restore" if p.get("what") == "health":
            return f"{who} healed: nothing carried into the next encounter"
        case "spend" | "restore":
            verb = "spends" if entry.kind == "spend" else "restores"
            amount = f" {p['amount']}" if "amount" in p else ""
            return f"{who} {verb}{amount} {str(p.get('what', '')).replace('_', ' ')}"
        case "upkeep":
            lines = p.get("lines") or {}
            return "; ".join(f"{k} {v}" for k, v in lines.items()) or f"{p.get('what')} {who}"
        case "rest":
            return f"{who} {p.get('line') or 'rests'}"
        case "carry":
            condition = p.get("condition") or {}
            carried = ", ".join(f"{k.replace('_', ' ')} {_value(v)}" for k, v in condition.items())
            return f"{who} carries {carried or 'nothing'} into the next encounter"
        case "conclude":
            carried = ", ".join(f"{k} {v}" for k, v in (p.get("carry") or {}).items() if v)
            award = p.get("award")
            xp = (
                f"{award['xp']} XP to {award.get('group', '')}" if award else _xp(p.get("xp") or {})
            )
            return f"encounter {p.get('table')} concluded: {xp}; carried: {carried or 'nothing'}"
    return f"{entry.kind} {who}".strip()


def _value(value: Any) -> str:
    """A carried value in words: a list joined, ``True`` as yes.

    >>> _value(["prone", "stunned"]), _value(True), _value(2)
    ('prone and stunned', 'yes', '2')
    """
    if isinstance(value, list):
        return " and ".join(str(v) for v in value) or "none"
    if value is True:
        return "yes"
    return str(value)
