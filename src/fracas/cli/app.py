"""The ``fracas`` Typer application and how every command fails on bad input.

Bad input (a ``ValueError`` from the core, an unreadable file) ends with exit status 2
and one message on stderr, never a traceback.
"""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer

from fracas import __version__

#: Exit status for bad input, as for usage errors.
BAD_INPUT = 2

#: The top-level help: one line a paragraph, which the terminal wraps to its width.
HELP = (
    "fracas: tabletop combat played by the rules, with exact odds and simulations.\n\n"
    "Start with the tracker: 'fracas play examples/heimr/duel.yaml' runs an encounter turn "
    "by turn (type 'help' at its prompt). Every table is kept in a store and resumes with "
    "'fracas play --table NAME'. Rule books: Heimr Tabletop RPG Core (heimr), Heimr "
    "Tabletop Rulebook (heimr-classic), and the sides, tempo and diestep rules.\n"
)

app = typer.Typer(
    help=HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"fracas {__version__}")
        raise typer.Exit()


@app.callback()
def options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """The options every command shares."""


def fail(message: str) -> NoReturn:
    """Print ``fracas: message`` on stderr and exit with :data:`BAD_INPUT`."""
    typer.echo(f"fracas: {message}", err=True)
    raise typer.Exit(BAD_INPUT)
