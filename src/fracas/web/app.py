"""The web app: a game master's router (behind the GM's secret) and a player's router
(behind a seat's secret link), over one store. :mod:`fracas.web.deps` says how access,
CSRF and double submits are handled.
"""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from fracas.table.access import GmAccess
from fracas.table.seats import Seats
from fracas.table.store import ConflictError, Store
from fracas.web.access import ForwardedHeaders, public_url, trusted_networks
from fracas.web.campaigns import campaigns_router
from fracas.web.deps import ALREADY, SignedOut, first_error, signed_out_page
from fracas.web.gm import gm_router
from fracas.web.live import Tables
from fracas.web.player import player_router
from fracas.web.prep import prep_router
from fracas.web.prep_battlefields import battlefields_router
from fracas.web.prep_encounters import encounters_router
from fracas.web.rounds import rounds_router

__all__ = ["create_app"]


def create_app(
    store: Store,
    gm_token: str | None = None,
    poll_ms: int = 500,
    public: str | None = None,
    trusted_proxies: Sequence[str] = (),
) -> FastAPI:
    """The app over ``store``. ``gm_token``, when given, becomes the GM token (kept as a
    hash; see :mod:`fracas.table.access`); else the store's own opens the GM pages (one
    nobody knows is made if it has none: ``fracas gm-link --new`` replaces it). Links
    carry ``public`` (``--public-url``) when given; forwarded headers are read from the
    ``trusted_proxies`` only (``ValueError`` for a malformed address)."""
    app = FastAPI(title="fracas", docs_url=None, redoc_url=None, openapi_url=None)
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
    app.mount("/static", StaticFiles(packages=[("fracas.web", "static")]), name="static")

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> Response:
        return PlainTextResponse("malformed request: " + first_error(exc), status_code=400)

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

    app.include_router(gm_router)
    app.include_router(player_router)
    app.include_router(rounds_router)
    app.include_router(campaigns_router)
    app.include_router(prep_router)
    app.include_router(battlefields_router)
    app.include_router(encounters_router)
    return app
