"""sides' battlefield as the library's editor knows it (its ``battlefield`` capability):
the line the combatants stand on, its ``units`` and whether the space is confined."""

from __future__ import annotations

from typing import get_args

from fracas.engine.capabilities import FieldKind
from fracas.rules.sides.campaign import Units

__all__ = ["GROUND"]

GROUND = FieldKind(
    "line",
    {"units": Units | None, "confined_space": bool | None},
    {},
    place_word="place",
    notes="the line the combatants stand on: its units, and whether the space is confined",
    fixed={"units": tuple(get_args(Units))},
)
