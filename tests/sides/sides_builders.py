"""Builders for side-initiative encounters with scripted dice, so outcomes work out by hand.

    enc = started(darna(), orc(at=30))      # party wins the initiative 4 to 1 and acts

Faces are read in the order the rules roll: ``gm begin`` rolls 1d6 per side (the sides
in the order their first combatant appears; a tie rolls both again); a shot rolls its
2d6 and, on a hit, its damage die at once; the melee rolls attack by attack, First
Strike, then the simultaneous strike, then Last Strike, each in order (acting side
first, setup order), every attack's 2d6 followed by its damage die on a hit. When a
round ends and both sides still stand, the next round's initiative is rolled at once.

Darna and the Orc are the seed's: Darna attacks with a mace (Strength 10), the Orc has
Evasion 1 and leather armour (Protection 1).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fracas.engine import Encounter, ScriptedDice
from fracas.rules import find
from fracas.rules.sides.state import SidesState
from fracas.table.encounterfile import load


def darna(**changes: Any) -> dict[str, Any]:
    """Darna the dwarf: a player character (Stamina 4, Health 6), Strength 10, a mace,
    exploration movement 60' (combat movement 20')."""
    sheet: dict[str, Any] = {
        "name": "Darna",
        "side": "party",
        "player": True,
        "attributes": {"Strength": 10, "Agility": 8},
        "health": 6,
        "stamina": 4,
        "movement": 60,
        "weapons": ["Mace"],
        "at": 0,
    }
    return {**sheet, **changes}


def orc(**changes: Any) -> dict[str, Any]:
    """An orc: Evasion 1 (as the seed gives it), leather armour, a sword, Strength 9,
    Health 4 and no Stamina; combat movement 20'."""
    sheet: dict[str, Any] = {
        "name": "Orc",
        "side": "orcs",
        "attributes": {"Strength": 9, "Agility": 7},
        "evasion": 1,
        "health": 4,
        "movement": 60,
        "weapons": ["Sword"],
        "armour": "Leather armour",
        "at": 30,
    }
    return {**sheet, **changes}


def setup(*combatants: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"combatants": list(combatants), **extra}


def encounter(
    *combatants: dict[str, Any], faces: Iterable[int] = (), **extra: Any
) -> Encounter[SidesState]:
    """An encounter whose dice are the scripted ``faces`` (add more with ``enc.dice.add``)."""
    return Encounter(find("sides"), setup(*combatants, **extra), ScriptedDice(faces))


def started(
    *combatants: dict[str, Any],
    initiative: tuple[int, int] = (4, 1),
    choice: str = "act",
    **extra: Any,
) -> Encounter[SidesState]:
    """Begun: the initiative rolls (first side, second side) and the winner's choice."""
    enc = encounter(*combatants, faces=initiative, **extra)
    enc.push("gm begin")
    winner = enc.state.winner
    assert winner is not None
    enc.push(f"{winner} {choice}")
    return enc


def play(enc: Encounter[SidesState], *lines: str, faces: Iterable[int] = ()) -> None:
    """Add ``faces`` and push each line."""
    enc.dice.add(faces)
    for line in lines:
        enc.push(line)


def texts(enc: Encounter[SidesState], last: int = 1) -> list[str]:
    """The texts of the events of the last ``last`` log entries."""
    return [e.text for entry in enc.log[-last:] for e in entry.events]


# -- the kernel's tests: the examples, and builds of several combatants a side ---------

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ("mace", "metal", "ambush")


def example(name: str) -> dict[str, Any]:
    _, found, _ = load(ROOT / "examples" / "sides" / f"{name}.yaml")
    return found


def archer(name: str, at: float, **changes: Any) -> dict[str, Any]:
    """A goblin archer (Agility 10, a longbow: close to 70', far to 210') with a dagger."""
    sheet = orc(name=name, attributes={"Strength": 6, "Agility": 10}, health=3, at=at)
    sheet.pop("evasion")
    return {**sheet, "weapons": ["Longbow", "Dagger"], "armour": None, **changes}


def builds() -> dict[str, dict[str, Any]]:
    """The examples, and four builds of several combatants a side."""
    found = {name: example(name) for name in EXAMPLES}
    found["ambush, the party surprised"] = {**example("ambush"), "surprised": ["party"]}
    found["a rider with two axes against a spear and a far archer"] = setup(
        darna(
            name="Rider",
            mounted=True,
            weapons=["Hand axe"],
            off_hand="Hand axe",
            attributes={"Strength": 9, "Agility": 9},
        ),
        darna(name="Ana", weapons=["Crossbow", "Short sword"], at=-30, stamina=2),
        orc(name="Spear", weapons=["Spear"], at=45),
        archer("Archer", 230),
    )
    found["two against three in a corridor, at range"] = setup(
        darna(weapons=["Warhammer"]),
        darna(name="Kel", weapons=["Sling", "Sword"], at=-5),
        orc(at=60),
        orc(name="Urk", weapons=["Battle axe"], armour="Chain mail", at=70),
        archer("Snik", 140, weapons=["Shortbow"]),
        confined_space=True,
    )
    found["both sides surprised"] = {**example("mace"), "surprised": ["party", "orcs"]}
    return found
