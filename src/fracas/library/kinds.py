"""What a battlefield is in each ruleset: the keys of an encounter file that describe it,
the model its file is read with (and its JSON Schema), and its check, done by the
ruleset's own :meth:`~fracas.engine.Ruleset.setup_problems`.

=================  =======  ==========================================================
ruleset            shape    keys of the encounter file
=================  =======  ==========================================================
``heimr``          grid     ``battlefield`` (columns, rows, squares, borders: H-GRID-1..9)
``heimr-classic``  places   ``positions`` (named positions, borders, modifiers: HC-MOVE-1)
``diestep``        places   ``regions`` (named regions, borders, cramped, ground)
``sides``          line     ``units``, ``confined_space`` (the combatants stand on a line)
=================  =======  ==========================================================

``tempo`` has no battlefield: its encounters are exchanges between combatants.

>>> kind = KINDS["heimr"]
>>> spec = {"battlefield": {"columns": 3, "rows": 3,
...         "borders": [{"between": ["A1", "C1"], "preset": "Single door"}]}}
>>> for path, message in problems("heimr", spec):
...     print(path, message)
('battlefield', 'borders', 0, 'between') A1 and C1 are not bordering squares (H-GRID-2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, create_model

from fracas.rules import find
from fracas.rules.classic.setup import ROLLS, PlaceSpec
from fracas.rules.diestep.tables import Region
from fracas.rules.heimr.battlefield import Battlefield, BattlefieldSpec, SquareSpec
from fracas.rules.heimr.campaign import Campaign as HeimrCampaign
from fracas.rules.heimr.tables import Tables
from fracas.rules.sides.campaign import Units
from fracas.yamlfile import KeyPath, YamlDocument, collect

__all__ = [
    "KINDS",
    "MapKind",
    "battlefield_file_model",
    "choices",
    "grid_view",
    "problems",
    "schema",
]


@dataclass(frozen=True)
class MapKind:
    """A ruleset's battlefield: its shape, the encounter file's keys that hold it, the
    model of each key, and what a new one holds."""

    ruleset: str
    shape: Literal["grid", "places", "line"]
    keys: Mapping[str, Any]  # key -> its type (for the file's model)
    default: Mapping[str, Any]
    place_word: str = "square"  # what one location is called in messages and forms
    place_fields: tuple[str, ...] = ()  # a place's own fields (places: besides borders)
    notes: str = field(default="")

    def empty(self) -> dict[str, Any]:
        import copy

        return copy.deepcopy(dict(self.default))


KINDS: dict[str, MapKind] = {
    "heimr": MapKind(
        "heimr",
        "grid",
        {"battlefield": BattlefieldSpec},
        {"battlefield": {"columns": 3, "rows": 3}},
        notes="squares, heights, terrain, cover, light and borders (H-GRID-1..9)",
    ),
    "heimr-classic": MapKind(
        "heimr-classic",
        "places",
        {"positions": dict[str, PlaceSpec]},
        {"positions": {}},
        place_word="position",
        place_fields=tuple(f"modifiers.{roll}" for roll in ROLLS),
        notes="named positions, their borders and modifiers (HC-MOVE-1)",
    ),
    "diestep": MapKind(
        "diestep",
        "places",
        {"regions": dict[str, Region] | list[str]},
        {"regions": {}},
        place_word="region",
        place_fields=("cramped", "ground"),
        notes="named regions, their borders, room and ground",
    ),
    "sides": MapKind(
        "sides",
        "line",
        {"units": Units | None, "confined_space": bool | None},
        {},
        place_word="place",
        notes="the line the combatants stand on: its units, and whether the space is confined",
    ),
}


#: Stand-ins for the combatants a battlefield is checked without: the rulesets check a
#: setup's ground only once the setup as a whole reads, and their problems are left out.
STAND_INS = [{"character": "?"}, {"character": "?"}]


def problems(
    ruleset: str, document: Mapping[str, Any], campaign: Mapping[str, Any] | None = None
) -> list[tuple[KeyPath, str]]:
    """Every mistake in a battlefield ``document`` (the encounter file's keys of its
    kind), each at its path: first as its file's model reads it, then as the ruleset's
    own setup check finds them; ``campaign`` (a campaign file's content) gives the
    presets and tables, the shipped ones if none."""
    kind = KINDS[ruleset]
    _, found = collect(battlefield_file_model(ruleset), {"ruleset": ruleset, **document})
    if found:
        return found
    setup = {**document, "campaign": dict(campaign or {}), "combatants": STAND_INS}
    keys = (*kind.keys, "campaign")
    checked = find(ruleset).setup_problems(setup)
    return [(path, message) for path, message in checked if path and path[0] in keys]


class _FileBase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str = ""


@cache
def battlefield_file_model(ruleset: str) -> type[BaseModel]:
    """The model of a battlefield file of ``ruleset``: its ruleset, a title and the keys
    of its kind (exactly as an encounter file holds them)."""
    kind = KINDS[ruleset]
    fields: dict[str, Any] = {"ruleset": (Literal[ruleset], Field(...))}
    for key, annotation in kind.keys.items():
        fields[key] = (annotation, None)
    model: type[BaseModel] = create_model(
        f"Battlefield{''.join(p.title() for p in ruleset.split('-'))}File",
        __base__=_FileBase,
        __doc__=f"A {ruleset} battlefield file: {kind.notes}.",
        **fields,
    )
    return model


def schema(ruleset: str) -> dict[str, Any]:
    """The JSON Schema of a battlefield file of ``ruleset``."""
    found: dict[str, Any] = battlefield_file_model(ruleset).model_json_schema()
    found["title"] = f"fracas {ruleset} battlefield"
    return found


def choices(ruleset: str, campaign: Mapping[str, Any] | None = None) -> dict[str, list[str]]:
    """What each field of a square, border or place may hold, from the campaign's tables
    (the shipped ones if none): the editor offers these and nothing hard-coded.

    >>> sorted(choices("heimr"))
    ['climb', 'concealment', 'light', 'preset', 'terrain']
    >>> choices("heimr")["preset"][:3]
    ['1.5 meter jump', '2 meter jump', '2.5 meter jump']
    """
    if ruleset == "heimr":
        tables = _heimr_tables(campaign)
        presets = {
            **tables.doors,
            **tables.movement_limits,
            **tables.crossing_challenges,
            **tables.structural_barriers,
        }
        return {
            "terrain": list(_literal(SquareSpec, "terrain")),
            "concealment": sorted(tables.concealment),
            "light": sorted(tables.lighting),
            "climb": sorted(tables.climbing),
            "preset": sorted(presets),
        }
    if ruleset == "heimr-classic":
        return {"modifiers": list(ROLLS)}
    if ruleset == "diestep":
        return {"ground": list(_literal(Region, "ground"))}
    if ruleset == "sides":
        return {"units": list(get_args(Units))}
    return {}


def _literal(model: type[BaseModel], name: str) -> tuple[str, ...]:
    return tuple(get_args(model.model_fields[name].annotation))


def _heimr_tables(campaign: Mapping[str, Any] | None) -> Tables:
    if not campaign:
        return HeimrCampaign.default().tables
    return HeimrCampaign.from_documents(YamlDocument(dict(campaign), name="campaign")).tables


def grid_view(
    document: Mapping[str, Any], campaign: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A Heimr battlefield document as a map's JSON (as a screen's ``battlefield``: squares
    with height, concealment, light; borders with what they are), to draw it."""
    tables = _heimr_tables(campaign)
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
    return {"columns": field.columns, "rows": field.rows, "squares": squares, "borders": borders}
