"""Pages from the presenter's screens: one Jinja2 template per page, whose ``live`` block
is also served alone as the fragment a poll swaps in (the same template, so the page
and its updates never differ).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape

from fracas.engine import Action
from fracas.table.dicemode import RollRequest
from fracas.table.odds import AttackOdds, NoOdds, odds_or_why
from fracas.table.presenter import GmScreen, Screen
from fracas.table.seats import Seat
from fracas.table.store import TableRecord
from fracas.table.table import Table
from fracas.web.battlefield import Shapes, layout

__all__ = ["Page", "render_page"]

ENV = Environment(
    loader=PackageLoader("fracas.web", "templates"),
    autoescape=select_autoescape(default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


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
    pending: tuple[str, list[str], RollRequest] | None = None
    typed: str = ""
    #: A refused post, given back to its textarea so that nothing typed is lost.
    draft: str = ""
    #: Why a link that may act does not act now (its round is played by post).
    not_now: str | None = None


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


def _odds(table: Table, screen: Screen) -> list[AttackOdds | NoOdds]:
    """The odds of every attack offered, or why there are none (the game master's screen
    only)."""
    found = (odds_or_why(table, text) for text in screen.offered)
    return [odds for odds in found if odds is not None]


def render_page(page: Page, status: int = 200, fragment: bool = False) -> HTMLResponse:
    context: dict[str, Any] = {"page": page}
    name = "index.html"
    if page.table is not None:
        table = page.table
        screen: Screen = table.screen(page.side, log_tail=0)
        shapes: Shapes | None = None
        if screen.battlefield:
            shapes = layout(screen.battlefield, screen.people)
        context.update(
            screen=screen,
            gm=isinstance(screen, GmScreen),
            version=table.version,
            groups=grouped(screen.offered) if page.at is None else [],
            shapes=shapes,
            sides=table.sides() if page.side is None else [],
            odds=_odds(table, screen) if page.side is None and page.at is None else [],
        )
        name = "table.html"
    template = ENV.get_template(name)
    if fragment:
        html = "".join(template.blocks["live"](template.new_context(context)))
    else:
        html = template.render(context)
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})
