"""heimr-classic's battlefield as the library's editor knows it (its ``battlefield``
capability): named positions, their borders (which may block, HC-MOVE-2) and modifiers
(HC-MOVE-1), under the encounter file's ``positions`` key."""

from __future__ import annotations

from fracas.engine.capabilities import FieldKind
from fracas.rules.classic.setup import ROLLS, PlaceSpec

__all__ = ["GROUND"]

GROUND = FieldKind(
    "places",
    {"positions": dict[str, PlaceSpec]},
    {"positions": {}},
    place_word="position",
    place_fields=tuple(f"modifiers.{roll}" for roll in ROLLS),
    notes="named positions, their borders and modifiers (HC-MOVE-1)",
    guarded=True,
    fixed={"modifiers": tuple(ROLLS)},
)
