"""A character form generated from a ruleset's sheet model: one input per field, read
back into a sheet with each mistake kept for its field.

Numbers, text and yes/no fields get their own inputs (a checkbox for yes/no); a mapping
(attributes, abilities) is a row per entry, its name and its value, and a list (skills,
items carried) a row per entry, rows the page adds and removes; a value that is itself a
mapping, and any other nested model, is written as YAML, as a campaign file writes it.

>>> from fracas.ledger.books import books
>>> fields = sheet_fields(books("heimr"))
>>> [(f.name, f.kind, f.value_kind) for f in fields][2:4]
[('attributes', 'map', 'number'), ('hit_points', 'number', '')]
>>> read_sheet(fields, {"name": "Ylva", "hit_points": "four"})[1]
{'hit_points': 'a whole number, not four'}
>>> read_sheet(fields, {"name": "Ylva", "attributes.0.key": "Agility",
...                     "attributes.0.value": "3", "skills.4": "Sail"})[0]
{'name': 'Ylva', 'attributes': {'Agility': 3}, 'skills': ['Sail']}
"""

from __future__ import annotations

import re
import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Union, get_args, get_origin

import yaml

from fracas.ledger.books import Books
from fracas.yamlfile import CampaignError, parse_yaml

__all__ = ["SheetField", "read_sheet", "sheet_fields", "shown", "typed_rows"]


@dataclass(frozen=True)
class SheetField:
    """One input of the form: the sheet's field, its input kind, whether it is required."""

    name: str
    kind: str  # text | number | check | yaml | map | list
    required: bool
    description: str = ""
    #: A map's or a list's values: number | text | yaml.
    value_kind: str = ""


#: Most rows a mapping or a list of the form reads.
MAX_ROWS = 200


def _kind(annotation: Any) -> str:
    origin = get_origin(annotation)
    if origin is Annotated:
        return _kind(get_args(annotation)[0])
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


def _rows(annotation: Any) -> tuple[str, str]:
    """A field's kind and its values' kind when it is a mapping by name or a list."""
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is dict and len(args) == 2 and args[0] is str:
        inner = _kind(args[1])
        return "map", inner if inner in ("number", "text") else "yaml"
    if origin is list and len(args) == 1:
        inner = _kind(args[0])
        return "list", inner if inner in ("number", "text") else "yaml"
    return _kind(annotation), ""


def sheet_fields(books: Books) -> list[SheetField]:
    """The inputs of a ruleset's character form, in the sheet model's order."""
    fields = []
    for name, info in books.sheet_model.model_fields.items():
        kind, value_kind = _rows(info.annotation)
        fields.append(
            SheetField(name, kind, info.is_required(), info.description or "", value_kind)
        )
    return fields


def _flow(value: Any) -> str:
    text: str = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True)
    return text.strip().removesuffix("...").strip()


def shown(field: SheetField, sheet: Mapping[str, Any]) -> Any:
    """A sheet's value as its input shows it: text, or rows (``(name, value)`` pairs of
    a mapping, the values of a list)."""
    value = sheet.get(field.name)
    if field.kind == "map":
        return [(str(k), v if isinstance(v, str) else _flow(v)) for k, v in (value or {}).items()]
    if field.kind == "list":
        return [v if isinstance(v, str) else _flow(v) for v in (value or [])]
    if field.name not in sheet or value is None:
        return ""
    if field.kind == "yaml":
        text: str = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True)
        return text.strip().removesuffix("...").strip()
    return str(value)


_ROW = re.compile(r"(?P<field>[a-z_][a-z0-9_]*)\.(?P<row>[0-9]{1,4})(\.(?P<part>key|value))?")


def typed_rows(fields: list[SheetField], form: Mapping[str, Any]) -> dict[str, Any]:
    """The rows of each mapping and list as typed in a form (in the page's order)."""
    rows: dict[str, dict[int, dict[str, str]]] = {}
    for name, value in form.items():
        found = _ROW.fullmatch(str(name))
        if found is None:
            continue
        row = rows.setdefault(found["field"], {}).setdefault(int(found["row"]), {})
        row[found["part"] or "value"] = str(value).strip()
    typed: dict[str, Any] = {}
    for field in fields:
        if field.kind not in ("map", "list"):
            continue
        given = [rows.get(field.name, {})[i] for i in sorted(rows.get(field.name, {}))]
        given = given[:MAX_ROWS]
        if field.kind == "map":
            typed[field.name] = [(r.get("key", ""), r.get("value", "")) for r in given]
        else:
            typed[field.name] = [r.get("value", "") for r in given]
    return typed


def _value(field: SheetField, raw: str, where: str) -> tuple[Any, str | None]:
    """A row's value read as its kind says, or the mistake."""
    if field.value_kind == "number":
        digits = raw.lstrip("-")
        if not digits.isdigit() or len(digits) > 9:
            return None, f"{where}: a whole number, not {raw[:20]!r}"
        return int(raw), None
    if field.value_kind == "yaml":
        try:
            return parse_yaml(raw, where).data, None
        except CampaignError as err:
            return None, str(err).splitlines()[0]
    return raw, None


def read_sheet(
    fields: list[SheetField], form: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, str]]:
    """The sheet a form describes, and a message for each field it cannot read."""
    sheet: dict[str, Any] = {}
    errors: dict[str, str] = {}
    rows = typed_rows(fields, form)
    for field in fields:
        if field.kind in ("map", "list"):
            value, problems = _read_rows(field, rows.get(field.name, []))
            if problems:
                errors[field.name] = "; ".join(problems)
            elif value:
                sheet[field.name] = value
            continue
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


def _read_rows(field: SheetField, rows: list[Any]) -> tuple[Any, list[str]]:
    """A mapping's or a list's rows read (empty rows left out), and their mistakes."""
    problems: list[str] = []
    if field.kind == "map":
        mapping: dict[str, Any] = {}
        for key, raw in rows:
            if not key and not raw:
                continue
            if not key:
                problems.append(f"a name for the value {raw[:20]!r}")
                continue
            if key in mapping:
                problems.append(f"{key} is there twice")
                continue
            value, problem = _value(field, raw, key)
            if problem:
                problems.append(problem)
            else:
                mapping[key] = value
        return mapping, problems
    listed: list[Any] = []
    for i, raw in enumerate(rows, 1):
        if not raw:
            continue
        value, problem = _value(field, raw, f"row {i}")
        if problem:
            problems.append(problem)
        else:
            listed.append(value)
    return listed, problems
