"""``fracas play``: an encounter at the terminal, or a script played to its end."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from fracas import tracker
from fracas.cli.app import app, fail
from fracas.engine import Encounter, RandomDice, view
from fracas.engine.views import check_side
from fracas.table import encounterfile


@app.command()
def play(
    file: Annotated[Path, typer.Argument(help="An encounter file (YAML) or a save (JSON).")],
    script: Annotated[
        Path | None, typer.Option(help="Play these actions, one a line, and print the log.")
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed the dice, to replay a game (a script may say '# seed: N')."),
    ] = None,
    save: Annotated[Path | None, typer.Option(help="Write the encounter here at the end.")] = None,
    side: Annotated[str | None, typer.Option(help="Show only what this side may know.")] = None,
    physical_dice: Annotated[
        bool, typer.Option("--physical-dice", help="Ask for every roll's faces.")
    ] = False,
) -> None:
    """Run an encounter turn by turn with the rules enforced, or play a script."""
    console = Console()
    if script is not None and not script.is_file():
        fail(f"no script at {script}")
    if script is not None and seed is None:
        seed = tracker.script_seed(script)
    try:
        if file.suffix.lower() == ".json":
            # Without --seed the dice go on from the state the save recorded.
            encounter = tracker.load_save(file, None if seed is None else RandomDice(seed))
            title = file.stem
        else:
            ruleset, setup, title = encounterfile.load(file)
            encounter = Encounter(ruleset, setup, RandomDice(seed))
    except (ValueError, OSError) as err:
        fail(str(err))
    try:
        check_side(encounter, side)
    except ValueError as err:
        fail(str(err))
    if physical_dice:
        encounter.dice = tracker.AskedDice(
            lambda prompt: console.input(prompt), lambda text: console.print(text)
        )
    if script is None:
        _play_interactive(tracker.Tracker(encounter, title, console), console, side)
        return
    problem = tracker.run_script(encounter, script)
    console.print("\n".join(tracker.log_lines(encounter, side)), highlight=False)
    console.print(tracker.combatants_table(_view_state(encounter, side)))
    if encounter.is_over():
        console.print("The encounter is over.")
    if save is not None:
        save.write_text(encounter.dumps(), encoding="utf-8")
    if problem is not None:
        fail(problem[1])


def _view_state(encounter: Encounter[Any], side: str | None) -> dict[str, Any]:
    state: dict[str, Any] = view(encounter, side)["state"]
    return state


def _play_interactive(track: tracker.Tracker, console: Console, side: str | None) -> None:
    track.side = side
    while True:
        console.clear()
        console.print(track.screen())
        try:
            line = console.input("[bold]> [/]")
        except (EOFError, KeyboardInterrupt):
            console.print()
            return
        if not track.handle(line, lambda prompt: console.input(prompt)):
            return
