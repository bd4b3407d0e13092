"""Drawing a battlefield in the terminal: squares like a chessboard, borders, and people.

Rules-agnostic: it draws plain JSON, as a ruleset's view gives it, and shows whoever
it is given (the caller leaves out whom a side may not see)::

    battlefield = {"columns": 3, "rows": 3,
                   "squares": {"B2": {"name": "courtyard", "height": 2, "difficult": True,
                                      "concealment": 1, "light": 1}},
                   "borders": [{"between": ["A1", "B1"], "name": "Stone wall", "toughness": 8},
                               {"between": ["B1", "B2"], "name": "Door", "limit": 1}]}
    people = {"ylva": {"name": "Ylva Shieldbreaker", "side": "shieldwall", "square": "B2",
                       "cluster": 1, "height": 2, "hidden": False}}

Row 1 is at the bottom and column A on the left, as on a chessboard. Each cell shows
the square (its height, difficult terrain, concealment and light), its name and the
people in it by short name, a combat cluster in brackets. A border is drawn by its
kind: a wall or barrier (``toughness``), a crossing challenge (``cr``), a movement
limit such as a door (``limit``) or a climb (``climb``: its CR per height, 0 for no
roll). The legend below explains the marks and describes every border; people whose
square is not on the grid are listed under it.

>>> field = {"columns": 3, "rows": 3, "squares": {"B2": {"name": "ford", "difficult": True}},
...          "borders": [{"between": ["A1", "B1"], "name": "Wall", "toughness": 8}]}
>>> people = {"y": {"name": "Ylva", "side": "north", "square": "A1", "cluster": 1},
...           "h": {"name": "Hrolf", "side": "south", "square": "A1", "cluster": 1}}
>>> print(draw(field, people, width=50).plain)
┌───────────────┬───────────────┬───────────────┐
│ A3            │ B3            │ C3            │
│               │               │               │
├───────────────┼───────────────┼───────────────┤
│ A2            │ B2 ∴          │ C2            │
│               │ ford          │               │
│               │               │               │
├───────────────┼───────────────┼───────────────┤
│ A1            █ B1            │ C1            │
│ [Ylva Hrolf]  █               │               │
└───────────────┴───────────────┴───────────────┘
∴ difficult terrain   [ ] combat cluster
█ wall or barrier (T: toughness)
■ north   ■ south
A1-B1 Wall: wall or barrier, toughness 8
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text

__all__ = ["BORDER_KINDS", "draw", "short_names"]

#: A border's kind: its vertical and horizontal line, style, and name in the legend.
BORDER_KINDS: dict[str, tuple[str, str, str, str]] = {
    "open": ("│", "─", "dim", "open"),
    "barrier": ("█", "█", "bold", "wall or barrier (T: toughness)"),
    "crossing": ("≀", "≈", "bold blue", "crossing challenge (CR)"),
    "limit": ("┊", "┈", "bold yellow", "movement limit, a door (≤ per count)"),
    "climb": ("╫", "╪", "bold green", "climb (CR per height)"),
}
#: Square marks: the field, its symbol and its meaning in the legend.
MARKS = (
    ("height", "↑", "height"),
    ("difficult", "∴", "difficult terrain"),
    ("concealment", "▒", "concealment"),
    ("light", "☼", "light"),
)
SIDE_STYLES = ("bold cyan", "bold red", "bold green", "bold magenta", "bold yellow", "bold blue")
NAME_WIDTH = 7
MIN_CELL, MAX_CELL = 8, 22

Segment = tuple[str, str]  # text and style
Line = list[Segment]
People = Mapping[str, Mapping[str, Any]]
Border = Mapping[str, Any]


def short_names(people: People) -> dict[str, str]:
    """Each person's first name, at most 7 characters; the id where two would clash.

    >>> short_names({"a": {"name": "Ylva Shieldbreaker"}, "b": {"name": "Ylva Red"}, "c": {}})
    {'a': 'a', 'b': 'b', 'c': 'c'}
    >>> short_names({"hrolf": {"name": "Hrolfsdottir"}})
    {'hrolf': 'Hrolfs…'}
    """
    first = {
        pid: _fit((str(p.get("name") or pid).split() or [pid])[0], NAME_WIDTH)
        for pid, p in people.items()
    }
    taken = list(first.values())
    return {pid: n if taken.count(n) == 1 else _fit(pid, NAME_WIDTH) for pid, n in first.items()}


def draw(battlefield: Mapping[str, Any], people: People, width: int = 100) -> Text:
    """The battlefield as text, ``width`` columns wide for grids up to 4 squares a row."""
    columns, rows = int(battlefield.get("columns", 3)), int(battlefield.get("rows", 3))
    cell = max(MIN_CELL, min(MAX_CELL, (width - columns - 1) // columns))
    squares: Mapping[str, Mapping[str, Any]] = battlefield.get("squares") or {}
    borders: dict[frozenset[str], Border] = {
        frozenset(b["between"]): b for b in battlefield.get("borders") or () if "between" in b
    }
    sides = sorted({str(p.get("side", "")) for p in people.values()})
    style = {side: SIDE_STYLES[i % len(SIDE_STYLES)] for i, side in enumerate(sides)}
    names = short_names(people)

    def between(a: str, b: str) -> Border | None:
        return borders.get(frozenset((a, b)))

    lines = [_rule("┌┬┐", [None] * columns, cell)]
    for r in reversed(range(rows)):
        row = [_square(c, r) for c in range(columns)]
        cells = [
            [[(" ", ""), *line] for line in _cell(sq, squares.get(sq), people, names, style, cell)]
            for sq in row
        ]
        for i in range(max(len(x) for x in cells)):
            line: Line = [("│", "dim")]
            for c, content in enumerate(cells):
                line += content[i] if i < len(content) else [(" " * cell, "")]
                if c + 1 < columns:
                    vertical, _, st, _ = BORDER_KINDS[_kind(between(row[c], row[c + 1]))]
                    line.append((vertical, st))
            lines.append([*line, ("│", "dim")])
        if r > 0:
            below = [between(sq, _square(c, r - 1)) for c, sq in enumerate(row)]
            lines.append(_rule("├┼┤", below, cell))
    lines.append(_rule("└┴┘", [None] * columns, cell))
    grid = {_square(c, r) for c in range(columns) for r in range(rows)}
    off = [pid for pid, p in people.items() if p.get("square") not in grid]
    if off:
        lines.append([("off the grid: ", "italic"), *_names(off, people, names, style)])
    lines += _legend(squares, people, style, borders, width)
    out = Text(no_wrap=True, overflow="crop")
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        for text, st in line:
            out.append(text, st or None)
    return out


# -- cells -------------------------------------------------------------------------------


def _square(c: int, r: int) -> str:
    return f"{chr(65 + c)}{r + 1}"


def _fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells, with an ellipsis when cut."""
    if cell_len(text) <= width:
        return text
    while text and cell_len(text) > width - 1:
        text = text[:-1]
    return text + "…"


def _size(line: Line) -> int:
    return sum(cell_len(text) for text, _ in line)


def _pad(line: Line, width: int) -> Line:
    return [*line, (" " * max(0, width - _size(line)), "")]


def _marks(square: Mapping[str, Any]) -> str:
    marks = []
    for field, symbol, _ in MARKS:
        value = square.get(field)
        if not value:
            continue
        shown = field in ("height", "concealment") and isinstance(value, int)
        marks.append(symbol + (str(value) if shown and value is not True else ""))
    return " ".join(marks)


def _token(pid: str, person: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A short name, its height when standing higher, and ``?`` when hidden."""
    return (
        names[pid]
        + (f"↑{person['height']}" if person.get("height") else "")
        + ("?" if person.get("hidden") else "")
    )


def _style(person: Mapping[str, Any], style: Mapping[str, str]) -> str:
    base = style.get(str(person.get("side", "")), "")
    return base + " italic dim" if person.get("hidden") else base


def _cell(
    sq: str,
    square: Mapping[str, Any] | None,
    people: People,
    names: Mapping[str, str],
    style: Mapping[str, str],
    cell: int,
) -> list[Line]:
    """The lines of one square's cell, less the space it starts with: the square and its
    marks, its name, then the people in it, wrapped (at least one line for them)."""
    square = square or {}
    width = cell - 1
    head: Line = [(sq, "bold")]
    marks = _marks(square)
    if marks:
        head.append((" " + _fit(marks, width - len(sq) - 1), "yellow"))
    lines = [_pad(head, width)]
    if square.get("name"):
        lines.append(_pad([(_fit(str(square["name"]), width), "italic dim")], width))
    groups: dict[Any, list[str]] = {}
    for pid, person in people.items():
        if person.get("square") == sq:
            groups.setdefault(person.get("cluster") or ("alone", pid), []).append(pid)
    line: Line = []
    people_lines: list[Line] = []
    for group in groups.values():
        for i, pid in enumerate(group):
            text = _token(pid, people[pid], names)
            if len(group) > 1:  # a combat cluster, in brackets
                text = ("[" if i == 0 else "") + text + ("]" if i == len(group) - 1 else "")
            text = _fit(text, width)
            if line and _size(line) + 1 + cell_len(text) > width:
                people_lines.append(_pad(line, width))
                line = []
            line += [(" ", "")] if line else []
            line.append((text, _style(people[pid], style)))
    people_lines.append(_pad(line, width))
    return lines + people_lines


def _names(
    ids: Sequence[str], people: People, names: Mapping[str, str], style: Mapping[str, str]
) -> Line:
    out: Line = []
    for i, pid in enumerate(ids):
        out += [(", ", "")] if i else []
        out.append((_token(pid, people[pid], names), _style(people[pid], style)))
    return out


# -- borders -----------------------------------------------------------------------------


def _kind(border: Border | None) -> str:
    """Which line to draw: the strongest obstacle the border holds."""
    if border is None:
        return "open"
    for field, kind in (("toughness", "barrier"), ("cr", "crossing"), ("limit", "limit")):
        if border.get(field) is not None:
            return kind
    return "climb" if border.get("climb") is not None else "open"


def _label(border: Border | None) -> str:
    """A border's short label on the map: ``T8``, ``CR5``, ``≤1``, ``climb 3``."""
    if border is None:
        return ""
    parts = []
    for field, form in (("toughness", "T{}"), ("cr", "CR{}"), ("limit", "≤{}")):
        if border.get(field) is not None:
            parts.append(form.format(border[field]))
    climb = border.get("climb")
    if climb is not None:
        parts.append(f"climb {climb}" if climb else "climb")
    return " ".join(parts)


def _describe(border: Border) -> str:
    """A border in words, for the legend."""
    parts = []
    if border.get("toughness") is not None:
        parts.append(f"wall or barrier, toughness {border['toughness']}")
    if border.get("cr") is not None:
        parts.append(f"crossing challenge CR {border['cr']}")
    if border.get("limit") is not None:
        parts.append(f"movement limit {border['limit']} per count")
    climb = border.get("climb")
    if climb is not None:
        parts.append(f"climb CR {climb} per height" if climb else "climb, no roll")
    return ", ".join(parts) or "open"


def _rule(corners: str, borders: Sequence[Border | None], cell: int) -> Line:
    """A horizontal line: the frame, or the borders between two rows with their labels."""
    left, join, right = corners[0], corners[1], corners[2]
    line: Line = [(left, "dim")]
    for c, border in enumerate(borders):
        _, horizontal, st, _ = BORDER_KINDS[_kind(border)]
        text = horizontal * cell
        label = _label(border)
        if label:
            label = _fit(f" {label} ", cell)
            start = (cell - cell_len(label)) // 2
            text = text[:start] + label + text[start + len(label) :]
        line += [(text, st), (join if c + 1 < len(borders) else right, "dim")]
    return line


# -- legend ------------------------------------------------------------------------------


def _legend(
    squares: Mapping[str, Mapping[str, Any]],
    people: People,
    style: Mapping[str, str],
    borders: Mapping[frozenset[str], Border],
    width: int,
) -> list[Line]:
    """The keys of the marks and lines drawn and of the sides, then every border in words."""
    marks: list[Line] = []
    for field, symbol, meaning in MARKS:
        marked = [*squares.values(), *people.values()] if field == "height" else squares.values()
        if any(s.get(field) for s in marked):
            marks.append([(symbol, "yellow"), (f" {meaning}", "dim")])
    if any(p.get("cluster") for p in people.values()):
        marks.append([("[ ]", "bold"), (" combat cluster", "dim")])
    if any(p.get("hidden") for p in people.values()):
        marks.append([("?", "bold"), (" hidden", "dim")])
    kinds = {_kind(b) for b in borders.values()}
    lines = [
        *_wrap(marks, width),
        *_wrap(
            [
                [(vertical, st), (f" {meaning}", "dim")]
                for kind, (vertical, _, st, meaning) in BORDER_KINDS.items()
                if kind in kinds and kind != "open"
            ],
            width,
        ),
        *_wrap(
            [[("■", st), (f" {side or 'no side'}", "dim")] for side, st in style.items()], width
        ),
    ]
    for pair, border in sorted(borders.items(), key=lambda item: sorted(item[0])):
        a, b = sorted(pair)
        name = f"{border['name']}: " if border.get("name") else ""
        lines.append([(f"{a}-{b} ", "bold"), (name + _describe(border), "")])
    return lines


def _wrap(keys: Sequence[Line], width: int) -> list[Line]:
    """Keys side by side, three spaces apart, in lines of at most ``width`` cells."""
    lines: list[Line] = []
    for key in keys:
        if lines and _size(lines[-1]) + 3 + _size(key) <= width:
            lines[-1] += [("   ", ""), *key]
        else:
            lines.append(list(key))
    return lines
