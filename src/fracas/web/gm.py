"""The game master's pages: the tables, a live table, its seats (player links)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from fracas.table import encounterfile, rollcall
from fracas.table.rounds import live_refusal
from fracas.table.seats import Seats
from fracas.table.store import MAX_NAME, ConflictError
from fracas.table.table import Table
from fracas.web.access import link_base
from fracas.web.campaigns import concluded_refusal
from fracas.web.deps import (
    ALREADY,
    GM_COOKIE,
    Form,
    GmAuth,
    GmTable,
    SignedOut,
    check_csrf,
    check_origin,
    download,
    read_version,
    screen_json,
    set_gm_cookie,
    signed_out_page,
    table_version,
    tables,
)
from fracas.web.live import overdue, sides_here, typed
from fracas.web.render import Listing, Page, render_page

__all__ = ["act", "draw_gm", "gm_router"]

gm_router = APIRouter(prefix="/gm")


@gm_router.get("/login")
def login(request: Request, token: str = "") -> Response:
    """The GM link: sign in with the token in the URL, or a form to paste it into."""
    if not token:
        return signed_out_page(request, status=200)
    return _sign_in(request, token)


@gm_router.post("/login")
def login_form(request: Request, form: Form) -> Response:
    """Sign in with the token pasted into the form (it stays out of the history)."""
    check_origin(request)
    return _sign_in(request, str(form.get("token", "")))


def _sign_in(request: Request, token: str) -> Response:
    signed = request.app.state.access.sign_in(token)
    if signed is None:
        raise SignedOut("wrong GM token: open the GM link the server printed")
    response: Response = RedirectResponse("/gm/", status_code=303)
    if request.headers.get("sec-fetch-site") == "cross-site":
        # The link was opened from another site (a chat, a mail): a redirect would stay
        # cross-site, and the browser would not send the SameSite=Strict cookie with it.
        # A page of this site that moves on by itself is same-site.
        response = HTMLResponse(
            '<!doctype html><meta http-equiv="refresh" content="0;url=/gm/">'
            '<title>fracas</title><a href="/gm/">Signed in: the tables</a>',
            headers={"Cache-Control": "no-store"},
        )
    set_gm_cookie(request, response, signed[0])
    return response


@gm_router.post("/logout")
def logout(request: Request, csrf: GmAuth, form: Form) -> Response:
    """End this GM session (the others, in other browsers, stay)."""
    check_csrf(request, form, csrf)
    request.app.state.access.sign_out(request.cookies.get(GM_COOKIE, ""))
    response = signed_out_page(request, status=200, message="You are signed out.")
    response.delete_cookie(GM_COOKIE, path="/", httponly=True, samesite="strict")
    return response


#: Tables on one page of the index.
PAGE_SIZE = 50


@gm_router.get("/", response_class=HTMLResponse)
def index(
    request: Request,
    csrf: GmAuth,
    start: int = 0,
    name: str = "",
    archived: str = "",
    deleted: str = "",
) -> HTMLResponse:
    """The tables, the last changed first, :data:`PAGE_SIZE` a page; ``name`` keeps those
    whose name contains it; ``archived``/``deleted``: the table just put away or deleted."""
    store = request.app.state.store
    name = name.strip()[:MAX_NAME]
    total = store.count_tables(name)
    start = max(0, min(start, max(0, total - 1)))
    shown = store.tables(offset=start, limit=PAGE_SIZE, name=name)
    listing = Listing(start=start, total=total, size=PAGE_SIZE, name=name)
    done = (f"archived {archived[:MAX_NAME]}" if archived else "") or (
        f"deleted {deleted[:MAX_NAME]}" if deleted else None
    )
    page = Page(kind="index", csrf=csrf, tables=shown, listing=listing, message=done)
    return render_page(page)


@gm_router.get("/schema/encounter.json")
def encounter_schema(_: GmAuth) -> JSONResponse:
    """The JSON Schema of an encounter file (from its pydantic model)."""
    return JSONResponse(encounterfile.EncounterFile.model_json_schema())


@gm_router.get("/t/{name}", response_class=HTMLResponse)
def gm_page(request: Request, name: GmTable, csrf: GmAuth, at: int | None = None) -> HTMLResponse:
    return draw_gm(request, name, csrf, at=at)


@gm_router.get("/t/{name}/live")
def gm_live(request: Request, name: GmTable, csrf: GmAuth, v: int = -1) -> Response:
    if table_version(request, name) == v:
        return Response(status_code=204)
    return draw_gm(request, name, csrf, fragment=True)


@gm_router.get("/t/{name}/screen.json")
def gm_screen(request: Request, name: GmTable) -> JSONResponse:
    return screen_json(request, name, None)


@gm_router.get("/t/{name}/export.json")
def gm_export(request: Request, name: GmTable) -> Response:
    """The save: the whole log, replayable (``fracas import`` reads it)."""
    with tables(request).hold(name) as table:
        return download(table.dumps(None), f"{name}.json")


@gm_router.post("/t/{name}/act", response_class=HTMLResponse)
def gm_act(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    return act(request, name, None, form, lambda **kw: draw_gm(request, name, csrf, **kw))


@gm_router.post("/t/{name}/undo", response_class=HTMLResponse)
def gm_undo(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    return _move(request, name, csrf, form, "undo")


@gm_router.post("/t/{name}/redo", response_class=HTMLResponse)
def gm_redo(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    return _move(request, name, csrf, form, "redo")


@gm_router.post("/t/{name}/dice", response_class=HTMLResponse)
def gm_dice(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    store = request.app.state.store
    mode = "typed" if form.get("mode") == "typed" else "rolled"
    store.set_dice_mode(store.table(name).id, mode)  # every process and terminal sees it
    if mode == "rolled":  # an action waiting for typed faces is taken back
        with tables(request).hold(name) as table:
            rollcall.drop(table)
    return RedirectResponse(f"/gm/t/{name}", status_code=303)


@gm_router.post("/t/{name}/roll", response_class=HTMLResponse)
def gm_roll(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    """The GM answers the roll the table waits on (any side's: the GM may always)."""
    check_csrf(request, form, csrf)
    return answer_roll(request, name, None, form, lambda **kw: draw_gm(request, name, csrf, **kw))


@gm_router.post("/t/{name}/rolls", response_class=HTMLResponse)
def gm_rolls(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    """Who throws a roll whose side is away (the GM, or fracas), after how long."""
    check_csrf(request, form, csrf)
    store = request.app.state.store
    wait = str(form.get("wait", "60")).strip()
    if not wait.isdigit() or len(wait) > 5:
        errors = {"rolls": "the wait is a whole number of seconds"}
        return draw_gm(request, name, csrf, status=400, errors=errors)
    try:
        rollcall.set_settings(store, store.table(name).id, str(form.get("fallback")), int(wait))
    except ValueError as err:
        return draw_gm(request, name, csrf, status=400, errors={"rolls": str(err)})
    return RedirectResponse(f"/gm/t/{name}", status_code=303)


@gm_router.post("/t/{name}/player-odds", response_class=HTMLResponse)
def gm_player_odds(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    """Show the players the odds of their own attacks, or stop (read from their views)."""
    check_csrf(request, form, csrf)
    store = request.app.state.store
    store.set_player_odds(store.table(name).id, form.get("shown") == "on")
    return RedirectResponse(f"/gm/t/{name}", status_code=303)


@gm_router.post("/t/{name}/seats", response_class=HTMLResponse)
def gm_open_seat(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    side = str(form.get("side", ""))
    with tables(request).hold(name) as table:
        if side not in table.sides():
            return draw_gm(
                request,
                name,
                csrf,
                status=400,
                errors={"side": f"choose one of the sides: {', '.join(table.sides())}"},
            )
        token = request.app.state.seats.open(table.id, side, may_act=form.get("may_act") == "on")
    link = link_base(request) + f"/p/{token}"
    # The links made before on this page stay shown (each is shown only on this page).
    earlier = fresh_links(str(form.get("fresh", "")), link_base(request) + "/p/")
    return draw_gm(request, name, csrf, new_link=(side, link), fresh=[(side, link), *earlier])


def fresh_links(carried: str, prefix: str) -> list[tuple[str, str]]:
    r"""The new links a GM page carries back (a line ``side link`` each), kept to links
    of this server, at most 20.

    >>> fresh_links("north http://h/p/abc\nbad http://evil/p/x", "http://h/p/")
    [('north', 'http://h/p/abc')]
    """
    found = []
    for line in carried.splitlines()[:20]:
        side, _, link = line.strip().partition(" ")
        if side and link.startswith(prefix) and " " not in link:
            found.append((side[:80], link[:300]))
    return found


@gm_router.post("/t/{name}/seats/{seat_id}", response_class=HTMLResponse)
def gm_seat(request: Request, name: GmTable, csrf: GmAuth, seat_id: int, form: Form) -> Response:
    check_csrf(request, form, csrf)
    seats: Seats = request.app.state.seats
    table_id = request.app.state.store.table(name).id
    what = form.get("do")
    if what == "revoke" and form.get("confirmed") != "yes":
        from fracas.web.tables import confirm_page  # the tables' pages import this one

        return confirm_page(
            csrf,
            f"/gm/t/{name}/seats/{seat_id}",
            f"Revoke player link {seat_id}?",
            "Whoever holds it can no longer open the table with it: their page says the "
            "link was revoked. Make a new link if they should come back.",
            "Revoke it",
            f"/gm/t/{name}",
            {"do": "revoke"},
        )
    if what == "revoke":
        seats.revoke(table_id, seat_id)
    elif what in ("allow", "forbid"):
        seats.allow(table_id, seat_id, what == "allow")
    else:
        raise HTTPException(400, "say what to do with the link: revoke, allow or forbid")
    return RedirectResponse(f"/gm/t/{name}", status_code=303)


def draw_gm(request: Request, name: str, csrf: str, **extra: Any) -> HTMLResponse:
    """The GM's page of table `name` (or its live fragment), with `extra` for the page."""
    at = extra.pop("at", None)
    status = extra.pop("status", 200)
    fragment = extra.pop("fragment", False)
    with tables(request).hold(name) as table:
        overdue(request.app, name, table)
        shown = table if at is None else _earlier(table, at)
        page = Page(
            kind="gm",
            csrf=csrf,
            table=shown,
            side=None,
            base=f"/gm/t/{name}",
            poll_ms=request.app.state.poll_ms,
            physical=table.dice_mode == "typed",
            rolls=rollcall.settings(table.store, table.id),
            player_odds=table.store.player_odds(table.id),
            seats=request.app.state.seats.of_table(table.id),
            at=at,
            head=table.head,
            total=table.stored(),
            may_act=True,
            **extra,
        )
        return render_page(page, status=status, fragment=fragment)


def _earlier(table: Table, at: int) -> Table:
    """The table as it was at ply ``at``, to look at (never to play on)."""
    return table.earlier(at)


def _move(request: Request, name: str, csrf: str, form: Mapping[str, Any], how: str) -> Response:
    check_csrf(request, form, csrf)
    version = read_version(form)
    with tables(request).hold(name) as table:
        if version is None:
            return draw_gm(request, name, csrf, status=400, errors={how: "the form has no version"})
        if version != table.version:
            return draw_gm(request, name, csrf, status=409, errors={how: ALREADY})
        refused = concluded_refusal(table)
        if refused is not None:
            return draw_gm(request, name, csrf, status=409, errors={how: refused})
        try:
            done = table.undo() if how == "undo" else table.redo()
        except ConflictError:  # another process changed the table first
            return draw_gm(request, name, csrf, status=409, errors={how: ALREADY})
        except ValueError as err:
            return draw_gm(request, name, csrf, status=400, errors={how: str(err)})
    return draw_gm(request, name, csrf, message=f"{how}: {done}")


def act(
    request: Request,
    name: str,
    side: str | None,
    form: Mapping[str, Any],
    again: Callable[..., Response],
) -> Response:
    """Push the form's action (with the faces typed so far, when the dice are typed)."""
    version = read_version(form)
    text = str(form.get("action", "")).strip()
    if version is None:
        return again(status=400, errors={"action": "the form has no version: reload the page"})
    if not text:
        return again(
            status=400,
            errors={"action": "type an action in notation, or choose one of those offered"},
        )
    with tables(request).hold(name) as table:
        if version != table.version:
            return again(status=409, errors={"action": ALREADY})
        refused = live_refusal(table, side) or concluded_refusal(table)
        if refused is not None:
            return again(status=409, errors={"action": refused}, typed=text)
        try:
            if table.dice_mode == "typed":  # each roll asked of its side
                done = rollcall.start(table, text, side, sides_here(table))
                typed(request.app, name, table, done)
                if isinstance(done, rollcall.Pending):
                    return again()
            elif rollcall.pending(table) is not None:  # typed, and the dice switched since
                raise rollcall.Waiting("an action waits for a roll: answer it or take it back")
            else:
                table.push(text, side)
        except rollcall.Waiting as err:
            return again(status=409, errors={"action": str(err)}, typed=text)
        except ConflictError:  # another process changed the table first
            return again(status=409, errors={"action": ALREADY}, typed=text)
        except ValueError as err:
            return again(status=400, errors={"action": str(err)}, typed=text)
    return RedirectResponse(_back(request), status_code=303)


def answer_roll(
    request: Request,
    name: str,
    side: str | None,
    form: Mapping[str, Any],
    again: Callable[..., Response],
) -> Response:
    """The faces of the roll the table waits on, typed by ``side`` (``None``: the GM)."""
    token = str(form.get("pending", ""))
    faces = "undo" if form.get("undo") else str(form.get("faces", ""))
    with tables(request).hold(name) as table:
        try:
            done = rollcall.answer(table, token, faces, side, sides_here(table))
            typed(request.app, name, table, done)
        except rollcall.Stale as err:
            return again(status=409, errors={"faces": str(err)})
        except rollcall.NotYours as err:
            return again(status=403, errors={"faces": str(err)})
        except ConflictError:  # another process answered, or changed the table, first
            return again(status=409, errors={"faces": ALREADY})
        except ValueError as err:
            return again(status=400, errors={"faces": str(err)})
        if isinstance(done, rollcall.Pending):
            return again()
    return RedirectResponse(_back(request), status_code=303)


def _back(request: Request) -> str:
    path = request.url.path
    return path.rsplit("/", 1)[0]
