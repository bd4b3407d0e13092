"""Play by post on the web: the game master opens a round for posting and closes it; each
side posts its declarations through its link; both pages copy the round's results as a
forum post (:mod:`fracas.table.rounds`).

A side's page shows its own post only, never another's: the posts are not in the
table's log, and what a page shows of the posted round comes from :func:`posting` for
that page's audience. No page polls: a post, or a round opened or closed, is announced
as a table's change is, and the page's event stream (:mod:`fracas.web.events`) sends the
part that says who has posted, drawn for that audience; once the round opens or closes
it sends the browser to the page afresh. The hub of each process with pages of the table
open closes the round at its deadline (whichever comes first; the others find it
closed), and the next round opens for posts as one closes (unless the game master
unticks it). ``…/round/status?s=STAMP`` still answers a script that asks: 204 unchanged,
the part when someone posted, the page afresh when the round opened or closed; asked
after the deadline, it closes the round.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from fracas.engine import Action
from fracas.table.posts import FORMATS
from fracas.table.rounds import PostedRound, Rounds, plays_by_post, results
from fracas.table.store import ConflictError
from fracas.table.table import Table
from fracas.web.deps import ALREADY, MAX_FIELD, Form, GmAuth, GmTable, SideSeat, check_csrf, tables
from fracas.web.gm import draw_gm as gm_page
from fracas.web.player import draw_player as player_page
from fracas.web.render import ENV, Page

__all__ = ["Posting", "posting", "rounds_router"]

rounds_router = APIRouter()
#: Longest deadline the game master may set, in hours (a month).
MAX_HOURS = 24 * 31
FORMAT_NAMES = {"markdown": "Markdown", "bbcode": "BBCode", "text": "text"}


@dataclass(frozen=True)
class Offer:
    """A declaration the form offers: its line, and the other targets it may fall back on."""

    line: str
    alternatives: tuple[str, ...] = ()


@dataclass(frozen=True)
class Posting:
    """What a page shows of play by post, for its audience (``side`` ``None``: the GM)."""

    by_post: bool
    side: str | None
    current: PostedRound | None
    sides: tuple[str, ...] = ()
    offers: tuple[tuple[str, tuple[Offer, ...]], ...] = ()
    own: str | None = None
    stamp: str = "none"

    @property
    def posts(self) -> list[tuple[str, str | None]]:
        """Every side and its post's text (the game master's page only)."""
        if self.current is None or self.side is not None:
            return []
        out = []
        for side in self.sides:
            post = self.current.post_of(side)
            out.append((side, None if post is None else post.text))
        return out

    @property
    def waiting(self) -> list[str]:
        if self.current is None:
            return []
        return [s for s in self.sides if self.current.post_of(s) is None]


def posting(page: Page) -> Posting:
    """The posted round as ``page``'s audience may see it."""
    table = page.table
    if table is None or page.kind not in ("gm", "side"):
        return Posting(False, None, None)
    if not plays_by_post(table) or page.at is not None:
        return Posting(False, page.side, None)
    current = Rounds(table.store).current(table)
    own = None
    offers: tuple[tuple[str, tuple[Offer, ...]], ...] = ()
    if current is not None and page.side is not None:
        post = current.post_of(page.side)
        own = None if post is None else post.text
        offers = _offers(table, page.side)
    return Posting(
        True,
        page.side,
        current,
        sides=tuple(table.sides()),
        offers=offers,
        own=own,
        stamp=_stamp(current),
    )


def forum_posts(page: Page) -> tuple[tuple[str, str, str], ...]:
    """The round just played as a forum post, in each format: (format, its name, text).
    Tables played by post only (``fracas post`` writes one for any table)."""
    table = page.table
    if table is None or page.kind not in ("gm", "side") or not plays_by_post(table):
        return ()
    return tuple(
        (fmt, FORMAT_NAMES[fmt], text)
        for fmt in FORMATS
        if (text := results(table, fmt)) is not None
    )


ENV.globals["posting"] = posting
ENV.globals["forum_posts"] = forum_posts


def _stamp(current: PostedRound | None) -> str:
    return "none" if current is None else current.stamp()


def _offers(table: Table, side: str) -> tuple[tuple[str, tuple[Offer, ...]], ...]:
    """The side's declarations now, per character; an attack lists its other targets."""
    by_actor: dict[str, list[Action]] = {}
    for action in table.offered(side):
        if action.verb not in ("done", "retract") and action.actor != side:
            by_actor.setdefault(action.actor, []).append(action)
    out = []
    for actor, actions in by_actor.items():
        targets = {a.verb: [b.target for b in actions if b.verb == a.verb] for a in actions}
        offers = []
        for action in dict.fromkeys(actions):
            others: tuple[str, ...] = ()
            if action.verb == "attack":
                others = tuple(t for t in targets["attack"] if t and t != action.target)
            offers.append(Offer(str(action), others))
        out.append((actor, tuple(offers)))
    return tuple(out)


# -- the game master ---------------------------------------------------------------------------


@rounds_router.post("/gm/t/{name}/round/open", response_class=HTMLResponse)
def gm_open(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    with tables(request).hold(name) as table:
        rounds = Rounds(table.store)
        try:
            deadline = _deadline(str(form.get("hours", "")), rounds)
            defaults = {side: str(form.get(f"default-{side}", "")) for side in table.sides()}
            for side, text in defaults.items():
                _whole(text, f"the default for {side}")
            rounds.open(table, deadline, defaults)
        except ConflictError:  # another process changed the table first
            return gm_page(request, name, csrf, status=409, errors={"round": ALREADY})
        except ValueError as err:
            return gm_page(request, name, csrf, status=400, errors={"round": str(err)})
    return RedirectResponse(f"/gm/t/{name}", status_code=303)


@rounds_router.post("/gm/t/{name}/round/close", response_class=HTMLResponse)
def gm_close(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    with tables(request).hold(name) as table:
        rounds = Rounds(table.store)
        current = rounds.current(table)
        if current is None or str(current.id) != str(form.get("round", "")):
            return gm_page(request, name, csrf, status=409, errors={"round": ALREADY})
        try:
            rounds.close(table, then_open=form.get("next") == "on")
        except ConflictError:
            return gm_page(request, name, csrf, status=409, errors={"round": ALREADY})
        except ValueError as err:
            return gm_page(request, name, csrf, status=400, errors={"round": str(err)})
    return RedirectResponse(f"/gm/t/{name}", status_code=303)


@rounds_router.get("/gm/t/{name}/round/status")
def gm_status(request: Request, name: GmTable, _: GmAuth, s: str = "") -> Response:
    return _status(request, name, None, f"/gm/t/{name}", s)


def _whole(text: str, what: str) -> None:
    """Refuse a field the form reader cut short: a post is never read in part."""
    if len(text) >= MAX_FIELD:
        raise ValueError(f"{what} is too long: at most {MAX_FIELD - 1:,} characters")


def _deadline(text: str, rounds: Rounds) -> datetime | None:
    text = text.strip()
    if not text:
        return None
    try:
        hours = float(text)
    except ValueError:
        raise ValueError(f"deadline {text[:20]!r}: a number of hours, or nothing") from None
    if not 0 < hours <= MAX_HOURS:
        raise ValueError(f"a deadline is more than 0 and at most {MAX_HOURS} hours away")
    return rounds.clock() + timedelta(hours=hours)


# -- a side ------------------------------------------------------------------------------------


@rounds_router.post("/p/{token}/round/post", response_class=HTMLResponse)
def side_post(request: Request, seat: SideSeat, token: str, form: Form) -> Response:
    text = str(form.get("text", ""))
    with tables(request).hold(seat.table) as table:
        try:
            _whole(text, "the post")
            Rounds(table.store).post(table, seat.side, text)
        except ConflictError:
            errors = {"post": ALREADY}
            return player_page(request, seat, token, status=409, errors=errors, draft=text)
        except ValueError as err:
            errors = {"post": str(err)}
            return player_page(request, seat, token, status=400, errors=errors, draft=text)
    return RedirectResponse(f"/p/{token}", status_code=303)


@rounds_router.get("/p/{token}/round/status")
def side_status(request: Request, seat: SideSeat, token: str, s: str = "") -> Response:
    return _status(request, seat.table, seat.side, f"/p/{token}", s)


def _status(request: Request, name: str, side: str | None, base: str, seen: str) -> Response:
    """The "who has posted" part, 204 when unchanged; the whole page again when the
    round opened or closed. Past the deadline, it closes the round."""
    with tables(request).hold(name) as table:
        if not plays_by_post(table):
            raise HTTPException(404, f"{table.ruleset.name} is not played by post")
        rounds = Rounds(table.store)
        try:
            rounds.close_if_due(table)
        except ConflictError:  # another page closed it first: it shows as closed next time
            return Response(status_code=409, headers={"Cache-Control": "no-store"})
        page = Page(
            kind="gm" if side is None else "side",
            csrf="",
            table=table,
            side=side,
            base=base,
            poll_ms=request.app.state.poll_ms,
        )
        shown = posting(page)
    if shown.stamp == seen:
        return Response(status_code=204, headers={"Cache-Control": "no-store"})
    if shown.stamp.split("-")[:2] != seen.split("-")[:2]:  # opened or closed since
        # To the page's own address: reloading a page drawn by a form would post it again.
        return Response(status_code=200, headers={"HX-Redirect": base})
    html = ENV.get_template("rounds_status.html").render(page=page, shown=shown)
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})
