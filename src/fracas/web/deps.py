"""What every web page stands on: the GM's and a seat's authentication, CSRF, forms read
with bounds, and a few answers shared by the GM's and the players' pages.

Access: the server knows one GM token, kept in the store as a hash (made at the first
start, set with ``--gm-token``, replaced with ``fracas gm-link --new``). ``/gm/login``
with it starts a GM session (:mod:`fracas.table.access`): a random session id, not the
token, goes in the cookie (HttpOnly, SameSite=Strict, Secure under https, with an
expiry); every GM page looks the session up in the store, so every server process and
the next start honour it. Without one, a GM page answers 403 with a page saying to open
the GM link. A player's link ``/p/<token>`` is resolved to its table and side before
anything else is done; it reaches only that side's pages, never a GM page.

CSRF: every GM form carries a hidden ``csrf`` field, the session's own random token
that a page from another site cannot know, and a POST whose ``Origin`` is not this site
(``--public-url`` when given, else the request's host) is refused; the cookie is
SameSite=Strict besides. A player's forms need none: the secret is in the URL, not in an
ambient cookie.

Double submits and races: every form carries a table's version; one whose version is no
longer the table's, or whose change lost the race to another process's (the store's
:class:`~fracas.table.store.ConflictError`), is answered 409 "already applied or changed
meanwhile" and changes nothing. Buttons carry the version they were drawn at; the typed
action and a faces prompt follow the table as the page receives its changes
(:mod:`fracas.web.events`).
"""

from __future__ import annotations

import dataclasses
import hmac
import re
import unicodedata
from collections.abc import Mapping
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import Depends, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.datastructures import FormData

from fracas.engine import EngineError
from fracas.rules import check_version
from fracas.table.access import LIFETIME, GmAccess, GmSession
from fracas.table.seats import Seat
from fracas.table.store import Store, StoreError
from fracas.web.access import origin_allowed, secure
from fracas.web.live import Tables
from fracas.web.render import ENV

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


class SignedOut(HTTPException):
    """A GM page asked for without a GM session: answered 403 with a page saying what
    to do (see :func:`fracas.web.app.create_app`)."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(403, detail or "this page is the game master's: open the GM link")
        self.why = detail


def gm_session(request: Request) -> GmSession | None:
    """The GM's session this request's cookie opens, if any."""
    access: GmAccess = request.app.state.access
    return access.session(request.cookies.get(GM_COOKIE, ""))


def gm_auth(request: Request) -> str:
    """The GM session's CSRF token, once its cookie is checked (403 without it)."""
    session = gm_session(request)
    if session is None:
        raise SignedOut()
    return session.csrf


def signed_out_page(request: Request, status: int = 403, message: str = "") -> HTMLResponse:
    """The page a GM page answers without a session: what to open to sign in."""
    text = ENV.get_template("signed_out.html").render(message=message)
    return HTMLResponse(text, status_code=status, headers={"Cache-Control": "no-store"})


def set_gm_cookie(request: Request, response: Response, session_id: str) -> None:
    """Give the browser its GM session: never the token, never to scripts or other sites."""
    response.set_cookie(
        GM_COOKIE,
        session_id,
        max_age=int(LIFETIME.total_seconds()),
        expires=int(LIFETIME.total_seconds()),
        httponly=True,
        samesite="strict",
        secure=secure(request),
        path="/",
    )


GmAuth = Annotated[str, Depends(gm_auth)]


def gm_table(name: str, _: GmAuth, request: Request) -> str:
    """The name of an existing table (404 otherwise), for the GM."""
    try:
        record = request.app.state.store.table(name)
    except StoreError as err:
        raise HTTPException(404, str(err)) from None
    if record.archived is not None:
        raise HTTPException(
            409, f"the table {name} is archived: restore it from the archived tables to open it"
        )
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
        if request.app.state.seats.revoked(token):
            raise HTTPException(
                403, "the game master revoked this link: ask them for a new one if you still play"
            )
        raise HTTPException(403, "this link opens nothing: ask the game master for a new one")
    record = request.app.state.store.table(seat.table)
    if record.archived is not None:
        raise HTTPException(403, "the game master has put this table away: this link opens nothing")
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


def check_origin(request: Request) -> None:
    if not origin_allowed(request):
        raise HTTPException(403, "a form from another site: refused")


def check_csrf(request: Request, form: Mapping[str, Any], expected: str) -> None:
    check_origin(request)
    if not hmac.compare_digest(str(form.get("csrf", "")).encode(), expected.encode()):
        raise HTTPException(403, "this form has no valid CSRF token: reload the page")


def read_version(form: Mapping[str, Any]) -> int | None:
    """The version a form was drawn at; ``None`` when the field is not a number."""
    text = str(form.get("version", "")).strip()
    return int(text) if text.isdigit() and len(text) < 12 else None


#: The answer (409) to a form drawn before the table last changed, or whose change lost the
#: race to another screen or process: the same words for both.
ALREADY = (
    "already applied or changed meanwhile: the table moved on since this page was drawn "
    "and nothing was done: reload"
)


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


def download(text: str, filename: str, media_type: str = "application/json") -> Response:
    """``text`` as a file to save, named ``filename`` (any name: see :func:`disposition`)."""
    return Response(
        text,
        media_type=media_type,
        headers={"Content-Disposition": disposition(filename), "Cache-Control": "no-store"},
    )


_PLAIN = re.compile(r"[A-Za-z0-9._-]+")


def disposition(filename: str) -> str:
    r"""The ``Content-Disposition`` of a download named ``filename``: the name itself when
    it is plain ASCII, else an ASCII stand-in for old browsers and the name in UTF-8
    (RFC 6266's ``filename*``, percent-encoded as RFC 5987 says), so that a table, a
    campaign or a side named in any script downloads under its own name.

    >>> print(disposition("duel.json"))
    attachment; filename="duel.json"
    >>> print(disposition("ńame-ŋorð.json"))
    attachment; filename="name-or.json"; filename*=UTF-8''%C5%84ame-%C5%8Bor%C3%B0.json
    >>> print(disposition('a"b\r\nc.json'))
    attachment; filename="a_b_c.json"; filename*=UTF-8''a%22b%0D%0Ac.json
    """
    if _PLAIN.fullmatch(filename):
        return f'attachment; filename="{filename}"'
    folded = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode()
    stand_in = re.sub(r"[^A-Za-z0-9._-]+", "_", folded).strip("_") or "download"
    return f"attachment; filename=\"{stand_in}\"; filename*=UTF-8''{quote(filename, safe='')}"
