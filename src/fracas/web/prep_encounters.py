"""The library's encounters: a campaign, a battlefield and who stands where, built row by
row, imported and exported, and started as a live table."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from fracas.ledger import Ledger
from fracas.library import KINDS, Invalid, LibraryError
from fracas.library.kinds import grid_view
from fracas.library.placements import PlacementField, fields, place_key, read
from fracas.rules import ids
from fracas.table.store import ConflictError, StoreError
from fracas.web.battlefield import Shapes, layout
from fracas.web.deps import Form, GmAuth, check_csrf, read_version
from fracas.web.errors import in_web_words, in_words
from fracas.web.prep import (
    import_upload,
    library_of,
    named_places,
    page,
    yaml_download,
)
from fracas.web.tables import confirm_page, confirmed
from fracas.yamlfile import KeyPath, format_path

__all__ = ["encounters_router"]

encounters_router = APIRouter(prefix="/gm")

#: Empty combatant rows offered below an encounter's combatants.
SPARE_ROWS = 3
#: Most combatant rows read from one form.
MAX_ROWS = 60


# -- encounters --------------------------------------------------------------------------


@encounters_router.get("/prep/encounters", response_class=HTMLResponse)
def encounters(request: Request, csrf: GmAuth) -> HTMLResponse:
    return _encounters(request, csrf)


def _encounters(request: Request, csrf: str, status: int = 200, **extra: Any) -> HTMLResponse:
    library = library_of(request)
    return page(
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


@encounters_router.post("/prep/encounters/import", response_class=HTMLResponse)
async def import_encounter(request: Request, csrf: GmAuth) -> Response:
    def store(values: dict[str, str], filename: str, text: str) -> str:
        name = str(values.get("name", "")).strip() or None
        found = library_of(request).import_encounter(text, filename, str(values["campaign"]), name)
        return found.name

    needs = {"campaign": "choose the campaign whose characters fight"}
    return await import_upload(request, csrf, _encounters, store, "/gm/prep/encounters", needs)


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
    typed: str | None = None,
) -> HTMLResponse:
    """The builder's page; ``typed``: the table name a refused start was given."""
    library = library_of(request)
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
        places = list(named_places(field_doc, next(iter(kind.keys))))
    shapes = None
    if kind is not None and kind.shape == "grid":
        shapes = _placed(draft.ruleset, field_doc, campaign, draft.rows)
    known: tuple[PlacementField, ...] = fields(draft.ruleset) if draft.ruleset in ids() else ()
    rows = [*draft.rows, *({} for _ in range(SPARE_ROWS))]
    return page(
        "encounter.html",
        status,
        csrf=csrf,
        draft=draft,
        rows=rows,
        known=known,
        place_key=place_key(draft.ruleset),
        shapes=shapes,
        places=places,
        characters=characters,
        campaigns=[c for c in ledger.campaigns() if c.ruleset == draft.ruleset],
        fields=library.battlefields(draft.ruleset),
        has_battlefield=draft.ruleset in KINDS,
        errors=errors or {},
        message=message,
        typed_table=draft.name if typed is None else typed,
    )


def _placed(
    ruleset: str,
    document: Mapping[str, Any],
    campaign: Mapping[str, Any],
    rows: Sequence[Mapping[str, Any]],
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
        return layout(grid_view(ruleset, document, campaign), people)
    except ValueError:
        return None


@encounters_router.get("/prep/encounters/new", response_class=HTMLResponse)
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


@encounters_router.get("/prep/encounters/{name}.yaml")
def export_encounter(request: Request, name: str, _: GmAuth) -> Response:
    try:
        text = library_of(request).export_encounter(name)
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None
    return yaml_download(text, f"{name}.yaml")


@encounters_router.get("/prep/encounters/{name}", response_class=HTMLResponse)
def encounterpage(request: Request, name: str, csrf: GmAuth) -> HTMLResponse:
    try:
        record = library_of(request).encounter(name)
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
    for path, said in found:
        message = in_words(said)
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


@encounters_router.post("/prep/encounters", response_class=HTMLResponse)
def save_encounter(request: Request, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    draft, numbers = _read_draft(form)
    if draft.ruleset not in ids():
        raise HTTPException(400, f"unknown ruleset {draft.ruleset[:40]!r}")
    document = {"combatants": draft.rows}
    try:
        library_of(request).save_encounter(
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


@encounters_router.post("/prep/encounters/{name}/start", response_class=HTMLResponse)
def start_encounter(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    """A live table from the encounter (the campaign's characters as they stand now);
    its GM page opens."""
    check_csrf(request, form, csrf)
    library = library_of(request)
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
        return _builder(request, csrf, draft, 400, {"table": in_web_words(str(err))}, typed=table)
    return RedirectResponse(f"/gm/t/{table}", status_code=303)


@encounters_router.post("/prep/encounters/{name}/delete", response_class=HTMLResponse)
def delete_encounter(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    if not confirmed(form):
        return confirm_page(
            csrf,
            f"/gm/prep/encounters/{name}/delete",
            f"Delete the encounter {name}?",
            "The prepared encounter is deleted (download it as YAML first to keep it); "
            "the tables started from it stay.",
            "Delete it",
            f"/gm/prep/encounters/{name}",
        )
    try:
        library_of(request).delete_encounter(name)
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None
    return RedirectResponse("/gm/prep/encounters", status_code=303)
