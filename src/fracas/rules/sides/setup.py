"""An encounter's setup, turned into a state. The setup is plain JSON, saved with the log::

    {"campaign": {...tables, weapons, armour, characters...},
     "units": "feet", "confined_space": false, "surprised": ["orcs"],
     "combatants": [{"character": "darna", "at": 0}, {"name": "Orc", "side": "orcs", ...}]}

A combatant is a character of the campaign (``character:``), a whole sheet written in
place, or a character with some fields overridden; ``at`` is its position on the line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from fracas.engine import EngineError
from fracas.engine.setups import validated
from fracas.rules.sides import campaign
from fracas.rules.sides.campaign import Sheet, Tables, Units
from fracas.rules.sides.state import Combatant, SidesState, Stats
from fracas.yamlfile import CampaignError, KeyPath, collect, format_path, unknown_name

GM = "gm"


class Placement(BaseModel):
    """A combatant: a character by key and/or sheet fields, and where it stands."""

    model_config = ConfigDict(extra="allow")

    character: str | None = None
    id: str | None = None
    at: float = Field(default=0.0, ge=-100_000, le=100_000)


class SidesSetup(BaseModel):
    model_config = ConfigDict(extra="forbid")

    campaign: dict[str, Any] = Field(default_factory=dict)
    units: Units | None = None
    confined_space: bool | None = None
    surprised: list[str] = Field(default_factory=list)
    combatants: list[Placement] = Field(min_length=2)


def build(setup: Mapping[str, Any]) -> SidesState:
    """The state before ``gm begin``; :class:`EngineError` (or a campaign error) says
    what is wrong."""
    spec = validated(SidesSetup, setup)
    tables = campaign.load(spec.campaign)
    units = spec.units or tables.units
    combatants: dict[str, Combatant] = {}
    for i, place in enumerate(spec.combatants):
        sheet = _sheet(tables, place, i)
        cid = place.id or place.character or sheet.name.lower().replace(" ", "-")
        if cid in combatants:
            raise EngineError(f"two combatants are called {cid!r}: give one an id")
        combatants[cid] = combatant(tables, sheet, cid, place.at, units)
    sides = list(dict.fromkeys(c.side for c in combatants.values()))
    if len(sides) != 2:
        raise EngineError(
            f"the side-initiative rules need two sides; this encounter has {len(sides)}: "
            + ", ".join(sides)
        )
    for name in (*sides, GM):
        if name in combatants or (name == GM and GM in sides):
            raise EngineError(
                f"{name!r} names a side or the game master and also a combatant or side: "
                "rename one (a combatant takes an id)"
            )
    for side in spec.surprised:
        if side not in sides:
            raise EngineError(unknown_name("side", side, sides))
    confined = tables.optional_rules.confined_space
    if spec.confined_space is not None:
        confined = spec.confined_space
    return SidesState(
        combatants=combatants,
        sides=sides,
        tables=tables,
        units=units,
        confined_space=confined,
        surprised=list(spec.surprised),
    )


def _sheet(tables: Tables, place: Placement, index: int) -> Sheet:
    return sheet_of(tables, place, ("combatants", index), "encounter setup")


def sheet_of(tables: Tables, place: Placement, prefix: tuple[Any, ...], what: str) -> Sheet:
    """The sheet a placement gives: its character's, with the fields it writes laid over;
    :class:`EngineError` names the first mistake at ``prefix``."""
    sheet, found = checked_sheet(tables, place)
    if sheet is None or found:
        path, message = found[0]
        where = format_path((*prefix, *path))
        raise EngineError(f"{what}, {where}: {message}" if where else f"{what}: {message}")
    return sheet


def checked_sheet(
    tables: Tables, place: Placement
) -> tuple[Sheet | None, list[tuple[KeyPath, str]]]:
    """The sheet a placement gives, and every mistake in it at its path in the entry."""
    fields = dict(place.model_extra or {})
    base: dict[str, Any] = {}
    if place.character is not None:
        if place.character not in tables.characters:
            message = unknown_name("character", place.character, tables.characters)
            return None, [(("character",), message)]
        base = tables.characters[place.character].model_dump(exclude_unset=True)
    sheet, found = collect(Sheet, {**base, **fields})
    if sheet is None:
        return None, found
    return sheet, list(tables.sheet_problems(sheet))


def problems(setup: Mapping[str, Any]) -> list[tuple[KeyPath, str]]:
    """Every mistake in a setup, each at its path (``("combatants", 1, "weapons", 0)``)."""
    _, found = collect(SidesSetup, setup)  # each part is checked further below
    try:
        tables = campaign.load(setup.get("campaign") or {})
    except (CampaignError, EngineError) as err:
        return [*found, (("campaign",), str(err))]
    combatants = setup.get("combatants")
    items = combatants if isinstance(combatants, list) else []
    sides: list[str] = []
    ids: set[str] = set()
    for i, item in enumerate(items):
        place, _ = collect(Placement, item)
        if place is None:
            continue  # its problems are among those found
        sheet, wrong = checked_sheet(tables, place)
        found += [(("combatants", i, *path), message) for path, message in wrong]
        if sheet is None:
            continue
        cid = place.id or place.character or sheet.name.lower().replace(" ", "-")
        if cid in ids:
            found.append((("combatants", i), f"two combatants are called {cid!r}: give one an id"))
        ids.add(cid)
        if sheet.side not in sides:
            sides.append(sheet.side)
    if len(sides) > 2 or (len(sides) < 2 and not found):
        found.append(
            (
                ("combatants",),
                f"the side-initiative rules need two sides; this encounter has {len(sides)}: "
                + ", ".join(sides),
            )
        )
    surprised = setup.get("surprised")
    for j, side in enumerate(surprised if isinstance(surprised, list) else []):
        if side not in sides:
            found.append((("surprised", j), unknown_name("side", str(side), sides)))
    return found


def combatant(tables: Tables, sheet: Sheet, cid: str, at: float, units: Units) -> Combatant:
    """A combatant from its sheet: combat movement (S-MOVE-1; a mount's when mounted,
    S-MOUNT-1), Evasion (S-ATK-1), weapons and armour."""
    if sheet.combat_movement is not None:
        movement = sheet.combat_movement
    elif sheet.mounted:
        mount = sheet.mount_movement
        if mount is None:
            mount = tables.feet_to(tables.mounted.movement, units)
        movement = tables.combat_movement(mount, units)
    else:
        explore = sheet.movement
        if explore is None:
            explore = tables.feet_to(tables.exploration_movement, units)
        movement = tables.combat_movement(explore, units)
    evasion = sheet.evasion
    if evasion is None:
        agility = tables.attribute(sheet, "Agility")
        evasion = 0 if agility is None else tables.evasion_of(agility)
    stats = Stats(
        attributes=dict(sheet.attributes),
        max_health=sheet.health,
        max_stamina=sheet.stamina,
        player=sheet.player,
        evasion=evasion,
        movement=movement,
        weapons=tuple((w, tables.weapons[w]) for w in sheet.weapons),
        off_hand=None
        if sheet.off_hand is None
        else (sheet.off_hand, tables.weapons[sheet.off_hand]),
        armour=None if sheet.armour is None else (sheet.armour, tables.armour[sheet.armour]),
        mounted=sheet.mounted,
        trained_rider=sheet.trained_rider,
    )
    return Combatant(
        id=cid,
        name=sheet.name,
        side=sheet.side,
        stats=stats,
        health=sheet.health,
        stamina=sheet.stamina,
        position=float(at),
    )
