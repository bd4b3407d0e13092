"""An encounter's setup (campaign, regions, who stands where) turned into a state.

The setup is plain JSON, saved with the log::

    {"campaign": {"characters": {...}, "weapons": {...}, "tables": {...}},
     "regions": {"hall": {"borders": ["yard"], "cramped": true}, "yard": {}},
     "combatants": [{"character": "knight", "region": "yard", "mounted_on": "horse"}, ...]}

Borders are symmetric (naming one side is enough). Without ``regions`` every region
named by a combatant borders every other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from fracas.engine import EngineError
from fracas.engine.setups import duplicate_ids, validated
from fracas.rules.diestep.state import Combatant, DieStepState
from fracas.rules.diestep.tables import DICE, Campaign, Region, Sheet
from fracas.yamlfile import CampaignError, KeyPath, collect, unknown_name


class Placement(BaseModel):
    """One combatant: a character of the campaign, where it stands and how it starts."""

    model_config = ConfigDict(extra="forbid")

    character: str
    id: str | None = None
    side: str | None = None
    region: str = "field"
    mounted_on: str | None = None
    surprised: bool = False
    unaware_of: list[str] = Field(default_factory=list)
    prone: bool = False
    helpless: bool = False
    ready: bool | None = None  # default: ready unless surprised
    hp: int | None = Field(default=None, ge=0, le=1000)
    wound: Literal["", "badly", "mortal"] = ""


class Setup(BaseModel):
    model_config = ConfigDict(extra="forbid")

    campaign: dict[str, Any] = Field(default_factory=dict)
    regions: dict[str, dict[str, Any]] | list[str] = Field(default_factory=dict)
    combatants: list[Placement] = Field(min_length=1)


def build(setup: Mapping[str, Any]) -> DieStepState:
    """The state before the first action; :class:`EngineError` says what is wrong."""
    spec = validated(Setup, setup)
    campaign = Campaign.load(spec.campaign)
    regions = _regions(spec)
    combatants: dict[str, Combatant] = {}
    for place in spec.combatants:
        cid = place.id or place.character
        if cid in combatants or cid == "gm":
            raise EngineError(f"two combatants are called {cid!r}: give one an id")
        combatants[cid] = placed(campaign, regions, place)
    for place in spec.combatants:
        _mount(combatants, place)
    for c in combatants.values():
        for other in c.unaware_of:
            if other not in combatants:
                raise EngineError(
                    f"{c.id} is unaware of {other!r}: "
                    + unknown_name("combatant", other, combatants)
                )
    return DieStepState(
        combatants=combatants, regions=regions, tables=campaign.tables, campaign=campaign
    )


def problems(setup: Mapping[str, Any]) -> list[tuple[KeyPath, str]]:
    """Every mistake in a setup, each at its path (``("combatants", 1, "region")``)."""
    spec, found = collect(Setup, setup)
    try:
        campaign = Campaign.load(setup.get("campaign") or {})
    except (CampaignError, EngineError) as err:
        return [*found, (("campaign",), str(err))]
    regions: Mapping[str, Region] = {}
    if spec is not None:
        try:
            regions = _regions(spec)
        except EngineError as err:
            found.append((("regions",), str(err)))
    combatants = setup.get("combatants")
    items = combatants if isinstance(combatants, list) else []
    found += duplicate_ids(items)
    people: dict[str, Combatant] = {}
    places: dict[str, tuple[int, Placement]] = {}
    for i, item in enumerate(items):
        place, _ = collect(Placement, item)
        if place is None:
            continue  # its problems are among those found
        at = ("combatants", i)
        if (place.id or place.character) == "gm":
            found.append((at, "'gm' is the game master: give the combatant another id"))
        if place.character not in campaign.characters:
            message = unknown_name("character", place.character, campaign.characters)
            found.append(((*at, "character"), message))
            continue
        cid = place.id or place.character
        try:
            people[cid] = _combatant(campaign, campaign.characters[place.character], cid, place)
        except EngineError as err:
            found.append(((*at, "character"), str(err)))
            continue
        raw = setup.get("regions")
        known = list(regions) or (list(raw) if isinstance(raw, (dict, list)) else [])
        if known and place.region not in known:
            found.append(((*at, "region"), unknown_name("region", place.region, known)))
            continue
        places[cid] = (i, place)
    for i, place in places.values():
        at = ("combatants", i)
        try:
            _mount(people, place)
        except EngineError as err:
            found.append(((*at, "mounted_on"), str(err)))
        for j, other in enumerate(place.unaware_of):
            if other not in people:
                message = unknown_name("combatant", other, people)
                found.append(((*at, "unaware_of", j), message))
    return found


def placed(campaign: Campaign, regions: Mapping[str, Region], place: Placement) -> Combatant:
    """The combatant a placement describes (not yet riding); :class:`EngineError` says
    what is wrong."""
    if place.character not in campaign.characters:
        raise EngineError(unknown_name("character", place.character, campaign.characters))
    if place.region not in regions:
        raise EngineError(unknown_name("region", place.region, regions))
    cid = place.id or place.character
    return _combatant(campaign, campaign.characters[place.character], cid, place)


def _regions(spec: Setup) -> dict[str, Region]:
    raw = spec.regions
    if isinstance(raw, list):
        raw = {name: {} for name in raw}
    if not raw:
        names = list(dict.fromkeys(p.region for p in spec.combatants))
        raw = {n: {"borders": [m for m in names if m != n]} for n in names}
    try:
        regions = {name: Region.model_validate(data) for name, data in raw.items()}
    except ValidationError as err:
        raise EngineError(f"encounter setup, regions: {err.errors()[0]['msg']}") from None
    borders: dict[str, set[str]] = {name: set(r.borders) for name, r in regions.items()}
    for name, region in regions.items():
        for other in region.borders:
            if other not in regions:
                raise EngineError(f"region {name} borders " + unknown_name("region", other, raw))
            borders[other].add(name)
    return {
        name: r.model_copy(update={"borders": sorted(borders[name])}) for name, r in regions.items()
    }


def _combatant(campaign: Campaign, sheet: Sheet, cid: str, place: Placement) -> Combatant:
    dice = {name: sheet.dice.get(name, campaign.tables.default_die) for name in DICE}
    dice.update(sheet.dice)
    weapon = None
    if sheet.weapon is not None:
        if sheet.weapon not in campaign.weapons:
            raise EngineError(f"{cid}: " + unknown_name("weapon", sheet.weapon, campaign.weapons))
        weapon = campaign.weapons[sheet.weapon]
    hp = sheet.hit_points if sheet.hit_points is not None else campaign.tables.hit_points
    ap = sheet.ap if sheet.ap is not None else campaign.tables.ap_per_turn
    full = sheet.model_copy(update={"dice": dice, "hit_points": hp, "ap": ap})
    now = hp if place.hp is None else min(place.hp, hp)
    return Combatant(
        id=cid,
        name=sheet.name,
        side=place.side or sheet.side,
        sheet=full,
        hp=now,
        mp=sheet.magic_points,
        region=place.region,
        weapon=weapon,
        shield=sheet.shield,
        ready=not place.surprised if place.ready is None else place.ready,
        prone=place.prone,
        helpless=place.helpless,
        surprised=place.surprised,
        unaware_of=list(place.unaware_of),
        wound=place.wound,
        knocked_out=now == 0 and hp > 0,
    )


def _mount(combatants: dict[str, Combatant], place: Placement) -> None:
    if place.mounted_on is None:
        return
    rider = combatants[place.id or place.character]
    mount = combatants.get(place.mounted_on)
    if mount is None:
        raise EngineError(
            f"{rider.id} rides " + unknown_name("combatant", place.mounted_on, combatants)
        )
    if not mount.sheet.mount or mount.rider is not None or mount.region != rider.region:
        raise EngineError(f"{rider.id} cannot ride {mount.id}: not a free mount in its region")
    rider.mounted_on, mount.rider = mount.id, rider.id
