"""A side's player's pages, behind the seat's secret link: exactly that side's view."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from fracas.table.rounds import live_refusal
from fracas.table.seats import Seat
from fracas.web.deps import Form, SideSeat, download, screen_json, table_version, tables
from fracas.web.gm import act, answer_roll
from fracas.web.live import overdue
from fracas.web.render import Page, render_page

__all__ = ["draw_player", "player_router"]

player_router = APIRouter(prefix="/p")


@player_router.get("/{token}", response_class=HTMLResponse)
def player_page(request: Request, seat: SideSeat, token: str) -> HTMLResponse:
    return draw_player(request, seat, token)


@player_router.get("/{token}/live")
def player_live(request: Request, seat: SideSeat, token: str, v: int = -1) -> Response:
    if table_version(request, seat.table) == v:
        return Response(status_code=204)
    return draw_player(request, seat, token, fragment=True)


@player_router.get("/{token}/screen.json")
def player_screen(request: Request, seat: SideSeat) -> JSONResponse:
    return screen_json(request, seat.table, seat.side)


@player_router.get("/{token}/export.json")
def player_export(request: Request, seat: SideSeat) -> Response:
    """The side's view of the table: never more than that side may know."""
    with tables(request).hold(seat.table) as table:
        return download(table.dumps(seat.side), f"{seat.table}-{seat.side}.json")


@player_router.post("/{token}/act", response_class=HTMLResponse)
def player_act(request: Request, seat: SideSeat, token: str, form: Form) -> Response:
    if not seat.may_act:
        raise HTTPException(403, "the game master has not let this side act through its link")
    return act(
        request, seat.table, seat.side, form, lambda **kw: draw_player(request, seat, token, **kw)
    )


@player_router.post("/{token}/roll", response_class=HTMLResponse)
def player_roll(request: Request, seat: SideSeat, token: str, form: Form) -> Response:
    """The side's answer to a roll the table waits on: its own rolls only."""
    if not seat.may_act:
        raise HTTPException(403, "the game master has not let this side act through its link")
    again = lambda **kw: draw_player(request, seat, token, **kw)  # noqa: E731
    return answer_roll(request, seat.table, seat.side, form, again)


def draw_player(request: Request, seat: Seat, token: str, **extra: Any) -> HTMLResponse:
    """A side's page through its link (or its live fragment), with `extra` for the page."""
    status = extra.pop("status", 200)
    fragment = extra.pop("fragment", False)
    with tables(request).hold(seat.table) as table:
        overdue(request.app, seat.table, table)
        # While its round is posted, a side's declarations are its post, not actions.
        refused = live_refusal(table, seat.side) if seat.may_act else None
        page = Page(
            kind="side",
            csrf="",
            table=table,
            side=seat.side,
            base=f"/p/{token}",
            poll_ms=request.app.state.poll_ms,
            physical=table.dice_mode == "typed",
            player_odds=table.store.player_odds(table.id),
            may_act=seat.may_act and refused is None,
            not_now=refused,
            **extra,
        )
        return render_page(page, status=status, fragment=fragment)
