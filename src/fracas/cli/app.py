"""The ``fracas`` Typer application and how every command fails on bad input.

Bad input (a ``ValueError`` from the core, an unreadable file) ends with exit status 2
and one message on stderr, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer
import typer.main
from typer.core import TyperGroup
from typer.models import CommandInfo, TyperInfo

from fracas import __version__

if TYPE_CHECKING:
    from typer import _click as click  # typer's own click, which its groups are built on

F = TypeVar("F", bound=Callable[..., Any])

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


class App(typer.Typer):
    """The ``fracas`` app. Its commands and groups are kept aside as registered and built
    (their parameters read from the functions' signatures) by :class:`Commands` only when
    asked for: a command starts without building all the others."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.deferred_commands: list[CommandInfo] = []
        self.deferred_groups: list[TyperInfo] = []

    @property
    def deferred(self) -> list[CommandInfo | TyperInfo]:
        """The commands, then the groups (as Typer would list them), in registration order."""
        return [*self.deferred_commands, *self.deferred_groups]

    def command(self, *args: Any, **kwargs: Any) -> Callable[[F], F]:
        register = super().command(*args, **kwargs)

        def defer(function: F) -> F:
            register(function)
            self.deferred_commands.append(self.registered_commands.pop())
            return function

        return defer

    def add_typer(self, typer_instance: typer.Typer, **kwargs: Any) -> None:
        super().add_typer(typer_instance, **kwargs)
        self.deferred_groups.append(self.registered_groups.pop())


def _name(info: CommandInfo | TyperInfo) -> str | None:
    """The name a deferred command or group is called by (``None`` if it has none)."""
    if isinstance(info, TyperInfo):
        return info.name if isinstance(info.name, str) else None
    if info.name:
        return info.name
    return typer.main.get_command_name(info.callback.__name__) if info.callback else None


class Commands(TyperGroup):
    """``fracas``'s commands, each built when first asked for: the built-in ones of
    :data:`app` (in the order registered, as ``fracas --help`` lists them), then each
    ruleset's own (:func:`fracas.cli.ruleset_apps`), added only for the list or a name not
    built in, so that a built-in command starts without loading every ruleset."""

    def _build(self, info: CommandInfo | TyperInfo) -> click.Command:
        if isinstance(info, TyperInfo):
            return typer.main.get_group_from_info(
                info,
                pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode,
                suggest_commands=app.suggest_commands,
            )
        return typer.main.get_command_from_info(
            info,
            pretty_exceptions_short=app.pretty_exceptions_short,
            rich_markup_mode=app.rich_markup_mode,
        )

    def _add_all(self) -> None:
        if getattr(self, "_all_added", False):
            return
        self._all_added = True
        built = dict(self.commands)
        self.commands.clear()
        for info in app.deferred:
            name = _name(info)
            command = built.pop(name) if name in built else self._build(info)
            if isinstance(command, TyperGroup) and name is None:  # its commands join ours
                self.commands.update(command.commands)
            else:
                self.commands[command.name or ""] = command
        from fracas.cli import ruleset_apps

        for sub in ruleset_apps():  # as add_typer without a name: its commands join ours
            self.commands.update(typer.main.get_group(sub).commands)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._add_all()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            found = [info for info in app.deferred if _name(info) == cmd_name]
            if found and not getattr(self, "_all_added", False):
                self.commands[cmd_name] = self._build(found[0])
            else:
                self._add_all()  # a ruleset's command, or none: then every name, to suggest
        return super().get_command(ctx, cmd_name)


app = App(
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
