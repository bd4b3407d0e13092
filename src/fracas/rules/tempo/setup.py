"""An encounter's setup turned into a state: the campaign, who fights, and how they start.

The setup is plain JSON (saved with the log)::

    {"campaign": {"characters": {...}, "weapons": {...}},
     "combatants": [{"character": "ylva", "prepared": true}, {"character": "astrid"}]}

Initiative (open in the seed) follows ``initiative`` (higher first) and then the
order of the list. A combatant starts Off Guard, On Guard when ``prepared`` (T-STAT-1),
or in the ``status`` given (with ``engaged_with`` for a bind, grapple or pin).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from fracas.engine import EngineError
from fracas.engine.setups import duplicate_ids, validated
from fracas.rules.tempo.state import Combatant, TempoState
from fracas.rules.tempo.tables import Sheet, TempoTables
from fracas.yamlfile import CampaignError, KeyPath, collect, unknown_name


class Placement(BaseModel):
    """One combatant: a character of the campaign and how it starts."""

    model_config = ConfigDict(extra="forbid")

    character: str
    id: str | None = None
    side: str | None = None
    prepared: bool = False
    status: str | None = None
    engaged_with: str | None = None
    initiative: int = Field(default=0, ge=-100, le=100)
    hp: int | None = Field(default=None, ge=-1000, le=1000)
    ap: int | None = Field(default=None, ge=0, le=100)
    reach: list[str] | None = Field(default=None, max_length=100)  # T-MOVE-1


class TempoSetup(BaseModel):
    model_config = ConfigDict(extra="forbid")

    campaign: dict[str, Any] = Field(default_factory=dict)
    combatants: list[Placement] = Field(min_length=1)


def build(setup: Mapping[str, Any]) -> TempoState:
    """The state before the first action; :class:`EngineError` says what is wrong."""
    spec = validated(TempoSetup, setup)
    tables = TempoTables.load(spec.campaign)
    combatants: dict[str, Combatant] = {}
    for place in spec.combatants:
        if place.character not in tables.characters:
            raise EngineError(unknown_name("character", place.character, tables.characters))
        cid = place.id or place.character
        if cid in combatants:
            raise EngineError(f"two combatants are called {cid!r}: give one an id")
        combatants[cid] = combatant(tables, tables.characters[place.character], cid, place)
    for who in combatants.values():
        _engage(tables, combatants, who)
    for who in combatants.values():
        if tables.statuses[who.status].engaged and who.engaged_with is None:
            raise EngineError(f"{who.id} starts {who.status}: name its opponent with engaged_with")
    place_reach(combatants, {p.id or p.character: p.reach for p in spec.combatants})
    ranked = sorted(enumerate(spec.combatants), key=lambda ip: (-ip[1].initiative, ip[0]))
    order = [place.id or place.character for _, place in ranked]
    state = TempoState(combatants=combatants, order=order, tables=tables, round=tables.round.first)
    state.rolled = tables.round.initiative == "written"
    state.initiative = {p.id or p.character: p.initiative for p in spec.combatants}
    return state


def place_reach(combatants: Mapping[str, Combatant], given: Mapping[str, list[str] | None]) -> None:
    """T-MOVE-1: who starts within whose reach. With no ``reach`` in the file every pair of
    opponents does (a fight at close quarters); otherwise the pairs named, both ways, and
    anyone engaged in a bind or grapple with its partner."""
    named = any(v is not None for v in given.values())
    for who in combatants.values():
        for other in combatants.values():
            if other.side != who.side and not named:
                who.reach.add(other.id)
        if who.engaged_with is not None:
            who.reach.add(who.engaged_with)
    for cid, listed in given.items():
        for other_id in listed or []:
            found = combatants.get(other_id)
            if found is None:
                raise EngineError(f"{cid}: {unknown_name('combatant', other_id, combatants)}")
            if found.side == combatants[cid].side:
                raise EngineError(f"{cid}: {other_id} is on its side: reach is between opponents")
            combatants[cid].reach.add(other_id)
            found.reach.add(cid)


def problems(setup: Mapping[str, Any]) -> list[tuple[KeyPath, str]]:
    """Every mistake in a setup, each at its path (``("combatants", 1, "status")``)."""
    _, found = collect(TempoSetup, setup)  # each part is checked further below
    try:
        tables = TempoTables.load(setup.get("campaign") or {})
    except (CampaignError, EngineError) as err:
        return [*found, (("campaign",), str(err))]
    combatants = setup.get("combatants")
    items = combatants if isinstance(combatants, list) else []
    found += duplicate_ids(items)
    placed: dict[str, Combatant] = {}
    at: dict[str, int] = {}
    for i, item in enumerate(items):
        place, _ = collect(Placement, item)
        if place is None:
            continue  # its problems are among those found
        if place.character not in tables.characters:
            message = unknown_name("character", place.character, tables.characters)
            found.append((("combatants", i, "character"), message))
            continue
        cid = place.id or place.character
        status = place.status
        if status is not None and status not in tables.statuses:
            message = unknown_name("status", status, tables.statuses)
            found.append((("combatants", i, "status"), message))
            continue
        placed[cid] = combatant(tables, tables.characters[place.character], cid, place)
        at[cid] = i
    for cid, who in placed.items():
        try:
            _engage(tables, placed, who)
            if tables.statuses[who.status].engaged and who.engaged_with is None:
                raise EngineError(f"{cid} starts {who.status}: name its opponent with engaged_with")
        except EngineError as err:
            found.append((("combatants", at[cid], "engaged_with"), str(err)))
    reaches = {
        cid: (items[i].get("reach") if isinstance(items[i], dict) else None)
        for cid, i in at.items()
    }
    try:
        place_reach(placed, reaches)
    except EngineError as err:
        cid = str(err).split(":", 1)[0]
        found.append((("combatants", at.get(cid, 0), "reach"), str(err)))
    return found


def combatant(tables: TempoTables, sheet: Sheet, cid: str, place: Placement) -> Combatant:
    defaults = tables.defaults
    status = place.status or (tables.prepared_status if place.prepared else tables.starting_status)
    if status not in tables.statuses:
        raise EngineError(f"{cid}: {unknown_name('status', status, tables.statuses)}")
    hp = sheet.hp or defaults.hp
    return Combatant(
        id=cid,
        name=sheet.name,
        side=place.side or sheet.side,
        status=status,
        ap=tables.round.ap if place.ap is None else place.ap,
        hp=hp if place.hp is None else place.hp,
        max_hp=hp,
        skills=dict(sheet.skills),
        weapons=list(sheet.weapons),
        armour=sheet.armour or defaults.armour,
        combat_defence=(
            defaults.combat_defence if sheet.combat_defence is None else sheet.combat_defence
        ),
        grapple_defence=(
            defaults.grapple_defence if sheet.grapple_defence is None else sheet.grapple_defence
        ),
        engaged_with=place.engaged_with,
    )


def _engage(tables: TempoTables, combatants: dict[str, Combatant], who: Combatant) -> None:
    """A starting bind, grapple or pin: both are engaged, and with each other."""
    partner_id = who.engaged_with
    if partner_id is None:
        return
    if not tables.statuses[who.status].engaged:
        raise EngineError(f"{who.id} is {who.status}: engaged_with needs a bind or grapple")
    partner = combatants.get(partner_id)
    if partner is None or partner is who:
        raise EngineError(f"{who.id} starts {who.status}: name its opponent with engaged_with")
    if (
        partner.engaged_with not in (None, who.id)
        or partner.side == who.side
        or not tables.statuses[partner.status].engaged
    ):
        raise EngineError(f"{who.id} and {partner.id} cannot start engaged with each other")
    partner.engaged_with = who.id
