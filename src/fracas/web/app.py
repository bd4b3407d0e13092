"""The web app: a game master's router (behind the GM's secret) and a player's router
(behind a seat's secret link), over one store. :mod:`fracas.web.deps` says how access,
CSRF and double submits are handled, :mod:`fracas.web.events` how pages stay live.

:func:`create_app` makes the app from a store (as the tests do); :func:`app_from_env`
makes it from :class:`ServeConfig` JSON in the ``FRACAS_SERVE_CONFIG`` environment
variable: how each of ``fracas serve --workers N``'s processes makes its own.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from fracas.lab.fightodds import FightOdds, OddsSettings
from fracas.table.access import GmAccess
from fracas.table.seats import Seats
from fracas.table.store import ConflictError, Store
from fracas.web.access import ForwardedHeaders, public_url, trusted_networks
from fracas.web.campaigns import campaigns_router
from fracas.web.deps import ALREADY, SignedOut, first_error, signed_out_page
from fracas.web.errors import error_response
from fracas.web.events import Hub, LiveSettings, events_router
from fracas.web.fight_odds import odds_router, watch_tables
from fracas.web.gm import gm_router
from fracas.web.live import Tables
from fracas.web.player import player_router
from fracas.web.prep import prep_router
from fracas.web.prep_battlefields import battlefields_router
from fracas.web.prep_encounters import encounters_router
from fracas.web.rounds import rounds_router
from fracas.web.tables import tables_router

__all__ = ["CONFIG_ENV", "ServeConfig", "app_from_env", "create_app"]

#: The environment variable holding a :class:`ServeConfig` as JSON, for each process.
CONFIG_ENV = "FRACAS_SERVE_CONFIG"


@dataclass(frozen=True)
class ServeConfig:
    """What a server process is made from (``fracas serve``'s options): JSON-ready. The
    GM token is settled once by ``fracas serve`` before its processes start, so a process
    is given none and uses the store's."""

    db: str
    gm_token: str | None = None
    poll_ms: int = 500
    public: str | None = None
    trusted_proxies: tuple[str, ...] = ()
    live: LiveSettings = field(default_factory=LiveSettings)
    #: The GM's "odds of this fight": runs, seconds, workers, a Dask scheduler...
    odds: OddsSettings = field(default_factory=OddsSettings)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ServeConfig:
        """The config in ``text``; :class:`ValueError` naming the first problem."""
        try:
            data: dict[str, Any] = json.loads(text)
            live = LiveSettings(**data.pop("live", {}))
            odds = OddsSettings(**data.pop("odds", {}))
            known = {f.name for f in fields(cls)}
            given = {k: v for k, v in data.items() if k in known}
            given["trusted_proxies"] = tuple(given.get("trusted_proxies", ()))
            return cls(**given, live=live, odds=odds)
        except (ValueError, TypeError) as err:
            raise ValueError(f"{CONFIG_ENV} is not a server's config: {err}") from None


def app_from_env() -> FastAPI:
    """The app of one server process, from ``FRACAS_SERVE_CONFIG`` (``uvicorn --factory``)."""
    config = ServeConfig.from_json(os.environ.get(CONFIG_ENV, ""))
    return create_app(
        Store.open(config.db),
        config.gm_token,
        config.poll_ms,
        public=config.public,
        trusted_proxies=config.trusted_proxies,
        live=config.live,
        odds=config.odds,
    )


def create_app(
    store: Store,
    gm_token: str | None = None,
    poll_ms: int = 500,
    public: str | None = None,
    trusted_proxies: Sequence[str] = (),
    live: LiveSettings | None = None,
    odds: OddsSettings | None = None,
) -> FastAPI:
    """The app over ``store``. ``gm_token``, when given, becomes the GM token (kept as a
    hash; see :mod:`fracas.table.access`); else the store's own opens the GM pages (one
    nobody knows is made if it has none: ``fracas gm-link --new`` replaces it). Links
    carry ``public`` (``--public-url``) when given; forwarded headers are read from the
    ``trusted_proxies`` only (``ValueError`` for a malformed address). ``poll_ms`` paces
    the play-by-post status; ``live`` bounds the live pages' streams; ``odds`` the GM's
    background simulations (their worker processes stop with the app)."""
    fight_odds = FightOdds(odds)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        await anyio.to_thread.run_sync(fight_odds.close)

    app = FastAPI(
        title="fracas", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    app.state.store = store
    app.state.tables = Tables(store)
    app.state.seats = Seats(store)
    app.state.access = access = GmAccess(store)
    if gm_token is not None:
        access.set_token(gm_token)
    else:
        access.first_token()
    app.state.public_url = public_url(public) if public else None
    app.add_middleware(ForwardedHeaders, trusted=trusted_networks(trusted_proxies))
    app.state.poll_ms = poll_ms
    app.state.hub = Hub(store, live, app.state.tables)
    app.state.fight_odds = fight_odds
    # A table's new version cancels its odds of the old one: told by this process's
    # commits, and by the hub of the others'.
    store.listeners.append(watch_tables(fight_odds))
    app.state.hub.watchers.append(watch_tables(fight_odds))
    app.mount("/static", StaticFiles(packages=[("fracas.web", "static")]), name="static")

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> Response:
        return PlainTextResponse("malformed request: " + first_error(exc), status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def refused(request: Request, exc: StarletteHTTPException) -> Response:
        """A refusal: a page with the way back for a browser, JSON for the rest."""
        return error_response(request, exc.status_code, str(exc.detail), exc.headers)

    @app.exception_handler(ConflictError)
    async def lost_race(request: Request, exc: ConflictError) -> Response:
        """A change another process made first, wherever a page does not answer it itself."""
        return PlainTextResponse(ALREADY, status_code=409)

    @app.exception_handler(SignedOut)
    async def signed_out(request: Request, exc: SignedOut) -> Response:
        return signed_out_page(request, message=exc.why)

    @app.get("/health")
    def health() -> PlainTextResponse:
        return PlainTextResponse("ok")

    @app.get("/")
    def root() -> RedirectResponse:
        return RedirectResponse("/gm/", status_code=303)

    app.include_router(events_router)
    app.include_router(gm_router)
    app.include_router(tables_router)
    app.include_router(player_router)
    app.include_router(rounds_router)
    app.include_router(campaigns_router)
    app.include_router(prep_router)
    app.include_router(battlefields_router)
    app.include_router(encounters_router)
    app.include_router(odds_router)
    return app
