"""What every dice mechanic shares: the random source, the roll record and the base class.

A mechanic is defined once, by the dice it throws (:meth:`Mechanic.dice`) and how it
reads their faces (:meth:`Mechanic.evaluate`). From that one definition come

- a random roll with every face logged (:meth:`Mechanic.roll`),
- the exact distribution (:meth:`Mechanic.pmf`; by default brute-force enumeration of
  :meth:`Mechanic.evaluate`, which fast paths override and are tested against), its
  cost estimated first (:meth:`Mechanic.steps`) and refused past :data:`MAX_STEPS`, and
- the evaluation of faces a person rolled by hand (:meth:`Mechanic.evaluate`).
"""

from __future__ import annotations

import itertools
import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, NamedTuple, Protocol

from fracas.dice.errors import CostError, FacesError, LimitError, quote

#: Brute-force enumeration refuses dice spaces larger than this.
ENUMERATION_LIMIT = 2_000_000
#: Exact odds refuse a computation estimated at more than this many steps, where a step
#: is one multiply-add of small integer weights (measured in docs/reliability.md).
MAX_STEPS = 40_000_000
#: Cost of turning one outcome's integer weight into a ``Fraction`` (and of showing it), in
#: steps (measured).
FRACTION_STEP = 40
#: Estimates are capped here, so that they stay small numbers whatever the input.
STEPS_CAP = 10**18


class Rng(Protocol):
    """Any source of uniform integers; :class:`random.Random` is one."""

    def randint(self, a: int, b: int) -> int: ...


class Roll(NamedTuple):
    """One roll: its result, every face in throwing order and the named parts of the reading.

    A tuple, so that rolling stays cheap; :attr:`explanation` is worked out when asked for.

    >>> from fracas.dice import HeimrChallenge
    >>> roll = HeimrChallenge(3, 3).evaluate([1, 4, 9, 10])
    >>> roll.result, roll.parts["raw"], roll.explanation
    (13, 10, 'highest 10 + 3 = 13')
    """

    result: int
    faces: tuple[int, ...]
    dice: tuple[int, ...]
    parts: Mapping[str, int]
    mechanic: Mechanic | None = None

    @property
    def explanation(self) -> str:
        """How the faces were read, in words."""
        return self.mechanic.explain(self) if self.mechanic is not None else str(self.result)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record of the roll."""
        return {
            "result": self.result,
            "faces": list(self.faces),
            "dice": [f"d{s}" for s in self.dice],
            **dict(self.parts),
            "explanation": self.explanation,
        }


def draw(rng: Rng, sides: int) -> int:
    """One face of a d``sides``, uniform; fast for :class:`random.Random` sources.

    With ``getrandbits`` available it draws by rejection, as ``random.randint`` does
    underneath, without its argument checks.
    """
    getrandbits = getattr(rng, "getrandbits", None)
    if getrandbits is None:
        return rng.randint(1, sides)
    k = sides.bit_length()
    r = getrandbits(k)
    while r >= sides:
        r = getrandbits(k)
    return int(r) + 1


def die_name(sides: int) -> str:
    return f"d{sides}"


def check_faces(faces: Sequence[int], dice: Sequence[int], names: Sequence[str] = ()) -> None:
    """Raise :class:`FacesError` unless ``faces`` fit ``dice`` one to one.

    >>> check_faces([7, 3], [6, 10], ["the d6"])
    Traceback (most recent call last):
    ...
    fracas.dice.errors.FacesError: face 1 (the d6) is 7, but a d6 shows 1 to 6
    """
    if len(faces) != len(dice):
        listing = ", ".join(die_name(s) for s in dice)
        raise FacesError(f"expected {len(dice)} faces ({listing}), got {len(faces)}")
    for i, (face, sides) in enumerate(zip(faces, dice, strict=True)):
        if not 1 <= face <= sides:
            label = f" ({names[i]})" if i < len(names) else ""
            raise FacesError(
                f"face {i + 1}{label} is {face}, but a {die_name(sides)} shows 1 to {sides}"
            )


def bigint_factor(digits: float) -> float:
    """How much slower a step is when weights have ``digits`` decimal digits.

    Measured on the convolution of integer weights: 3x at 100 digits, about 38x at 600.

    >>> bigint_factor(0), round(bigint_factor(600))
    (1.0, 38)
    """
    return 1.0 + 2.5 * math.pow(max(digits, 0.0) / 100, 1.5)


def capped(steps: float) -> int:
    """An estimate of steps as an integer no larger than :data:`STEPS_CAP`."""
    return STEPS_CAP if steps >= STEPS_CAP else int(steps)


def space_digits(dice: Sequence[int]) -> float:
    """Decimal digits of the number of face combinations of ``dice``."""
    return sum(math.log10(s) for s in dice if s > 1)


def normalize(weights: Mapping[int, int]) -> dict[int, Fraction]:
    """Integer weights to an exact, sorted distribution.

    >>> normalize({2: 1, 1: 3})
    {1: Fraction(3, 4), 2: Fraction(1, 4)}
    """
    total = sum(weights.values())
    return {k: Fraction(w, total) for k, w in sorted(weights.items()) if w}


class Mechanic(ABC):
    """A dice mechanic of one rule system: it throws dice and reads their faces.

    Subclasses say which dice are thrown (:meth:`dice`), how faces are read
    (:meth:`read`) and explained (:meth:`explain`); everything else follows.
    """

    system: ClassVar[str]

    @abstractmethod
    def dice(self) -> tuple[int, ...]:
        """The sides of each die thrown, in the order their faces are read."""

    def die_names(self) -> tuple[str, ...]:
        """What each die is called, for messages and prompts."""
        return tuple(die_name(s) for s in self.dice())

    @abstractmethod
    def read(self, faces: tuple[int, ...]) -> Roll:
        """Read faces known to be possible (see :meth:`evaluate` for faces from outside)."""

    @abstractmethod
    def explain(self, roll: Roll) -> str:
        """The reading of ``roll`` in words."""

    @abstractmethod
    def notation(self) -> str:
        """The expression in its system's notation; ``parse`` reads it back."""

    def check(self, faces: tuple[int, ...]) -> None:
        """Raise :class:`FacesError` unless these faces can come from these dice."""
        check_faces(faces, self.dice(), self.die_names())

    def more_throws(self, faces: Sequence[int]) -> bool:
        """Whether these faces are whole throws that call for another throw (a pool rolled
        again until it shows a 6), so a person typing dice in is asked for the next one."""
        return False

    def more_note(self, faces: Sequence[int]) -> str:
        """Why :meth:`more_throws` asks for more after these faces, for the prompt."""
        return ""

    def take(self, faces: Sequence[int]) -> int:
        """How many of ``faces``, from the front, one roll of this mechanic reads (an
        opposed roll reads the first side's, then the second's)."""
        return len(self.dice())

    def evaluate(self, faces: Sequence[int]) -> Roll:
        """Read faces rolled by hand; :class:`FacesError` if the dice cannot show them."""
        faces = tuple(faces)
        self.check(faces)
        return self.read(faces)

    def roll(self, rng: Rng) -> Roll:
        """Throw the dice with ``rng`` and read them."""
        return self.read(tuple([draw(rng, s) for s in self.dice()]))

    def pmf(self) -> dict[int, Fraction]:
        """The exact distribution of :attr:`Roll.result`; :class:`CostError` before any
        work when :meth:`steps` estimates more than :data:`MAX_STEPS`."""
        self.check_steps()
        return self.exact_pmf()

    def exact_pmf(self) -> dict[int, Fraction]:
        """The exact distribution, without the cost check; fast paths override it."""
        return self.enumerate_pmf()

    def steps(self) -> int:
        """The estimated work of :meth:`exact_pmf`, in steps (see :data:`MAX_STEPS`)."""
        dice = self.dice()
        if space_digits(dice) > 15:
            return STEPS_CAP
        return capped(math.prod(dice) * (len(dice) + 1) * 10)

    def outcomes(self) -> int:
        """An upper bound on the number of distinct results (the size of :meth:`pmf`)."""
        dice = self.dice()
        return STEPS_CAP if space_digits(dice) > 15 else min(math.prod(dice), STEPS_CAP)

    def digits(self) -> float:
        """Decimal digits of the denominator of :meth:`pmf`: how big its numbers grow."""
        return space_digits(self.dice())

    def check_steps(self) -> None:
        """Raise :class:`CostError` if exact odds would take more than :data:`MAX_STEPS`."""
        steps = self.steps()
        if steps > MAX_STEPS:
            about = "over 10^18" if steps >= STEPS_CAP else f"about {steps:,}"
            raise CostError(
                f"{quote(self.notation())} is too large for exact odds ({about} steps; the "
                f"limit is {MAX_STEPS:,}): estimate it from random rolls instead"
            )

    def enumerate_pmf(self) -> dict[int, Fraction]:
        """The distribution by brute force over every face combination: the oracle."""
        dice = self.dice()
        size = math.prod(dice)
        if size > ENUMERATION_LIMIT:
            raise LimitError(
                f"{self.notation()} has {size} face combinations; enumeration stops at "
                f"{ENUMERATION_LIMIT}"
            )
        weights: dict[int, int] = {}
        for faces in itertools.product(*(range(1, s + 1) for s in dice)):
            r = self.read(faces).result
            weights[r] = weights.get(r, 0) + 1
        return normalize(weights)

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.notation()!r})"
