"""The game master's tables as things to keep: import a save (upload), archive a table
(its pages and links open nothing, its live pages close), restore it, delete it.

Every change that cannot be taken back with a click asks first: a form posted without
``confirmed=yes`` is answered with a page that says what will happen, with the button
that does it and the way back (:func:`confirm_page`, also used for revoking a player's
link and deleting a battlefield or an encounter).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from fracas.engine import EngineError
from fracas.files import MAX_SAVE_BYTES
from fracas.table.saves import loads_save
from fracas.table.store import MAX_NAME, Store, StoreError, under_free_name, valid_name
from fracas.table.table import Table
from fracas.web.deps import MAX_FIELD, Form, GmAuth, check_csrf
from fracas.web.errors import in_web_words
from fracas.web.render import ENV, Listing, Page, render_page

__all__ = ["confirm_page", "confirmed", "tables_router"]

tables_router = APIRouter(prefix="/gm")


def confirmed(form: Mapping[str, Any]) -> bool:
    """Whether the form comes from a confirm page's button."""
    return form.get("confirmed") == "yes"


def confirm_page(
    csrf: str,
    action: str,
    question: str,
    consequence: str,
    yes: str,
    back: str,
    fields: Mapping[str, str] | None = None,
) -> HTMLResponse:
    """The page that asks before ``action`` is posted: ``question`` as its heading, what
    follows, the ``yes`` button (posting ``fields`` again with ``confirmed=yes``) and
    the way ``back``."""
    html = ENV.get_template("confirm.html").render(
        csrf=csrf,
        action=action,
        question=question,
        consequence=consequence,
        yes=yes,
        back=back,
        fields={k: v for k, v in (fields or {}).items() if k not in ("csrf", "confirmed")},
    )
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})


def _store(request: Request) -> Store:
    return request.app.state.store  # type: ignore[no-any-return]


def _record(request: Request, name: str) -> Any:
    try:
        return _store(request).table(name)
    except StoreError as err:
        raise HTTPException(404, str(err)) from None


def _index(request: Request, csrf: str, status: int = 200, **extra: Any) -> HTMLResponse:
    store = _store(request)
    page = Page(
        kind="index",
        csrf=csrf,
        tables=store.tables(limit=50),
        listing=Listing(total=store.count_tables()),
        **extra,
    )
    return render_page(page, status=status)


# -- import ------------------------------------------------------------------------------------


@tables_router.post("/import", response_class=HTMLResponse)
async def import_save(request: Request, csrf: GmAuth) -> Response:
    """A new table from an uploaded save (a GM export): its title is the save's own
    title (an older save has none: then its file's name); what was typed stays on a
    refusal, each mistake beside its field."""
    try:
        form = await request.form()
    except Exception:
        raise HTTPException(400, "malformed form") from None
    fields = {k: v[:MAX_FIELD] for k, v in form.items() if isinstance(v, str)}
    check_csrf(request, fields, csrf)
    name = fields.get("name", "").strip()[:MAX_NAME]
    typed = {"name": name}
    upload = form.get("file")
    if upload is None or isinstance(upload, str) or not upload.filename:
        return _index(request, csrf, 400, errors={"file": "choose a save file (.json)"}, form=typed)
    if name and not valid_name(name):
        return _index(
            request,
            csrf,
            400,
            errors={"name": "use 1 to 80 letters, digits, '-', '_' or '.' (or leave it empty)"},
            form=typed,
        )
    filename = upload.filename[:100]
    data = await upload.read(MAX_SAVE_BYTES + 1)
    stem = filename.rsplit(".", 1)[0] or "imported"
    try:
        save = loads_save(data, filename)
        title = str(save.get("title") or stem)[:200]
        wanted = name or _stem_name(stem)
        store = _store(request)
        if name:
            table = Table.import_save(store, name, save, title)
        else:
            table = under_free_name(
                store, wanted, lambda free: Table.import_save(store, free, save, title)
            )
    except StoreError as err:
        return _index(request, csrf, 400, errors={"name": in_web_words(str(err))}, form=typed)
    except (EngineError, ValueError) as err:
        return _index(request, csrf, 400, errors={"file": str(err)}, form=typed)
    return RedirectResponse(f"/gm/t/{table.name}", status_code=303)


def _stem_name(stem: str) -> str:
    """A table name from a file's name (what is not a name's letter becomes ``-``).

    >>> _stem_name("heimr duel (2)")
    'heimr-duel--2'
    """
    kept = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "-" for c in stem)
    return kept.strip("-.")[:MAX_NAME] or "imported"


# -- archive, restore, delete ------------------------------------------------------------------


@tables_router.get("/archived", response_class=HTMLResponse)
def archived(request: Request, csrf: GmAuth) -> HTMLResponse:
    """The archived tables, with the buttons that restore or delete each."""
    store = _store(request)
    html = ENV.get_template("archived.html").render(
        csrf=csrf, tables=store.tables(limit=200, archived=True)
    )
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})


@tables_router.post("/t/{name}/archive", response_class=HTMLResponse)
def archive(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    record = _record(request, name)
    if record.archived is not None:
        return RedirectResponse("/gm/archived", status_code=303)
    if not confirmed(form):
        return confirm_page(
            csrf,
            f"/gm/t/{name}/archive",
            f"Archive the table {name}?",
            "Its page and its player links open nothing until you restore it, and the pages "
            "open on it now stop following it. Nothing is deleted: the archived tables are "
            "listed under the tables, each with the button that restores it.",
            "Archive it",
            f"/gm/t/{name}",
        )
    _store(request).archive(name, True)
    return RedirectResponse("/gm/?archived=" + name, status_code=303)


@tables_router.post("/t/{name}/restore", response_class=HTMLResponse)
def restore(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    record = _record(request, name)
    if record.archived is not None:
        _store(request).archive(name, False)
    return RedirectResponse(f"/gm/t/{name}", status_code=303)


@tables_router.post("/t/{name}/delete", response_class=HTMLResponse)
def delete(request: Request, name: str, csrf: GmAuth, form: Form) -> Response:
    check_csrf(request, form, csrf)
    record = _record(request, name)
    if not confirmed(form):
        return confirm_page(
            csrf,
            f"/gm/t/{name}/delete",
            f"Delete the table {name} for good?",
            f"Its {record.head} actions, its log and its player links are deleted, and "
            "cannot be brought back (download its save first to keep it). Archiving puts "
            "a table away without deleting it.",
            "Delete it",
            "/gm/archived" if record.archived is not None else f"/gm/t/{name}",
        )
    _store(request).delete(name)
    return RedirectResponse("/gm/?deleted=" + name, status_code=303)
