"""Drawing a :class:`~fracas.table.presenter.Screen` on a terminal of a given size.

Everything drawn comes from the screen, which comes from one side's view: this module
only lays it out. The layout fits 80×24: one line for the header, one for whose turn
it is, a line or two per combatant (effects with their numbers and turns left, readied
actions), the offered actions grouped by verb, and the log's last lines in the room left.
The map is drawn when asked for, or when the terminal is tall enough to hold it too.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from rich.console import Group
from rich.text import Text

from fracas.table.presenter import Row, Screen
from fracas.tracker import mapview

#: Log lines always kept, however little room is left.
MIN_LOG = 2


def draw(
    screen: Screen,
    numbered: Sequence[tuple[int, str]],
    width: int = 80,
    height: int = 24,
    show_map: bool | None = None,
    message: str = "",
) -> Group:
    """The screen as lines of at most ``width`` cells, ``height - 1`` lines in all (the
    last line is the prompt's)."""
    top = [Text(screen.header, style="bold", overflow="ellipsis", no_wrap=True)]
    status = screen.status + (f" {screen.note}" if screen.note else "")
    top += _wrapped(status, width, "bold green" if screen.over else "bold")
    rows = [line for row in screen.rows for line in _row(row, width)]
    actions = _actions(numbered, width)
    bottom = [Text(line, style="yellow") for line in _wrap_plain(message, width)]
    fixed = len(top) + len(rows) + len(actions) + len(bottom) + 1
    field: list[Text] = []
    if screen.battlefield is not None:
        drawn = mapview.draw(screen.battlefield, screen.people)
        field = list(drawn.split("\n"))
        tall_enough = height - fixed - len(field) >= MIN_LOG + 1
        if not (show_map if show_map is not None else tall_enough):
            field = []
    room = max(MIN_LOG, height - 1 - fixed - len(field) - 1)
    log = [Text("─ log " + "─" * max(0, width - 6), style="dim")]
    log += [Text(line, overflow="ellipsis", no_wrap=True) for line in screen.log[-room:]] or [
        Text("(no actions yet)", style="dim")
    ]
    lines = top + rows + field + log + actions + bottom
    return Group(*lines)


def _row(row: Row, width: int) -> list[Text]:
    marker = "▶ " if row.acting else "  "
    words = [row.name]
    if row.side:
        words.append(row.side)
    if row.place:
        words.append(row.place)
    text = f"{marker}{' · '.join(words)}  {' '.join(row.cells)}"
    if row.effects:
        text += "  " + ", ".join(row.effects)
    if row.readied:
        text += f"  [{row.readied}]"
    style = "dim" if row.down else ("bold" if row.acting else None)
    return _wrapped(text, width, style, indent=4)


def _actions(numbered: Sequence[tuple[int, str]], width: int) -> list[Text]:
    """Offered actions grouped by actor, then verb: ``eirik: 1 end │ attack: 2 hrolf 3 ulf``.

    Groups are packed into lines of ``width``; a group too long for one line goes on in
    the next, indented.
    """
    if not numbered:
        return []
    tokens: list[str] = []
    for actor, by_actor in groupby(numbered, key=lambda item: item[1].split(" ", 1)[0]):
        tokens.append(f"{actor}:")
        first = True
        for verb, items in groupby(by_actor, key=lambda item: _verb(item[1])):
            listed = [(n, _tail(text, actor, verb)) for n, text in items]
            bar = "" if first else "│ "
            first = False
            if len(listed) == 1:
                n, tail = listed[0]
                tokens.append(f"{bar}{n} {verb} {tail}".rstrip())
                continue
            tokens.append(f"{bar}{verb}:")
            tokens += [f"{n} {tail or '(as is)'}" for n, tail in listed]
    lines: list[str] = []
    line = ""
    for token in tokens:
        if token.endswith(":") and " " not in token and line:  # a new actor: a new line
            lines.append(line)
            line = token
        elif not line:
            line = token
        elif len(line) + 1 + len(token) <= width:
            line += " " + token
        else:
            lines.append(line)
            line = "    " + token
    lines.append(line)
    return [Text(line[:width]) for line in lines]


def _verb(text: str) -> str:
    words = text.split(" ", 2)
    return words[1] if len(words) > 1 else ""


def _tail(text: str, actor: str, verb: str) -> str:
    return text[len(actor) + 1 + len(verb) :].strip()


def _wrapped(text: str, width: int, style: str | None = None, indent: int = 2) -> list[Text]:
    return [Text(line, style=style or "") for line in _wrap_plain(text, width, indent)]


def _wrap_plain(text: str, width: int, indent: int = 2) -> list[str]:
    """``text`` broken at spaces into lines of at most ``width``, later ones indented."""
    if not text:
        return []
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if len(candidate) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = " " * indent + word
    lines.append(line)
    return [line[:width] for line in lines]
