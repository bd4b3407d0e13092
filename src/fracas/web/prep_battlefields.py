"""The library's battlefields: a grid editor for Heimr (a square, or the edge between two,
clicked to edit), an editor of named places for the free maps, import and export."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from fracas.ledger import Ledger
from fracas.library import KINDS, Invalid, LibraryError
from fracas.library import edit as edits
from fracas.library.kinds import choices, grid_view
from fracas.table.store import ConflictError, StoreError
from fracas.web.battlefield import CELL, Shapes, layout
from fracas.web.deps import MAX_FIELD, Form, GmAuth, check_csrf, read_version
from fracas.web.prep import (
    field_errors,
    import_upload,
    library_of,
    named_places,
    page,
    yaml_download,
)
from fracas.web.tables import confirm_page, confirmed
from fracas.yamlfile import KeyPath

__all__ = ["battlefields_router"]

battlefields_router = APIRouter(prefix="/gm")


@battlefields_router.get("/prep/battlefields", response_class=HTMLResponse)
def battlefields(request: Request, csrf: GmAuth) -> HTMLResponse:
    return _battlefields(request, csrf)


def _battlefields(request: Request, csrf: str, status: int = 200, **extra: Any) -> HTMLResponse:
    library = library_of(request)
    campaigns = Ledger(library.store).campaigns()
    return page(
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


@battlefields_router.post("/prep/battlefields", response_class=HTMLResponse)
def new_battlefield(request: Request, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    name, ruleset = str(form.get("name", "")).strip(), str(form.get("ruleset", ""))
    campaign = str(form.get("campaign", ""))
    library = library_of(request)
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


@battlefields_router.post("/prep/battlefields/import", response_class=HTMLResponse)
async def import_battlefield(request: Request, csrf: GmAuth) -> Response:
    def store(values: dict[str, str], filename: str, text: str) -> str:
        name = str(values.get("name", "")).strip() or None
        found = library_of(request).import_battlefield(
            text, filename, name, values.get("campaign", "")
        )
        return found.name

    return await import_upload(request, csrf, _battlefields, store, "/gm/prep/battlefields")


@battlefields_router.get("/prep/battlefields/{name}.yaml")
def export_battlefield(request: Request, name: str, _: GmAuth) -> Response:
    try:
        text = library_of(request).export_battlefield(name)
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None
    return yaml_download(text, f"{name}.yaml")


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


def _editor(
    request: Request,
    csrf: str,
    name: str,
    editing: Editing | None = None,
    status: int = 200,
    errors: Mapping[str, str] | None = None,
    message: str = "",
) -> HTMLResponse:
    library = library_of(request)
    try:
        record = library.battlefield(name)
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None
    kind = KINDS[record.ruleset]
    campaign = library.campaign_document(record.campaign)
    shapes, spots, places = None, [], {}
    if kind.shape == "grid":
        view = grid_view(record.ruleset, record.document, campaign)
        shapes = layout(view, {})
        spots = hotspots(shapes, view["borders"])
    elif kind.shape == "places":
        places = named_places(record.document, next(iter(kind.keys)))
    editing = editing or Editing()
    return page(
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
        guarded=KINDS[record.ruleset].guarded,
        errors=errors or {},
        message=message,
        campaigns=Ledger(library.store).campaigns(),
    )


@battlefields_router.get("/prep/battlefields/{name}", response_class=HTMLResponse)
def battlefieldpage(
    request: Request,
    name: str,
    csrf: GmAuth,
    square: str = "",
    a: str = "",
    b: str = "",
    place: str | None = None,
) -> HTMLResponse:
    library = library_of(request)
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
        places = named_places(document, next(iter(KINDS[ruleset].keys)))
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
    where: Callable[[KeyPath], KeyPath] | None = None,
    **changes: Any,
) -> Response:
    """Store ``document`` (or answer with the panel again, each mistake by its field;
    ``where`` may lengthen a problem's path to end in its field's name)."""
    version = read_version(form)
    if version is None:
        return _editor(request, csrf, name, editing, 400, {"form": "the form has no version"})
    try:
        library_of(request).save_battlefield(name, document, version, **changes)
    except Invalid as err:
        problems = [(where(path), text) for path, text in err.problems] if where else err.problems
        errors = field_errors(problems, names, aliases)
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
        return library_of(request).battlefield(name).document
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None


@battlefields_router.post("/prep/battlefields/{name}/settings", response_class=HTMLResponse)
def battlefield_settings(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    """The title and campaign; a grid's size, darkness and weather; a line's units."""
    check_csrf(request, form, csrf)
    document = _current(request, name)
    record = library_of(request).battlefield(name)
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


@battlefields_router.post("/prep/battlefields/{name}/square", response_class=HTMLResponse)
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


BORDER_FIELDS = [
    "between",
    "preset",
    "climb",
    "closed",
    "limit",
    "cr",
    "toughness",
    "one_way_from",
]


@battlefields_router.post("/prep/battlefields/{name}/border", response_class=HTMLResponse)
def battlefield_border(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    a = str(form.get("a", "")).strip().upper()[:4]
    b = str(form.get("b", "")).strip().upper()[:4]
    closed = {"closed": True, "open": False}.get(str(form.get("closed", "")))
    values = {
        "preset": str(form.get("preset", "")) or None,
        "climb": str(form.get("climb", "")) or None,
        "closed": closed,
        # H-GRID-3: the border's own movement limit, crossing CR and toughness (each
        # over its preset's); text is passed on for the ruleset's check to name.
        "limit": _number(form.get("limit")),
        "cr": _number(form.get("cr")),
        "toughness": _number(form.get("toughness")),
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


@battlefields_router.post("/prep/battlefields/{name}/place", response_class=HTMLResponse)
async def battlefield_place(request: Request, name: str, csrf: GmAuth) -> Response:
    """A named place of a free map: added, renamed, its borders and own fields set, or
    (``delete``) taken away."""
    form = await _multi(request)
    check_csrf(request, form, csrf)
    record = library_of(request).battlefield(name)
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
    if new != old and new in named_places(record.document, key):
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
    blocks = None
    if KINDS[record.ruleset].guarded:
        blocks = {b: _number(form.get(f"blocks.{b}")) for b in borders}
        blocks = {b: 1 if n is None else n for b, n in blocks.items()}
    document = edits.set_place(record.document, key, old, new, borders, values, blocks)
    editing.values["name"] = new
    # A mistake the ruleset finds in the place as a whole is shown by its own fields.
    own = "modifiers" if any(f.startswith("modifiers.") for f in kind.place_fields) else "name"
    names = ["name", "borders", "modifiers", "cramped", "ground", new]
    names += [f"blocks.{b}" for b in borders]
    return _save(
        request,
        csrf,
        name,
        form,
        document,
        editing,
        names,
        "",
        aliases={new: own},
        where=lambda path: _blocks_field(path, new),
    )


def _blocks_field(path: KeyPath, place: str) -> KeyPath:
    """A problem's path ending in the form field of the edited ``place``'s border
    ``blocks`` it is about.

    >>> _blocks_field(("positions", "Ford", "borders", "Bank", "blocks"), "Ford")
    ('positions', 'Ford', 'borders', 'Bank', 'blocks', 'blocks.Bank')
    >>> _blocks_field(("positions", "Ford", "modifiers"), "Ford")
    ('positions', 'Ford', 'modifiers')
    """
    if len(path) >= 5 and path[-1] == "blocks" and path[-3:-5:-1] == ("borders", place):
        return (*path, f"blocks.{path[-2]}")
    return path


@battlefields_router.post("/prep/battlefields/{name}/delete", response_class=HTMLResponse)
def delete_battlefield(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    if not confirmed(form):
        return confirm_page(
            csrf,
            f"/gm/prep/battlefields/{name}/delete",
            f"Delete the battlefield {name}?",
            "The battlefield is deleted (download it as YAML first to keep it); a "
            "battlefield an encounter uses is kept, and this says which.",
            "Delete it",
            f"/gm/prep/battlefields/{name}",
        )
    try:
        library_of(request).delete_battlefield(name)
    except LibraryError as err:
        return _editor(request, csrf, name, None, 400, {"form": str(err)})
    return RedirectResponse("/gm/prep/battlefields", status_code=303)
