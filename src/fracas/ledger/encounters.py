"""Encounters and the books: what a character carries out of a fight into the next one.

What is carried is written as the fields of an encounter file's combatant, so the next
encounter starts from it exactly as if the game master had written it there:

- ``heimr``: ``hit_points`` (below the maximum, or at 0 and below while injured) and
  ``fatigue`` (above the base, H-FAT-3); effects are not carried, they last seconds.
- ``heimr-classic``: ``hit_points`` and the ``conditions`` a fight may start with.
- ``tempo``: ``hp``; ``diestep``: ``hp`` and the ``wound`` (D-WOUND-1).
- ``sides``: nothing but death (its sheets give Health and Stamina as maxima only).

A dead character carries ``dead: true`` and may not be placed again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["DEAD", "carried_fields", "carried_out", "character_keys", "lay_carried", "xp_gained"]

DEAD = "dead"

#: The combatant fields each ruleset's carried condition may set, and the state's names.
_FIELDS: dict[str, dict[str, str]] = {
    "heimr": {"hit_points": "hp", "fatigue": "fatigue"},
    "heimr-classic": {"hit_points": "hp"},
    "tempo": {"hp": "hp"},
    "diestep": {"hp": "hp", "wound": "wound"},
    "sides": {},
}

#: Classic conditions a combatant may start with (the setup refuses dying and fear).
_CLASSIC_LASTING = ("dying", "fear")


def carried_fields(ruleset: str) -> tuple[str, ...]:
    """The fields a ruleset's carried condition may hold, as :func:`carried_out` writes them.

    >>> carried_fields("heimr")
    ('hit_points', 'fatigue', 'dead')
    >>> carried_fields("sides")
    ('dead',)
    """
    lasting = ("conditions",) if ruleset == "heimr-classic" else ()
    return (*_FIELDS.get(ruleset, {}), *lasting, DEAD)


def character_keys(setup: Mapping[str, Any]) -> dict[str, str]:
    """Each combatant's id and the campaign character it is (``id`` or ``character``)."""
    keys: dict[str, str] = {}
    for place in setup.get("combatants") or []:
        if isinstance(place, Mapping) and place.get("character"):
            keys[str(place.get("id") or place["character"])] = str(place["character"])
    return keys


def lay_carried(
    setup: dict[str, Any], carried: Mapping[str, Mapping[str, Any]]
) -> list[tuple[tuple[Any, ...], str]]:
    """Put each character's carried condition on its placements (a field the encounter
    gives itself wins); the problems: a dead character placed."""
    problems: list[tuple[tuple[Any, ...], str]] = []
    for i, place in enumerate(setup.get("combatants") or []):
        if not isinstance(place, dict):
            continue
        condition = carried.get(str(place.get("character")), {})
        if condition.get(DEAD):
            problems.append(
                (("combatants", i, "character"), f"{place['character']} is dead (carried)")
            )
            continue
        for key, value in condition.items():
            place.setdefault(key, value)
    return problems


def carried_out(
    ruleset: str, fresh: Any, final: Any, keys: Mapping[str, str]
) -> dict[str, dict[str, Any]]:
    """What each character carries out: the fields of its combatant in ``final`` that
    differ from the same encounter ``fresh`` (as it started), by character key."""
    out: dict[str, dict[str, Any]] = {}
    fields = _FIELDS.get(ruleset, {})
    for cid, key in keys.items():
        start = fresh.combatants.get(cid)
        end = final.combatants.get(cid)
        if start is None or end is None:
            continue
        if getattr(end, "dead", False):
            out[key] = {DEAD: True}
            continue
        condition = {
            name: getattr(end, attr)
            for name, attr in fields.items()
            if getattr(end, attr) != getattr(start, attr)
        }
        if ruleset == "heimr-classic":
            lasting = [c.name for c in end.conditions if c.name not in _CLASSIC_LASTING]
            if lasting:
                condition["conditions"] = sorted(set(lasting))
        out[key] = condition
    return out


def xp_gained(
    ruleset: str, fresh: Any, final: Any, keys: Mapping[str, str]
) -> tuple[dict[str, int], dict[str, int]]:
    """H-XP-1: the XP each character gained by the encounter's ``award`` verb, and what
    it left over per group (Heimr only; other rulesets award no XP in a fight)."""
    if ruleset != "heimr":
        return {}, {}
    gained: dict[str, int] = {}
    for cid, key in keys.items():
        start, end = fresh.combatants.get(cid), final.combatants.get(cid)
        if start is not None and end is not None and end.xp != start.xp:
            gained[key] = gained.get(key, 0) + end.xp - start.xp
    leftovers = {g: n for g, n in final.xp_remainder.items() if n}
    return gained, leftovers
