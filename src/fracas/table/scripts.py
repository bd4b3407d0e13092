"""Scripts: files of actions, one a line, played on a table.

Blank lines and ``#`` comments are skipped; a comment ``# seed: N`` fixes the dice. A
script played with ``resume=True`` on a table that already holds actions goes on after
them, once they are found to be the script's own first lines: a game killed half way
resumes where its last acknowledged action left it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from fracas.engine import Action, Event
from fracas.files import read_script
from fracas.table.notation import MAX_LINE
from fracas.table.table import Table

__all__ = ["Script", "ScriptError"]


class ScriptError(ValueError):
    """A script that cannot be read or played: its file and line say where."""


@dataclass(frozen=True)
class Script:
    """The actions of a script file, with their line numbers, and its seed."""

    path: Path
    lines: tuple[tuple[int, str], ...]
    seed: int | None

    @classmethod
    def read(cls, path: Path) -> Script:
        """The script at ``path``, read within bounds (:func:`fracas.files.read_script`);
        :class:`~fracas.files.InputError` or :class:`ScriptError` name the file and line."""
        parsed = read_script(path)
        for number, line in parsed.lines:
            if len(line) > MAX_LINE:
                raise ScriptError(
                    f"{path}, line {number}: {_short(line)}: {len(line):,} characters; "
                    f"an action is at most {MAX_LINE:,}"
                )
        return cls(path, parsed.lines, parsed.seed)

    def play(
        self,
        table: Table,
        told: Callable[[Action, tuple[Event, ...]], None] | None = None,
        resume: bool = False,
    ) -> None:
        """Push the script's actions (with ``resume``, those after the ones the table
        already holds); each is committed before ``told`` hears of it. The first refusal
        stops it."""
        for (number, line), action in self._remaining(table, resume):
            try:
                events = table.push(action)
            except ValueError as err:
                raise ScriptError(f"{self.path}, line {number}: {_short(line)}: {err}") from None
            if told is not None:
                told(action, events)

    def _remaining(self, table: Table, resume: bool) -> Iterator[tuple[tuple[int, str], Action]]:
        played = [str(entry.action) for entry in table.encounter.log] if resume else []
        for index, (number, line) in enumerate(self.lines):
            try:
                action = Action.parse(line)
            except ValueError as err:
                raise ScriptError(f"{self.path}, line {number}: {_short(line)}: {err}") from None
            if index < len(played):
                if played[index] != str(action):
                    raise ScriptError(
                        f"{self.path}, line {number}: the table's action {index + 1} is "
                        f"{played[index]!r}, not this line: the table is not this script's game"
                    )
                continue
            yield (number, line), action


def _short(line: str) -> str:
    return line if len(line) <= 60 else line[:57] + "..."
