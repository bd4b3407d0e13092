"""An encounter's setup: the campaign, the grid and who stands where, turned into a state.

The setup is plain JSON (it is saved with the log), validated here with pydantic::

    {"campaign": {...campaign file contents...},
     "battlefield": {"columns": 3, "rows": 3, "squares": {...}, "borders": [...]},
     "combatants": [{"character": "ylva", "square": "B2", "stance": "parry"}, ...]}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from fracas.engine import EngineError
from fracas.engine.setups import duplicate_ids, validated
from fracas.rules.heimr.battlefield import Battlefield
from fracas.rules.heimr.campaign import Campaign, CharacterSheet
from fracas.rules.heimr.state import Ability, Combatant, HeimrState, Shield, Stats, Weapon
from fracas.yamlfile import CampaignError, KeyPath, YamlDocument, collect, unknown_name


class Placement(BaseModel):
    """One combatant: a character of the campaign, where it stands and how it starts."""

    model_config = ConfigDict(extra="forbid")

    character: str
    id: str | None = None
    side: str | None = None
    square: str = "B2"
    stance: Literal["dodge", "block", "parry", "none"] | None = None
    hit_points: int | None = Field(default=None, ge=-100, le=100)
    fatigue: int | None = Field(default=None, ge=0, le=100)
    prone: bool = False
    sleeping: bool = False  # H-POS-2: prone and helpless until woken
    # H-ACT-8: replaces the sheet's counts
    ammunition: dict[str, Annotated[int, Field(ge=0, le=10_000)]] | None = None
    height: int | None = Field(default=None, ge=-100, le=100)  # default: the square's ground


class HeimrSetup(BaseModel):
    model_config = ConfigDict(extra="forbid")

    campaign: dict[str, Any] = Field(default_factory=dict)
    grid: dict[str, int] | None = None  # {columns, rows}: a plain battlefield
    battlefield: dict[str, Any] | None = None
    modules: dict[str, bool] = Field(default_factory=dict)  # {blind_spots: false} turns one off
    combatants: list[Placement] = Field(min_length=1)


def build(setup: Mapping[str, Any]) -> HeimrState:
    """The state before the first action; :class:`EngineError` says what is wrong."""
    spec = validated(HeimrSetup, setup)
    campaign = Campaign.from_documents(YamlDocument(spec.campaign, name="campaign"))
    field = Battlefield.build({**(spec.grid or {}), **(spec.battlefield or {})}, campaign.tables)
    combatants: dict[str, Combatant] = {}
    for place in spec.combatants:
        who = placed(campaign, field, place)
        if who.id in combatants:
            raise EngineError(f"two combatants are called {who.id!r}: give one an id")
        combatants[who.id] = who
    return HeimrState(
        combatants=combatants,
        tables=campaign.tables,
        battlefield=field,
        options={"blind_spots": int(spec.modules.get("blind_spots", True))},  # H-MOD-1
        open_doors=sorted(
            "-".join(sorted(b.squares)) for b in field.borders.values() if b.door and not b.closed
        ),
        campaign=campaign,
    )


def problems(setup: Mapping[str, Any]) -> list[tuple[KeyPath, str]]:
    """Every mistake in a setup, each at its path (``("combatants", 1, "square")``)."""
    _, found = collect(HeimrSetup, setup)  # each part is checked further below
    try:
        campaign = Campaign.from_documents(YamlDocument(setup.get("campaign"), name="campaign"))
    except (CampaignError, EngineError) as err:
        return [*found, (("campaign",), str(err))]
    parts = [setup.get(k) for k in ("grid", "battlefield")]
    if any(p is not None and not isinstance(p, dict) for p in parts):
        return found
    merged = {**(parts[0] or {}), **(parts[1] or {})}
    field, field_problems = Battlefield.checked(merged, campaign.tables)
    key = "battlefield" if parts[1] is not None else "grid"
    found += [((key, *path), message) for path, message in field_problems]
    if field is None:
        return found
    combatants = setup.get("combatants")
    items = combatants if isinstance(combatants, list) else []
    found += duplicate_ids(items)
    for i, item in enumerate(items):
        at = ("combatants", i)
        place, _ = collect(Placement, item)
        if place is None:
            continue  # its problems are among those found
        if place.character not in campaign.characters:
            message = unknown_name("character", place.character, campaign.characters)
            found.append(((*at, "character"), message))
            continue
        square = field.place(place.square)
        if square not in field.squares and square in merged.get("squares", {}):
            continue  # a square of its own spec is wrong: reported with the battlefield
        if square not in field:
            where = f"{place.square} is off the {field.describe()}"
            if not field.grid:
                where = unknown_name("location", place.square, field.squares)
            found.append(((*at, "square"), where))
            continue
        try:
            placed(campaign, field, place)
        except EngineError as err:
            found.append(((*at, "height"), str(err)))
    return found


def placed(campaign: Campaign, field: Battlefield, place: Placement) -> Combatant:
    """The combatant a placement describes, standing where it says; :class:`EngineError`
    names what is wrong."""
    if place.character not in campaign.characters:
        raise EngineError(unknown_name("character", place.character, campaign.characters))
    sheet = campaign.characters[place.character]
    cid = place.id or place.character
    square = field.place(place.square)
    if square not in field:
        raise EngineError(f"{cid} stands in {place.square}, off the {field.describe()}")
    who = combatant(campaign, sheet, cid, place)
    who.square = square
    ground = field.squares[square].height
    who.height = ground if place.height is None else place.height
    if not ground <= who.height <= field.squares[square].top:
        raise EngineError(
            f"{cid} stands at height {who.height} in {square}, which goes from {ground} "
            f"to {field.squares[square].top}"
        )
    return who


def combatant(campaign: Campaign, sheet: CharacterSheet, cid: str, place: Placement) -> Combatant:
    penalties = campaign.item_penalties(sheet.items)
    abilities = {
        name: Ability(
            campaign.ability_consistency(sheet, name, penalties),
            campaign.ability_potential(sheet, name),
            tuple(spec.attributes),
        )
        for name, spec in campaign.abilities.items()
    }
    stats = Stats(
        attributes=dict(sheet.attributes),
        groups={name: a.group for name, a in campaign.attributes.items()},
        abilities=abilities,
        hit_points=sheet.hit_points,
        willpower=sheet.willpower,
    )
    items = {name: item(campaign, sheet, name) for name in _item_names(sheet)}
    sword = items.get(sheet.items.sword_hand or "")
    off = items.get(sheet.items.off_hand or "")
    fatigue = campaign.base_fatigue(sheet) if place.fatigue is None else place.fatigue
    who = Combatant(
        id=cid,
        name=sheet.name,
        side=place.side or sheet.side,
        stats=stats,
        hp=sheet.hit_points if place.hit_points is None else place.hit_points,
        willpower=sheet.willpower,
        fatigue=fatigue,
        square=place.square,
        max_fatigue=campaign.tables.fatigue.maximum,
        sword_hand=sword if isinstance(sword, Weapon) else None,
        off_hand=off if isinstance(off, Weapon) else None,
        shield=off if isinstance(off, Shield) else None,
        prone=place.prone,
        carried=[i for n in sheet.items.carried if (i := items.get(n)) is not None],
        pouch=[i for n in sheet.items.pouch if (i := items.get(n)) is not None],
        ammunition=dict(sheet.items.ammunition if place.ammunition is None else place.ammunition),
        skills=tuple(sheet.skills),
    )
    if place.sleeping:  # H-POS-2
        who.sleeping = who.prone = who.helpless = True
    who.stance = place.stance or default_stance(who)
    return who


def default_stance(who: Combatant) -> Literal["dodge", "block", "parry"]:
    """Block with a shield, parry with a melee weapon, else dodge (docs/decisions.md)."""
    if who.shield is not None:
        return "block"
    if any(w.melee for w in who.weapons()):
        return "parry"
    return "dodge"


def _item_names(sheet: CharacterSheet) -> list[str]:
    names = [sheet.items.sword_hand, sheet.items.off_hand, *sheet.items.carried, *sheet.items.pouch]
    return [n for n in names if n]


def item(campaign: Campaign, sheet: CharacterSheet, name: str) -> Weapon | Shield | None:
    """The armoury item ``name`` with the ability this character uses it with."""
    if name not in campaign.weapons and name not in campaign.shields:
        return None  # other gear: carried, not wielded
    abilities = campaign.weapon_abilities(name)
    # The first ability of the item this character has trained, else the first listed.
    trained = [a for a in abilities if _trained(campaign, sheet, a)]
    ability = (trained or abilities)[0]
    if name in campaign.shields:
        return Shield(name, ability, campaign.shields[name].potential_bonus)
    w = campaign.weapons[name]
    return Weapon(
        name,
        ability,
        w.damage,
        w.potential_bonus,
        None if w.range == "melee" else int(w.range),
        w.wielding,
    )


def _trained(campaign: Campaign, sheet: CharacterSheet, ability: str) -> bool:
    t = campaign.training(sheet, ability)
    return t.trained_consistency > 0 or t.trained_potential > 0
