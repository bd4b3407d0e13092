"""The game master's preparation pages: what the battlefield and encounter pages
(:mod:`fracas.web.prep_battlefields`, :mod:`fracas.web.prep_encounters`) share, the battlefield
schemas, and the way in (``/gm/prep/``).

Every page stands on :class:`fracas.library.Library` and :class:`fracas.ledger.Ledger`;
a change the ruleset refuses is answered with the page again, each mistake next to its
field, and nothing stored. Each form carries the version it was drawn from, so a change
made meanwhile elsewhere is not overwritten.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.datastructures import UploadFile

from fracas.ledger import Ledger
from fracas.library import KINDS, Library
from fracas.library.kinds import schema
from fracas.table.store import StoreError
from fracas.web.deps import MAX_FIELD, GmAuth, check_csrf, download
from fracas.web.errors import in_words
from fracas.web.render import ENV
from fracas.yamlfile import MAX_YAML_BYTES, CampaignError, KeyPath, format_path

__all__ = [
    "UploadError",
    "field_errors",
    "library_of",
    "named_places",
    "page",
    "prep_router",
    "read_upload",
    "yaml_download",
]

prep_router = APIRouter(prefix="/gm")


def library_of(request: Request) -> Library:
    store = request.app.state.store
    return Library(store, Ledger(store))


def page(template: str, status: int = 200, **context: Any) -> HTMLResponse:
    text = ENV.get_template(template).render(context)
    return HTMLResponse(text, status_code=status, headers={"Cache-Control": "no-store"})


def yaml_download(text: str, filename: str) -> Response:
    return download(text, filename, "application/yaml")


def field_errors(
    found: Sequence[tuple[KeyPath, str]],
    names: Sequence[str],
    aliases: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Each problem under the last form field its path names (``form`` if none); a name
    in ``aliases`` is shown by the field it maps to.

    >>> field_errors([(("battlefield", "squares", "B2", "height"), "too low")], ["height"])
    {'height': 'too low'}
    >>> field_errors([(("positions", "Ford"), "unknown roll")], ["Ford"], {"Ford": "modifiers"})
    {'modifiers': 'unknown roll'}
    """
    errors: dict[str, str] = {}
    for path, said in found:
        message = in_words(said)
        name = next((str(p) for p in reversed(path) if str(p) in names), "form")
        name = (aliases or {}).get(name, name)
        if name == "form" and path:
            message = f"{format_path(path)}: {message}"
        errors[name] = f"{errors[name]}; {message}" if name in errors else message
    return errors


# -- schemas -----------------------------------------------------------------------------


@prep_router.get("/schema/battlefield-{ruleset}.json")
def battlefield_schema(ruleset: str, _: GmAuth) -> JSONResponse:
    """The JSON Schema of a battlefield file of ``ruleset`` (from its pydantic models)."""
    if ruleset not in KINDS:
        known = ", ".join(KINDS)
        raise HTTPException(404, f"no battlefield schema for {ruleset[:40]!r}: there are {known}")
    return JSONResponse(schema(ruleset))


@prep_router.get("/prep/", response_class=HTMLResponse)
def prep_index(_: GmAuth) -> RedirectResponse:
    return RedirectResponse("/gm/prep/battlefields", status_code=303)


async def read_upload(request: Request) -> tuple[dict[str, str], str, str]:
    """A form with one file (``file``): its other fields, the file's name and its text
    (at most the size of a YAML file read, UTF-8)."""
    try:
        form = await request.form(max_files=1, max_fields=20)
    except Exception:
        raise HTTPException(400, "malformed form") from None
    values: dict[str, str] = {}
    upload: UploadFile | None = None
    for key, value in form.multi_items():
        if isinstance(value, str):
            values[key] = value[:MAX_FIELD]
        elif key == "file":
            upload = value
    if upload is None or not upload.filename:
        return values, "", ""
    data = await upload.read(MAX_YAML_BYTES + 1)
    filename = upload.filename[-200:]
    if len(data) > MAX_YAML_BYTES:
        raise UploadError(f"{filename}: the file is larger than {MAX_YAML_BYTES // 2**20} MB")
    try:
        return values, filename, data.decode("utf-8")
    except UnicodeDecodeError:
        raise UploadError(f"{filename}: not UTF-8 text (a YAML or JSON file)") from None


class UploadError(ValueError):
    pass


#: A prep page shown again with its errors: (request, csrf, status, errors=, values=).
PrepPage = Callable[..., Response]


async def import_upload(
    request: Request,
    csrf: str,
    shown: PrepPage,
    store: Callable[[dict[str, str], str, str], str],
    where: str,
    needs: Mapping[str, str] | None = None,
) -> Response:
    """An uploaded file imported into the library: the form read, its CSRF token checked,
    the fields it ``needs`` asked for (each with what to say when empty), then
    ``store(values, filename, text)`` keeps it and gives its name; the page ``shown``
    again names each mistake at its field (the file's, with its line; a name taken),
    else a redirect to ``where/<name>``."""
    try:
        values, filename, text = await read_upload(request)
    except UploadError as err:
        return shown(request, csrf, 400, errors={"file": str(err)})
    check_csrf(request, values, csrf)
    if not filename:
        return shown(request, csrf, 400, errors={"file": "choose a file"}, values=values)
    for key, ask in (needs or {}).items():
        if not values.get(key):
            return shown(request, csrf, 400, errors={key: ask}, values=values)
    try:
        name = store(values, filename, text)
    except CampaignError as err:
        return shown(request, csrf, 400, errors={"file": str(err)}, values=values)
    except StoreError as err:
        return shown(request, csrf, 400, errors={"name": str(err)}, values=values)
    return RedirectResponse(f"{where}/{name}", status_code=303)


def named_places(document: Mapping[str, Any], key: str) -> dict[str, dict[str, Any]]:
    raw = document.get(key) or {}
    if isinstance(raw, list):
        return {str(p): {} for p in raw}
    return {str(n): (dict(s) if isinstance(s, dict) else {}) for n, s in raw.items()}
