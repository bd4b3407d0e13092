"""What a combatant of an encounter may say in each ruleset: the fields of its
``Placement`` model (its ``sheets`` capability's ``placement_model``: character, side,
where it stands, how it starts), read from the model's JSON Schema so that a form offers
exactly what the ruleset reads.

>>> [(f.name, f.kind) for f in fields("heimr")][:5]
[('character', 'text'), ('id', 'text'), ('side', 'text'), ('square', 'text'), ('stance', 'choice')]
>>> read({"character": "ylva", "square": "B2", "hit_points": "7", "prone": "on"}, fields("heimr"))
{'character': 'ylva', 'square': 'B2', 'hit_points': 7, 'prone': True}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel

from fracas.engine import EngineError
from fracas.engine.capabilities import Sheets, sheets
from fracas.rules import find

__all__ = ["PlacementField", "fields", "place_key", "read"]


def place_key(ruleset: str) -> str | None:
    """The field that says where a combatant of ``ruleset`` stands (``None``: nowhere in
    particular), as its ``sheets`` capability names it.

    >>> place_key("heimr")
    'square'
    """
    found = _sheets(ruleset)
    return found.place_key if found is not None else None


def _sheets(ruleset: str) -> Sheets | None:
    try:
        return sheets(find(ruleset))
    except EngineError:
        return None


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
    own = _sheets(ruleset)
    if own is None or own.placement_model is None:
        return ()
    model: type[BaseModel] = own.placement_model
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
