"""What the books keep of tempo (its ``sheets`` and ``carry`` capabilities): the tables
and sheet models, the combatant of an encounter file (who stands nowhere in particular:
its encounters are exchanges), and the ``hp`` carried out of a fight."""

from __future__ import annotations

from fracas.engine.capabilities import FieldCarry, ModelSheets
from fracas.rules.tempo.setup import Placement
from fracas.rules.tempo.tables import Sheet, TempoTables, _package_data

__all__ = ["CARRY", "SHEETS"]

SHEETS = ModelSheets(TempoTables, Sheet, _package_data, Placement, None)
CARRY = FieldCarry({"hp": "hp"})
