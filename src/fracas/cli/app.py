"""The ``fracas`` Typer application and how every command fails on bad input.

Bad input (a ``ValueError`` from the core, an unreadable file) ends with exit status 2
and one message on stderr, never a traceback.
"""

from __future__ import annotations

from typing import NoReturn

import typer

#: Exit status for bad input, as for usage errors.
BAD_INPUT = 2

app = typer.Typer(
    help="fracas: exact dice odds and rolls for tabletop combat.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


def fail(message: str) -> NoReturn:
    """Print ``fracas: message`` on stderr and exit with :data:`BAD_INPUT`."""
    typer.echo(f"fracas: {message}", err=True)
    raise typer.Exit(BAD_INPUT)
