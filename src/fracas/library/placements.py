"""What a combatant of an encounter may say in each ruleset: the fields of its
``Placement`` model (character, side, where it stands, how it starts), read from the
model's JSON Schema so that a form offers exactly what the ruleset reads.

>>> [(f.name, f.kind) for f in fields("heimr")][:5]
[('character', 'text'), ('id', 'text'), ('side', 'text'), ('square', 'text'), ('stance', 'choice')]
>>> read({"character": "ylva", "square": "B2", "hit_points": "7", "prone": "on"}, fields("heimr"))
{'character': 'ylva', 'square': 'B2', 'hit_points': 7, 'prone': True}
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel

__all__ = ["PLACE_KEY", "PlacementField", "fields", "read"]

#: Each ruleset's package under :mod:`fracas.rules`.
PACKAGES = {
    "heimr": "heimr",
    "heimr-classic": "classic",
    "sides": "sides",
    "diestep": "diestep",
    "tempo": "tempo",
}
#: The field that says where a combatant stands (``None``: nowhere in particular).
PLACE_KEY: dict[str, str | None] = {
    "heimr": "square",
    "heimr-classic": "position",
    "sides": "at",
    "diestep": "region",
    "tempo": None,
}


@dataclass(frozen=True)
class PlacementField:
    """One field of a combatant: ``kind`` is text, int, number, bool, choice or list."""

    name: str
    kind: str
    choices: tuple[str, ...] = ()
    default: Any = None


def _kind(spec: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    options = [s for s in spec.get("anyOf", [spec]) if s.get("type") != "null"]
    first = options[0] if options else {}
    if "enum" in first:
        return "choice", tuple(str(v) for v in first["enum"])
    kinds = {
        "integer": "int",
        "number": "number",
        "boolean": "bool",
        "array": "list",
    }
    return kinds.get(str(first.get("type")), "text"), ()


@cache
def fields(ruleset: str) -> tuple[PlacementField, ...]:
    """The fields of a combatant of ``ruleset``, in the model's order."""
    module = importlib.import_module(f"fracas.rules.{PACKAGES[ruleset]}.setup")
    model: type[BaseModel] = module.Placement
    properties = model.model_json_schema().get("properties", {})
    found = []
    for name, spec in properties.items():
        kind, choices = _kind(spec)
        found.append(PlacementField(name, kind, choices, spec.get("default")))
    return tuple(found)


def read(raw: Mapping[str, str], known: Sequence[PlacementField]) -> dict[str, Any]:
    """A combatant from a form's text: empty fields left out, numbers and true/false
    read; text that is no number stays text, for the ruleset's check to name."""
    found: dict[str, Any] = {}
    for f in known:
        text = str(raw.get(f.name, "")).strip()
        if f.kind == "bool":
            if text in ("on", "true", "yes"):
                found[f.name] = True
            continue
        if not text:
            continue
        if f.kind == "int":
            found[f.name] = int(text) if text.lstrip("-").isdigit() and len(text) < 12 else text
        elif f.kind == "number":
            try:
                number = float(text) if len(text) < 20 else text
            except ValueError:
                number = text
            is_whole = isinstance(number, float) and number.is_integer()
            found[f.name] = int(number) if is_whole else number
        elif f.kind == "list":
            found[f.name] = [item.strip() for item in text.split(",") if item.strip()]
        else:
            found[f.name] = text
    return found
