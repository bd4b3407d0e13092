"""Edits of a battlefield document, as the editor makes them: each takes a document and
returns a new one (never changing its argument); the library checks the result.

A grid (its squares named by column letter and row number, A1 the first) keeps only
what differs from a plain square, so that its file reads like one written by hand:

>>> doc = {"battlefield": {"columns": 3, "rows": 3}}
>>> doc = set_square(doc, "B2", {"name": "hall", "height": 0, "terrain": "normal"})
>>> doc = set_border(doc, "B3", "B2", {"preset": "Single door"})
>>> doc["battlefield"]["squares"], doc["battlefield"]["borders"]
({'B2': {'name': 'hall'}}, [{'between': ['B2', 'B3'], 'preset': 'Single door'}])
>>> resize(doc, 3, 3)[1], resize(doc, 3, 2)[1], resize(doc, 1, 1)[1]
([], ['border B2-B3'], ['square B2', 'border B2-B3'])
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "border_index",
    "remove_place",
    "resize",
    "set_border",
    "set_line",
    "set_place",
    "set_square",
]

#: A square's fields and the values a plain square has (left out of the file).
SQUARE_DEFAULTS: dict[str, Any] = {
    "name": "",
    "terrain": "normal",
    "height": 0,
    "top": None,
    "climb": None,
    "concealment": [],
    "light": None,
    "roof": False,
}
#: A border's fields besides ``between`` (``None``: not set).
BORDER_FIELDS = ("preset", "climb", "closed", "limit", "cr", "toughness", "one_way_from")


def _grid(document: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    doc = copy.deepcopy(dict(document))
    field = doc.get("battlefield")
    if not isinstance(field, dict):
        field = doc["battlefield"] = {"columns": 3, "rows": 3}
    return doc, field


def _on_grid(square: object, columns: int, rows: int) -> bool:
    if not isinstance(square, str) or len(square) < 2 or not square[1:].isdigit():
        return False
    c, r = ord(square[0].upper()) - 65, int(square[1:]) - 1  # A1: column A, row 1
    return 0 <= c < columns and 0 <= r < rows


def resize(
    document: Mapping[str, Any], columns: int, rows: int
) -> tuple[dict[str, Any], list[str]]:
    """The grid made ``columns`` by ``rows``, and the squares and borders that fell off it."""
    doc, field = _grid(document)
    field["columns"], field["rows"] = columns, rows
    dropped = []
    squares = field.get("squares")
    if isinstance(squares, dict):
        for name in list(squares):
            if not _on_grid(name, columns, rows):
                dropped.append(f"square {name}")
                del squares[name]
    borders = field.get("borders")
    if isinstance(borders, list):
        kept = []
        for b in borders:
            ends = b.get("between") if isinstance(b, dict) else None
            if isinstance(ends, list | tuple) and not all(_on_grid(s, columns, rows) for s in ends):
                dropped.append(f"border {'-'.join(str(s) for s in ends)}")
            else:
                kept.append(b)
        field["borders"] = kept
    return doc, dropped


def set_square(
    document: Mapping[str, Any], square: str, values: Mapping[str, Any]
) -> dict[str, Any]:
    """The square's fields set to ``values`` (those a plain square has are left out)."""
    doc, field = _grid(document)
    spec = {
        key: value
        for key, value in values.items()
        if key in SQUARE_DEFAULTS and value != SQUARE_DEFAULTS[key] and value is not None
    }
    squares = field.setdefault("squares", {})
    if spec:
        squares[square] = spec
    else:
        squares.pop(square, None)
    if not squares:
        del field["squares"]
    return doc


def border_index(document: Mapping[str, Any], a: str, b: str) -> int | None:
    """The index of the border between ``a`` and ``b`` (either way round), if any."""
    field = document.get("battlefield") or {}
    for i, border in enumerate(field.get("borders") or ()):
        if isinstance(border, dict) and sorted(map(str, border.get("between") or ())) == sorted(
            (a, b)
        ):
            return i
    return None


def set_border(
    document: Mapping[str, Any], a: str, b: str, values: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The border between ``a`` and ``b`` set to ``values``, or taken away when ``None``
    or when nothing is set; it keeps its place in the list."""
    doc, field = _grid(document)
    borders = field.setdefault("borders", [])
    index = border_index(doc, a, b)
    spec: dict[str, Any] = {"between": sorted((a, b))}
    spec.update({k: v for k, v in (values or {}).items() if k in BORDER_FIELDS and v is not None})
    if len(spec) == 1:
        if index is not None:
            del borders[index]
    elif index is None:
        borders.append(spec)
    else:
        borders[index] = spec
    if not borders:
        del field["borders"]
    return doc


def _borders(spec: Mapping[str, Any]) -> Sequence[str] | Mapping[str, Any]:
    found = spec.get("borders")
    return found if isinstance(found, list | dict) else []


def _plain(borders: Mapping[str, Any]) -> list[str] | dict[str, Any]:
    """A place's borders as a plain list when none blocks other than 1."""
    if all(spec in ({}, {"blocks": 1}) for spec in borders.values()):
        return list(borders)
    return dict(borders)


def set_place(
    document: Mapping[str, Any],
    key: str,
    old: str | None,
    name: str,
    borders: Sequence[str],
    values: Mapping[str, Any],
    blocks: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A named place of a free map (``key``: ``positions`` or ``regions``) added, or
    ``old`` renamed and changed: its borders (both ways) and its own ``values``.

    ``blocks`` (heimr-classic, HC-MOVE-2) gives each of the place's borders how many
    enemies one guard standing in it holds back there (the other end keeps its own
    count); a place whose borders all block 1 keeps the plain list form:

    >>> doc = {"positions": {"bank": {"borders": {"ford": {"blocks": 3}}}}}
    >>> set_place(doc, "positions", None, "ford", ["bank"], {}, {"bank": 2})["positions"]
    {'bank': {'borders': {'ford': {'blocks': 3}}}, 'ford': {'borders': {'bank': {'blocks': 2}}}}
    >>> set_place(doc, "positions", None, "ford", ["bank"], {}, {"bank": 1})["positions"]
    {'bank': {'borders': {'ford': {'blocks': 3}}}, 'ford': {'borders': ['bank']}}
    """
    doc = copy.deepcopy(dict(document))
    places = doc.get(key)
    if isinstance(places, list):
        places = {str(p): {} for p in places}
    if not isinstance(places, dict):
        places = {}
    before = places.pop(old, None) if old is not None else None
    spec: dict[str, Any] = dict(before) if isinstance(before, dict) else {}
    for other, other_spec in places.items():
        if not isinstance(other_spec, dict):
            continue
        theirs = _borders(other_spec)
        if isinstance(theirs, dict):
            kept = [theirs.pop(n) for n in (old, name) if n is not None and n in theirs]
            if kept and other in borders:
                theirs[name] = kept[0]
        elif old in theirs or name in theirs:
            other_spec["borders"] = [b for b in theirs if b not in (old, name) or other in borders]
            other_spec["borders"] = [name if b == old else b for b in other_spec["borders"]]
        if "borders" in other_spec and not other_spec["borders"]:
            del other_spec["borders"]
    mine = _borders(spec)
    if blocks is not None:
        counts = {b: blocks.get(b, 1) for b in borders}
        spec["borders"] = _plain({b: {} if n == 1 else {"blocks": n} for b, n in counts.items()})
    elif isinstance(mine, dict):
        spec["borders"] = {b: mine.get(b, {}) for b in borders}
    else:
        spec["borders"] = list(borders)
    for field, value in values.items():
        if "." in field:  # modifiers.attack
            group, _, item = field.partition(".")
            part = spec.setdefault(group, {})
            if value in (None, "", 0):
                part.pop(item, None)
            else:
                part[item] = value
            if not part:
                del spec[group]
        elif value in (None, "", False):
            spec.pop(field, None)
        else:
            spec[field] = value
    if not spec["borders"]:
        del spec["borders"]
    places[name] = spec
    doc[key] = places
    return doc


def remove_place(document: Mapping[str, Any], key: str, name: str) -> dict[str, Any]:
    """A free map without the place ``name``, nor any border to it."""
    doc = set_place(document, key, name, name, [], {})
    del doc[key][name]
    return doc


def set_line(
    document: Mapping[str, Any], units: str | None, confined: bool | None
) -> dict[str, Any]:
    """The line of a sides battlefield: its units and whether the space is confined
    (``None``: the campaign's)."""
    doc = {k: v for k, v in document.items() if k not in ("units", "confined_space")}
    if units:
        doc["units"] = units
    if confined is not None:
        doc["confined_space"] = confined
    return doc
