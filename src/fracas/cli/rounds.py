"""``fracas round``: play by post from the terminal (HC-ROUND-1): open a round for posts,
see who has posted, post a side's declarations, close the round."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated

import typer

from fracas.cli.app import app, fail
from fracas.cli.play import DbOption, open_store
from fracas.files import read_text

round_app = typer.Typer(
    help="Play by post: open a round for posts, see who has posted, post, close.",
    no_args_is_help=True,
)
app.add_typer(round_app, name="round", rich_help_panel="Play")

TableArg = Annotated[str, typer.Argument(help="The table.")]


@round_app.command("open")
def open_(
    table: TableArg,
    hours: Annotated[
        float | None, typer.Option("--hours", help="A deadline, this many hours from now.")
    ] = None,
    default: Annotated[
        list[str] | None,
        typer.Option(
            "--default",
            help="SIDE=LINES: that side's post if it posts nothing (default: defend); "
            "lines separated by ';'.",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Open the table's round for posts (opening the fight first if need be)."""
    from fracas.table.rounds import Rounds
    from fracas.table.table import Table

    store = open_store(db)
    try:
        current = Table.resume(store, table)
        defaults = {}
        for item in default or []:
            side, sep, lines = item.partition("=")
            if not sep:
                fail(f"--default {item[:40]!r}: write SIDE=LINES, e.g. wolves='wolf attack ylva'")
            defaults[side.strip()] = "\n".join(p.strip() for p in lines.split(";"))
        if hours is not None and not 0 < hours <= 24 * 31:
            fail("--hours: more than 0 and at most 744 (a month)")
        deadline = None if hours is None else datetime.now(UTC) + timedelta(hours=hours)
        found = Rounds(store).open(current, deadline, defaults)
    except ValueError as err:
        fail(str(err))
    until = "" if found.deadline is None else f" until {found.deadline:%Y-%m-%d %H:%M} UTC"
    typer.echo(f"round {found.round} of {table} is open for posts{until}")


@round_app.command("status")
def status(table: TableArg, db: DbOption = None) -> None:
    """Which sides have posted (and what: this is the game master's terminal)."""
    from fracas.table.rounds import Rounds
    from fracas.table.table import Table

    store = open_store(db)
    try:
        current = Table.resume(store, table)
        found = Rounds(store).current(current)
    except ValueError as err:
        fail(str(err))
    if found is None:
        typer.echo(f"no round of {table} is open for posts")
        return
    until = "" if found.deadline is None else f" until {found.deadline:%Y-%m-%d %H:%M} UTC"
    typer.echo(f"round {found.round} is open for posts{until}")
    for side in current.sides():
        post = found.post_of(side)
        if post is None:
            typer.echo(f"  {side}: not posted yet")
            continue
        typer.echo(f"  {side}: posted {post.posted:%Y-%m-%d %H:%M} UTC")
        for line in post.text.splitlines():
            typer.echo(f"    {line}")


@round_app.command("post")
def post(
    table: TableArg,
    side: Annotated[str, typer.Argument(help="The side posting.")],
    file: Annotated[str, typer.Argument(help="The post: a file of lines, or - for stdin.")],
    db: DbOption = None,
) -> None:
    """Post a side's declarations (replacing its earlier post), one action a line."""
    from fracas.table.rounds import MAX_POST, Rounds
    from fracas.table.table import Table

    store = open_store(db)
    try:
        if file == "-":
            text = sys.stdin.read(MAX_POST + 1)
        else:
            text = read_text(Path(file), MAX_POST, "post")
        current = Table.resume(store, table)
        Rounds(store).post(current, side, text)
    except ValueError as err:
        fail(str(err))
    typer.echo(f"the post of {side} for {table} is stored")


@round_app.command("close")
def close(table: TableArg, db: DbOption = None) -> None:
    """Close the round: every post, the defaults, then the ruleset's close."""
    from fracas.table.rounds import Rounds
    from fracas.table.table import Table

    store = open_store(db)
    try:
        current = Table.resume(store, table)
        pushed = Rounds(store).close(current)
    except ValueError as err:
        fail(str(err))
    for action in pushed:
        typer.echo(action)
