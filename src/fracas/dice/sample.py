"""Monte-Carlo estimates: a mechanic rolled many times from an injected random source.

Where exact odds are refused (:class:`~fracas.dice.errors.LimitError`), an estimate
still answers. Each chance comes with a Wilson 95% interval.

>>> import random
>>> from fracas.dice import parse
>>> est = estimate(parse("standard", "d6 vs d6"), 1000, random.Random(1))
>>> est.rolls, sum(est.counts.values())
(1000, 1000)
>>> low, high = est.interval(est.successes)
>>> low < 15 / 36 < high
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from fracas.dice.core import Mechanic, Rng
from fracas.dice.errors import LimitError, quote

#: Most rolls in one estimate, and most steps in all (a roll costs a step per die thrown
#: and 8 more; measured in docs/reliability.md).
MAX_ROLLS = 1_000_000
MAX_SAMPLE_STEPS = 6_000_000
#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a chance seen ``k`` times in ``n`` trials.

    >>> [round(x, 4) for x in wilson(0, 10)], [round(x, 4) for x in wilson(5, 10)]
    ([0.0, 0.2775], [0.2366, 0.7634])
    """
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    low = 0.0 if k <= 0 else max(0.0, centre - half)
    high = 1.0 if k >= n else min(1.0, centre + half)
    return low, high


def roll_steps(mechanic: Mechanic) -> int:
    """The estimated cost of one roll of ``mechanic`` (a tempo pool is re-rolled rarely)."""
    return len(mechanic.dice()) + 8


def most_rolls(mechanic: Mechanic) -> int:
    """The most rolls one estimate of ``mechanic`` may take."""
    return max(1, min(MAX_ROLLS, MAX_SAMPLE_STEPS // roll_steps(mechanic)))


def check_sample(mechanic: Mechanic, rolls: int) -> None:
    """Raise :class:`LimitError` unless ``rolls`` rolls of ``mechanic`` are a reasonable ask."""
    if not 1 <= rolls <= MAX_ROLLS:
        raise LimitError(f"an estimate takes 1 to {MAX_ROLLS:,} rolls, not {rolls:,}")
    steps = rolls * roll_steps(mechanic)
    if steps > MAX_SAMPLE_STEPS:
        raise LimitError(
            f"{rolls:,} rolls of {quote(mechanic.notation())} take about {steps:,} steps; the "
            f"limit is {MAX_SAMPLE_STEPS:,}: take at most {most_rolls(mechanic):,} rolls"
        )


@dataclass(frozen=True)
class Estimate:
    """How often each result came up in ``rolls`` rolls, and how often the roll succeeded
    (for opposed rolls and checks; ``None`` when the mechanic has no success)."""

    counts: dict[int, int]
    rolls: int
    successes: int | None

    def chance(self, count: int) -> float:
        return count / self.rolls

    def interval(self, count: int | None) -> tuple[float, float]:
        """The Wilson 95% interval of a chance seen ``count`` times."""
        return wilson(count or 0, self.rolls)

    def mean(self) -> float:
        return sum(v * c for v, c in self.counts.items()) / self.rolls


def estimate(mechanic: Mechanic, rolls: int, rng: Rng) -> Estimate:
    """Roll ``mechanic`` ``rolls`` times with ``rng`` and count the results."""
    check_sample(mechanic, rolls)
    counts: dict[int, int] = {}
    successes = 0
    has_success = False
    roll = mechanic.roll
    for _ in range(rolls):
        r = roll(rng)
        counts[r.result] = counts.get(r.result, 0) + 1
        success = r.parts.get("success")
        if success is not None:
            has_success = True
            successes += success
    return Estimate(dict(sorted(counts.items())), rolls, successes if has_success else None)
