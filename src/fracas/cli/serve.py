"""``fracas serve``: the tables on the web, for the game master and each side's players.

It serves the same store as the terminal (``--db`` or ``FRACAS_DB``), so a table started
with ``fracas play`` opens in the browser and back. Several servers may serve one store;
``--workers N`` runs N processes on one socket (uvicorn's workers), each making its app
from the ``FRACAS_SERVE_CONFIG`` JSON this command sets (:func:`fracas.web.app.app_from_env`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fracas.cli.app import app, fail
from fracas.cli.play import DbOption, open_store


@app.command(rich_help_panel="Play")
def serve(
    db: DbOption = None,
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.", min=1, max=65535)] = 8000,
    gm_token: Annotated[
        str | None,
        typer.Option(
            "--gm-token",
            envvar="FRACAS_GM_TOKEN",
            help="The game master's secret (default: a new random one, printed in the GM link).",
        ),
    ] = None,
    demo: Annotated[
        Path | None,
        typer.Option(help="Create a table for every encounter file in this folder's folders."),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes on the one socket (PostgreSQL suits more than 1).", min=1, max=64
        ),
    ] = 1,
) -> None:
    """Serve the tables on the web: the game master's pages and the players' links."""
    import os
    import secrets

    import uvicorn

    from fracas.web.app import CONFIG_ENV, ServeConfig, create_app
    from fracas.web.demo import demo_campaigns, demo_tables

    if gm_token is not None and len(gm_token) < 16:
        fail("--gm-token: use at least 16 characters")
    store = open_store(db)
    if demo is not None:
        try:
            made = demo_tables(store, demo)
            prepared = demo_campaigns(store, demo)
        except ValueError as err:
            fail(str(err))
        if made:
            typer.echo(f"demo tables created: {', '.join(made)}")
        if prepared:
            typer.echo(f"demo campaigns and encounters prepared: {', '.join(prepared)}")
    token = gm_token or secrets.token_urlsafe(32)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"fracas serves {store.engine.url.render_as_string(hide_password=True)}")
    typer.echo(f"Game master: http://{shown}:{port}/gm/login?token={token}", color=False)
    if workers == 1:
        uvicorn.run(create_app(store, token), host=host, port=port, log_level="warning")
        return
    url = store.engine.url.render_as_string(hide_password=False)
    store.engine.dispose()
    os.environ[CONFIG_ENV] = ServeConfig(db=url, gm_token=token).to_json()
    typer.echo(f"{workers} server processes")
    uvicorn.run(
        "fracas.web.app:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
    )
