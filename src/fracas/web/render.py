"""Pages from the presenter's screens: one Jinja2 template per page. A table's page is
drawn from the parts in ``table_parts.html`` (each under a stable id); the same parts,
drawn alone by :func:`draw_parts`, are what a page's event stream sends when they change
(:mod:`fracas.web.events`), so the page and its updates never differ. Its ``live`` block
is also served alone (``…/live``) as the whole live region.

A page shows only the last :data:`LOG_PAGE` entries of the log; earlier ones are fetched
a page at a time (``…/log?end=N``), so drawing a page costs the same however long the
log is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape

from fracas.engine import Action
from fracas.table import rollcall
from fracas.table.odds import AttackOdds, Choice, NoOdds, choices, odds_or_why
from fracas.table.presenter import GmScreen, Screen
from fracas.table.seats import Seat
from fracas.table.store import TableRecord
from fracas.table.table import Table
from fracas.web.battlefield import Shapes, layout

__all__ = [
    "LOG_PAGE",
    "Drawn",
    "Page",
    "Snapshot",
    "draw_parts",
    "draw_snapshot",
    "oob",
    "render_page",
    "snapshot",
]

ENV = Environment(
    loader=PackageLoader("fracas.web", "templates"),
    autoescape=select_autoescape(default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)
#: Log entries a page shows at first, and fetched each time "earlier lines" is pressed.
LOG_PAGE = 50


@dataclass(frozen=True)
class Listing:
    """One page of the tables' index: the first shown (from 0), how many match, how many a
    page shows, and the name filter."""

    start: int = 0
    total: int = 0
    size: int = 50
    name: str = ""

    @property
    def previous(self) -> int | None:
        return max(0, self.start - self.size) if self.start > 0 else None

    @property
    def next(self) -> int | None:
        return self.start + self.size if self.start + self.size < self.total else None


@dataclass
class Page:
    """What a page shows besides the screen: who looks, messages, forms' state."""

    kind: str
    csrf: str
    table: Table | None = None
    side: str | None = None
    base: str = ""
    poll_ms: int = 500
    physical: bool = False
    may_act: bool = False
    seats: Sequence[Seat] = ()
    tables: Sequence[TableRecord] = ()
    listing: Listing = field(default_factory=Listing)
    at: int | None = None
    head: int = 0
    total: int = 0
    errors: Mapping[str, str] = field(default_factory=dict)
    message: str | None = None
    new_link: tuple[str, str] | None = None
    #: Who throws a typed roll whose side is away (the GM's page).
    rolls: rollcall.RollSettings | None = None
    #: The links made on this page so far (side, link), the newest first.
    fresh: Sequence[tuple[str, str]] = ()
    typed: str = ""
    #: A refused post, given back to its textarea so that nothing typed is lost.
    draft: str = ""
    #: Why a link that may act does not act now (its round is played by post).
    not_now: str | None = None
    #: Whether the table's player pages show the odds of their own attacks.
    player_odds: bool = False
    #: What was typed in a refused form of the page (by field), given back to it.
    form: Mapping[str, str] = field(default_factory=dict)


def grouped(offered: Sequence[str]) -> list[tuple[str, list[str]]]:
    """The offered actions grouped by verb, in the order they come.

    >>> grouped(["ylva attack astrid", "ylva end", "ylva attack hrolf"])
    [('attack', ['ylva attack astrid', 'ylva attack hrolf']), ('end', ['ylva end'])]
    """
    groups: dict[str, list[str]] = {}
    for text in offered:
        try:
            verb = Action.parse(text).verb
        except ValueError:
            verb = "other"
        groups.setdefault(verb, []).append(text)
    return list(groups.items())


def placeholder(groups: Sequence[tuple[str, Sequence[Choice]]]) -> str:
    """An example for the *Action* box from this table's own offered actions: an attack
    if there is one, else the first.

    >>> placeholder([("end", [Choice("ylva end", "ylva", "end", None, "End")])])
    'e.g. ylva end'
    """
    every = [c for _, group in groups for c in group]
    pick = next((c for c in every if c.verb == "attack"), every[0] if every else None)
    return f"e.g. {pick.action}" if pick else "an action in notation"


def _odds(table: Table, screen: Screen) -> list[AttackOdds | NoOdds]:
    """The odds of every attack offered, or why there are none (the game master's screen
    only)."""
    found = (odds_or_why(table, text) for text in screen.offered)
    return [odds for odds in found if odds is not None]


def parts() -> Any:
    """The macros of ``table_parts.html``."""
    return ENV.get_template("table_parts.html").module


def table_context(page: Page) -> dict[str, Any]:
    """What a table's page (or its parts) is drawn from: the screen of ``page.side``,
    through the presenter, and the last :data:`LOG_PAGE` entries of its log."""
    table = page.table
    assert table is not None
    # The screen's own log is not drawn (the page's comes from log_lines): ask for little.
    screen: Screen = table.screen(page.side, log_tail=1)
    shapes: Shapes | None = None
    if screen.battlefield:
        shapes = layout(screen.battlefield, screen.people)
    start = max(0, table.head - LOG_PAGE)
    named = {r.id: r.label for r in screen.rows}
    shown = page.side is None or page.player_odds
    groups = choices(table, page.side, screen.offered, named, shown) if page.at is None else []
    return {
        "page": page,
        "parts": parts(),
        "screen": screen,
        "gm": isinstance(screen, GmScreen),
        "version": table.version,
        "groups": groups,
        "actors": list(dict.fromkeys(c.actor for _, group in groups for c in group)),
        "named": named,
        "placeholder": placeholder(groups),
        "shapes": shapes,
        "side_names": table.sides() if page.side is None else [],
        "odds": _odds(table, screen) if page.side is None and page.at is None else [],
        "log": table.log_lines(page.side, start),
        "log_start": start,
        # The roll an action waits for, as this audience is shown it (the presenter's).
        "prompt": rollcall.prompt(table, page.side) if page.at is None else None,
    }


def render_page(page: Page, status: int = 200, fragment: bool = False) -> HTMLResponse:
    context: dict[str, Any] = {"page": page}
    name = "index.html"
    if page.table is not None:
        context = table_context(page)
        name = "table.html"
    template = ENV.get_template(name)
    if fragment:
        html = "".join(template.blocks["live"](template.new_context(context)))
    else:
        html = template.render(context)
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})


# -- the parts an event stream sends --------------------------------------------------------


@dataclass(frozen=True)
class Drawn:
    """A table's parts as one audience sees them at one version: each part's HTML by its
    id, the ids of the rows in order, and the log's last entries."""

    version: int
    head: int
    parts: Mapping[str, str]
    rows: tuple[str, ...]
    log: tuple[str, ...]
    log_start: int
    #: The stamp of the round played by post (``None``: the table is not played by post).
    rounds: str | None = None

    def whole(self) -> str:
        """Every part, as out-of-band morphs, and the log replaced: brings any page of
        this audience to this version."""
        skip = {f"row-{r}" for r in self.rows} | {"field-ground", "field-people"}
        out = [oob(html) for key, html in self.parts.items() if key not in skip]
        out.append(oob(str(parts().log(self.log, self.log_start))))
        return "\n".join(out)

    def step(self, before: Drawn, appended: Sequence[str]) -> str:
        """Only what changed since ``before`` (the version just before this one, whose
        log this one extends by ``appended``), as out-of-band morphs."""
        out: list[str] = []
        same_rows = before.rows == self.rows
        ground = ("field-ground", "field-people")
        same_field = _shell(before) == _shell(self)
        for key, html in self.parts.items():
            if before.parts.get(key) == html:
                continue
            if key == "rows" and same_rows:
                continue
            if key.startswith("row-"):
                if same_rows:
                    out.append(f"<template>{oob(html)}</template>")
            elif key in ground:
                if same_field:
                    out.append(f"<svg>{oob(html)}</svg>")
            elif key != "field" or not same_field:
                out.append(oob(html))
        if appended:
            out.append(str(parts().log_more(appended)))
        return "\n".join(out)


def _shell(drawn: Drawn) -> str:
    """The battlefield part without its ground and people."""
    html = drawn.parts.get("field", "")
    for key in ("field-ground", "field-people"):
        html = html.replace(drawn.parts.get(key, "\0"), "")
    return html


_TAG = re.compile(r"^<([a-z][a-z0-9]*)")


def oob(html: str) -> str:
    """``html`` (one element with an id) marked to be morphed into the page's element of
    that id."""
    return _TAG.sub(r'<\1 hx-swap-oob="morph"', html.strip(), count=1)


@dataclass(frozen=True)
class Snapshot:
    """What an audience's parts are drawn from, taken from the table at one version (while
    it is held): plain values only, so that the parts can be drawn once the table is let go
    (:func:`draw_snapshot`), without holding back the requests waiting for it."""

    context: Mapping[str, Any]
    copy: str
    head: int
    #: The posted round's status part and stamp (tables played by post only).
    status: str | None = None
    rounds: str | None = None


def snapshot(page: Page) -> Snapshot:
    """What ``page``'s parts are drawn from (call it with the table held): every value
    from that audience's screen, through the presenter, as the page draws them."""
    context = table_context(page)
    copy = ENV.get_template("rounds_copy.html").render(context)
    head = page.table.head if page.table is not None else 0
    # Who has posted in the round played by post (fracas.web.rounds puts ``posting`` in
    # the templates' globals): drawn for that audience as the page draws it.
    posting = ENV.globals.get("posting")
    shown = posting(page) if callable(posting) else None
    if shown is None or not shown.by_post:
        return Snapshot(context, copy, head)
    status = ENV.get_template("rounds_status.html").render(page=page, shown=shown)
    return Snapshot(context, copy, head, status, shown.stamp)


def draw_snapshot(taken: Snapshot) -> Drawn:
    """The parts of a :class:`Snapshot`, as :class:`Drawn` (the table need not be held)."""
    context = taken.context
    page: Page = context["page"]
    macros = context["parts"]
    screen: Screen = context["screen"]
    shapes: Shapes | None = context["shapes"]
    version = context["version"]
    drawn: dict[str, str] = {
        "title": str(macros.title(screen)),
        "status": str(macros.status(screen)),
        "note": str(macros.note(screen)),
    }
    rows = [macros.row(row) for row in screen.rows]
    drawn["rows"] = str(macros.rows(screen, rows))
    for row, html in zip(screen.rows, rows, strict=True):
        drawn[f"row-{row.id}"] = str(html)
    if shapes is not None:
        ground, people = macros.ground(shapes), macros.tokens(shapes)
        drawn["field"] = str(macros.field(shapes, ground, people))
        drawn["field-ground"] = str(ground)
        drawn["field-people"] = str(people)
    else:
        drawn["field"] = str(macros.field(shapes))
    if page.may_act:
        drawn["offered"] = str(
            macros.offered(context["groups"], version, context["actors"], context["named"])
        )
        drawn["rollcall"] = str(macros.rollcall(context["prompt"]))
    if context["gm"]:
        drawn["odds-box"] = str(macros.odds(context["odds"]))
        drawn["undo-box"] = str(macros.undo(version))
        drawn["redo-box"] = str(macros.redo(version, page.head, page.total))
        drawn["timeline"] = str(macros.timeline(page.base, page.head, None))
    drawn["copy-box"] = f'<div id="copy-box">{taken.copy}</div>'
    if taken.status is not None:
        drawn["round-status"] = taken.status
    return Drawn(
        version=version,
        head=taken.head,
        parts=drawn,
        rows=tuple(r.id for r in screen.rows),
        log=tuple(context["log"]),
        log_start=context["log_start"],
        rounds=taken.rounds,
    )


def draw_parts(page: Page) -> Drawn:
    """The parts of ``page``'s table for its audience, as :class:`Drawn`: every one from
    that audience's screen, through the presenter, as the page draws them."""
    return draw_snapshot(snapshot(page))
