"""The ``fracas`` Typer application and how every command fails on bad input.

Bad input (a ``ValueError`` from the core, an unreadable file) ends with exit status 2
and one message on stderr, never a traceback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
import typer.main
from typer.core import TyperGroup

from fracas import __version__

if TYPE_CHECKING:
    from typer import _click as click  # typer's own click, which its groups are built on

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


class Commands(TyperGroup):
    """``fracas``'s commands: each ruleset's own (:func:`fracas.cli.ruleset_apps`) join the
    built-in ones when first asked for (the list, or a name not built in), so a built-in
    command starts without loading every ruleset."""

    def _add_rulesets(self) -> None:
        if getattr(self, "_rulesets_added", False):
            return
        self._rulesets_added = True
        from fracas.cli import ruleset_apps

        for sub in ruleset_apps():  # as add_typer without a name: its commands join ours
            self.commands.update(typer.main.get_group(sub).commands)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._add_rulesets()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            self._add_rulesets()
        return super().get_command(ctx, cmd_name)


app = typer.Typer(
    cls=Commands,
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
