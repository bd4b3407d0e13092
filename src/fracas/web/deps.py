"""What every web page stands on: the GM's and a seat's authentication, CSRF, forms read
with bounds, and a few answers shared by the GM's and the players' pages.

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
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.datastructures import FormData

from fracas.engine import EngineError
from fracas.rules import check_version
from fracas.table.seats import Seat
from fracas.table.store import Store, StoreError
from fracas.web.live import Tables

GM_COOKIE = "fracas_gm"
#: Longest form field read (an action, a line of faces).
MAX_FIELD = 4000
#: Most answers (rolls and throws typed in) one pending action may carry.
MAX_ANSWERS = 500


def first_error(exc: RequestValidationError) -> str:
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
        record = request.app.state.store.table(name)
    except StoreError as err:
        raise HTTPException(404, str(err)) from None
    _playable(name, record.ruleset, record.ruleset_version)
    return name


def _playable(name: str, ruleset: str, version: str | None) -> None:
    """A table whose ruleset is not installed, or is of another major version, says so
    in one line (409) instead of failing to replay."""
    try:
        check_version(ruleset, version)
    except EngineError as err:
        raise HTTPException(409, f"table {name!r}: {err}") from None


GmTable = Annotated[str, Depends(gm_table)]


def side_seat(token: str, request: Request) -> Seat:
    """The seat this link opens (403 for anything else): resolved before anything."""
    seat: Seat | None = request.app.state.seats.find(token)
    if seat is None:
        raise HTTPException(403, "this link opens nothing: ask the game master for a new one")
    record = request.app.state.store.table(seat.table)
    _playable(seat.table, record.ruleset, record.ruleset_version)
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


ALREADY = "already applied: the table moved on since this page was drawn; nothing was done"


def table_version(request: Request, name: str) -> int:
    store: Store = request.app.state.store
    try:
        return store.table(name).version
    except StoreError as err:
        raise HTTPException(404, str(err)) from None


def screen_json(request: Request, name: str, side: str | None) -> JSONResponse:
    """The presenter's screen for ``side`` (the whole log), as JSON, with the version."""
    with tables(request).hold(name) as table:
        screen = table.screen(side, log_tail=0)
        return JSONResponse(
            {"version": table.version, "screen": dataclasses.asdict(screen)},
            headers={"Cache-Control": "no-store"},
        )


def download(text: str, filename: str) -> Response:
    return Response(
        text,
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store",
        },
    )
