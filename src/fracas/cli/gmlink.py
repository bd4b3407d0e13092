"""``fracas gm-link``: the game master's link, which only its first start (or ``--new``)
can show: the store keeps only the GM token's hash."""

from __future__ import annotations

from typing import Annotated

import typer

from fracas.cli.app import app, fail
from fracas.cli.play import DbOption, open_store

#: The address a link carries when no server has served the store and none is given.
DEFAULT_BASE = "http://127.0.0.1:8000"

PublicUrlOption = Annotated[
    str | None,
    typer.Option(
        "--public-url",
        envvar="FRACAS_PUBLIC_URL",
        help="The address players and the game master reach, e.g. https://table.example.org "
        "(every link carries it).",
    ),
]


def gm_line(base: str, token: str) -> str:
    """The line that shows the GM link.

    >>> gm_line("https://t.example.org", "abc")
    'Game master: https://t.example.org/gm/login?token=abc'
    """
    return f"Game master: {base}/gm/login?token={token}"


@app.command("gm-link", rich_help_panel="Play")
def gm_link(
    db: DbOption = None,
    new: Annotated[
        bool,
        typer.Option(
            "--new",
            help="Make a new GM token and print its link: the old link opens nothing from "
            "now on and every game master is signed out.",
        ),
    ] = False,
    public: PublicUrlOption = None,
) -> None:
    """The game master's link: a new one with --new (the old one cannot be shown again)."""
    from fracas.table.access import GmAccess
    from fracas.web.access import public_url

    store = open_store(db)
    access = GmAccess(store)
    if not new:
        if not access.has_token():
            fail(
                "this store has no GM token yet: 'fracas serve' makes one at its first start, "
                "or 'fracas gm-link --new' makes one now"
            )
        fail(
            "the GM token is kept only as a hash, so its link cannot be shown again: "
            "'fracas gm-link --new' makes a new link (the old one then opens nothing and "
            "every game master is signed out)"
        )
    try:
        base = public_url(public) if public else access.served_at() or DEFAULT_BASE
    except ValueError as err:
        fail(str(err))
    token = access.new_token()
    typer.echo(gm_line(base, token), color=False)
    typer.echo("The old GM link opens nothing now, and every game master was signed out.")
