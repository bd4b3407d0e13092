"""An encounter's setup turned into a state: the campaign, the positions, who stands where.

The setup is plain JSON (saved with the log)::

    {"campaign": {...tables and characters...},
     "positions": {"Inside the pub": {"borders": ["Behind the counter"]},
                   "Behind the counter": {"borders": {"Inside the pub": {"blocks": 2}},
                                          "modifiers": {"dodge": -1}}},
     "combatants": [{"character": "ylva", "position": "Inside the pub"}, ...]}

Borders work both ways (HC-MOVE-1); ``blocks`` is how many enemies one guard of that
border can hold (terrain features, HC-MOVE-2); ``modifiers`` are environment modifiers
(env) to ``attack``, ``defence``, ``dodge``, ``agility`` or ``initiative`` rolls made
there. Without positions the fight has one, "the field".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from fracas.engine import EngineError
from fracas.engine.setups import duplicate_ids, validated
from fracas.rules.classic import sheet as sheets
from fracas.rules.classic.campaign import ClassicCampaign, Sheet
from fracas.rules.classic.state import (
    CONDITIONS,
    Battlefield,
    ClassicState,
    Condition,
    Fighter,
    Place,
    Profile,
)
from fracas.yamlfile import CampaignError, KeyPath, collect, unknown_name

ROLLS = ("attack", "defence", "dodge", "agility", "initiative")
DEFAULT_POSITION = "the field"


class BorderSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    blocks: int = Field(default=1, ge=1)


class PlaceSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    borders: list[str] | dict[str, BorderSpec] = Field(default_factory=list)
    modifiers: dict[str, int] = Field(default_factory=dict)


class Placement(BaseModel):
    """One combatant: a character of the campaign and where it starts."""

    model_config = ConfigDict(extra="forbid")

    character: str
    id: str | None = None
    side: str | None = None
    npc: bool | None = None
    position: str | None = None
    hit_points: int | None = Field(default=None, ge=-100, le=100)
    conditions: list[str] = Field(default_factory=list)


class ClassicSetup(BaseModel):
    model_config = ConfigDict(extra="forbid")

    campaign: dict[str, Any] = Field(default_factory=dict)
    positions: dict[str, PlaceSpec] = Field(default_factory=dict)
    combatants: list[Placement] = Field(min_length=1)


def build(setup: Mapping[str, Any]) -> ClassicState:
    """The state before the first action; :class:`EngineError` says what is wrong."""
    spec = validated(ClassicSetup, setup)
    try:
        tables = ClassicCampaign.from_data(spec.campaign)
    except CampaignError as err:
        raise EngineError(str(err)) from None
    field = battlefield(spec.positions)
    fighters: dict[str, Fighter] = {}
    warnings: list[str] = []
    for place in spec.combatants:
        if place.character not in tables.characters:
            raise EngineError(unknown_name("character", place.character, tables.characters))
        sheet = tables.characters[place.character]
        cid = place.id or place.character
        if cid in fighters or cid == "gm":
            raise EngineError(f"two combatants are called {cid!r}: give one an id")
        warnings += sheets.check(tables, sheet)
        fighters[cid] = fighter(tables, sheet, cid, place, field)
    return ClassicState(fighters, field, tables, warnings=warnings)


def problems(setup: Mapping[str, Any]) -> list[tuple[KeyPath, str]]:
    """Every mistake in a setup, each at its path (``("combatants", 1, "position")``)."""
    _, found = collect(ClassicSetup, setup)  # each part is checked further below
    try:
        tables = ClassicCampaign.from_data(setup.get("campaign") or {})
    except (CampaignError, EngineError) as err:
        return [*found, (("campaign",), str(err))]
    field: Battlefield | None = None
    raw = setup.get("positions") or {}
    specs = {n: collect(PlaceSpec, s)[0] for n, s in raw.items()} if isinstance(raw, dict) else {}
    positions = {n: s for n, s in specs.items() if s is not None}
    if isinstance(raw, dict) and len(positions) == len(raw):
        try:
            field = battlefield(positions)
        except EngineError as err:
            name, _, message = str(err).removeprefix("positions.").partition(": ")
            found.append((("positions", name.split(".")[0]), message or str(err)))
    combatants = setup.get("combatants")
    items = combatants if isinstance(combatants, list) else []
    found += duplicate_ids(items)
    for i, item in enumerate(items):
        at = ("combatants", i)
        place, _ = collect(Placement, item)
        if place is None:
            continue  # its problems are among those found
        if (place.id or place.character) == "gm":
            found.append((at, "'gm' is the DM: give the combatant another id"))
        if place.character not in tables.characters:
            message = unknown_name("character", place.character, tables.characters)
            found.append(((*at, "character"), message))
            continue
        sheet = tables.characters[place.character]
        places = list(raw) if isinstance(raw, dict) and raw else [DEFAULT_POSITION]
        if place.position is not None and place.position not in places:
            message = unknown_name("position", place.position, places)
            found.append(((*at, "position"), message))
            continue
        for j, name in enumerate(place.conditions):
            if name not in CONDITIONS or name in ("dying", "fear"):
                allowed = [c for c in CONDITIONS if c not in ("dying", "fear")]
                found.append(
                    ((*at, "conditions", j), unknown_name("starting condition", name, allowed))
                )
        try:
            sheets.check(tables, sheet)
            if field is not None:
                fighter(tables, sheet, place.id or place.character, place, field)
        except EngineError as err:
            if not str(err).startswith(f"{place.id or place.character}: unknown starting"):
                found.append(((*at, "character"), str(err)))
    return found


def battlefield(positions: Mapping[str, PlaceSpec]) -> Battlefield:
    """HC-MOVE-1: the positions and their borders, made symmetric."""
    if not positions:
        return Battlefield({DEFAULT_POSITION: Place({})})
    borders: dict[str, dict[str, int]] = {name: {} for name in positions}
    for name, spec in positions.items():
        listed = spec.borders if isinstance(spec.borders, dict) else dict.fromkeys(spec.borders)
        for other, border in listed.items():
            if other not in positions:
                raise EngineError(f"positions.{name}: {unknown_name('position', other, positions)}")
            if other == name:
                raise EngineError(f"positions.{name}: a position does not border itself")
            blocks = border.blocks if isinstance(border, BorderSpec) else 1
            borders[name][other] = max(blocks, borders[name].get(other, 1))
            borders[other].setdefault(name, 1)
        for roll in spec.modifiers:
            if roll not in ROLLS:
                raise EngineError(
                    f"positions.{name}.modifiers: {unknown_name('roll', roll, ROLLS)}"
                )
    return Battlefield(
        {name: Place(borders[name], dict(spec.modifiers)) for name, spec in positions.items()}
    )


def fighter(
    tables: ClassicCampaign, sheet: Sheet, cid: str, place: Placement, field: Battlefield
) -> Fighter:
    _check_items(tables, sheet)
    position = place.position or next(iter(field.places))
    if position not in field.places:
        raise EngineError(f"{cid}: {unknown_name('position', position, field.places)}")
    conditions = []
    for name in place.conditions:
        if name not in CONDITIONS or name in ("dying", "fear"):
            allowed = [c for c in CONDITIONS if c not in ("dying", "fear")]
            raise EngineError(f"{cid}: {unknown_name('starting condition', name, allowed)}")
        conditions.append(Condition(name))
    profile = Profile(
        statistics=sheets.current(tables, sheet),
        skills=frozenset(sheet.skills),
        max_hp=sheet.hit_points,
        weapons=dict(sheet.weapons),
        armour=tuple(sheet.armour),
    )
    held = [sheet.weapons.get(i or "") for i in (sheet.main_hand, sheet.off_hand)]
    throwing = any(
        k is not None and tables.weapons[k].ranged and not tables.weapons[k].ammunition
        for k in held
    )
    return Fighter(
        id=cid,
        name=sheet.name,
        side=place.side or sheet.side,
        npc=sheet.npc if place.npc is None else place.npc,
        profile=profile,
        hp=sheet.hit_points if place.hit_points is None else place.hit_points,
        willpower=sheet.willpower,
        hero_points=sheet.hero_points,
        position=position,
        main_hand=sheet.main_hand,
        off_hand=sheet.off_hand,
        carried=list(sheet.carried),
        loaded=2 if throwing else 0,  # two throwing weapons in hand (HC-ACT-1)
        conditions=conditions,
    )


def _check_items(tables: ClassicCampaign, sheet: Sheet) -> None:
    for item, kind in sheet.weapons.items():
        if kind not in tables.weapons:
            raise sheets.SheetError(
                "HC-CS-1",
                sheet.name,
                f"{item}: {unknown_name('weapon type', kind, tables.weapons)}",
            )
    for armour in sheet.armour:
        if armour not in tables.armour:
            raise sheets.SheetError(
                "HC-DODGE-1", sheet.name, unknown_name("armour", armour, tables.armour)
            )
    main = sheet.weapons.get(sheet.main_hand or "")
    if main is not None and tables.weapons[main].hands == "two" and sheet.off_hand is not None:
        raise sheets.SheetError(
            "HC-CS-1", sheet.name, f"the {sheet.main_hand} takes both hands: the off hand is full"
        )
    if sheet.main_hand is not None and sheet.main_hand == sheet.off_hand:
        raise sheets.SheetError("HC-CS-1", sheet.name, f"one {sheet.main_hand} in both hands")
