"""The web app: a game master's router (behind the GM's secret) and a player's router
(behind a seat's secret link), over one store.

Access: the server knows one GM token (printed as a link when it starts, or set with
``--gm-token``). ``/gm/login?token=…`` puts it in a cookie (HttpOnly, SameSite=Strict);
every GM page checks it. A player's link ``/p/<token>`` is resolved to its table and side
before anything else is done; it reaches only that side's pages, never a GM page.

CSRF: every GM form carries a hidden ``csrf`` field, an HMAC of the GM's token that a
page from another site cannot know, and a POST whose ``Origin`` header names another
host is refused; the cookie is SameSite=Strict besides. A player's forms need none: the
secret is in the URL, not in an ambient cookie.

Double submits: every form carries the table's version it was drawn at; a form whose
version is no longer the table's is answered "already applied" and changes nothing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import secrets
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import FormData

from fracas.table import encounterfile
from fracas.table.seats import Seat, Seats
from fracas.table.store import Store, StoreError
from fracas.table.table import Table
from fracas.web.live import FacesNeeded, Tables, push_with_faces
from fracas.web.render import Page, render_page

__all__ = ["create_app"]

GM_COOKIE = "fracas_gm"
#: Longest form field read (an action, a line of faces).
MAX_FIELD = 4000
#: Most answers (rolls and throws typed in) one pending action may carry.
MAX_ANSWERS = 500


def create_app(store: Store, gm_token: str | None = None, poll_ms: int = 500) -> FastAPI:
    """The app over ``store``; ``gm_token`` (random when not given) opens the GM pages."""
    app = FastAPI(title="fracas", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.store = store
    app.state.tables = Tables(store)
    app.state.seats = Seats(store)
    app.state.gm_token = gm_token or secrets.token_urlsafe(32)
    app.state.poll_ms = poll_ms
    app.state.physical = set()  # tables whose dice are typed in, in this process
    app.mount("/static", StaticFiles(packages=[("fracas.web", "static")]), name="static")

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> Response:
        return PlainTextResponse("malformed request: " + _first_error(exc), status_code=400)

    @app.get("/health")
    def health() -> PlainTextResponse:
        return PlainTextResponse("ok")

    @app.get("/")
    def root() -> RedirectResponse:
        return RedirectResponse("/gm/", status_code=303)

    app.include_router(gm_router)
    app.include_router(player_router)
    return app


def _first_error(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "unreadable"
    e = errors[0]
    return f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg', '')}"


# -- dependencies ----------------------------------------------------------------------------


def csrf_token(gm_token: str) -> str:
    return hmac.new(gm_token.encode(), b"fracas csrf", hashlib.sha256).hexdigest()


def gm_auth(request: Request) -> str:
    """The GM's CSRF token, once the GM cookie is checked (403 without it)."""
    token: str = request.app.state.gm_token
    given = request.cookies.get(GM_COOKIE, "")
    if not hmac.compare_digest(given.encode(), token.encode()):
        raise HTTPException(403, "this page is the game master's: open the GM link")
    return csrf_token(token)


GmAuth = Annotated[str, Depends(gm_auth)]


def gm_table(name: str, _: GmAuth, request: Request) -> str:
    """The name of an existing table (404 otherwise), for the GM."""
    try:
        request.app.state.store.table(name)
    except StoreError as err:
        raise HTTPException(404, str(err)) from None
    return name


GmTable = Annotated[str, Depends(gm_table)]


def side_seat(token: str, request: Request) -> Seat:
    """The seat this link opens (403 for anything else): resolved before anything."""
    seat: Seat | None = request.app.state.seats.find(token)
    if seat is None:
        raise HTTPException(403, "this link opens nothing: ask the game master for a new one")
    return seat


SideSeat = Annotated[Seat, Depends(side_seat)]


def tables(request: Request) -> Tables:
    return request.app.state.tables  # type: ignore[no-any-return]


async def read_form(request: Request) -> dict[str, Any]:
    """The form's fields (``answers`` as a list), each cut to :data:`MAX_FIELD`."""
    try:
        form: FormData = await request.form()
    except Exception:
        raise HTTPException(400, "malformed form") from None
    fields: dict[str, Any] = {}
    for key, value in form.multi_items():
        if not isinstance(value, str):
            raise HTTPException(400, f"field {key[:40]!r}: expected text, not a file")
        if key == "answers":
            fields.setdefault("answers", []).append(value[:MAX_FIELD])
            if len(fields["answers"]) > MAX_ANSWERS:
                raise HTTPException(400, f"more than {MAX_ANSWERS} rolls typed in for one action")
        else:
            fields[key] = value[:MAX_FIELD]
    return fields


Form = Annotated[dict[str, Any], Depends(read_form)]


def check_csrf(request: Request, form: Mapping[str, Any], expected: str) -> None:
    origin = request.headers.get("origin")
    if origin and origin != "null" and origin.split("://", 1)[-1] != request.headers.get("host"):
        raise HTTPException(403, "a form from another site: refused")
    if not hmac.compare_digest(str(form.get("csrf", "")).encode(), expected.encode()):
        raise HTTPException(403, "this form has no valid CSRF token: reload the page")


def read_version(form: Mapping[str, Any]) -> int | None:
    """The version a form was drawn at; ``None`` when the field is not a number."""
    text = str(form.get("version", "")).strip()
    return int(text) if text.isdigit() and len(text) < 12 else None


# -- the game master --------------------------------------------------------------------------

gm_router = APIRouter(prefix="/gm")


@gm_router.get("/login")
def login(request: Request, token: str = "") -> Response:
    if not hmac.compare_digest(token.encode(), request.app.state.gm_token.encode()):
        raise HTTPException(403, "wrong GM token")
    response = RedirectResponse("/gm/", status_code=303)
    response.set_cookie(GM_COOKIE, token, httponly=True, samesite="strict")
    return response


@gm_router.get("/", response_class=HTMLResponse)
def index(request: Request, csrf: GmAuth) -> HTMLResponse:
    page = Page(kind="index", csrf=csrf, tables=request.app.state.store.tables())
    return render_page(page)


@gm_router.get("/schema/encounter.json")
def encounter_schema(_: GmAuth) -> JSONResponse:
    """The JSON Schema of an encounter file (from its pydantic model)."""
    return JSONResponse(encounterfile.EncounterFile.model_json_schema())


@gm_router.get("/t/{name}", response_class=HTMLResponse)
def gm_page(request: Request, name: GmTable, csrf: GmAuth, at: int | None = None) -> HTMLResponse:
    return _gm(request, name, csrf, at=at)


@gm_router.get("/t/{name}/live")
def gm_live(request: Request, name: GmTable, csrf: GmAuth, v: int = -1) -> Response:
    if _version(request, name) == v:
        return Response(status_code=204)
    return _gm(request, name, csrf, fragment=True)


@gm_router.get("/t/{name}/screen.json")
def gm_screen(request: Request, name: GmTable) -> JSONResponse:
    return _screen_json(request, name, None)


@gm_router.get("/t/{name}/export.json")
def gm_export(request: Request, name: GmTable) -> Response:
    """The save: the whole log, replayable (``fracas import`` reads it)."""
    with tables(request).hold(name) as table:
        return _download(table.dumps(None), f"{name}.json")


@gm_router.post("/t/{name}/act", response_class=HTMLResponse)
def gm_act(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    return _act(request, name, None, form, lambda **kw: _gm(request, name, csrf, **kw))


@gm_router.post("/t/{name}/undo", response_class=HTMLResponse)
def gm_undo(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    return _move(request, name, csrf, form, "undo")


@gm_router.post("/t/{name}/redo", response_class=HTMLResponse)
def gm_redo(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    return _move(request, name, csrf, form, "redo")


@gm_router.post("/t/{name}/dice", response_class=HTMLResponse)
def gm_dice(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    physical: set[str] = request.app.state.physical
    if form.get("mode") == "typed":
        physical.add(name)
    else:
        physical.discard(name)
    return RedirectResponse(f"/gm/t/{name}", status_code=303)


@gm_router.post("/t/{name}/seats", response_class=HTMLResponse)
def gm_open_seat(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    side = str(form.get("side", ""))
    with tables(request).hold(name) as table:
        if side not in table.sides():
            return _gm(
                request,
                name,
                csrf,
                status=400,
                errors={"side": f"choose one of the sides: {', '.join(table.sides())}"},
            )
        token = request.app.state.seats.open(table.id, side, may_act=form.get("may_act") == "on")
    link = str(request.base_url).rstrip("/") + f"/p/{token}"
    return _gm(request, name, csrf, new_link=(side, link))


@gm_router.post("/t/{name}/seats/{seat_id}", response_class=HTMLResponse)
def gm_seat(request: Request, name: GmTable, csrf: GmAuth, seat_id: int, form: Form) -> Response:
    check_csrf(request, form, csrf)
    seats: Seats = request.app.state.seats
    table_id = request.app.state.store.table(name).id
    what = form.get("do")
    if what == "revoke":
        seats.revoke(table_id, seat_id)
    elif what in ("allow", "forbid"):
        seats.allow(table_id, seat_id, what == "allow")
    else:
        raise HTTPException(400, "say what to do with the link: revoke, allow or forbid")
    return RedirectResponse(f"/gm/t/{name}", status_code=303)


def _version(request: Request, name: str) -> int:
    store: Store = request.app.state.store
    try:
        return store.table(name).version
    except StoreError as err:
        raise HTTPException(404, str(err)) from None


def _gm(request: Request, name: str, csrf: str, **extra: Any) -> HTMLResponse:
    at = extra.pop("at", None)
    status = extra.pop("status", 200)
    fragment = extra.pop("fragment", False)
    with tables(request).hold(name) as table:
        shown = table if at is None else _earlier(table, at)
        page = Page(
            kind="gm",
            csrf=csrf,
            table=shown,
            side=None,
            base=f"/gm/t/{name}",
            poll_ms=request.app.state.poll_ms,
            physical=name in request.app.state.physical,
            seats=request.app.state.seats.of_table(table.id),
            at=at,
            head=table.head,
            total=len(table.store.actions(table.id)),
            may_act=True,
            **extra,
        )
        return render_page(page, status=status, fragment=fragment)


def _screen_json(request: Request, name: str, side: str | None) -> JSONResponse:
    """The presenter's screen for ``side`` (the whole log), as JSON, with the version."""
    with tables(request).hold(name) as table:
        screen = table.screen(side, log_tail=0)
        return JSONResponse(
            {"version": table.version, "screen": dataclasses.asdict(screen)},
            headers={"Cache-Control": "no-store"},
        )


def _download(text: str, filename: str) -> Response:
    return Response(
        text,
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store",
        },
    )


def _earlier(table: Table, at: int) -> Table:
    """The table replayed to ply ``at``, to look at (never to play on)."""
    at = max(0, min(at, table.head))
    record = table.store.table(table.name)
    from dataclasses import replace

    from fracas.engine import Encounter
    from fracas.rules import find

    entries = [a.entry for a in table.store.actions(table.id, upto=at)]
    save = {"_v": 1, "ruleset": record.ruleset, "setup": record.setup, "log": entries}
    encounter: Encounter[Any] = Encounter.load(save, find(record.ruleset))
    return Table(table.store, replace(record, head=at), encounter)


def _move(request: Request, name: str, csrf: str, form: Mapping[str, Any], how: str) -> Response:
    check_csrf(request, form, csrf)
    version = read_version(form)
    with tables(request).hold(name) as table:
        if version is None:
            return _gm(request, name, csrf, status=400, errors={how: "the form has no version"})
        if version != table.version:
            return _gm(request, name, csrf, status=409, errors={how: ALREADY})
        try:
            done = table.undo() if how == "undo" else table.redo()
        except ValueError as err:
            return _gm(request, name, csrf, status=400, errors={how: str(err)})
    return _gm(request, name, csrf, message=f"{how}: {done}")


ALREADY = "already applied: the table moved on since this page was drawn; nothing was done"


def _act(
    request: Request,
    name: str,
    side: str | None,
    form: Mapping[str, Any],
    again: Callable[..., Response],
) -> Response:
    """Push the form's action (with the faces typed so far, when the dice are typed)."""
    version = read_version(form)
    text = str(form.get("action", "")).strip()
    answers = list(form.get("answers", []))
    if form.get("faces") is not None:
        answers.append(str(form["faces"]))
    if version is None:
        return again(status=400, errors={"action": "the form has no version: reload the page"})
    if not text:
        return again(status=400, errors={"action": "type an action, e.g. 'ylva attack astrid'"})
    with tables(request).hold(name) as table:
        if version != table.version:
            return again(status=409, errors={"action": ALREADY})
        try:
            if name in request.app.state.physical:
                push_with_faces(table, text, answers, side)
            else:
                table.push(text, side)
        except FacesNeeded as need:
            return again(pending=(text, need.answers, need.request), typed=text)
        except ValueError as err:
            return again(status=400, errors={"action": str(err)}, typed=text)
    return RedirectResponse(_back(request), status_code=303)


def _back(request: Request) -> str:
    path = request.url.path
    return path.rsplit("/", 1)[0]


# -- a side's player ----------------------------------------------------------------------------

player_router = APIRouter(prefix="/p")


@player_router.get("/{token}", response_class=HTMLResponse)
def player_page(request: Request, seat: SideSeat, token: str) -> HTMLResponse:
    return _player(request, seat, token)


@player_router.get("/{token}/live")
def player_live(request: Request, seat: SideSeat, token: str, v: int = -1) -> Response:
    if _version(request, seat.table) == v:
        return Response(status_code=204)
    return _player(request, seat, token, fragment=True)


@player_router.get("/{token}/screen.json")
def player_screen(request: Request, seat: SideSeat) -> JSONResponse:
    return _screen_json(request, seat.table, seat.side)


@player_router.get("/{token}/export.json")
def player_export(request: Request, seat: SideSeat) -> Response:
    """The side's view of the table: never more than that side may know."""
    with tables(request).hold(seat.table) as table:
        return _download(table.dumps(seat.side), f"{seat.table}-{seat.side}.json")


@player_router.post("/{token}/act", response_class=HTMLResponse)
def player_act(request: Request, seat: SideSeat, token: str, form: Form) -> Response:
    if not seat.may_act:
        raise HTTPException(403, "the game master has not let this side act through its link")
    return _act(
        request, seat.table, seat.side, form, lambda **kw: _player(request, seat, token, **kw)
    )


def _player(request: Request, seat: Seat, token: str, **extra: Any) -> HTMLResponse:
    status = extra.pop("status", 200)
    fragment = extra.pop("fragment", False)
    with tables(request).hold(seat.table) as table:
        page = Page(
            kind="side",
            csrf="",
            table=table,
            side=seat.side,
            base=f"/p/{token}",
            poll_ms=request.app.state.poll_ms,
            physical=seat.table in request.app.state.physical,
            may_act=seat.may_act,
            **extra,
        )
        return render_page(page, status=status, fragment=fragment)
