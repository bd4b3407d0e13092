"""Builders for Heimr Tabletop Rulebook encounters with scripted dice.

    ylva = sheet("ylva", "heroes", stats={"CS": 6}, weapons={"Sword": "one-handed"},
                 main="Sword")
    enc = encounter([ylva, orc], faces=[...], positions={"Pub": ["Street"], "Street": []})

Faces are read in the order the rules roll: at ``gm close`` every fighter still in the
fight rolls initiative (a d20) in setup order, then any coin flips of a tie (d2), then
the declarations resolve in initiative order: an attack's d20, then the target's dodge
d20 when it is a potential hit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from fracas.engine import Encounter, IllegalAction, ScriptedDice
from fracas.rules import find
from fracas.rules.classic.state import ClassicState

State = Encounter[ClassicState]


def sheet(
    name: str,
    side: str,
    *,
    stats: Mapping[str, int] | None = None,
    weapons: Mapping[str, str] | None = None,
    main: str | None = None,
    off: str | None = None,
    carried: Iterable[str] = (),
    armour: Iterable[str] = (),
    skills: Iterable[str] = (),
    npc: bool = False,
    hp: int = 5,
    willpower: int = 10,
    hero: int = 0,
    background: str = "",
    **more: Any,
) -> dict[str, Any]:
    """A character sheet; statistics not given are 5 (HC-STAT-1)."""
    return {
        "name": name.capitalize(),
        "side": side,
        "npc": npc,
        "statistics": dict(stats or {}),
        "weapons": dict(weapons or {}),
        "main_hand": main,
        "off_hand": off,
        "carried": list(carried),
        "armour": list(armour),
        "skills": list(skills),
        "hit_points": hp,
        "willpower": willpower,
        "hero_points": hero,
        "background": background,
        **more,
    }


def setup(
    sheets: Iterable[Mapping[str, Any]],
    positions: Mapping[str, Any] | None = None,
    place: Mapping[str, Mapping[str, Any]] | None = None,
    **campaign: Any,
) -> dict[str, Any]:
    """A setup with every sheet placed; ``place`` adds placement fields by id."""
    sheets = list(sheets)
    characters = {s["name"].lower(): dict(s) for s in sheets}
    placements = []
    for key in characters:
        p: dict[str, Any] = {"character": key}
        p.update((place or {}).get(key, {}))
        placements.append(p)
    out: dict[str, Any] = {
        "campaign": {"characters": characters, **campaign},
        "combatants": placements,
    }
    if positions is not None:
        out["positions"] = {
            name: (spec if isinstance(spec, dict) else {"borders": list(spec)})
            for name, spec in positions.items()
        }
    return out


def encounter(
    sheets: Iterable[Mapping[str, Any]],
    faces: Iterable[int] = (),
    positions: Mapping[str, Any] | None = None,
    place: Mapping[str, Mapping[str, Any]] | None = None,
    **campaign: Any,
) -> State:
    return Encounter(
        find("heimr-classic"), setup(sheets, positions, place, **campaign), ScriptedDice(faces)
    )


def play(enc: State, *lines: str) -> None:
    for line in lines:
        enc.push(line)


def faces(enc: State, *more: int) -> None:
    assert isinstance(enc.dice, ScriptedDice)
    enc.dice.add(more)


def refused(enc: State, action: str) -> IllegalAction:
    """The refusal of an illegal action (nothing changes)."""
    before = len(enc.log)
    with pytest.raises(IllegalAction) as err:
        enc.push(action)
    assert len(enc.log) == before
    return err.value


def texts(enc: State, last: int = 1) -> list[str]:
    """The event texts of the last ``last`` log entries."""
    return [e.text for entry in enc.log[-last:] for e in entry.events]


def kinds(enc: State, kind: str, last: int = 1) -> list[str]:
    return [e.text for entry in enc.log[-last:] for e in entry.events if e.kind == kind]
