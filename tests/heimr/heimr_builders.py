"""Builders for Heimr encounters with scripted dice, so tests can work outcomes by hand.

    ylva = sheet("ylva", "north", dex=1, abilities={"Dueling": (2, 1)}, sword="Medium weapon")
    enc = encounter([ylva, brannoc], squares={"ylva": "B2"}, faces=[...])

Faces are read in the order the rules roll: ``gm begin`` rolls initiative for each
combatant in setup order (the d6, then dex d10s), then pre-rolls each defence in
initiative order, then the first turn starts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from fracas.engine import Encounter, ScriptedDice
from fracas.rules import find
from fracas.rules.heimr.state import HeimrState

ATTRIBUTES = ("str", "dex", "sta", "int", "soc", "emp")


def sheet(
    name: str,
    side: str,
    *,
    hp: int = 4,
    willpower: int = 3,
    abilities: Mapping[str, tuple[int, int]] | None = None,
    sword: str | None = None,
    off: str | None = None,
    carried: Iterable[str] = (),
    skills: Iterable[str] = (),
    **attributes: int,
) -> dict[str, Any]:
    """A character sheet; ``abilities`` maps a name to (trained C, trained P)."""
    unknown = set(attributes) - set(ATTRIBUTES)
    assert not unknown, unknown
    return {
        "name": name,
        "side": side,
        "attributes": {a: attributes.get(a, 0) for a in ATTRIBUTES},
        "hit_points": hp,
        "willpower": willpower,
        "abilities": {
            ability: {"trained_consistency": c, "trained_potential": p}
            for ability, (c, p) in (abilities or {}).items()
        },
        "items": {"sword_hand": sword, "off_hand": off, "carried": list(carried)},
        "skills": list(skills),
    }


def setup(
    sheets: Iterable[Mapping[str, Any]],
    squares: Mapping[str, str] | None = None,
    stances: Mapping[str, str] | None = None,
    place: Mapping[str, Mapping[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """An encounter setup with every sheet placed (B2 unless ``squares`` says otherwise);
    ``place`` adds placement fields by name (``{"ylva": {"fatigue": 7}}``)."""
    sheets = list(sheets)
    characters = {s["name"]: dict(s) for s in sheets}
    placements = []
    for s in sheets:
        p: dict[str, Any] = {"character": s["name"], "square": (squares or {}).get(s["name"], "B2")}
        if stances and s["name"] in stances:
            p["stance"] = stances[s["name"]]
        p.update((place or {}).get(s["name"], {}))
        placements.append(p)
    return {"campaign": {"characters": characters}, "combatants": placements, **extra}


def encounter(
    sheets: Iterable[Mapping[str, Any]],
    faces: Iterable[int] = (),
    squares: Mapping[str, str] | None = None,
    stances: Mapping[str, str] | None = None,
    place: Mapping[str, Mapping[str, Any]] | None = None,
    **extra: Any,
) -> Encounter[HeimrState]:
    """An encounter whose dice are the scripted ``faces`` (add more with ``enc.dice.add``)."""
    return Encounter(
        find("heimr"), setup(sheets, squares, stances, place, **extra), ScriptedDice(faces)
    )


def texts(enc: Encounter[HeimrState], last: int | None = None) -> list[str]:
    """The log's event texts (of the last ``last`` entries)."""
    entries = enc.log if last is None else enc.log[-last:]
    return [e.text for entry in entries for e in entry.events]
