"""Who resolves chance at the table: fracas's seeded dice, or a person with real dice.

:class:`AskedDice` asks for every roll's faces through a callback that an interface
gives (the terminal's prompt, a web form). The person may type:

- the faces, split by commas or spaces (``3, 10 10``), asked again until possible;
- for a pool rolled again until it shows a 6, one throw at a time: each throw without a 6
  is kept and the next one asked for, so the rule's +8 per throw is never lost;
- ``again`` to type the whole roll afresh (dropping the throws kept so far);
- ``undo`` to take back the action being resolved, ``quit`` to take it back and leave:
  :class:`RollCancelled` says which, and the engine leaves the encounter as it was.

>>> answers = iter(["1 2 3 4 5 1 2 3", "6 1 1 1 1 1 1 1"])
>>> dice = AskedDice(lambda request: next(answers))
>>> from fracas.dice import parse
>>> dice.roll(parse("tempo", "pool+2"), "Sigrun attacks").result
10
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from fracas.dice import DiceError, FacesError, Mechanic, Roll
from fracas.engine import DiceSource

__all__ = ["AskedDice", "RollCancelled", "RollRequest", "parse_faces"]

#: Longest line of faces read: far more than any roll needs.
MAX_FACES_TEXT = 4000


class RollCancelled(DiceError):
    """The person took the action back at a dice prompt (``undo``), or left (``quit``)."""

    def __init__(self, leave: bool) -> None:
        self.leave = leave
        super().__init__("left at a dice prompt" if leave else "taken back at a dice prompt")


@dataclass(frozen=True)
class RollRequest:
    """One question to the person with the dice: what to roll, and why it is asked again."""

    purpose: str
    notation: str
    dice: tuple[str, ...]
    throw: int = 1
    note: str = ""
    kept: tuple[int, ...] = ()
    problem: str | None = None
    #: The dice asked for (so that a roll nobody answers can still be rolled).
    mechanic: Mechanic | None = field(default=None, compare=False, repr=False)

    def prompt(self) -> str:
        """The question as one line of text.

        >>> RollRequest("Ylva attacks", "C3P2", ("d6", "d10")).prompt()
        'Ylva attacks: roll C3P2 (d6, d10); faces: '
        """
        text = f"{self.purpose}: roll {self.notation} ({', '.join(self.dice)})"
        if self.throw > 1:
            text += f", throw {self.throw}" + (f" ({self.note})" if self.note else "")
        return text + "; faces: "


class AskedDice(DiceSource):
    """Physical dice: each roll is asked of a person and asked again until possible."""

    def __init__(self, ask: Callable[[RollRequest], str]) -> None:
        super().__init__()
        self.ask = ask

    def _roll(self, mechanic: Mechanic, purpose: str) -> Roll:
        kept: list[int] = []
        problem: str | None = None
        while True:
            request = RollRequest(
                purpose,
                mechanic.notation(),
                mechanic.die_names(),
                throw=1 + len(kept) // max(1, len(mechanic.dice())),
                note=mechanic.more_note(kept) if kept else "",
                kept=tuple(kept),
                problem=problem,
                mechanic=mechanic,
            )
            text = self.ask(request).strip()
            word = text.lower()
            if word in ("undo", "quit"):
                raise RollCancelled(leave=word == "quit")
            if word == "again":
                kept, problem = [], None
                continue
            try:
                faces = kept + parse_faces(text)
                if mechanic.more_throws(faces):
                    kept, problem = faces, None
                    continue
                return mechanic.evaluate(faces)
            except (FacesError, ValueError) as err:
                problem = f"{err}. Type the faces again ('again' restarts the roll)."


def parse_faces(text: str) -> list[int]:
    """Faces typed by a person: whole numbers split by commas or spaces.

    >>> parse_faces("3, 10 10")
    [3, 10, 10]
    >>> parse_faces("3, x")
    Traceback (most recent call last):
    ...
    ValueError: '3, x' is not a list of faces such as '3, 10, 7'
    """
    if len(text) > MAX_FACES_TEXT:
        raise ValueError(f"that line is {len(text)} characters long: type only the faces")
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    if not words or not all(re.fullmatch(r"-?\d{1,4}", w) for w in words):
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise ValueError(f"{shown!r} is not a list of faces such as '3, 10, 7'")
    return [int(w) for w in words]
