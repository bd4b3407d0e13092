"""Encounters and the books: what a character carries out of a fight into the next one.

What is carried is written as the fields of an encounter file's combatant, so the next
encounter starts from it exactly as if the game master had written it there; each
ruleset says what through its ``carry`` capability
(:class:`fracas.engine.capabilities.Carry`; each ruleset's ``books`` module tells its
own). A ruleset without one carries nothing but death: a dead character carries
``dead: true`` and may not be placed again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fracas.engine import EngineError
from fracas.engine.capabilities import Carry, carry
from fracas.rules import find

__all__ = ["DEAD", "carried_fields", "carried_out", "character_keys", "lay_carried", "xp_gained"]

DEAD = "dead"


def carried_fields(ruleset: str) -> tuple[str, ...]:
    """The fields a ruleset's carried condition may hold, as :func:`carried_out` writes them.

    >>> carried_fields("heimr")
    ('hit_points', 'fatigue', 'dead')
    >>> carried_fields("sides")
    ('dead',)
    """
    return (*_carry(ruleset).fields, DEAD)


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
    own = _carry(ruleset)
    for cid, key in keys.items():
        start = fresh.combatants.get(cid)
        end = final.combatants.get(cid)
        if start is None or end is None:
            continue
        if getattr(end, "dead", False):
            out[key] = {DEAD: True}
            continue
        out[key] = own.carried(start, end)
    return out


def xp_gained(
    ruleset: str, fresh: Any, final: Any, keys: Mapping[str, str]
) -> tuple[dict[str, int], dict[str, int]]:
    """The XP each character gained in the encounter, and what it left over per group
    (H-XP-1: Heimr's ``award`` verb; other rulesets award no XP in a fight)."""
    return _carry(ruleset).xp_gained(fresh, final, keys)


def _carry(ruleset: str) -> Carry:
    try:
        return carry(find(ruleset))
    except EngineError:
        return carry(None)
