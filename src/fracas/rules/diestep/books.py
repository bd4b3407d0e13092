"""What the books keep of diestep (its ``sheets`` and ``carry`` capabilities): the
campaign and sheet models, the combatant of an encounter file, and the ``hp`` and the
``wound`` carried out of a fight (D-WOUND-1)."""

from __future__ import annotations

from fracas.engine.capabilities import FieldCarry, ModelSheets
from fracas.rules.diestep.setup import Placement
from fracas.rules.diestep.tables import Campaign, Sheet, package_data

__all__ = ["CARRY", "SHEETS"]

SHEETS = ModelSheets(Campaign, Sheet, package_data, Placement, "region")
CARRY = FieldCarry({"hp": "hp", "wound": "wound"})
