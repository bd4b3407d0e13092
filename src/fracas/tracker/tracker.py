"""The terminal tracker behind ``fracas play``: an interface over the table service.

It draws the presenter's screen for one audience (the game master, or one side) and
reads a line at a time: an action's number, an action in the notation (names and verbs
in any case or by unique prefix; the one to act is the default actor), or a command.
Every action is committed to the store before the screen moves on, so leaving, by
``quit``, Ctrl-D or Ctrl-C, loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console, Group

from fracas.files import atomic_write
from fracas.table import rollcall
from fracas.table.dicemode import RollCancelled, RollRequest
from fracas.table.presenter import Numbering, log_text
from fracas.table.saves import read_save
from fracas.table.store import Store, under_free_name
from fracas.table.table import Table, TableError
from fracas.tracker.screen import draw

HELP = """\
number            do the action with that number
<action>          an action, e.g. 'ylva attack hrolf part=torso', 'att hrolf', 'end'
undo / redo       take back the last action / put it back
dice              switch between dice rolled by fracas and dice typed in from the table
                  (at a faces prompt: the faces, 'again', 'undo' or 'quit')
view SIDE | gm    what one side may know, or everything
map               show or hide the battlefield map
log               the whole log
save FILE         write the save (a side's view only, when viewing as a side)
load FILE         import a save as a new table and play it
tables            the tables in the store
quit              leave: every action is already stored (resume with --table NAME)"""

COMMANDS = ("help", "undo", "redo", "dice", "view", "map", "log", "save", "load", "tables", "quit")


class Leave(Exception):
    """The person asked to leave (at the prompt or at a dice prompt)."""


class Tracker:
    """One table at the terminal, as one audience sees it."""

    def __init__(
        self,
        table: Table,
        console: Console,
        side: str | None = None,
        ask: Callable[[str], str] | None = None,
    ) -> None:
        self.table = table
        self.console = console
        self.side = table.check_side(side)
        self.ask: Callable[[str], str] = ask or (lambda prompt: console.input(prompt))
        self.numbering = Numbering()
        self.show_map: bool | None = None
        self.message = ""
        self.pager: list[str] | None = None

    # -- showing -------------------------------------------------------------------------

    def render(self, width: int | None = None, height: int | None = None) -> Group:
        screen = self.table.screen(self.side, log_tail=height or self.console.size.height)
        owner = self.table.encounter.to_move if screen.offered else None
        numbered = self.numbering.number(owner, screen.offered)
        return draw(
            screen,
            numbered,
            width or self.console.size.width,
            height or self.console.size.height,
            self.show_map,
            self.message,
        )

    def run(self) -> None:
        """Draw, read, act, until the person leaves (nothing is lost when they do)."""
        while True:
            self.console.clear()
            if self.pager is not None:
                self.console.print("\n".join(self.pager), highlight=False, markup=False)
                self.pager = None
            else:
                self.console.print(self.render())
            try:
                line = self.ask("> ")
            except (EOFError, KeyboardInterrupt):
                break
            try:
                self.handle(line)
            except Leave:
                break
        self.console.print(
            f"Left table {self.table.name}; resume with: fracas play --table {self.table.name}"
        )

    # -- doing ---------------------------------------------------------------------------

    def handle(self, line: str) -> None:
        """Carry out one line typed at the prompt (:class:`Leave` when the person leaves)."""
        self.message = ""
        line = line.strip()
        if not line:
            return
        word, _, rest = line.partition(" ")
        command = word.lower()
        rest = rest.strip()
        try:
            if command in ("quit", "q", "exit"):
                raise Leave
            if command == "help":
                self.pager = HELP.splitlines()
            elif command == "log":
                self.pager = list(log_text(self.table.table_view(self.side))) or [
                    "(no actions yet)"
                ]
            elif command == "undo" and not rest:
                undone = self.table.undo()
                self.message = (
                    f"undone: {undone}" if self.side is None else "The last action was taken back."
                )
            elif command == "redo" and not rest:
                redone = self.table.redo()
                self.message = (
                    f"redone: {redone}" if self.side is None else "An action was put back."
                )
            elif command == "dice" and not rest:
                self.toggle_dice()
            elif command == "view":
                self.side = self.table.check_side(None if rest.lower() in ("", "gm") else rest)
                self.numbering = Numbering()
            elif command == "map" and not rest:
                self.show_map = not self._map_shown()
            elif command == "save":
                self.save(Path(rest))
            elif command == "load":
                self.load(Path(rest))
            elif command == "tables" and not rest:
                self.pager = [
                    f"{t.name}  {t.ruleset}  {t.head} actions" for t in self.table.store.tables()
                ]
            elif line.isdigit():
                self.push_number(int(line))
            else:
                self.table.push(line, self.side)
        except RollCancelled as cancel:
            if cancel.leave:
                raise Leave from None
            self.message = "The action was taken back at the dice prompt; nothing changed."
        except (ValueError, OSError) as err:
            self.message = str(err)

    def push_number(self, number: int) -> None:
        text = self.numbering.action(number)
        offered = self.table.screen(self.side, log_tail=0).offered
        if text is None or text not in offered:
            raise TableError(f"there is no action {number} now: choose one of the numbers shown")
        self.table.push(text, self.side)

    def toggle_dice(self) -> None:
        if self.table.asks_dice:
            self.table.rolled_dice()
            self.message = "Dice are rolled by fracas."
        else:
            self.table.physical_dice(self.ask_faces)
            self.message = "Dice are typed in from the table."

    def ask_faces(self, request: RollRequest) -> str:
        """One faces prompt; the end of input at a faces prompt means leaving. Viewing as
        a side, only that side's own rolls are asked as such; another's is rolled by
        fracas or typed by the game master, as the table is set (nothing of it shown)."""
        question = request.prompt()
        if self.side is not None:
            owner = self.table.roll_owner(request.purpose)
            if owner != self.side:
                if rollcall.settings(self.table.store, self.table.id).fallback == "roll":
                    return rollcall.rolled_faces(request)
                whose = "the game master's" if owner is None else "another side's"
                question = (
                    f"Game master, {whose} roll: roll {request.notation} "
                    f"({', '.join(request.dice)}); faces: "
                )
        if request.problem:
            self.console.print(request.problem, style="yellow", highlight=False, markup=False)
        try:
            return self.ask(question)
        except (EOFError, KeyboardInterrupt):
            return "quit"

    def save(self, path: Path) -> None:
        if not str(path):
            raise TableError("save where? type 'save FILE.json'")
        atomic_write(path, self.table.dumps(self.side))
        self.message = f"saved to {path}" + (
            "" if self.side is None else f" (side {self.side}'s view)"
        )

    def load(self, path: Path) -> None:
        if not str(path):
            raise TableError("load what? type 'load FILE.json'")
        store: Store = self.table.store
        save = read_save(path)
        self.table = under_free_name(
            store, path.stem, lambda name: Table.import_save(store, name, save, title=path.stem)
        )
        name = self.table.name
        self.side = None
        self.numbering = Numbering()
        self.message = f"loaded {path} as table {name}"

    def _map_shown(self) -> bool:
        if self.show_map is not None:
            return self.show_map
        return self.console.size.height >= 40
