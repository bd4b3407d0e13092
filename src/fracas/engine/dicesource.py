"""Where dice come from: seeded random, scripted faces, or a person at the table.

Every roll the rules make goes through a :class:`DiceSource`, which also records the
faces, so a log can be replayed exactly.

>>> from fracas.dice import HeimrChallenge
>>> dice = ScriptedDice([1, 4, 9, 10])
>>> dice.roll(HeimrChallenge(3, 3), "ylva attacks").result
13
>>> dice.remaining()
0
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from fracas.dice import FacesError, Mechanic, Roll
from fracas.dice.core import die_name


@dataclass(frozen=True)
class DrawnRoll:
    """A roll as the log keeps it: what was rolled, why, and the faces."""

    notation: str
    purpose: str
    faces: tuple[int, ...]

    def __reduce__(self) -> tuple[type[DrawnRoll], tuple[str, str, tuple[int, ...]]]:
        # Made again by its constructor (compiled, the default sets frozen fields).
        return DrawnRoll, (self.notation, self.purpose, self.faces)


@mypyc_attr(allow_interpreted_subclasses=True)
class DiceSource(ABC):
    """A source of rolls; subclasses decide where faces come from."""

    #: Whether rolls are added to :attr:`drawn` (a playout turns it off while it rolls).
    recording: bool = True

    def __init__(self) -> None:
        self.drawn: list[DrawnRoll] = []

    def roll(self, mechanic: Mechanic, purpose: str) -> Roll:
        """Roll ``mechanic`` for ``purpose`` (shown to a person typing in dice)."""
        result = self._roll(mechanic, purpose)
        if self.recording:
            self.drawn.append(DrawnRoll(mechanic.notation(), purpose, result.faces))
        return result

    @abstractmethod
    def _roll(self, mechanic: Mechanic, purpose: str) -> Roll: ...

    def mark(self) -> object:
        """A bookmark to :meth:`rewind` to when an action is refused half way."""
        return len(self.drawn)

    def rewind(self, mark: object) -> None:
        assert isinstance(mark, int)
        del self.drawn[mark:]


class RandomDice(DiceSource):
    """Pseudo-random dice from a seed: the same seed and actions give the same encounter."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.seed = seed
        self.rng = random.Random(seed)

    def roll(self, mechanic: Mechanic, purpose: str) -> Roll:
        """As :meth:`DiceSource.roll`, in one call fewer (a simulation rolls millions)."""
        result = mechanic.roll(self.rng)
        if self.recording:
            self.drawn.append(DrawnRoll(mechanic.notation(), purpose, result.faces))
        return result

    def _roll(self, mechanic: Mechanic, purpose: str) -> Roll:
        """The draw itself (:meth:`roll` above makes it in place; kept for the interface)."""
        return mechanic.roll(self.rng)

    def snapshot(self) -> dict[str, Any]:
        """The seed and the generator's state, as JSON, so the dice go on after a reload.

        >>> dice = RandomDice(7)
        >>> again = RandomDice.restore(dice.snapshot())
        >>> again.rng.random() == dice.rng.random()
        True
        """
        version, internal, gauss = self.rng.getstate()
        return {"kind": "random", "seed": self.seed, "state": [version, list(internal), gauss]}

    @classmethod
    def restore(cls, snapshot: Mapping[str, Any]) -> RandomDice:
        """Dice that go on from a :meth:`snapshot`; ``ValueError`` if it is malformed."""
        try:
            dice = cls(snapshot.get("seed"))
            version, internal, gauss = snapshot["state"]
            dice.rng.setstate((version, tuple(internal), gauss))
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"malformed dice state: {err}") from None
        return dice

    def mark(self) -> object:
        return (len(self.drawn), self.rng.getstate())

    def rewind(self, mark: object) -> None:
        assert isinstance(mark, tuple)
        count, state = mark
        del self.drawn[count:]
        self.rng.setstate(state)


class ScriptedDice(DiceSource):
    """Faces given in advance, read in order: for tests, scripts and replays."""

    def __init__(self, faces: Iterable[int] = ()) -> None:
        super().__init__()
        self.faces = list(faces)
        self.position = 0

    def add(self, faces: Iterable[int]) -> None:
        self.faces.extend(faces)

    def remaining(self) -> int:
        return len(self.faces) - self.position

    def randint(self, a: int, b: int) -> int:
        """The next scripted face, which must lie between ``a`` and ``b``."""
        if self.position >= len(self.faces):
            raise FacesError(f"the script has run out of dice: a {die_name(b)} is needed")
        face = self.faces[self.position]
        if not a <= face <= b:
            raise FacesError(f"scripted face {face} cannot be shown by a {die_name(b)}")
        self.position += 1
        return face

    def _roll(self, mechanic: Mechanic, purpose: str) -> Roll:
        start = self.position
        try:
            return mechanic.roll(self)
        except FacesError as err:
            self.position = start
            raise FacesError(f"{purpose}: {err}") from None

    def mark(self) -> object:
        return (len(self.drawn), self.position)

    def rewind(self, mark: object) -> None:
        assert isinstance(mark, tuple)
        count, position = mark
        del self.drawn[count:]
        self.position = position
