"""The game master's preparation pages: the library's battlefields (a grid editor for
Heimr, an editor of named places for the free maps) and encounters (campaign,
battlefield, who stands where), imported and exported as the files the terminal reads.

Every page stands on :class:`fracas.library.Library` and :class:`fracas.ledger.Ledger`;
a change the ruleset refuses is answered with the page again, each mistake next to its
field, and nothing stored. Each form carries the version it was drawn from, so a change
made meanwhile elsewhere is not overwritten.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.datastructures import UploadFile

from fracas.ledger import Ledger
from fracas.library import KINDS, Invalid, Library, LibraryError
from fracas.library import edit as edits
from fracas.library.kinds import choices, grid_view, schema
from fracas.library.placements import PLACE_KEY, PlacementField, fields, read
from fracas.rules import ids
from fracas.table.store import ConflictError, StoreError
from fracas.web.battlefield import CELL, Shapes, layout
from fracas.web.deps import MAX_FIELD, Form, GmAuth, check_csrf, read_version
from fracas.web.render import ENV
from fracas.yamlfile import MAX_YAML_BYTES, CampaignError, KeyPath, format_path

__all__ = ["prep_router"]

prep_router = APIRouter(prefix="/gm")

#: Empty combatant rows offered below an encounter's combatants.
SPARE_ROWS = 3
#: Most combatant rows read from one form.
MAX_ROWS = 60


def _library(request: Request) -> Library:
    store = request.app.state.store
    return Library(store, Ledger(store))


def _page(template: str, status: int = 200, **context: Any) -> HTMLResponse:
    text = ENV.get_template(template).render(context)
    return HTMLResponse(text, status_code=status, headers={"Cache-Control": "no-store"})


def _yaml_download(text: str, filename: str) -> Response:
    return Response(
        text,
        media_type="application/yaml",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store",
        },
    )


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
    for path, message in found:
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


# -- battlefields ------------------------------------------------------------------------


@prep_router.get("/prep/", response_class=HTMLResponse)
def prep_index(_: GmAuth) -> RedirectResponse:
    return RedirectResponse("/gm/prep/battlefields", status_code=303)


@prep_router.get("/prep/battlefields", response_class=HTMLResponse)
def battlefields(request: Request, csrf: GmAuth) -> HTMLResponse:
    return _battlefields(request, csrf)


def _battlefields(request: Request, csrf: str, status: int = 200, **extra: Any) -> HTMLResponse:
    library = _library(request)
    campaigns = Ledger(library.store).campaigns()
    return _page(
        "battlefields.html",
        status,
        csrf=csrf,
        fields=library.battlefields(),
        kinds=KINDS,
        campaigns=campaigns,
        errors=extra.pop("errors", {}),
        values=extra.pop("values", {}),
        **extra,
    )


@prep_router.post("/prep/battlefields", response_class=HTMLResponse)
def new_battlefield(request: Request, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    name, ruleset = str(form.get("name", "")).strip(), str(form.get("ruleset", ""))
    campaign = str(form.get("campaign", ""))
    library = _library(request)
    try:
        library.ruleset_with_map(ruleset)
    except LibraryError as err:
        return _battlefields(request, csrf, 400, errors={"ruleset": str(err)}, values=form)
    try:
        library.create_battlefield(name, ruleset, str(form.get("title", "")), campaign=campaign)
    except Invalid as err:
        errors = field_errors(err.problems, ["name", "ruleset", "campaign"])
        return _battlefields(request, csrf, 400, errors=errors, values=form)
    except StoreError as err:
        return _battlefields(request, csrf, 400, errors={"name": str(err)}, values=form)
    return RedirectResponse(f"/gm/prep/battlefields/{name}", status_code=303)


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
        raise _UploadError(f"{filename}: the file is larger than {MAX_YAML_BYTES // 2**20} MB")
    try:
        return values, filename, data.decode("utf-8")
    except UnicodeDecodeError:
        raise _UploadError(f"{filename}: not UTF-8 text (a YAML or JSON file)") from None


class _UploadError(ValueError):
    pass


@prep_router.post("/prep/battlefields/import", response_class=HTMLResponse)
async def import_battlefield(request: Request, csrf: GmAuth) -> Response:
    try:
        values, filename, text = await read_upload(request)
    except _UploadError as err:
        return _battlefields(request, csrf, 400, errors={"file": str(err)})
    check_csrf(request, values, csrf)
    if not filename:
        return _battlefields(request, csrf, 400, errors={"file": "choose a file"}, values=values)
    library = _library(request)
    try:
        record = library.import_battlefield(
            text, filename, str(values.get("name", "")).strip() or None, values.get("campaign", "")
        )
    except CampaignError as err:
        return _battlefields(request, csrf, 400, errors={"file": str(err)}, values=values)
    except StoreError as err:
        return _battlefields(request, csrf, 400, errors={"name": str(err)}, values=values)
    return RedirectResponse(f"/gm/prep/battlefields/{record.name}", status_code=303)


@prep_router.get("/prep/battlefields/{name}.yaml")
def export_battlefield(request: Request, name: str, _: GmAuth) -> Response:
    try:
        text = _library(request).export_battlefield(name)
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None
    return _yaml_download(text, f"{name}.yaml")


@dataclass
class Editing:
    """What the editor's panel shows: a square, a border, a place, or nothing chosen."""

    what: str = ""  # square, border, place, new-place
    square: str = ""
    a: str = ""
    b: str = ""
    place: str = ""
    values: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Hotspot:
    """A clickable strip on the edge between two squares."""

    a: str
    b: str
    x: int
    y: int
    width: int
    height: int
    title: str


def hotspots(shapes: Shapes, borders: Sequence[Mapping[str, Any]]) -> list[Hotspot]:
    """A strip on every edge between two squares of the grid, titled with its border."""
    at = {(sq.x, sq.y): sq.name for sq in shapes.squares}
    named = {tuple(sorted(b["between"])): str(b.get("name") or "border") for b in borders}
    found = []
    for sq in shapes.squares:
        right = at.get((sq.x + CELL, sq.y))
        if right is not None:
            title = named.get(tuple(sorted((sq.name, right))), "no border")
            found.append(Hotspot(sq.name, right, sq.x + CELL - 7, sq.y + 15, 14, CELL - 30, title))
        above = at.get((sq.x, sq.y - CELL))
        if above is not None:
            title = named.get(tuple(sorted((sq.name, above))), "no border")
            found.append(Hotspot(sq.name, above, sq.x + 15, sq.y - 7, CELL - 30, 14, title))
    return found


def _square_values(document: Mapping[str, Any], square: str) -> dict[str, Any]:
    squares = (document.get("battlefield") or {}).get("squares") or {}
    return dict(squares.get(square) or {})


def _border_values(document: Mapping[str, Any], a: str, b: str) -> dict[str, Any]:
    index = edits.border_index(document, a, b)
    if index is None:
        return {}
    return dict(document["battlefield"]["borders"][index])


def _places(document: Mapping[str, Any], key: str) -> dict[str, dict[str, Any]]:
    raw = document.get(key) or {}
    if isinstance(raw, list):
        return {str(p): {} for p in raw}
    return {str(n): (dict(s) if isinstance(s, dict) else {}) for n, s in raw.items()}


def _editor(
    request: Request,
    csrf: str,
    name: str,
    editing: Editing | None = None,
    status: int = 200,
    errors: Mapping[str, str] | None = None,
    message: str = "",
) -> HTMLResponse:
    library = _library(request)
    try:
        record = library.battlefield(name)
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None
    kind = KINDS[record.ruleset]
    campaign = library.campaign_document(record.campaign)
    shapes, spots, places = None, [], {}
    if kind.shape == "grid":
        view = grid_view(record.document, campaign)
        shapes = layout(view, {})
        spots = hotspots(shapes, view["borders"])
    elif kind.shape == "places":
        places = _places(record.document, next(iter(kind.keys)))
    editing = editing or Editing()
    return _page(
        "battlefield.html",
        status,
        csrf=csrf,
        record=record,
        kind=kind,
        choices=choices(record.ruleset, campaign),
        grid=record.document.get("battlefield") or {},
        shapes=shapes,
        spots=spots,
        places=places,
        editing=editing,
        errors=errors or {},
        message=message,
        campaigns=Ledger(library.store).campaigns(),
    )


@prep_router.get("/prep/battlefields/{name}", response_class=HTMLResponse)
def battlefield_page(
    request: Request,
    name: str,
    csrf: GmAuth,
    square: str = "",
    a: str = "",
    b: str = "",
    place: str | None = None,
) -> HTMLResponse:
    library = _library(request)
    try:
        document = library.battlefield(name).document
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None
    editing = Editing()
    if square:
        editing = Editing("square", square=square[:4], values=_square_values(document, square))
    elif a and b:
        editing = Editing("border", a=a[:4], b=b[:4], values=_border_values(document, a, b))
    elif place is not None and KINDS[library.battlefield(name).ruleset].shape == "places":
        ruleset = library.battlefield(name).ruleset
        places = _places(document, next(iter(KINDS[ruleset].keys)))
        editing = Editing(
            "place" if place in places else "new-place",
            place=place[:80],
            values=places.get(place, {}),
        )
    return _editor(request, csrf, name, editing)


def _save(
    request: Request,
    csrf: str,
    name: str,
    form: Mapping[str, Any],
    document: Mapping[str, Any],
    editing: Editing,
    names: Sequence[str],
    done: str,
    aliases: Mapping[str, str] | None = None,
    **changes: Any,
) -> Response:
    """Store ``document`` (or answer with the panel again, each mistake by its field)."""
    version = read_version(form)
    if version is None:
        return _editor(request, csrf, name, editing, 400, {"form": "the form has no version"})
    try:
        _library(request).save_battlefield(name, document, version, **changes)
    except Invalid as err:
        errors = field_errors(err.problems, names, aliases)
        return _editor(request, csrf, name, editing, 400, errors)
    except ConflictError as err:
        return _editor(request, csrf, name, editing, 409, {"form": str(err)})
    except StoreError as err:
        return _editor(request, csrf, name, editing, 400, {"form": str(err)})
    back = f"/gm/prep/battlefields/{name}"
    if editing.what == "square":
        back += f"?square={editing.square}"
    elif editing.what == "border":
        back += f"?a={editing.a}&b={editing.b}"
    elif editing.what in ("place", "new-place") and done != "deleted":
        back += f"?place={editing.values.get('name', editing.place)}"
    return RedirectResponse(back, status_code=303)


def _number(text: Any) -> Any:
    """A form's number: an int when it reads as one, ``None`` when empty, else the text
    (for the ruleset's check to name)."""
    text = str(text or "").strip()
    if not text:
        return None
    return int(text) if text.lstrip("-").isdigit() and len(text) < 12 else text


def _current(request: Request, name: str) -> dict[str, Any]:
    try:
        return _library(request).battlefield(name).document
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None


@prep_router.post("/prep/battlefields/{name}/settings", response_class=HTMLResponse)
def battlefield_settings(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    """The title and campaign; a grid's size, darkness and weather; a line's units."""
    check_csrf(request, form, csrf)
    document = _current(request, name)
    record = _library(request).battlefield(name)
    kind = KINDS[record.ruleset]
    message = ""
    if kind.shape == "grid":
        columns, rows = _number(form.get("columns")), _number(form.get("rows"))
        if isinstance(columns, int) and isinstance(rows, int):
            document, dropped = edits.resize(document, columns, rows)
            message = f"left out: {', '.join(dropped)}" if dropped else ""
        else:
            grid = dict(document.get("battlefield") or {})
            grid.update(columns=columns, rows=rows)
            document = {**document, "battlefield": grid}
        grid = dict(document["battlefield"])
        for key in ("darkness", "weather"):
            value = _number(form.get(key))
            if value in (None, 0):
                grid.pop(key, None)
            else:
                grid[key] = value
        document = {**document, "battlefield": grid}
    elif kind.shape == "line":
        confined = {"yes": True, "no": False}.get(str(form.get("confined_space", "")))
        document = edits.set_line(document, str(form.get("units", "")) or None, confined)
    names = ["columns", "rows", "darkness", "weather", "units", "confined_space", "campaign"]
    response = _save(
        request,
        csrf,
        name,
        form,
        document,
        Editing("settings", values=dict(form)),
        names,
        message,
        title=str(form.get("title", "")),
        campaign=str(form.get("campaign", record.campaign)),
    )
    return response


SQUARE_FIELDS = ["name", "height", "top", "terrain", "concealment", "light", "climb", "roof"]


@prep_router.post("/prep/battlefields/{name}/square", response_class=HTMLResponse)
async def battlefield_square(request: Request, name: str, csrf: GmAuth) -> Response:
    form = await _multi(request)
    check_csrf(request, form, csrf)
    square = str(form.get("square", "")).strip().upper()[:4]
    values = {
        "name": str(form.get("name", "")).strip(),
        "height": _number(form.get("height")),
        "top": _number(form.get("top")),
        "terrain": str(form.get("terrain", "normal")),
        "concealment": [str(c) for c in form.get("concealment", [])],
        "light": str(form.get("light", "")) or None,
        "climb": str(form.get("climb", "")) or None,
        "roof": form.get("roof") == "on",
    }
    document = edits.set_square(_current(request, name), square, values)
    editing = Editing("square", square=square, values=values)
    return _save(request, csrf, name, form, document, editing, [*SQUARE_FIELDS, "square"], "")


BORDER_FIELDS = ["between", "preset", "climb", "closed", "one_way_from"]


@prep_router.post("/prep/battlefields/{name}/border", response_class=HTMLResponse)
def battlefield_border(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    a = str(form.get("a", "")).strip().upper()[:4]
    b = str(form.get("b", "")).strip().upper()[:4]
    closed = {"closed": True, "open": False}.get(str(form.get("closed", "")))
    values = {
        "preset": str(form.get("preset", "")) or None,
        "climb": str(form.get("climb", "")) or None,
        "closed": closed,
        "one_way_from": str(form.get("one_way_from", "")) or None,
    }
    if not a or not b or a == b:
        editing = Editing("border", a=a, b=b, values=values)
        problem = {"between": "name the two squares the border stands between"}
        return _editor(request, csrf, name, editing, 400, problem)
    document = edits.set_border(_current(request, name), a, b, values)
    editing = Editing("border", a=a, b=b, values=values)
    return _save(request, csrf, name, form, document, editing, BORDER_FIELDS, "")


async def _multi(request: Request) -> dict[str, Any]:
    """A form whose repeated fields (checkboxes) are lists; every field bounded."""
    try:
        form = await request.form(max_files=0, max_fields=200)
    except Exception:
        raise HTTPException(400, "malformed form") from None
    found: dict[str, Any] = {}
    repeated = ("concealment", "borders")
    for key, value in form.multi_items():
        if not isinstance(value, str):
            raise HTTPException(400, f"field {key[:40]!r}: expected text, not a file")
        if key in repeated:
            found.setdefault(key, []).append(value[:MAX_FIELD])
        else:
            found[key] = value[:MAX_FIELD]
    return found


@prep_router.post("/prep/battlefields/{name}/place", response_class=HTMLResponse)
async def battlefield_place(request: Request, name: str, csrf: GmAuth) -> Response:
    """A named place of a free map: added, renamed, its borders and own fields set, or
    (``delete``) taken away."""
    form = await _multi(request)
    check_csrf(request, form, csrf)
    record = _library(request).battlefield(name)
    kind = KINDS[record.ruleset]
    if kind.shape != "places":
        raise HTTPException(400, f"a {record.ruleset} battlefield has no named places")
    key = next(iter(kind.keys))
    old = str(form.get("old", "")) or None
    new = str(form.get("name", "")).strip()[:80]
    editing = Editing("place" if old else "new-place", place=old or "", values=dict(form))
    if form.get("delete") and old:
        document = edits.remove_place(record.document, key, old)
        return _save(request, csrf, name, form, document, editing, ["name"], "deleted")
    if not new:
        return _editor(request, csrf, name, editing, 400, {"name": f"name the {kind.place_word}"})
    if new != old and new in _places(record.document, key):
        problem = {"name": f"there is already a {kind.place_word} called {new!r}"}
        return _editor(request, csrf, name, editing, 400, problem)
    values: dict[str, Any] = {}
    for f in kind.place_fields:
        raw = form.get(f)
        if f.startswith("modifiers."):
            values[f] = _number(raw)
        elif f == "cramped":
            values[f] = raw == "on"
        else:
            values[f] = str(raw or "") or None
    borders = [str(b) for b in form.get("borders", []) if b != new]
    document = edits.set_place(record.document, key, old, new, borders, values)
    editing.values["name"] = new
    # A mistake the ruleset finds in the place as a whole is shown by its own fields.
    own = "modifiers" if any(f.startswith("modifiers.") for f in kind.place_fields) else "name"
    names = ["name", "borders", "modifiers", "cramped", "ground", new]
    return _save(request, csrf, name, form, document, editing, names, "", aliases={new: own})


@prep_router.post("/prep/battlefields/{name}/delete", response_class=HTMLResponse)
def delete_battlefield(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    try:
        _library(request).delete_battlefield(name)
    except LibraryError as err:
        return _editor(request, csrf, name, None, 400, {"form": str(err)})
    return RedirectResponse("/gm/prep/battlefields", status_code=303)


# -- encounters --------------------------------------------------------------------------


@prep_router.get("/prep/encounters", response_class=HTMLResponse)
def encounters(request: Request, csrf: GmAuth) -> HTMLResponse:
    return _encounters(request, csrf)


def _encounters(request: Request, csrf: str, status: int = 200, **extra: Any) -> HTMLResponse:
    library = _library(request)
    return _page(
        "encounters.html",
        status,
        csrf=csrf,
        encounters=library.encounters(),
        campaigns=Ledger(library.store).campaigns(),
        fields=library.battlefields(),
        rulesets=ids(),
        errors=extra.pop("errors", {}),
        values=extra.pop("values", {}),
        **extra,
    )


@prep_router.post("/prep/encounters/import", response_class=HTMLResponse)
async def import_encounter(request: Request, csrf: GmAuth) -> Response:
    try:
        values, filename, text = await read_upload(request)
    except _UploadError as err:
        return _encounters(request, csrf, 400, errors={"file": str(err)})
    check_csrf(request, values, csrf)
    if not filename:
        return _encounters(request, csrf, 400, errors={"file": "choose a file"}, values=values)
    campaign = str(values.get("campaign", ""))
    if not campaign:
        problem = {"campaign": "choose the campaign whose characters fight"}
        return _encounters(request, csrf, 400, errors=problem, values=values)
    try:
        record = _library(request).import_encounter(
            text, filename, campaign, str(values.get("name", "")).strip() or None
        )
    except CampaignError as err:
        return _encounters(request, csrf, 400, errors={"file": str(err)}, values=values)
    except StoreError as err:
        return _encounters(request, csrf, 400, errors={"name": str(err)}, values=values)
    return RedirectResponse(f"/gm/prep/encounters/{record.name}", status_code=303)


@dataclass(frozen=True)
class Draft:
    """An encounter as its builder shows it: stored or not yet, and its rows."""

    name: str
    ruleset: str
    title: str
    campaign: str
    battlefield: str
    rows: list[dict[str, Any]]
    version: int | None


def _builder(
    request: Request,
    csrf: str,
    draft: Draft,
    status: int = 200,
    errors: Mapping[str, str] | None = None,
    message: str = "",
) -> HTMLResponse:
    library = _library(request)
    ledger = Ledger(library.store)
    campaign: dict[str, Any] = {}
    if draft.campaign:
        with contextlib.suppress(ValueError):  # unknown: the save names it
            campaign = ledger.document(draft.campaign)
    sheets = campaign.get("characters") or {}
    characters = sorted(sheets)
    kind = KINDS.get(draft.ruleset)
    field_doc: dict[str, Any] = {}
    if draft.battlefield:
        with contextlib.suppress(LibraryError):  # gone meanwhile: the form names it
            field_doc = library.battlefield(draft.battlefield).document
    places: list[str] = []
    if kind is not None and kind.shape == "places":
        places = list(_places(field_doc, next(iter(kind.keys))))
    shapes = None
    if kind is not None and kind.shape == "grid":
        shapes = _placed(field_doc, campaign, draft.rows)
    known: tuple[PlacementField, ...] = fields(draft.ruleset) if draft.ruleset in ids() else ()
    rows = [*draft.rows, *({} for _ in range(SPARE_ROWS))]
    return _page(
        "encounter.html",
        status,
        csrf=csrf,
        draft=draft,
        rows=rows,
        known=known,
        place_key=PLACE_KEY.get(draft.ruleset),
        shapes=shapes,
        places=places,
        characters=characters,
        campaigns=[c for c in ledger.campaigns() if c.ruleset == draft.ruleset],
        fields=library.battlefields(draft.ruleset),
        has_battlefield=draft.ruleset in KINDS,
        errors=errors or {},
        message=message,
    )


def _placed(
    document: Mapping[str, Any], campaign: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]
) -> Shapes | None:
    """The grid with the combatants where the rows put them, coloured by side (the row's,
    else the sheet's); ``None`` when the campaign's tables do not read."""
    sheets = campaign.get("characters") or {}
    people = {}
    for row in rows:
        sheet = sheets.get(row.get("character")) or {}
        who = str(row.get("id") or row.get("character"))
        people[who] = {
            "name": who,
            "side": row.get("side") or (sheet.get("side") if isinstance(sheet, dict) else ""),
            "square": str(row.get("square") or "B2").upper(),
        }
    try:
        return layout(grid_view(document, campaign), people)
    except ValueError:
        return None


@prep_router.get("/prep/encounters/new", response_class=HTMLResponse)
def new_encounter(
    request: Request,
    csrf: GmAuth,
    name: str = "",
    ruleset: str = "",
    campaign: str = "",
    battlefield: str = "",
) -> HTMLResponse:
    if ruleset not in ids():
        errors = {"ruleset": f"choose a ruleset: {', '.join(ids())}"}
        values = {"name": name[:80], "campaign": campaign[:80]}
        return _encounters(request, csrf, 400, errors=errors, values=values)
    draft = Draft(name[:80], ruleset, "", campaign[:80], battlefield[:80], [], None)
    return _builder(request, csrf, draft)


@prep_router.get("/prep/encounters/{name}.yaml")
def export_encounter(request: Request, name: str, _: GmAuth) -> Response:
    try:
        text = _library(request).export_encounter(name)
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None
    return _yaml_download(text, f"{name}.yaml")


@prep_router.get("/prep/encounters/{name}", response_class=HTMLResponse)
def encounter_page(request: Request, name: str, csrf: GmAuth) -> HTMLResponse:
    try:
        record = _library(request).encounter(name)
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None
    rows = [dict(c) for c in record.document.get("combatants") or () if isinstance(c, dict)]
    draft = Draft(
        record.name,
        record.ruleset,
        record.title,
        record.campaign,
        record.battlefield,
        rows,
        record.version,
    )
    return _builder(request, csrf, draft)


def _read_draft(form: Mapping[str, Any]) -> tuple[Draft, list[int]]:
    """The encounter a builder's form describes, and the form row of each combatant."""
    ruleset = str(form.get("ruleset", ""))
    known = fields(ruleset) if ruleset in ids() else ()
    rows, numbers = [], []
    for i in range(MAX_ROWS):
        raw = {f.name: form.get(f"c{i}.{f.name}", "") for f in known}
        if f"c{i}.character" not in form:
            break
        row = read(raw, known)
        if row.get("character"):
            rows.append(row)
            numbers.append(i)
    version = read_version(form)
    draft = Draft(
        str(form.get("name", "")).strip()[:80],
        ruleset,
        str(form.get("title", "")).strip(),
        str(form.get("campaign", "")),
        str(form.get("battlefield", "")),
        rows,
        version if form.get("version") else None,
    )
    return draft, numbers


def encounter_errors(
    found: Sequence[tuple[KeyPath, str]], numbers: Sequence[int]
) -> dict[str, str]:
    """Each problem under its field: ``c3.square`` for a combatant's (by its form row),
    ``campaign``, ``battlefield``, ``combatants``, or ``form``."""
    errors: dict[str, str] = {}
    for path, message in found:
        if path[:1] == ("combatants",) and len(path) > 1 and isinstance(path[1], int):
            row = numbers[path[1]] if path[1] < len(numbers) else path[1]
            name = f"c{row}.{path[2]}" if len(path) > 2 else f"c{row}.character"
        elif path[:1] in (("campaign",), ("battlefield",), ("combatants",), ("ruleset",)):
            name = str(path[0])
        elif path and path[0] in {k for kind in KINDS.values() for k in kind.keys}:
            name, message = "battlefield", f"{format_path(path)}: {message}"
        else:
            name = "form"
            message = f"{format_path(path)}: {message}" if path else message
        errors[name] = f"{errors[name]}; {message}" if name in errors else message
    return errors


@prep_router.post("/prep/encounters", response_class=HTMLResponse)
def save_encounter(request: Request, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    draft, numbers = _read_draft(form)
    if draft.ruleset not in ids():
        raise HTTPException(400, f"unknown ruleset {draft.ruleset[:40]!r}")
    document = {"combatants": draft.rows}
    try:
        _library(request).save_encounter(
            draft.name,
            draft.ruleset,
            draft.campaign,
            draft.battlefield,
            document,
            draft.title,
            draft.version,
        )
    except Invalid as err:
        return _builder(request, csrf, draft, 400, encounter_errors(err.problems, numbers))
    except ConflictError as err:
        return _builder(request, csrf, draft, 409, {"form": str(err)})
    except StoreError as err:
        return _builder(request, csrf, draft, 400, {"name": str(err)})
    return RedirectResponse(f"/gm/prep/encounters/{draft.name}", status_code=303)


@prep_router.post("/prep/encounters/{name}/start", response_class=HTMLResponse)
def start_encounter(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    """A live table from the encounter (the campaign's characters as they stand now);
    its GM page opens."""
    check_csrf(request, form, csrf)
    library = _library(request)
    try:
        record = library.encounter(name)
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None
    table = str(form.get("table", "")).strip()
    try:
        library.start(name, table)
    except (StoreError, ValueError) as err:
        draft = Draft(
            record.name,
            record.ruleset,
            record.title,
            record.campaign,
            record.battlefield,
            [dict(c) for c in record.document.get("combatants") or ()],
            record.version,
        )
        return _builder(request, csrf, draft, 400, {"table": str(err)})
    return RedirectResponse(f"/gm/t/{table}", status_code=303)


@prep_router.post("/prep/encounters/{name}/delete", response_class=HTMLResponse)
def delete_encounter(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    try:
        _library(request).delete_encounter(name)
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None
    return RedirectResponse("/gm/prep/encounters", status_code=303)
