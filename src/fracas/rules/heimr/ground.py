"""Heimr's battlefield as the library's editor knows it (its ``battlefield`` capability):
a grid of squares, heights, terrain, cover, light and borders (H-GRID-1..9), kept under
the encounter file's ``battlefield`` key (``grid`` too)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from fracas.engine.capabilities import FieldKind
from fracas.rules.heimr.battlefield import Battlefield, BattlefieldSpec, SquareSpec
from fracas.rules.heimr.campaign import Campaign
from fracas.rules.heimr.tables import Tables
from fracas.yamlfile import YamlDocument

__all__ = ["GROUND"]


def _tables(campaign: Mapping[str, Any] | None) -> Tables:
    if not campaign:
        return Campaign.default().tables
    return Campaign.from_documents(YamlDocument(dict(campaign), name="campaign")).tables


class HeimrGround(FieldKind):
    def choices(self, campaign: Mapping[str, Any] | None) -> dict[str, list[str]]:
        """The terrain, concealment, light, climbs and border presets of the campaign's
        tables (the shipped ones if none)."""
        tables = _tables(campaign)
        presets = {
            **tables.doors,
            **tables.movement_limits,
            **tables.crossing_challenges,
            **tables.structural_barriers,
        }
        return {
            "terrain": list(get_args(SquareSpec.model_fields["terrain"].annotation)),
            "concealment": sorted(tables.concealment),
            "light": sorted(tables.lighting),
            "climb": sorted(tables.climbing),
            "preset": sorted(presets),
        }

    def grid_view(
        self, document: Mapping[str, Any], campaign: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """A battlefield document as a map's JSON (as a screen's ``battlefield``: squares
        with height, concealment, light; borders with what they are), to draw it."""
        tables = _tables(campaign)
        field, _ = Battlefield.checked(document.get("battlefield") or {}, tables)
        if field is None:
            return {"columns": 3, "rows": 3, "squares": {}, "borders": []}
        squares = {
            sq.id: {
                "name": sq.name,
                "height": sq.height,
                "difficult": sq.difficult,
                "concealment": field.concealment(sq.id),
                "cover": [name for name, _ in sq.concealment],
                "light": sq.light,
                "lit": field.lit(sq.id) if field.darkness else None,
            }
            for sq in field.squares.values()
        }
        borders = []
        for b in field.borders.values():
            seen = {"limit": b.limit, "toughness": b.toughness, "cr": b.cr}
            if b.climbable:
                seen["climb"] = b.climb or 0
            border: dict[str, Any] = {"between": sorted(b.squares), "name": b.name}
            border.update({k: v for k, v in seen.items() if v is not None})
            borders.append(border)
        return {
            "columns": field.columns,
            "rows": field.rows,
            "squares": squares,
            "borders": borders,
        }


GROUND = HeimrGround(
    "grid",
    {"battlefield": BattlefieldSpec},
    {"battlefield": {"columns": 3, "rows": 3}},
    notes="squares, heights, terrain, cover, light and borders (H-GRID-1..9)",
    aliases={"grid": "battlefield"},
)
