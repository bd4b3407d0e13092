"""What the books keep of sides (its ``sheets`` capability): the campaign and sheet
models and the combatant of an encounter file. Nothing is carried out of a fight but
death: its sheets give Health and Stamina as maxima only."""

from __future__ import annotations

from fracas.engine.capabilities import ModelSheets
from fracas.rules.sides.campaign import Sheet, Tables, package_data
from fracas.rules.sides.setup import Placement

__all__ = ["SHEETS"]

SHEETS = ModelSheets(Tables, Sheet, package_data, Placement, "at")
