"""What the books keep of Heimr (its ``sheets`` and ``carry`` capabilities): the campaign
and sheet models, the combatant of an encounter file, the XP divided among a group
(H-XP-1), and what a character carries out of a fight: ``hit_points`` (below the maximum,
or at 0 and below while injured) and ``fatigue`` (above the base, H-FAT-3); effects are
not carried, they last seconds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fracas.engine.capabilities import FieldCarry, ModelSheets
from fracas.rules.heimr.campaign import Campaign, CharacterSheet, package_data
from fracas.rules.heimr.setup import Placement
from fracas.rules.heimr.sheet import divide_xp

__all__ = ["CARRY", "SHEETS"]


class HeimrSheets(ModelSheets):
    awards_xp = True

    def divide_xp(self, xp: int, present: int, leftover: int) -> tuple[int, int]:
        share = divide_xp(xp, present, leftover)
        return share.each, share.remainder


class HeimrCarry(FieldCarry):
    def xp_gained(
        self, fresh: Any, final: Any, keys: Mapping[str, str]
    ) -> tuple[dict[str, int], dict[str, int]]:
        """H-XP-1: the XP each character gained by the encounter's ``award`` verb, and
        what it left over per group."""
        gained: dict[str, int] = {}
        for cid, key in keys.items():
            start, end = fresh.combatants.get(cid), final.combatants.get(cid)
            if start is not None and end is not None and end.xp != start.xp:
                gained[key] = gained.get(key, 0) + end.xp - start.xp
        leftovers = {g: n for g, n in final.xp_remainder.items() if n}
        return gained, leftovers


SHEETS = HeimrSheets(Campaign, CharacterSheet, package_data, Placement, "square")
CARRY = HeimrCarry({"hit_points": "hp", "fatigue": "fatigue"})
