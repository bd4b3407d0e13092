"""A character form generated from a ruleset's sheet model: one input per field, read
back into a sheet with each mistake kept for its field.

Numbers, text and yes/no fields get their own inputs; mappings, lists and nested models
are written in a text box as YAML, as a campaign file writes them (``{str: 1, dex: 0}``).

>>> from fracas.ledger.books import books
>>> fields = sheet_fields(books("heimr"))
>>> [(f.name, f.kind) for f in fields][2:4]
[('attributes', 'yaml'), ('hit_points', 'number')]
>>> read_sheet(fields, {"name": "Ylva", "hit_points": "four"})[1]
{'hit_points': 'a whole number, not four'}
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union, get_args, get_origin

import yaml

from fracas.ledger.books import Books
from fracas.yamlfile import CampaignError, parse_yaml

__all__ = ["SheetField", "read_sheet", "sheet_fields", "shown"]


@dataclass(frozen=True)
class SheetField:
    """One input of the form: the sheet's field, its input kind, whether it is required."""

    name: str
    kind: str  # text | number | check | yaml
    required: bool
    description: str = ""


def _kind(annotation: Any) -> str:
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        inner = [a for a in get_args(annotation) if a is not type(None)]
        return _kind(inner[0]) if len(inner) == 1 else "yaml"
    if annotation is bool:
        return "check"
    if annotation is int:
        return "number"
    if annotation is str:
        return "text"
    return "yaml"


def sheet_fields(books: Books) -> list[SheetField]:
    """The inputs of a ruleset's character form, in the sheet model's order."""
    return [
        SheetField(name, _kind(info.annotation), info.is_required(), info.description or "")
        for name, info in books.sheet_model.model_fields.items()
    ]


def shown(field: SheetField, sheet: Mapping[str, Any]) -> str:
    """A sheet's value as its input shows it."""
    if field.name not in sheet or sheet[field.name] is None:
        return ""
    value = sheet[field.name]
    if field.kind == "yaml":
        text: str = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True)
        return text.strip().removesuffix("...").strip()
    return str(value)


def read_sheet(
    fields: list[SheetField], form: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, str]]:
    """The sheet a form describes, and a message for each field it cannot read."""
    sheet: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for field in fields:
        raw = str(form.get(field.name, "")).strip()
        if field.kind == "check":
            if raw:
                sheet[field.name] = raw in ("on", "true", "yes", "1")
            continue
        if not raw:
            continue
        if field.kind == "number":
            digits = raw.lstrip("-")
            if not digits.isdigit() or len(digits) > 9:
                errors[field.name] = f"a whole number, not {raw[:20]}"
            else:
                sheet[field.name] = int(raw)
        elif field.kind == "yaml":
            try:
                sheet[field.name] = parse_yaml(raw, field.name).data
            except CampaignError as err:
                errors[field.name] = str(err).splitlines()[0]
        else:
            sheet[field.name] = raw
    return sheet, errors
