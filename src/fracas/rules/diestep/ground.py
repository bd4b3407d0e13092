"""diestep's battlefield as the library's editor knows it (its ``battlefield``
capability): named regions, their borders, room and ground, under the encounter file's
``regions`` key."""

from __future__ import annotations

from typing import get_args

from fracas.engine.capabilities import FieldKind
from fracas.rules.diestep.tables import Region

__all__ = ["GROUND"]

GROUND = FieldKind(
    "places",
    {"regions": dict[str, Region] | list[str]},
    {"regions": {}},
    place_word="region",
    place_fields=("cramped", "ground"),
    notes="named regions, their borders, room and ground",
    fixed={"ground": tuple(get_args(Region.model_fields["ground"].annotation))},
)
