"""``fracas play``, ``tables``, ``export`` and ``import``: tables at the terminal.

Every encounter played lives in the store (``--db``, or the ``FRACAS_DB`` variable; by
default a SQLite file in the user's data folder), one action per transaction, so a
table can be left at any moment and resumed with ``--table NAME``.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from fracas.cli.app import app, fail
from fracas.engine import Action, Event, RandomDice
from fracas.files import atomic_write
from fracas.table import encounterfile
from fracas.table.saves import read_save

if TYPE_CHECKING:  # the store (SQLAlchemy) and the tracker load in the commands that use them
    from fracas.table.presenter import Screen
    from fracas.table.store import Store, TableRecord
    from fracas.table.table import Table
    from fracas.tracker import Tracker

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="FRACAS_DB",
        help="The store: a SQLAlchemy URL (default: a SQLite file in your data folder).",
    ),
]


def open_store(db: str | None) -> Store:
    from fracas.table.store import Store

    try:
        return Store.open(db)
    except ValueError as err:
        fail(str(err))


@app.command(rich_help_panel="Play")
def play(
    file: Annotated[
        Path | None,
        typer.Argument(help="An encounter file (YAML) or a save (JSON); none to resume --table."),
    ] = None,
    table: Annotated[
        str | None,
        typer.Option(help="The table's name: a new table's, or the one to resume."),
    ] = None,
    script: Annotated[
        Path | None, typer.Option(help="Play these actions, one a line, and print the log.")
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed the dice, to replay a game (a script may say '# seed: N')."),
    ] = None,
    save: Annotated[
        Path | None, typer.Option(help="Also write the save here when you leave.")
    ] = None,
    side: Annotated[str | None, typer.Option(help="Show only what this side may know.")] = None,
    physical_dice: Annotated[
        bool, typer.Option("--physical-dice", help="Ask for every roll's faces.")
    ] = False,
    others_dice: Annotated[
        str | None,
        typer.Option(
            "--others-dice",
            help="With --side and typed dice, the other sides' rolls: 'gm' (the game "
            "master types them) or 'roll' (fracas rolls them); kept with the table.",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Run an encounter turn by turn with the rules enforced (the tracker), or a script."""
    from fracas.table import rollcall
    from fracas.table.scripts import Script
    from fracas.tracker import Tracker

    console = Console()
    store = open_store(db)
    try:
        played = Script.read(script) if script is not None else None
        if played is not None and seed is None and file is not None:
            seed = played.seed  # a resumed table's dice go on as they were stored
        current = _open_table(store, file, table, seed)
        track = Tracker(current, console, side)
        if others_dice is not None:
            wait = rollcall.settings(store, current.id).wait
            rollcall.set_settings(store, current.id, others_dice.strip().lower()[:10], wait)
    except ValueError as err:
        fail(str(err))
    if physical_dice or store.dice_mode(current.id) == "typed":  # the table's mode, stored
        current.physical_dice(track.ask_faces)
    problem: str | None = None
    if played is None:
        track.run()
    else:
        try:
            played.play(
                current,
                lambda action, events: _tell(console, track, action, events),
                resume=file is None,
            )
        except ValueError as err:
            problem = str(err)
        _summary(console, current.screen(track.side, log_tail=0))
    if save is not None:
        try:
            atomic_write(save, current.dumps(track.side))
        except OSError as err:
            problem = problem or (
                f"cannot write the save {save}: {err}; nothing is lost: the game is in "
                f"table {current.name} (fracas export {current.name} FILE.json)"
            )
    if problem is not None:
        fail(problem)


def _open_table(store: Store, file: Path | None, name: str | None, seed: int | None) -> Table:
    """The table to play: a new one from a file, or the one named, resumed."""
    from fracas.table.store import under_free_name
    from fracas.table.table import Table

    if file is None:
        if name is None:
            raise typer.BadParameter("give an encounter file, or --table NAME to resume one")
        dice = None if seed is None else RandomDice(seed)
        return Table.resume(store, name, dice)
    if name is not None and name in {t.name for t in store.tables()}:
        raise ValueError(
            f"there is already a table called {name!r}: resume it with "
            f"'fracas play --table {name}' (without a file), or choose another name"
        )
    if file.suffix.lower() == ".json":
        data = read_save(file)
        if seed is not None:
            data = {**data, "dice": RandomDice(seed).snapshot()}
        if name:
            return Table.import_save(store, name, data, file.stem)
        return under_free_name(
            store, file.stem, lambda free: Table.import_save(store, free, data, file.stem)
        )
    ruleset, setup, title = encounterfile.load(file)
    if name:
        return Table.start(store, name, ruleset, setup, title, seed)
    return under_free_name(
        store, file.stem, lambda free: Table.start(store, free, ruleset, setup, title, seed)
    )


def _tell(console: Console, track: Tracker, action: Action, events: tuple[Event, ...]) -> None:
    """One acknowledged action of a script: its text (the GM's only) and what a side sees."""
    side = track.side
    lines = [f"> {action}"] if side is None else []
    for event in events:
        shown = _for_side(event, side)
        if shown is not None:
            lines.append(f"  {shown}")
    if lines:
        console.print("\n".join(lines), highlight=False, markup=False, soft_wrap=True)
        console.file.flush()  # the action is stored: say so now, not when a buffer fills


def _for_side(event: Event, side: str | None) -> str | None:
    for_side = getattr(event, "for_side", None)
    if for_side is not None:
        seen = for_side(side)
        return None if seen is None else str(seen.text)
    return event.text if event.visible_to(side) else None


def _summary(console: Console, screen: Screen) -> None:
    for row in screen.rows:
        parts = [row.name, row.side, row.place, *row.cells, ", ".join(row.effects)]
        console.print("  " + "  ".join(p for p in parts if p), highlight=False, markup=False)
    console.print(screen.status, highlight=False, markup=False)


@app.command(rich_help_panel="Play")
def tables(db: DbOption = None) -> None:
    """The tables in the store: name, ruleset, actions and the last action's time."""
    store = open_store(db)
    rows = store.tables()
    if not rows:
        typer.echo("No tables yet: start one with 'fracas play FILE'.")
        return
    width = shutil.get_terminal_size((80, 24)).columns
    for line in table_lines(rows, width):
        typer.echo(line)


def table_lines(rows: Sequence[TableRecord], width: int = 80) -> list[str]:
    """``fracas tables``' lines: a header, then a table a line, the columns as wide as
    their longest entry and the title cut to what is left of ``width`` (at least 80)."""
    when = [t.changed.astimezone().strftime("%Y-%m-%d %H:%M") for t in rows]
    name_w = max(5, *(len(t.name) for t in rows))
    rule_w = max(7, *(len(t.ruleset) for t in rows))
    left = max(80, width) - (name_w + rule_w + 7 + 16 + 4) - 1
    lines = [f"{'table':{name_w}} {'ruleset':{rule_w}} {'actions':>7} {'last change':16} title"]
    for t, at in zip(rows, when, strict=True):
        title = t.title if len(t.title) <= left else t.title[: max(1, left - 1)] + "…"
        lines.append(f"{t.name:{name_w}} {t.ruleset:{rule_w}} {t.head:7} {at:16} {title}".rstrip())
    return lines


@app.command("export", rich_help_panel="Play")
def export_table(
    name: Annotated[str, typer.Argument(help="The table.")],
    file: Annotated[Path, typer.Argument(help="Where to write the save (JSON).")],
    side: Annotated[
        str | None, typer.Option(help="Write only this side's view (not a save).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Write a table's save file (or one side's view of it)."""
    from fracas.table.table import Table

    store = open_store(db)
    try:
        current = Table.resume(store, name)
        atomic_write(file, current.dumps(side))
    except (ValueError, OSError) as err:
        fail(str(err))
    typer.echo(f"wrote {file}")


@app.command("import", rich_help_panel="Play")
def import_table(
    file: Annotated[Path, typer.Argument(help="A save file (JSON).")],
    table: Annotated[str | None, typer.Option(help="The new table's name.")] = None,
    db: DbOption = None,
) -> None:
    """Read a save file into a new table, to play on with 'fracas play --table NAME'."""
    from fracas.table.store import under_free_name
    from fracas.table.table import Table

    store = open_store(db)
    try:
        data: Any = read_save(file)
        title = str(data.get("title") or file.stem)[:200]  # the save's own, when it has one
        current = (
            Table.import_save(store, table, data, title)
            if table
            else under_free_name(
                store, file.stem, lambda free: Table.import_save(store, free, data, title)
            )
        )
    except ValueError as err:
        fail(str(err))
    typer.echo(f"imported {file} as table {current.name} ({current.head} actions)")
