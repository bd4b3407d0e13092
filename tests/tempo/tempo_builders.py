"""Builders for tempo encounters with scripted dice, so tests can work outcomes by hand.

    ylva = sheet("ylva", "north", melee=2, weapons=["Arming sword"])
    enc = encounter([ylva, astrid], faces=pool(3) + pool(1) + [4])

A check is the Prismatic Dice Pool (T-DICE-1): eight d6 in colour order, the result the
index of the first 6, plus 8 for each throw without one. :func:`pool` gives the faces
of a pool showing ``value``. Dice are read in the order the rules roll them: at
resolution the actor's check, then the reactor's, then damage (actor's first), one d6
(or the weapon's die) each; Recover Stamina rolls one pool.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction, ScriptedDice
from fracas.rules import find
from fracas.rules.tempo.state import TempoState

State = Encounter[TempoState]


def pool(value: int) -> list[int]:
    """The faces of one pool check whose pool result is ``value`` (re-rolls for 8 or more)."""
    rerolls, colour = divmod(value, 8)
    throw = [1] * 8
    throw[colour] = 6
    return [1] * 8 * rerolls + throw


def sheet(
    name: str,
    side: str,
    *,
    weapons: Iterable[str] = ("Arming sword",),
    armour: str | None = None,
    hp: int | None = None,
    combat_defence: int | None = None,
    grapple_defence: int | None = None,
    **skills: int,
) -> dict[str, Any]:
    """A character sheet; keyword arguments rate skills (``melee=2``)."""
    out: dict[str, Any] = {
        "name": name.capitalize(),
        "side": side,
        "skills": skills,
        "weapons": list(weapons),
    }
    for key, value in (
        ("armour", armour),
        ("hp", hp),
        ("combat_defence", combat_defence),
        ("grapple_defence", grapple_defence),
    ):
        if value is not None:
            out[key] = value
    return out


def setup(
    sheets: Iterable[Mapping[str, Any]],
    place: Mapping[str, Mapping[str, Any]] | None = None,
    campaign: Mapping[str, Any] | None = None,
    prepared: bool = True,
) -> dict[str, Any]:
    """Every sheet placed in the order given (that is the initiative order), On Guard
    unless ``prepared`` is false; ``place`` adds placement fields by id."""
    sheets = list(sheets)
    characters = {s["name"].lower(): dict(s) for s in sheets}
    placements = []
    for cid in characters:
        p: dict[str, Any] = {"character": cid, "prepared": prepared}
        p.update((place or {}).get(cid, {}))
        placements.append(p)
    return {"campaign": {**(campaign or {}), "characters": characters}, "combatants": placements}


def encounter(
    sheets: Iterable[Mapping[str, Any]],
    faces: Iterable[int] = (),
    place: Mapping[str, Mapping[str, Any]] | None = None,
    campaign: Mapping[str, Any] | None = None,
    prepared: bool = True,
) -> State:
    """An encounter whose dice are the scripted ``faces`` (add more with ``enc.dice.add``)."""
    return Encounter(find("tempo"), setup(sheets, place, campaign, prepared), ScriptedDice(faces))


def duel(faces: Iterable[int] = (), **place: Mapping[str, Any]) -> State:
    """Ylva (north) and Astrid (south), melee 2, Arming swords (3 AP, d6+2), no armour."""
    return encounter(
        [sheet("ylva", "north", melee=2), sheet("astrid", "south", melee=2)],
        faces,
        place=place,
    )


def texts(enc: State, last: int | None = None) -> list[str]:
    """The log's event texts (of the last ``last`` entries)."""
    entries = enc.log if last is None else enc.log[-last:]
    return [e.text for entry in entries for e in entry.events]


def kinds(enc: State, kind: str, last: int = 1) -> list[dict[str, Any]]:
    """The data of the events of ``kind`` in the last ``last`` entries."""
    return [dict(e.data) for entry in enc.log[-last:] for e in entry.events if e.kind == kind]


def refused(enc: State, action: str) -> IllegalAction:
    """The refusal of an illegal action; the encounter is left as it was."""
    before = len(enc.log)
    with pytest.raises(IllegalAction) as err:
        enc.push(action)
    assert len(enc.log) == before
    return err.value


def who(enc: State, cid: str) -> Any:
    return enc.state.combatants[cid]
