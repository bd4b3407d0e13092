"""``fracas post``: a round's results written for a forum (play by post, HC-ROUND-2)."""

from __future__ import annotations

from typing import Annotated

import typer

from fracas.cli.app import app, fail
from fracas.cli.play import DbOption, open_store
from fracas.table.posts import FORMATS, round_post


@app.command(rich_help_panel="Play")
def post(
    table: Annotated[str, typer.Argument(help="The table.")],
    round_: Annotated[
        int | None,
        typer.Option("--round", help="The round to post (default: the one just played)."),
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", help="One of: " + ", ".join(FORMATS) + ".")
    ] = "markdown",
    db: DbOption = None,
) -> None:
    """A round's results with every roll, as every side may see them, to paste in a forum."""
    from fracas.table.table import Table

    store = open_store(db)
    try:
        current = Table.resume(store, table)
        text = round_post(current.encounter, current.title, round_, fmt)
    except ValueError as err:
        fail(str(err))
    typer.echo(text)
