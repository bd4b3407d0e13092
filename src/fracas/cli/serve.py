"""``fracas serve``: the tables on the web, for the game master and each side's players.

It serves the same store as the terminal (``--db`` or ``FRACAS_DB``), so a table started
with ``fracas play`` opens in the browser and back. Several servers may serve one store;
``--workers N`` runs N processes on one socket (uvicorn's workers), each making its app
from the ``FRACAS_SERVE_CONFIG`` JSON this command sets (:func:`fracas.web.app.app_from_env`).
The GM token is kept in the store as a hash: the first start prints the GM link, later
starts keep it (``fracas gm-link --new`` replaces it). ``docs/deploy.md`` says how
players on other machines reach it.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from fracas.cli.app import app, fail
from fracas.cli.gmlink import PublicUrlOption, gm_line
from fracas.cli.play import DbOption, open_store

if TYPE_CHECKING:
    import uvicorn


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
            help="Set the game master's secret (at least 16 characters; default: the one "
            "kept from an earlier start, or a new random one printed in the GM link).",
        ),
    ] = None,
    public: PublicUrlOption = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            envvar="FRACAS_TRUSTED_PROXIES",
            help="A reverse proxy's address or network (repeatable): its forwarded headers "
            "(client address, scheme, host) are believed; nobody else's.",
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
    streams_per_address: Annotated[
        int,
        typer.Option(
            help="Live pages open at once from one address, in each process (a proxy not "
            "given with --trusted-proxy is one address for all its users).",
            min=1,
            max=100_000,
        ),
    ] = 200,
    odds_runs: Annotated[
        int,
        typer.Option(
            help="The GM's odds of a fight: the most runs one simulation plays.",
            min=1,
            max=20_000,
        ),
    ] = 1000,
    odds_seconds: Annotated[
        float,
        typer.Option(
            help="The GM's odds of a fight: the longest one simulation runs (s).", min=0.1, max=600
        ),
    ] = 20.0,
    odds_dask: Annotated[
        str | None,
        typer.Option(help="The GM's odds of a fight run on this Dask scheduler (tcp://host:8786)."),
    ] = None,
    odds_niceness: Annotated[
        int,
        typer.Option(
            help="The GM's odds of a fight: how much lower than the server its worker runs "
            "(os.nice).",
            min=0,
            max=19,
        ),
    ] = 10,
) -> None:
    """Serve the tables on the web: the game master's pages and the players' links."""
    import os

    import uvicorn

    from fracas.lab.fightodds import OddsSettings
    from fracas.table.access import MAX_TOKEN, MIN_TOKEN, GmAccess
    from fracas.web.access import public_url, trusted_networks
    from fracas.web.app import CONFIG_ENV, ServeConfig, create_app
    from fracas.web.demo import demo_campaigns, demo_tables
    from fracas.web.events import LiveSettings

    if gm_token is not None and not MIN_TOKEN <= len(gm_token) <= MAX_TOKEN:
        fail(f"--gm-token: use {MIN_TOKEN} to {MAX_TOKEN} characters")
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
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    try:
        base = public_url(public) if public else f"http://{_bracketed(shown)}:{port}"
        trusted_networks(trusted_proxy or ())
    except ValueError as err:
        fail(str(err))
    typer.echo(f"fracas serves {store.engine.url.render_as_string(hide_password=True)}")
    access = GmAccess(store)
    if gm_token is not None:
        had = access.has_token()
        replaced = access.set_token(gm_token) and had
        typer.echo(gm_line(base, gm_token), color=False)
        if replaced:
            typer.echo("A new GM token: the old link opens nothing, every GM was signed out.")
    else:
        token = access.first_token()
        if token is not None:
            typer.echo(gm_line(base, token), color=False)
            typer.echo("Keep this link: the store keeps only its hash, so it is shown once.")
        else:
            typer.echo(
                f"Game master: the GM link is unchanged ({base}/gm/login?token=…); "
                "'fracas gm-link --new' makes a new one"
            )
    access.serve_at(base)
    proxies = tuple(trusted_proxy or ())
    live = LiveSettings(per_address=streams_per_address)
    odds = OddsSettings(
        runs=odds_runs, seconds=odds_seconds, dask=odds_dask, niceness=odds_niceness
    )
    # Forwarded headers are read by the app, from --trusted-proxy only: not by uvicorn.
    if workers == 1:
        web = create_app(store, public=public, trusted_proxies=proxies, live=live, odds=odds)
        uvicorn.run(web, host=host, port=port, log_level="warning", proxy_headers=False)
        return
    url = store.engine.url.render_as_string(hide_password=False)
    store.engine.dispose()
    config = ServeConfig(db=url, public=public, trusted_proxies=proxies, live=live, odds=odds)
    os.environ[CONFIG_ENV] = config.to_json()
    typer.echo(f"{workers} server processes")
    _run_workers(
        uvicorn.Config(
            "fracas.web.app:app_from_env",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level="warning",
            proxy_headers=False,
        )
    )


def _run_workers(config: uvicorn.Config) -> None:
    """Run ``config.workers`` processes on one socket, as ``uvicorn.run`` does, with
    ``TCP_NODELAY`` on the listening socket (its connections inherit it). Uvicorn makes
    that socket with protocol 0, so asyncio does not set it on each connection as it does
    for one process: a reply written in two pieces (head, then body) then waits for the
    client's delayed acknowledgement, about 40 ms a request on a kept-alive connection."""
    import socket

    from uvicorn.supervisors import Multiprocess

    sock = config.bind_socket()
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    with contextlib.suppress(KeyboardInterrupt):
        Multiprocess(config, sockets=[sock]).run()


def _bracketed(host: str) -> str:
    """An IPv6 address as a URL writes it.

    >>> _bracketed("::1"), _bracketed("127.0.0.1")
    ('[::1]', '127.0.0.1')
    """
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
