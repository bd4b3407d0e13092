"""The battlefield drawing: cells in chessboard order, people in their squares, borders
between the right cells, a legend, and 100 columns for a 4x4 grid."""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console

from fracas.tracker.mapview import draw, short_names

FIELD: dict[str, Any] = {
    "columns": 4,
    "rows": 4,
    "squares": {
        "B2": {"name": "courtyard", "height": 2, "difficult": True, "concealment": 1, "light": 1},
        "C3": {"name": "the wall walk of the old keep", "height": 4, "concealment": 2},
    },
    "borders": [
        {"between": ["A1", "B1"], "name": "Stone wall", "toughness": 8},
        {"between": ["B1", "B2"], "name": "Single door", "limit": 1},
        {"between": ["A2", "A3"], "name": "Window", "limit": 1, "cr": 5},
        {"between": ["C2", "C3"], "name": "Ladder", "climb": 0},
    ],
}
PEOPLE: dict[str, dict[str, Any]] = {
    "ylva": {"name": "Ylva Shieldbreaker", "side": "shieldwall", "square": "B2", "cluster": 1},
    "astrid": {"name": "Astrid Ironside", "side": "raiders", "square": "B2", "cluster": 1},
    "hrolf": {"name": "Hrolf the Bear", "side": "raiders", "square": "D4"},
    "eirik": {"name": "Eirik Longshot", "side": "shieldwall", "square": "C3", "height": 4},
}


def render(people: dict[str, dict[str, Any]] = PEOPLE, field: dict[str, Any] = FIELD) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(draw(field, people))
    return console.export_text()


def cell(text: str, square: str) -> str:
    """The text inside ``square``'s cell: from its header down to the next rule."""
    lines = text.splitlines()
    header = rf"(?<=[│█≀┊╫]) {square}\b"
    top = next((i for i, line in enumerate(lines) if re.search(header, line)), None)
    assert top is not None, f"no cell for {square}"
    line = lines[top]
    found = re.search(header, line)
    assert found is not None
    start = found.start()
    end = next(i for i in range(start + 1, len(line)) if line[i] in "│█≀┊╫")
    out = []
    for row in lines[top:]:
        if row[0] in "├└":
            break
        out.append(row[start:end].strip())
    return "\n".join(out)


def test_rows_run_from_the_highest_down_like_a_chessboard() -> None:
    lines = render().splitlines()
    headers = [line for line in lines if re.match(r"│ A\d", line)]
    assert [h[2:4] for h in headers] == ["A4", "A3", "A2", "A1"]
    assert re.search(r"│ A4 .*│ B4 .*│ C4 .*│ D4 ", headers[0])


def test_people_appear_in_their_square_with_clusters_in_brackets() -> None:
    text = render()
    assert cell(text, "B2").splitlines() == ["B2 ↑2 ∴ ▒1 ☼", "courtyard", "[Ylva Astrid]"]
    assert cell(text, "D4").splitlines()[-1] == "Hrolf"
    assert "Eirik↑4" in cell(text, "C3")  # standing at height 4
    assert "wall walk" in cell(text, "C3") and "…" in cell(text, "C3")  # a long name is cut
    assert "Ylva" not in cell(text, "A1") + cell(text, "C2")


def test_a_wall_stands_between_its_two_cells_and_a_door_under_its_square() -> None:
    lines = render().splitlines()
    a1 = next(line for line in lines if line.startswith("│ A1"))
    assert re.match(r"│ A1 +█ B1 +│ C1 +│ D1 +│$", a1)  # the wall between A1 and B1 only
    below_b2 = lines[lines.index(a1) - 1]
    assert below_b2.startswith("├") and "≤1" in below_b2  # the door between B2 and B1
    columns = [m.start() for m in re.finditer("[├┼┤]", below_b2)]
    b_span = below_b2[columns[1] + 1 : columns[2]]
    assert set(b_span) <= {"┈", " ", "≤", "1"} and "≤1" in b_span
    assert set(below_b2[columns[0] + 1 : columns[1]]) == {"─"}  # nothing between A2 and A1


def test_the_legend_explains_marks_and_names_every_border() -> None:
    text = render()
    assert "↑ height" in text and "∴ difficult terrain" in text and "☼ light" in text
    assert "█ wall or barrier" in text and "┊ movement limit" in text and "╫ climb" in text
    assert "A1-B1 Stone wall: wall or barrier, toughness 8" in text
    assert "A2-A3 Window: crossing challenge CR 5, movement limit 1 per count" in text
    assert "C2-C3 Ladder: climb, no roll" in text
    assert "■ raiders" in text and "■ shieldwall" in text


def test_hidden_people_are_drawn_only_when_the_caller_passes_them() -> None:
    hidden = {**PEOPLE, "eirik": {**PEOPLE["eirik"], "hidden": True}}
    assert "Eirik↑4?" in cell(render(hidden), "C3")  # the game master's view
    assert "? hidden" in render(hidden)
    players = {pid: p for pid, p in hidden.items() if not p.get("hidden")}
    assert "Eirik" not in render(players)


def test_people_off_the_grid_are_listed_under_it() -> None:
    text = render({**PEOPLE, "ghost": {"name": "Ghost", "side": "raiders", "square": "out"}})
    assert "off the grid: Ghost" in text


def test_a_4x4_grid_fits_100_columns() -> None:
    names = ("Bjorgolfr", "Gunnhildr", "Ingibjorg", "Skarphedinn", "Thorbjorn", "Vigdis")
    crowd = {
        n.lower(): {"name": f"{n} of the north", "side": f"side{i % 3}", "square": "B2"}
        for i, n in enumerate(names)
    }
    text = render({**PEOPLE, **crowd})
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "Bjorgo…" in cell(text, "B2") and "Vigdis" in cell(text, "B2")  # 7 at most


def test_short_names_fall_back_to_ids_when_they_clash() -> None:
    names = short_names({"y1": {"name": "Ylva"}, "y2": {"name": "Ylva Red"}, "h": {"name": "H"}})
    assert names == {"y1": "y1", "y2": "y2", "h": "H"}
