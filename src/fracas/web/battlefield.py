"""The battlefield as SVG shapes, from a screen's ``battlefield`` and ``people`` (plain
JSON: the screen holds only what its audience may see).

>>> field = {"columns": 2, "rows": 1, "squares": {"A1": {"height": 1, "concealment": 2}}}
>>> shapes = layout(field, {"y": {"name": "Ylva", "side": "north", "square": "A1"}})
>>> shapes.width, [s.name for s in shapes.squares], shapes.people[0].label
(200, ['A1', 'B1'], 'Yl')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Shapes", "layout"]

CELL = 100
SIDE_COLOURS = ("#2b6cb0", "#c53030", "#2f855a", "#b7791f", "#6b46c1", "#319795")


@dataclass(frozen=True)
class Square:
    name: str
    x: int
    y: int
    label: str
    height: int
    concealment: int
    difficult: bool
    dark: bool


@dataclass(frozen=True)
class Border:
    x1: int
    y1: int
    x2: int
    y2: int
    kind: str
    title: str


@dataclass(frozen=True)
class Person:
    id: str
    name: str
    label: str
    x: int
    y: int
    colour: str
    hidden: bool
    cluster: int | None


@dataclass(frozen=True)
class Shapes:
    width: int
    height: int
    squares: tuple[Square, ...]
    borders: tuple[Border, ...]
    people: tuple[Person, ...]
    off: tuple[str, ...]


def _short(people: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """Each token's two letters: the name's first two, or its first and a number where
    two share the name.

    >>> _short({"a": {"name": "Eirik"}, "b": {"name": "Eirik"}, "y": {"name": "Ylva"}})
    {'a': 'E1', 'b': 'E2', 'y': 'Yl'}
    """
    names = {pid: str(p.get("name") or pid) for pid, p in people.items()}
    seen: dict[str, int] = {}
    counts = {n: list(names.values()).count(n) for n in set(names.values())}
    out = {}
    for pid, name in names.items():
        if counts[name] > 1:
            seen[name] = seen.get(name, 0) + 1
            out[pid] = f"{name[:1]}{seen[name]}"
        else:
            out[pid] = name[:2]
    return out


def _name(column: int, row: int) -> str:
    return f"{chr(ord('A') + column)}{row + 1}"


def layout(battlefield: Mapping[str, Any], people: Mapping[str, Mapping[str, Any]]) -> Shapes:
    """Where each square, border and person is drawn (row 1 at the bottom, column A left)."""
    columns, rows = int(battlefield.get("columns", 1)), int(battlefield.get("rows", 1))
    info: Mapping[str, Mapping[str, Any]] = battlefield.get("squares") or {}
    where: dict[str, tuple[int, int]] = {}
    squares = []
    for r in range(rows):
        for c in range(columns):
            name = _name(c, r)
            x, y = c * CELL, (rows - 1 - r) * CELL
            where[name] = (x, y)
            sq = info.get(name) or {}
            squares.append(
                Square(
                    name,
                    x,
                    y,
                    str(sq.get("name") or ""),
                    int(sq.get("height") or 0),
                    int(sq.get("concealment") or 0),
                    bool(sq.get("difficult")),
                    sq.get("lit") is False,
                )
            )
    borders = []
    for b in battlefield.get("borders") or ():
        ends = [where.get(str(s)) for s in b.get("between", ())]
        if len(ends) != 2 or None in ends:
            continue
        (ax, ay), (bx, by) = ends  # type: ignore[misc]
        if ay == by:  # side by side: the vertical line between them
            x = max(ax, bx)
            line = (x, ay, x, ay + CELL)
        else:
            y = max(ay, by)
            line = (ax, y, ax + CELL, y)
        kind = next((k for k in ("toughness", "limit", "climb", "cr") if k in b), "border")
        borders.append(Border(*line, kind, str(b.get("name") or kind)))
    sides = sorted({str(p.get("side") or "") for p in people.values()})
    colour = {s: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(sides)}
    placed: dict[str, int] = {}
    drawn, off = [], []
    short = _short(people)
    for pid, p in people.items():
        spot = where.get(str(p.get("square")))
        name = str(p.get("label") or p.get("name") or pid)
        if spot is None:
            off.append(name)
            continue
        n = placed.get(str(p.get("square")), 0)
        placed[str(p.get("square"))] = n + 1
        cluster = p.get("cluster")
        drawn.append(
            Person(
                pid,
                name,
                short[pid],
                spot[0] + 22 + (n % 3) * 28,
                spot[1] + 40 + (n // 3) * 28,
                colour[str(p.get("side") or "")],
                bool(p.get("hidden")),
                cluster if isinstance(cluster, int) else None,
            )
        )
    return Shapes(
        columns * CELL, rows * CELL, tuple(squares), tuple(borders), tuple(drawn), tuple(off)
    )
