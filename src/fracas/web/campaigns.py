"""The game master's campaign pages: the books of :mod:`fracas.ledger` on the web.

Campaigns (list, new, import by upload, export), a campaign's characters and its log with
undo and redo, a character form generated from the ruleset's sheet model (errors next to
their fields), a sheet as it stood on a date, forms for awards, training, raises and
permissions, spending and restoring, what a character carries into the next encounter;
and on a table started from a campaign, the form that concludes it. Every form carries
the GM's CSRF token (:mod:`fracas.web.deps`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from fracas.ledger import Ledger, LedgerError
from fracas.ledger.books import books, ruleset_ids
from fracas.ledger.text import describe, parse_date
from fracas.table.store import StoreError
from fracas.table.table import Table
from fracas.web.campaign_forms import carry_form, conclude_errors, read_award, read_carry
from fracas.web.deps import MAX_FIELD, Form, GmAuth, check_csrf, download
from fracas.web.errors import in_words
from fracas.web.render import ENV
from fracas.web.sheetform import read_sheet, sheet_fields, shown, typed_rows
from fracas.yamlfile import MAX_YAML_BYTES, CampaignError, parse_yaml

__all__ = ["campaigns_router"]

campaigns_router = APIRouter(prefix="/gm")


def _ledger(request: Request) -> Ledger:
    return Ledger(request.app.state.store)


def _render(template: str, status: int = 200, **context: Any) -> HTMLResponse:
    html = ENV.get_template(template).render(context)
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})


def _see(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303)


def _linked(table: Table) -> dict[str, Any] | None:
    """For the table page's conclude form: the campaign a table was started from."""
    return _link(Ledger(table.store), table.name)


def _link(ledger: Ledger, table: str) -> dict[str, Any] | None:
    found = ledger.encounter(table)
    if found is None:
        return None
    campaign, concluded = found
    preview: dict[str, Any] = {}
    if concluded is None:
        try:
            preview = ledger.conclusion(table)[1]
        except (LedgerError, ValueError) as err:
            preview = {"error": str(err)}
    ruleset = ledger.info(campaign).ruleset
    return {"campaign": campaign, "concluded": concluded, "preview": preview, "ruleset": ruleset}


ENV.globals["campaign_link"] = _linked


def concluded_refusal(table: Table) -> str | None:
    """Why ``table`` is no longer played: its encounter was concluded in its campaign's
    books (undoing that entry opens it again); ``None`` when it is played."""
    found = Ledger(table.store).encounter(table.name)
    if found is None or found[1] is None:
        return None
    return (
        f"this encounter is concluded in the campaign {found[0]} (entry {found[1]}): it is "
        "no longer played; undo that entry in the campaign's log to play on"
    )


# -- campaigns ---------------------------------------------------------------------------------


@campaigns_router.get("/campaigns", response_class=HTMLResponse)
def campaign_list(request: Request, csrf: GmAuth) -> HTMLResponse:
    return _campaigns(request, csrf)


def _campaigns(
    request: Request,
    csrf: str,
    status: int = 200,
    errors: Mapping[str, str] | None = None,
    form: Mapping[str, Any] | None = None,
) -> HTMLResponse:
    return _render(
        "campaigns.html",
        status,
        csrf=csrf,
        campaigns=_ledger(request).campaigns(),
        rulesets=ruleset_ids(),
        errors=errors or {},
        form=form or {},
    )


@campaigns_router.post("/campaigns/new", response_class=HTMLResponse)
def campaign_new(request: Request, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    name, ruleset = str(form.get("name", "")).strip(), str(form.get("ruleset", ""))
    try:
        _ledger(request).create(name, ruleset, None, str(form.get("title", ""))[:200])
    except (LedgerError, CampaignError) as err:
        return _campaigns(request, csrf, 400, {"name": str(err)}, form)
    return _see(f"/gm/c/{name}")


@campaigns_router.post("/campaigns/import", response_class=HTMLResponse)
async def campaign_import(request: Request, csrf: GmAuth) -> Response:
    try:
        form = await request.form()
    except Exception:
        raise HTTPException(400, "malformed form") from None
    fields = {k: v[:MAX_FIELD] for k, v in form.items() if isinstance(v, str)}
    check_csrf(request, fields, csrf)
    upload = form.get("file")
    name = str(fields.get("name", "")).strip()
    if upload is None or isinstance(upload, str):
        return _campaigns(request, csrf, 400, {"file": "choose a campaign file (YAML)"}, fields)
    data = await upload.read(MAX_YAML_BYTES + 1)
    filename = (upload.filename or "campaign.yaml")[:100]
    name = name or filename.rsplit(".", 1)[0]
    try:
        if len(data) > MAX_YAML_BYTES:
            raise LedgerError(f"{filename} is larger than {MAX_YAML_BYTES} bytes")
        document = parse_yaml(data.decode("utf-8"), filename)
        _ledger(request).import_document(name, document, fields.get("ruleset") or None)
    except UnicodeDecodeError:
        return _campaigns(request, csrf, 400, {"file": f"{filename} is not UTF-8 text"}, fields)
    except (LedgerError, CampaignError) as err:
        return _campaigns(request, csrf, 400, {"file": str(err)}, fields)
    return _see(f"/gm/c/{name}")


@campaigns_router.get("/schema/character-{ruleset}.json")
def character_schema(ruleset: str, _: GmAuth) -> JSONResponse:
    """The JSON Schema of a ruleset's character sheet (from its pydantic model)."""
    if ruleset not in ruleset_ids():
        raise HTTPException(404, f"no ruleset {ruleset[:40]!r}: {', '.join(ruleset_ids())}")
    return JSONResponse(books(ruleset).json_schema())


# -- one campaign ------------------------------------------------------------------------------


def _when(text: str | None) -> datetime | None:
    return parse_date(text, end_of_day=True) if text else None


def _campaign(
    request: Request,
    name: str,
    csrf: str,
    status: int = 200,
    errors: Mapping[str, str] | None = None,
    message: str = "",
    at: str | None = None,
    typed: tuple[str, Mapping[str, Any]] | None = None,
) -> HTMLResponse:
    """The campaign's page; ``typed``: the entry form (its kind) refused, and what was
    typed in it, given back."""
    ledger = _ledger(request)
    try:
        info = ledger.info(name)
    except LedgerError as err:
        raise HTTPException(404, str(err)) from None
    problems = dict(errors or {})
    try:
        when = _when(at)
    except LedgerError as err:
        problems["at"], when = str(err), None
    entries = ledger.entries(name)
    return _render(
        "campaign.html",
        status,
        csrf=csrf,
        info=info,
        standing=ledger.standing(name, when),
        entries=[(e, describe(e)) for e in reversed(entries)],
        redo=any(not e.active for e in entries),
        errors=problems,
        message=message,
        at=at or "",
        typed_kind=typed[0] if typed else "",
        typed={k: str(v)[:200] for k, v in typed[1].items()} if typed else {},
    )


@campaigns_router.get("/c/{name}", response_class=HTMLResponse)
def campaign_page(request: Request, name: str, csrf: GmAuth, at: str = "") -> HTMLResponse:
    return _campaign(request, name, csrf, at=at[:40] or None)


@campaigns_router.get("/c/{name}/export.yaml")
def campaign_export(request: Request, name: str, _: GmAuth) -> Response:
    try:
        text = _ledger(request).export(name)
    except LedgerError as err:
        raise HTTPException(404, str(err)) from None
    return download(text, f"{name}.yaml", "application/yaml")


@campaigns_router.get("/c/{name}/character/{key}/export.yaml")
def character_export(request: Request, name: str, key: str, _: GmAuth) -> Response:
    """One character as a campaign file of its own (the terminal reads it)."""
    try:
        text = _ledger(request).export(name, key)
    except LedgerError as err:
        raise HTTPException(404, str(err)) from None
    return download(text, f"{key}.yaml", "application/yaml")


@campaigns_router.post("/c/{name}/undo", response_class=HTMLResponse)
def campaign_undo(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    return _move(request, name, csrf, form, "undo")


@campaigns_router.post("/c/{name}/redo", response_class=HTMLResponse)
def campaign_redo(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    return _move(request, name, csrf, form, "redo")


def _move(request: Request, name: str, csrf: str, form: Mapping[str, Any], move: str) -> Response:
    check_csrf(request, form, csrf)
    ledger = _ledger(request)
    try:
        entry = ledger.undo(name) if move == "undo" else ledger.redo(name)
    except LedgerError as err:
        return _campaign(request, name, csrf, 400, {"log": str(err)})
    return _campaign(request, name, csrf, message=f"{move}: {describe(entry)}")


#: The entry forms of the campaign page: the fields each reads and how.
_NUMBERS = ("xp", "amount", "points", "copper", "boards", "hours", "days")
#: Check boxes of the upkeep forms (HC-CAMP-1).
_FLAGS = ("stop", "lost", "spend")


@campaigns_router.post("/c/{name}/entry/{kind}", response_class=HTMLResponse)
def campaign_entry(request: Request, name: str, kind: str, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    if kind not in ("award", "train", "raise", "permit", "spend", "restore", "upkeep", "rest"):
        raise HTTPException(404, f"no entry form {kind[:20]!r}")
    payload: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for key, value in form.items():
        if key in ("csrf", "character", "date"):
            continue
        text = str(value).strip()
        if key in _NUMBERS:
            if not text.isdigit() or len(text) > 9:
                errors[f"{kind}.{key}"] = f"{key}: a whole number (0 or more), not {text[:20]!r}"
                continue
            payload[key] = int(text)
        elif key == "characters":
            payload[key] = [c.strip() for c in text.replace(",", " ").split() if c.strip()]
        elif key == "granted":
            payload[key] = text != "no"
        elif key in _FLAGS:
            payload[key] = text == "on"
        elif text:
            payload[key] = text
    if kind == "rest" and not errors:  # D-REC-1: hours and days of rest, in minutes
        hours, days = payload.pop("hours", 0), payload.pop("days", 0)
        payload["minutes"] = int(hours) * 60 + int(days) * 24 * 60
    if payload.pop("spend", False) and "copper" in payload:
        payload["copper"] = -payload["copper"]  # money spent (HC-CAMP-1)
    character = str(form.get("character", "")).strip() or None
    if not errors:
        try:
            date = parse_date(str(form["date"])) if form.get("date") else None
            entry = _ledger(request).record(name, kind, character, payload, date)
        except LedgerError as err:
            errors[kind] = str(err)
    if errors:
        return _campaign(request, name, csrf, 400, errors, typed=(kind, form))
    return _campaign(request, name, csrf, message=f"{entry.seq}. {describe(entry)}")


# -- characters --------------------------------------------------------------------------------


def _character(
    request: Request,
    name: str,
    key: str,
    csrf: str,
    sheet: Mapping[str, Any],
    status: int = 200,
    errors: Mapping[str, str] | None = None,
    new: bool = False,
    form: Mapping[str, Any] | None = None,
    at: str = "",
    carry: Mapping[str, Any] | None = None,
) -> HTMLResponse:
    """The character's page; ``form`` and ``carry``: what was typed in a refused form."""
    ledger = _ledger(request)
    try:
        info = ledger.info(name)
    except LedgerError as err:
        raise HTTPException(404, str(err)) from None
    fields = sheet_fields(books(info.ruleset))
    values = {f.name: shown(f, sheet) for f in fields}
    if form is not None:
        values.update({f.name: str(form.get(f.name, "")) for f in fields})
        values.update(typed_rows(fields, form))
    carried = ledger.standing(name).carried.get(key) if key else None
    return _render(
        "campaign_character.html",
        status,
        csrf=csrf,
        info=info,
        key=key,
        fields=fields,
        values=values,
        errors=errors or {},
        new=new,
        at=at,
        carried=carried,
        carry=carry_form(info.ruleset, carried, carry) if key and not new else [],
        summary=ledger.summary(name, sheet) if key and not new and sheet else [],
    )


@campaigns_router.get("/c/{name}/character", response_class=HTMLResponse)
def character_new(request: Request, name: str, csrf: GmAuth) -> HTMLResponse:
    return _character(request, name, "", csrf, {}, new=True)


@campaigns_router.get("/c/{name}/character/{key}", response_class=HTMLResponse)
def character_page(
    request: Request, name: str, key: str, csrf: GmAuth, at: str = ""
) -> HTMLResponse:
    ledger = _ledger(request)
    try:
        when = _when(at[:40])
        sheet = ledger.sheet(name, key, when)
    except LedgerError as err:
        if at:
            return _character(request, name, key, csrf, {}, 400, {"at": str(err)}, at=at[:40])
        raise HTTPException(404, str(err)) from None
    return _character(request, name, key, csrf, sheet, at=at[:40])


@campaigns_router.post("/c/{name}/character", response_class=HTMLResponse)
def character_save(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    ledger = _ledger(request)
    try:
        info = ledger.info(name)
    except LedgerError as err:
        raise HTTPException(404, str(err)) from None
    key = str(form.get("key", "")).strip()
    new = form.get("new") == "1"
    fields = sheet_fields(books(info.ruleset))
    sheet, errors = read_sheet(fields, form)
    if not key:
        errors["key"] = "the character's key (a short name used in encounters)"
    if not errors:
        by_points = getattr(books(info.ruleset).own, "creates_by_points", False)
        kind = "create" if new and by_points else "character"
        if new and key in ledger.standing(name).characters:
            errors["key"] = f"there is already a character {key!r}"
        else:
            try:
                entry = ledger.record(name, kind, key, {"sheet": sheet})
            except LedgerError as err:
                errors.update(_by_field(err, {f.name for f in fields}))
    if errors:
        return _character(request, name, key, csrf, {}, 400, errors, new=new, form=form)
    warned = "; ".join(entry.payload.get("warnings", []))
    return _campaign(
        request,
        name,
        csrf,
        message=f"{entry.seq}. {describe(entry)}" + (f" ({warned})" if warned else ""),
    )


@campaigns_router.post("/c/{name}/character/{key}/carry", response_class=HTMLResponse)
def character_carry(request: Request, name: str, key: str, csrf: GmAuth, form: Form) -> Response:
    """What the character carries into the next encounter (a "carry" entry; clear: none)."""
    check_csrf(request, form, csrf)
    ledger = _ledger(request)
    try:
        info = ledger.info(name)
        sheet = ledger.sheet(name, key)
    except LedgerError as err:
        raise HTTPException(404, str(err)) from None
    condition, errors = ({}, {}) if form.get("clear") else read_carry(info.ruleset, form)
    if not errors:
        try:
            entry = ledger.record(name, "carry", key, {"condition": condition})
        except LedgerError as err:
            errors["carry"] = str(err)
    if errors:
        return _character(request, name, key, csrf, sheet, 400, errors, carry=form)
    return _campaign(request, name, csrf, message=f"{entry.seq}. {describe(entry)}")


def _by_field(err: LedgerError, names: set[str]) -> dict[str, str]:
    """The rules' problems by the form field they belong to (the rest under the form)."""
    errors: dict[str, str] = {}
    for path, said in err.problems or [((), str(err))]:
        message = in_words(said)
        field = str(path[0]) if path and str(path[0]) in names else "form"
        inner = ".".join(str(p) for p in path[1:]) if field != "form" else ""
        text = f"{inner}: {message}" if inner else message
        errors[field] = f"{errors[field]}; {text}" if field in errors else text
    return errors


# -- the end of an encounter -------------------------------------------------------------------


@campaigns_router.post("/t/{table}/conclude", response_class=HTMLResponse)
def conclude(request: Request, table: str, csrf: GmAuth, form: Form) -> Response:
    """The end of a table's encounter in its campaign's books; a refusal gives the form
    back with each mistake beside its field and what was typed."""
    check_csrf(request, form, csrf)
    ledger = _ledger(request)
    award, errors = read_award(form)
    try:
        with request.app.state.tables.hold(table) as held:
            over = held.is_over()
    except (StoreError, ValueError) as err:
        raise HTTPException(404, str(err)) from None
    if not over and form.get("unfinished") != "on" and not errors:
        errors = {
            "conclude": "the fight is not over yet: tick “conclude it unfinished” to end it "
            "in the books as it stands (the table is then no longer played)"
        }
    if not errors:
        try:
            entry = ledger.conclude(table, award, carry=form.get("carry") == "on")
        except LedgerError as err:
            errors = conclude_errors(err, award)
    found = ledger.encounter(table)
    if found is None:
        raise HTTPException(404, f"the table {table[:80]!r} was not started from a campaign")
    if errors:
        return _render(
            "campaign_conclude_page.html",
            400,
            csrf=csrf,
            table=table,
            link={**(_link(ledger, table) or {}), "over": over},
            errors=errors,
            typed=form,
        )
    return _see(f"/gm/c/{found[0]}?concluded={entry.seq}")
