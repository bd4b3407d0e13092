"""The character-sheet arithmetic of the Heimr core, as pure functions on numbers.

:mod:`fracas.rules.heimr.campaign` applies them to a character sheet and the
campaign's tables; the defaults here are the seed's own numbers.

>>> base_potential([0, 3])
1
>>> training_total(3)
30
>>> divide_xp(10, 4)
XpShare(each=2, remainder=2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "SEED_ATTRIBUTE_PROGRESS",
    "SEED_TRAINING_COSTS",
    "DiceChallenge",
    "XpShare",
    "add_attribute_progress",
    "attribute_progress_required",
    "base_fatigue",
    "base_potential",
    "divide_xp",
    "situational_penalty",
    "training_cost",
    "training_total",
]

#: H-XP-2, the seed's table: XP cost of the 1st..7th point of ability training.
SEED_TRAINING_COSTS: tuple[int, ...] = (5, 10, 15, 25, 40, 65, 105)

#: H-XP-3, the seed's table: attribute progress required, by the new attribute value.
SEED_ATTRIBUTE_PROGRESS: Mapping[int, int] = {-2: 8, -1: 6, 0: 4, 1: 6, 2: 8, 3: 10, 4: 12}


@dataclass(frozen=True)
class DiceChallenge:
    """The consistency (C) and potential (P) of a dice challenge, in the dice notation.

    >>> str(DiceChallenge(3, -1))
    'C3P-1'
    """

    consistency: int
    potential: int

    def __str__(self) -> str:
        return f"C{self.consistency}P{self.potential}"


def base_potential(attribute_values: Sequence[int]) -> int:
    """H-CHAR-2: the attribute, or the average of several attributes rounded down.

    "Rounded down" is the floor, also for negative averages.

    >>> base_potential([2])
    2
    >>> base_potential([0, 3])
    1
    >>> base_potential([-1, 0])
    -1
    """
    if not attribute_values:
        raise ValueError("an ability is based on at least one attribute")
    return sum(attribute_values) // len(attribute_values)


def situational_penalty(penalties: Iterable[tuple[str, int]], targets: Iterable[str]) -> int:
    """H-DICE-6: the total of the penalties whose target is one of ``targets``.

    Targets compare without regard to case; each penalty counts once.

    >>> penalties = [("dex", 2), ("physical", 1), ("int", 3)]
    >>> situational_penalty(penalties, {"Agility", "dex", "physical"})
    3
    """
    wanted = {target.casefold() for target in targets}
    return sum(amount for target, amount in penalties if target.casefold() in wanted)


def base_fatigue(stamina: int, *, base: int = 4, minimum: int = 1) -> int:
    """H-FAT-3: four minus stamina, never below one.

    >>> [base_fatigue(sta) for sta in (3, -2, 4, -3)]
    [1, 6, 1, 7]
    """
    return max(minimum, base - stamina)


@dataclass(frozen=True)
class XpShare:
    """Experience points each character receives, and the points carried over."""

    each: int
    remainder: int


def divide_xp(xp: int, characters: int, carried: int = 0) -> XpShare:
    """H-XP-1: XP divided among the characters present, rounded down; the rest carries over.

    ``carried`` is the remainder of the previous award.

    >>> divide_xp(10, 4)
    XpShare(each=2, remainder=2)
    >>> divide_xp(7, 4, carried=2)
    XpShare(each=2, remainder=1)
    """
    if characters < 1:
        raise ValueError(f"XP is divided among at least one character, not {characters}")
    if xp < 0 or carried < 0:
        raise ValueError("XP awards and remainders are not negative")
    each, remainder = divmod(xp + carried, characters)
    return XpShare(each, remainder)


def training_cost(level: int, costs: Sequence[int] = SEED_TRAINING_COSTS) -> int:
    """H-XP-2: XP cost of raising one ability training (consistency or potential) to ``level``.

    The table gives the first costs; beyond it each cost is the sum of the two before.

    >>> [training_cost(n) for n in range(1, 10)]
    [5, 10, 15, 25, 40, 65, 105, 170, 275]
    """
    if level < 1:
        raise ValueError(f"training levels start at 1, not {level}")
    if len(costs) < 2:
        raise ValueError("the training cost table needs at least two entries")
    known = list(costs[:level])
    while len(known) < level:
        known.append(known[-1] + known[-2])
    return known[level - 1]


def training_total(level: int, costs: Sequence[int] = SEED_TRAINING_COSTS) -> int:
    """H-XP-2: total XP for ``level`` points of one ability training (0 for none).

    >>> [training_total(n) for n in range(8)]
    [0, 5, 15, 30, 55, 95, 160, 265]
    """
    if level < 0:
        raise ValueError(f"training is not negative: {level}")
    return sum(training_cost(n, costs) for n in range(1, level + 1))


def attribute_progress_required(
    new_value: int, table: Mapping[int, int] = SEED_ATTRIBUTE_PROGRESS
) -> int:
    """H-XP-3: attribute progress needed for the attribute to reach ``new_value``.

    Values beyond the table use its nearest end ("4 or more": 12).

    >>> [attribute_progress_required(v) for v in (-2, -1, 0, 1, 2, 3, 4, 7)]
    [8, 6, 4, 6, 8, 10, 12, 12]
    """
    if not table:
        raise ValueError("the attribute progress table is empty")
    clamped = min(max(new_value, min(table)), max(table))
    if clamped not in table:
        raise ValueError(f"the attribute progress table has no entry for {clamped}")
    return table[clamped]


def add_attribute_progress(
    value: int, progress: int, points: int = 1, table: Mapping[int, int] = SEED_ATTRIBUTE_PROGRESS
) -> tuple[int, int]:
    """H-XP-3: an attribute and its progress after ``points`` more progress.

    Each point of ability training adds one; on reaching the requirement for the next
    value the attribute rises by one and its progress returns to zero.

    >>> add_attribute_progress(0, 5)  # 6 needed for 1
    (1, 0)
    >>> add_attribute_progress(-1, 0, points=4)  # 4 needed for 0
    (0, 0)
    >>> add_attribute_progress(2, 3, points=2)
    (2, 5)
    """
    if points < 0 or progress < 0:
        raise ValueError("attribute progress only grows")
    for _ in range(points):
        progress += 1
        if progress >= attribute_progress_required(value + 1, table):
            value, progress = value + 1, 0
    return value, progress
