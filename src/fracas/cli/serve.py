"""``fracas serve``: the tables on the web, for the game master and each side's players.

It serves the same store as the terminal (``--db`` or ``FRACAS_DB``), so a table started
with ``fracas play`` opens in the browser and back. Several servers may serve one store.
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
) -> None:
    """Serve the tables on the web: the game master's pages and the players' links."""
    import secrets

    import uvicorn

    from fracas.web.app import create_app
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
    web = create_app(store, token)
    uvicorn.run(web, host=host, port=port, log_level="warning")
