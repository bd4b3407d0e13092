"""Pitfight in the books (its ``sheets`` and ``carry`` capabilities): the campaign and
sheet models, the fighter of an encounter file, and the hit points a fighter carries out
of a fight into the next."""

from __future__ import annotations

from fracas.engine.capabilities import FieldCarry, ModelSheets
from pitfight.ruleset import Campaign, Placement, Sheet

__all__ = ["CARRY", "SHEETS"]

SHEETS = ModelSheets(Campaign, Sheet, dict, Placement, None)
CARRY = FieldCarry({"hp": "hp"})
