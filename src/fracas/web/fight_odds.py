"""The GM's "Odds of this fight": on a table's page (from where it stands) and on a
prepared encounter's page (from its start, with "tune"). The work is the lab's
(:class:`fracas.lab.fightodds.FightOdds`, one per server process); these routes only ask
it, and every one of them is behind the GM's sign-in: no player link reaches them.

A page fetches its box (``…/fight-odds``: the figures at once when the job of that
version is cached), and, when asked, opens a stream (``…/fight-odds/events``) that
starts or joins the job and sends its progress. The stream follows a table: when the
table changes, the job of the old version is cancelled (:meth:`FightOdds.changed`, told
by the store and the live hub) and the stream starts the new version's. When the page
closes, its stream closes, and a job no other page follows is cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable

import anyio.to_thread
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from sse_starlette import EventSourceResponse, ServerSentEvent

from fracas.lab.fightodds import (
    CHANGED,
    FightOdds,
    Job,
    by_side,
    describe,
    setup_version,
)
from fracas.lab.runner import SimSpec, make_spec, spec_from_table
from fracas.lab.tune import parse_knob, svg
from fracas.library import LibraryError
from fracas.table.store import DELETED
from fracas.web.deps import Form, GmAuth, GmTable, check_csrf, tables
from fracas.web.prep import library_of
from fracas.web.render import ENV

__all__ = ["odds_of", "odds_router", "watch_tables"]

odds_router = APIRouter(prefix="/gm")
log = logging.getLogger(__name__)

#: Seconds between two progress events of one stream (at most).
PUSH_EVERY = 0.2
#: Seconds between two looks at a table's version in the store while its job runs.
CHECK_EVERY = 1.0
#: Seconds a Cancel waits for its job to stop (it finishes the batch it is playing).
STOP_WAIT = 5.0
#: A value of a tune plays this part of the runs a job plays (1000: 200 a value).
TUNE_SHARE = 5


def odds_of(request: Request) -> FightOdds:
    return request.app.state.fight_odds  # type: ignore[no-any-return]


def watch_tables(odds: FightOdds) -> Callable[[int, int], None]:
    """What the store and the live hub tell of a table's new version: its job of an
    older version is cancelled."""

    def changed(table_id: int, version: int) -> None:
        if version >= 0 or version == DELETED:  # not a posted round's news (ROUND)
            try:
                odds.changed(f"table:{table_id}", version)
            except Exception:  # the change stands; its odds' job may run on
                log.exception("the odds of table %s were not told of its change", table_id)

    return changed


# -- what a page is shown ----------------------------------------------------------------


def _panel(base: str, csrf: str, job: Job | None, error: str = "") -> str:
    found = job.figures() if job is not None else None
    return ENV.get_template("fight_odds.html").module.panel(  # type: ignore[attr-defined,no-any-return]
        base=base,
        csrf=csrf,
        job=job,
        status=describe(job) if job is not None else "",
        percent=round(100 * job.fraction) if job is not None else 0,
        figures=found,
        sides=by_side(found) if found else [],
        error=error,
    )


def _tuned(base: str, job: Job | None, error: str = "") -> str:
    result = job.result if job is not None else None
    return ENV.get_template("fight_odds.html").module.tuned(  # type: ignore[attr-defined,no-any-return]
        base=base,
        job=job,
        status=_tune_status(job) if job is not None else "",
        percent=round(100 * job.fraction) if job is not None else 0,
        result=result,
        plot=svg(result) if result is not None and result.points else "",
        best=result.best if result is not None else None,
        error=error,
    )


def _tune_status(job: Job) -> str:
    if job.running:
        return f"running: {job.done} of at most {job.steps} values"
    return (
        describe(job).replace("runs", "values", 1)
        if job.state != "done"
        else (f"{job.done} values, {job.runs} runs each" + (f" ({job.why})" if job.why else ""))
    )


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers={"Cache-Control": "no-store"})


# -- a table's odds, from where it stands -------------------------------------------------


def _table_now(request: Request, name: str) -> tuple[str, int, Callable[[], SimSpec]]:
    """The table's job key, its version and how to make its spec (table held)."""
    with tables(request).hold(name) as table:
        key, version = f"table:{table.id}", table.version
        spec = spec_from_table(table, {}, engine="auto")
    return key, version, lambda: spec


@odds_router.get("/t/{name}/fight-odds", response_class=HTMLResponse)
def table_box(request: Request, name: GmTable, csrf: GmAuth) -> HTMLResponse:
    """The box of the table's odds: the figures of its version at once when known."""
    odds = odds_of(request)
    record = request.app.state.store.table(name)
    key = f"table:{record.id}"
    job = odds.cached(key, record.version)
    running = odds.job(key)
    if job is None and running is not None and running.version == record.version:
        job = running
    return _html(_panel(f"/gm/t/{name}", csrf, job))


@odds_router.get("/t/{name}/fight-odds/events")
async def table_events(request: Request, name: GmTable, csrf: GmAuth) -> Response:
    """Start or join the job of the table's version; its progress, following the table."""
    odds = odds_of(request)
    base = f"/gm/t/{name}"

    async def jobs() -> AsyncIterator[tuple[Job | None, str]]:
        while True:
            try:
                key, version, make = await anyio.to_thread.run_sync(_table_now, request, name)
                job = odds.start(key, version, make)
            except (ValueError, LibraryError) as err:
                yield None, str(err).splitlines()[0]
                return
            yield job, ""
            if job.state != CHANGED:
                return

    store = request.app.state.store

    def check(job: Job) -> None:
        """The table's version, asked of the store: a change another server process
        made is seen here even when this process has no live page of the table."""
        table_id = int(job.key.partition(":")[2])
        odds.changed(job.key, store.versions([table_id]).get(table_id, DELETED))

    def draw(job: Job | None, error: str) -> tuple[str, str]:
        return "odds", _panel(base, csrf, job, error)

    return _stream(odds, jobs(), draw, check)


@odds_router.post("/t/{name}/fight-odds/cancel", response_class=HTMLResponse)
def table_cancel(request: Request, name: GmTable, csrf: GmAuth, form: Form) -> HTMLResponse:
    check_csrf(request, form, csrf)
    record = request.app.state.store.table(name)
    return _html(_panel(f"/gm/t/{name}", csrf, _stopped(request, f"table:{record.id}")))


def _stopped(request: Request, key: str) -> Job | None:
    """Cancel ``key``'s job; it, once it has stopped (its batch in flight done)."""
    odds = odds_of(request)
    odds.cancel(key, "cancelled by the game master")
    job = odds.job(key)
    if job is not None:
        job.wait(STOP_WAIT)
    return job


# -- a prepared encounter's odds, from its start, and tune ---------------------------------


def _encounter_spec(request: Request, name: str) -> SimSpec:
    """The spec of the prepared encounter ``name`` (404 when there is none)."""
    library = library_of(request)
    try:
        record = library.encounter(name)
        setup = library.setup(record.ruleset, record.campaign, record.battlefield, record.document)
    except LibraryError as err:
        raise HTTPException(404, str(err)) from None
    return make_spec(record.ruleset, setup, {}, engine="auto", title=record.title or name)


def _prep_base(name: str) -> str:
    return f"/gm/prep/encounters/{name}"


@odds_router.get("/prep/encounters/{name}/fight-odds", response_class=HTMLResponse)
def encounter_box(request: Request, name: str, csrf: GmAuth) -> HTMLResponse:
    """The box of the encounter's odds, with the tune form and the last tune."""
    odds = odds_of(request)
    try:
        spec = _encounter_spec(request, name)
    except ValueError as err:
        return _html(_panel(_prep_base(name), csrf, None, str(err).splitlines()[0]))
    version = setup_version(spec)
    job = odds.cached(f"prep:{name}", version)
    running = odds.job(f"prep:{name}")
    if job is None and running is not None and running.version == version:
        job = running
    tuned = odds.job(f"tune:{name}")
    if tuned is not None and tuned.version != version:
        tuned = None
    characters = sorted((spec.setup.get("campaign") or {}).get("characters") or {})
    here = sorted({str(c.get("character")) for c in spec.setup.get("combatants") or ()})
    text = ENV.get_template("fight_odds.html").module.prep_box(  # type: ignore[attr-defined]
        panel=_panel(_prep_base(name), csrf, job),
        tuned=_tuned(_prep_base(name), tuned),
        base=_prep_base(name),
        csrf=csrf,
        sides=spec.sides,
        characters=[c for c in characters if c in here],
        tune_runs=max(1, odds.settings.runs // TUNE_SHARE),
    )
    return _html(str(text))


@odds_router.get("/prep/encounters/{name}/fight-odds/events")
async def encounter_events(request: Request, name: str, csrf: GmAuth) -> Response:
    """Start or join the job of the encounter as it is saved; its progress."""
    odds = odds_of(request)
    base = _prep_base(name)

    async def jobs() -> AsyncIterator[tuple[Job | None, str]]:
        try:
            spec = await anyio.to_thread.run_sync(_encounter_spec, request, name)
            yield odds.start(f"prep:{name}", setup_version(spec), lambda: spec), ""
        except ValueError as err:
            yield None, str(err).splitlines()[0]

    return _stream(odds, jobs(), lambda job, error: ("odds", _panel(base, csrf, job, error)))


@odds_router.post("/prep/encounters/{name}/fight-odds/cancel", response_class=HTMLResponse)
def encounter_cancel(request: Request, name: str, csrf: GmAuth, form: Form) -> HTMLResponse:
    check_csrf(request, form, csrf)
    which = "tune" if form.get("what") == "tune" else "prep"
    job = _stopped(request, f"{which}:{name}")
    if which == "tune":
        return _html(_tuned(_prep_base(name), job))
    return _html(_panel(_prep_base(name), csrf, job))


@odds_router.post("/prep/encounters/{name}/tune", response_class=HTMLResponse)
def encounter_tune(request: Request, name: str, csrf: GmAuth, form: Form) -> HTMLResponse:
    """Start a tune: ``knob`` (a character: how many; ``character.value``), ``values``
    (``A..B``), ``side`` and ``target`` (a win rate in percent)."""
    check_csrf(request, form, csrf)
    spec = _encounter_spec(request, name)
    base = _prep_base(name)
    target_text = str(form.get("target", "")).strip().rstrip("%")
    try:
        target = float(target_text) / 100 if len(target_text) < 8 else -1.0
    except ValueError:
        target = -1.0
    try:
        if not 0 <= target <= 1:
            raise ValueError("the target win rate is a number from 0 to 100 (%)")
        knob = parse_knob(str(form.get("knob", "")), str(form.get("values", "")), spec.setup)
        job = odds_of(request).tune(
            f"tune:{name}",
            setup_version(spec),
            spec,
            knob,
            str(form.get("side", ""))[:80],
            target,
            runs=max(1, odds_of(request).settings.runs // TUNE_SHARE),
        )
    except ValueError as err:
        return _html(_tuned(base, None, str(err).splitlines()[0]), 400)
    return _html(_tuned(base, job))


@odds_router.get("/prep/encounters/{name}/tune/events")
async def tune_events(request: Request, name: str, _: GmAuth) -> Response:
    """The progress of the encounter's tune (started by the form)."""
    odds = odds_of(request)
    base = _prep_base(name)

    async def jobs() -> AsyncIterator[tuple[Job | None, str]]:
        yield odds.job(f"tune:{name}"), ""

    return _stream(odds, jobs(), lambda job, error: ("tune", _tuned(base, job, error)))


# -- the streams ---------------------------------------------------------------------------


def _stream(
    odds: FightOdds,
    jobs: AsyncIterator[tuple[Job | None, str]],
    draw: Callable[[Job | None, str], tuple[str, str]],
    check: Callable[[Job], None] | None = None,
) -> Response:
    return EventSourceResponse(
        _events(odds, jobs, draw, check),
        ping=15,
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def _events(
    odds: FightOdds,
    jobs: AsyncIterator[tuple[Job | None, str]],
    draw: Callable[[Job | None, str], tuple[str, str]],
    check: Callable[[Job], None] | None = None,
) -> AsyncIterator[ServerSentEvent]:
    """Each job's progress (at most every :data:`PUSH_EVERY` s) while this page
    follows it, then ``end``; the page closing cancels a job no other page follows.
    ``check(job)`` runs every :data:`CHECK_EVERY` s while it runs (in a worker thread)."""
    loop = asyncio.get_running_loop()
    async for job, error in jobs:
        if job is None:
            event, data = await anyio.to_thread.run_sync(draw, None, error)
            yield ServerSentEvent(data, event=event)
            continue
        news = asyncio.Event()

        def told(news: asyncio.Event = news) -> None:
            if not loop.is_closed():
                loop.call_soon_threadsafe(news.set)

        stop = job.subscribe(told)
        checked = loop.time()
        try:
            with odds.watching(job):
                while True:
                    news.clear()
                    # Whether it had ended before it was drawn: one that ends while it is
                    # drawn is drawn once more, ended.
                    ended = not job.running
                    # Drawn in a worker thread: the loop keeps serving meanwhile.
                    event, data = await anyio.to_thread.run_sync(draw, job, "")
                    yield ServerSentEvent(data, event=event)
                    if ended:
                        break
                    await asyncio.sleep(PUSH_EVERY)
                    while job.running and not news.is_set():
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(news.wait(), CHECK_EVERY)
                        # Every CHECK_EVERY s however often the job reports progress.
                        due = loop.time() - checked >= CHECK_EVERY
                        if check is not None and job.running and due:
                            checked = loop.time()
                            await anyio.to_thread.run_sync(check, job)
        finally:
            stop()
    yield ServerSentEvent("done", event="end")
