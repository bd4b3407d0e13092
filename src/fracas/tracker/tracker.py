"""The terminal tracker behind ``fracas play``: a thin layer over the engine.

It shows the initiative order, every combatant as the chosen view allows, the log and
the legal actions of whoever acts, numbered; it takes a number, an action in the
notation, or a command (``undo``, ``save``, ``load``, ``dice``, ``view``, ``help``,
``quit``). Nothing it shows is computed here: it all comes from
:func:`fracas.engine.view`, so a player's view hides what the rules hide.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from fracas.dice import Mechanic, Roll
from fracas.engine import Action, DiceSource, Encounter, EngineError, RandomDice, view
from fracas.engine.views import check_side
from fracas.rules import find
from fracas.tracker import mapview

#: Columns of the combatants table, in this order, when the view has them.
COLUMNS = (
    ("name", "name"),
    ("side", "side"),
    ("square", "sq"),
    ("hp", "HP"),
    ("injury", "injury"),
    ("fatigue", "fat"),
    ("willpower", "WP"),
    ("stamina", "stamina"),
    ("ap", "AP"),
    ("status", "status"),
    ("effects", "effects"),
    ("defence", "defence"),
    ("stance", "stance"),
)
LOG_LINES = 14

HELP = """\
[bold]number[/]          do that legal action
[bold]<action>[/]        any action in the notation, e.g. [italic]ylva attack hrolf part=torso[/]
[bold]undo[/]            take back the last action (as far back as the start)
[bold]save FILE[/]       write the encounter (its log) to FILE
[bold]load FILE[/]       replace this encounter with a saved one
[bold]dice[/]            switch between rolled dice and dice typed in from the table
[bold]view SIDE|gm[/]    show what one side may know, or everything
[bold]log[/]             the whole log
[bold]quit[/]            leave (save first: nothing is saved by itself)"""


class AskedDice(DiceSource):
    """Physical dice: each roll is asked of a person, and asked again until possible."""

    def __init__(self, ask: Callable[[str], str], tell: Callable[[str], None]) -> None:
        super().__init__()
        self.ask = ask
        self.tell = tell

    def _roll(self, mechanic: Mechanic, purpose: str) -> Roll:
        names = ", ".join(mechanic.die_names())
        while True:
            text = self.ask(f"{purpose}: roll {mechanic.notation()} ({names}); faces: ")
            try:
                return mechanic.evaluate(parse_faces(text))
            except ValueError as err:
                self.tell(f"{err}. Type the faces again.")


def parse_faces(text: str) -> list[int]:
    """Faces typed by a person: numbers split by commas or spaces.

    >>> parse_faces("3, 10 10")
    [3, 10, 10]
    """
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    if not words or not all(re.fullmatch(r"-?\d+", w) for w in words):
        raise ValueError(f"{text!r} is not a list of faces such as '3, 10, 7'")
    return [int(w) for w in words]


def log_lines(encounter: Encounter[Any], side: str | None = None) -> list[str]:
    """The log as text: each action, then what it caused. A side sees only the events it
    may see, not the actions as typed (a feint or a readied action would give itself away)."""
    lines: list[str] = []
    for entry in encounter.log:
        if side is None:
            lines.append(f"> {entry.action}")
        seen = (e.for_side(side) for e in entry.events)
        lines += [f"  {e.text}" for e in seen if e is not None]
    return lines


def combatants_table(state: dict[str, Any]) -> Table:
    """The combatants as a view shows them, in initiative order when there is one."""
    people: dict[str, dict[str, Any]] = state.get("combatants", {})
    order = [c for c in state.get("order", []) if c in people] or list(people)
    present = [(key, title) for key, title in COLUMNS if any(key in p for p in people.values())]
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("")
    for _, title in present:
        table.add_column(title)
    for cid in order:
        p = people[cid]
        marker = "▶" if cid == state.get("current") else ""
        cells = [_cell(key, p) for key, _ in present]
        style = "dim" if p.get("dead") or p.get("unconscious") else None
        table.add_row(marker, *cells, style=style)
    return table


def battlefield_map(state: dict[str, Any]) -> Text:
    """The grid with everyone the view shows in their squares, clusters marked."""
    cluster_of = {cid: i for i, c in enumerate(state.get("clusters", [])) for cid in c}
    people = {
        cid: {
            "name": p.get("name", cid),
            "side": p.get("side"),
            "square": p.get("square"),
            "height": p.get("height"),
            "cluster": cluster_of.get(cid),
            "hidden": p.get("hidden", False),
        }
        for cid, p in state.get("combatants", {}).items()
    }
    return mapview.draw(state["battlefield"], people)


def _cell(key: str, person: dict[str, Any]) -> str:
    value = person.get(key)
    if key == "hp" and value is not None:
        return f"{value}/{person.get('max_hp', '?')}"
    if key == "defence" and isinstance(value, dict):
        return f"{value['kind']} {value['result']}"
    if key == "effects":
        shown = list(value or [])
        if person.get("prone"):
            shown.append("prone")
        if person.get("held_by"):
            shown.append(f"held by {person['held_by']}")
        if person.get("dead"):
            shown.append("dead")
        elif person.get("unconscious"):
            shown.append("unconscious")
        return ", ".join(shown)
    return "" if value is None else str(value)


class Tracker:
    """One encounter at the terminal."""

    def __init__(self, encounter: Encounter[Any], title: str, console: Console) -> None:
        self.encounter = encounter
        self.title = title
        self.console = console
        self.side: str | None = None
        self.message = ""
        self.rolled = encounter.dice

    # -- showing -------------------------------------------------------------------------

    def actions(self) -> list[Action]:
        enc = self.encounter
        return list(enc.legal_actions(enc.to_move)) if enc.to_move else []

    def screen(self) -> Group:
        enc = self.encounter
        v = view(enc, self.side)
        state = v["state"]
        head = f"{self.title} · {enc.ruleset.name}"
        if state.get("round"):
            head += f" · round {state['round']} · {state.get('clock', 0)} s"
        head += " · view: " + (self.side or "game master")
        parts: list[Any] = [Text(head, style="bold")]
        if state.get("battlefield", {}).get("columns"):  # a map of locations is not drawn
            parts.append(battlefield_map(state))
        parts.append(combatants_table(state))
        parts.append(
            Panel(
                "\n".join(log_lines(enc, self.side)[-LOG_LINES:]) or "(no actions yet)",
                title="log",
                title_align="left",
            )
        )
        if enc.is_over():
            parts.append(Text("The encounter is over.", style="bold green"))
        elif enc.to_move:
            listing = Table.grid(padding=(0, 2))
            actions = self.actions()
            for i in range(0, len(actions), 3):
                row = [f"[bold]{i + j + 1:>2}[/] {a}" for j, a in enumerate(actions[i : i + 3])]
                listing.add_row(*row)
            parts.append(Panel(listing, title=f"{enc.to_move} to act", title_align="left"))
        if self.message:
            parts.append(Text(self.message, style="yellow"))
        return Group(*parts)

    # -- doing ---------------------------------------------------------------------------

    def handle(self, line: str, ask: Callable[[str], str]) -> bool:
        """Carry out one line typed at the prompt; ``False`` when the person leaves."""
        self.message = ""
        line = line.strip()
        word, _, rest = line.partition(" ")
        try:
            if not line:
                return True
            if word in ("quit", "q", "exit"):
                return False
            if word == "help":
                self.console.print(HELP)
                ask("(enter) ")
            elif word == "undo":
                self.message = f"undone: {self.encounter.pop().action}"
            elif word == "save":
                Path(rest.strip()).write_text(self.encounter.dumps(), encoding="utf-8")
                self.message = f"saved to {rest.strip()}"
            elif word == "load":
                self.encounter = load_save(Path(rest.strip()), self.encounter.dice)
                self.message = f"loaded {rest.strip()}"
            elif word == "dice":
                self.toggle_dice(ask)
            elif word == "view":
                side = None if rest.strip() in ("", "gm") else rest.strip()
                check_side(self.encounter, side)  # a side that does not exist is refused
                self.side = side
            elif word == "log":
                self.console.print("\n".join(log_lines(self.encounter, self.side)))
                ask("(enter) ")
            elif line.isdigit():
                actions = self.actions()
                n = int(line)
                if not 1 <= n <= len(actions):
                    raise EngineError(f"there is no action {n}: choose 1 to {len(actions)}")
                self.push(actions[n - 1])
            else:
                self.push(Action.parse(line))
        except (ValueError, OSError) as err:
            self.message = str(err)
        return True

    def push(self, action: Action) -> None:
        events = self.encounter.push(action)
        self.message = events[-1].text if events else ""

    def toggle_dice(self, ask: Callable[[str], str]) -> None:
        if isinstance(self.encounter.dice, AskedDice):
            self.encounter.dice = self.rolled
            self.message = "dice are rolled by fracas"
        else:
            self.rolled = self.encounter.dice
            self.encounter.dice = AskedDice(ask, lambda text: self.console.print(text))
            self.message = "dice are typed in from the table"


def load_save(path: Path, dice: DiceSource | None = None) -> Encounter[Any]:
    """An encounter from a save file (its ruleset is named inside)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise EngineError(f"{path} is not a save file: {err}") from None
    if not isinstance(data, dict):
        raise EngineError(f"{path} is not a save file")
    return Encounter.load(data, find(str(data.get("ruleset"))), dice)


def script_lines(path: Path) -> Iterable[tuple[int, str]]:
    """The actions of a script: one a line; blank lines and ``#`` comments are skipped."""
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            yield number, line


def script_seed(path: Path) -> int | None:
    """The seed a script fixes with a comment line ``# seed: N``, if any."""
    for raw in path.read_text(encoding="utf-8").splitlines():
        m = re.fullmatch(r"#\s*seed:\s*(-?\d+)\s*", raw.strip())
        if m:
            return int(m.group(1))
    return None


def run_script(encounter: Encounter[Any], path: Path) -> tuple[int, str] | None:
    """Push every action of the script; the first refusal stops it: (line, message)."""
    for number, line in script_lines(path):
        try:
            encounter.push(Action.parse(line))
        except ValueError as err:
            return number, f"{path}, line {number}: {line}: {err}"
    return None


def new_encounter(ruleset_id: str, setup: dict[str, Any], seed: int | None) -> Encounter[Any]:
    return Encounter(find(ruleset_id), setup, RandomDice(seed))
