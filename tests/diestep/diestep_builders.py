"""Builders for die-step encounters with scripted dice, so tests can work outcomes by hand.

    ana = sheet("ana", "heroes", att=8, defence=6, weapon="sword")
    enc = fight([ana, orc], faces=[6, 2])      # gm begin: REF for turn order, in setup order

Dice are given without the ``d``: ``att=8`` is an ATT d8 (``defence=`` and ``fort=``
stand for DEF and FOR, Python keywords aside). Faces are read in the order the rules
roll: ``gm begin`` rolls REF for each combatant in setup order (two faces when
advantaged or disadvantaged); an attack rolls the attacker's die, then the defence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from fracas.engine import Encounter, ScriptedDice
from fracas.rules import find
from fracas.rules.diestep.state import Combatant, DieStepState

RENAMED = {"defence": "def", "fort": "for"}


def sheet(
    name: str,
    side: str,
    *,
    hp: int = 6,
    mp: int = 0,
    ap: int | None = None,
    weapon: str | None = None,
    shield: bool = False,
    riding: bool = False,
    mount: bool = False,
    minion: bool = False,
    size: int = 0,
    **dice: int,
) -> dict[str, Any]:
    """A character sheet; every die not given is a d6."""
    out: dict[str, Any] = {
        "name": name.title(),
        "side": side,
        "dice": {RENAMED.get(k, k): f"d{v}" for k, v in dice.items()},
        "hit_points": hp,
        "magic_points": mp,
        "weapon": weapon,
        "shield": shield,
        "riding": riding,
        "mount": mount,
        "minion": minion,
        "size": size,
    }
    if ap is not None:
        out["ap"] = ap
    return out


def setup(
    sheets: Iterable[Mapping[str, Any]],
    place: Mapping[str, Mapping[str, Any]] | None = None,
    regions: Mapping[str, Any] | None = None,
    campaign: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A setup: everyone in region ``here`` unless ``place[name]`` says otherwise."""
    sheets = list(sheets)
    characters = {s["name"].lower(): dict(s) for s in sheets}
    placements = []
    for key in characters:
        p: dict[str, Any] = {"character": key, "region": "here"}
        p.update((place or {}).get(key, {}))
        placements.append(p)
    data: dict[str, Any] = {
        "campaign": {"characters": characters, **(campaign or {})},
        "combatants": placements,
    }
    data["regions"] = dict(regions) if regions is not None else {"here": {"borders": ["there"]}}
    data["regions"].setdefault("there", {})
    return data


def fight(
    sheets: Iterable[Mapping[str, Any]],
    faces: Iterable[int] = (),
    place: Mapping[str, Mapping[str, Any]] | None = None,
    regions: Mapping[str, Any] | None = None,
    campaign: Mapping[str, Any] | None = None,
    begin: bool = True,
) -> Encounter[DieStepState]:
    """An encounter (begun unless ``begin=False``) whose dice are the scripted ``faces``."""
    enc = Encounter(find("diestep"), setup(sheets, place, regions, campaign), ScriptedDice(faces))
    if begin:
        enc.push("gm begin")
    return enc


def roll(enc: Encounter[DieStepState], *faces: int) -> None:
    """Script the next faces."""
    dice = enc.dice
    assert isinstance(dice, ScriptedDice)
    dice.add(faces)


def who(enc: Encounter[DieStepState], cid: str) -> Combatant:
    return enc.state.combatants[cid]


def texts(enc: Encounter[DieStepState]) -> list[str]:
    return [e.text for e in enc.events()]


def results(enc: Encounter[DieStepState], kind: str = "result") -> list[dict[str, Any]]:
    """The data of every event of ``kind``."""
    return [dict(e.data) for e in enc.events() if e.kind == kind]
