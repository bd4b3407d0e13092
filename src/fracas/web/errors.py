"""Refusals as people see them: a page asked for by a browser gets a page (what went
wrong, in one line, and the way back); a script, a stream or an htmx fragment request
keeps the JSON ``{"detail": …}`` it reads.

>>> wants_html({"accept": "text/html,application/xhtml+xml"}, "/gm/t/duel")
True
>>> wants_html({"accept": "text/html", "hx-request": "true"}, "/gm/t/duel")
False
>>> wants_html({"accept": "text/html"}, "/gm/t/duel/screen.json")
False
>>> wants_html({"accept": "*/*"}, "/gm/t/duel")
False
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from fracas.web.render import ENV

__all__ = ["TITLES", "error_response", "in_web_words", "in_words", "wants_html"]

#: What each status is called on its page.
TITLES = {
    400: "That form could not be read",
    403: "Not yours to open",
    404: "Nothing here",
    409: "Not now",
    410: "Gone",
    429: "Too many pages open",
}
#: Paths whose answers are read by scripts, streams or fragments: always JSON.
_MACHINE = (".json", ".yaml", "/events", "/live", "/log", "/health")


def wants_html(headers: Mapping[str, str], path: str) -> bool:
    """Whether a refusal of this request is best answered with a page: a browser's
    navigation (it accepts HTML), not htmx's fragment request nor a machine's path."""
    if headers.get("hx-request") or path.endswith(_MACHINE):
        return False
    return "text/html" in headers.get("accept", "")


def error_response(
    request: Request, status: int, detail: str, headers: Mapping[str, str] | None = None
) -> Response:
    """The refusal ``detail`` (one line) with ``status``: a page with the way back for a
    browser, else JSON."""
    if not wants_html(request.headers, request.url.path):
        return JSONResponse({"detail": detail}, status_code=status, headers=dict(headers or {}))
    path = request.url.path
    player = path.startswith("/p/")
    html = ENV.get_template("error.html").render(
        status=status,
        title=TITLES.get(status, "Something went wrong"),
        detail=detail,
        player=player,
        back="" if player else _back(path),
    )
    merged = {"Cache-Control": "no-store", **dict(headers or {})}
    return HTMLResponse(html, status_code=status, headers=merged)


def _back(path: str) -> str:
    """The page a GM goes back to from ``path``: its section's list.

    >>> _back("/gm/prep/encounters/x/edit"), _back("/gm/c/nordic/character/ylva")
    ('/gm/prep/encounters', '/gm/c/nordic')
    """
    parts = path.strip("/").split("/")
    if len(parts) >= 3 and parts[:2] == ["gm", "prep"]:
        return "/" + "/".join(parts[:3])
    if len(parts) >= 3 and parts[:2] == ["gm", "c"]:
        return "/" + "/".join(parts[:3])
    return "/gm/"


def in_web_words(message: str) -> str:
    """The store's word on a taken table name, in the web's words (not the terminal's).

    >>> in_web_words("there is already a table called 'duel': resume it with --table duel, "
    ...              "or choose another name")
    "there is already a table called 'duel': choose another name, or open it from the tables"
    """
    if message.startswith("there is already a table called"):
        return message.split(":", 1)[0] + ": choose another name, or open it from the tables"
    return message


#: Validation messages (pydantic's) and how the forms say them.
_PLAIN = (
    (re.compile(r"Input should be a valid integer.*"), "a whole number"),
    (re.compile(r"Input should be a valid number.*"), "a number"),
    (re.compile(r"Input should be a valid boolean.*"), "yes or no"),
    (re.compile(r"Input should be a valid string.*"), "text"),
    (re.compile(r"Input should be a valid (list|array).*"), "a list"),
    (re.compile(r"Input should be a valid dictionary.*"), "a set of names and values"),
    (re.compile(r"Input should be greater than or equal to (\S+)"), r"at least \1"),
    (re.compile(r"Input should be less than or equal to (\S+)"), r"at most \1"),
    (re.compile(r"Input should be greater than (\S+)"), r"more than \1"),
    (re.compile(r"Input should be less than (\S+)"), r"less than \1"),
    (re.compile(r"Input should be (.+)"), r"one of \1"),
    (re.compile(r"Field required"), "required"),
    (re.compile(r"Extra inputs are not permitted"), "not a field of this form"),
    (re.compile(r"String should have at most (\d+) characters?"), r"at most \1 characters"),
    (re.compile(r"String should have at least (\d+) characters?"), r"at least \1 characters"),
    (re.compile(r"List should have at most (\d+) items?.*"), r"at most \1 entries"),
    (re.compile(r"Value error, (.+)"), r"\1"),
)


def in_words(message: str) -> str:
    """A validation message as a form says it beside its field (not the validator's
    jargon); other messages as they are.

    >>> in_words("Input should be a valid integer, unable to parse string as an integer")
    'a whole number'
    >>> in_words("Input should be greater than or equal to 0")
    'at least 0'
    >>> in_words("Input should be 'block', 'dodge' or 'parry'")
    "one of 'block', 'dodge' or 'parry'"
    >>> in_words("Z9 is off the 3x3 grid")
    'Z9 is off the 3x3 grid'
    """
    for pattern, words in _PLAIN:
        found = pattern.fullmatch(message.strip())
        if found:
            return found.expand(words)
    return message
