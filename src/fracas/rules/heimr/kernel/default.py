"""What :class:`fracas.rules.heimr.policies.DefaultPolicy` weighs, as tables the kernel reads.

In a fight where nobody moves (everyone in one square) the default policy's turn comes
down to a few numbers: the best defence stance it may take, whether to take a breather
(its ``_needs_breather``), and the attack likeliest to hit (its ``hit_chance``, its aim
the actor's last attack challenge). The tables below hold those numbers for every
consistency and threshold a setup can reach, from the policy's own numbers
(:mod:`fracas.rules.heimr.weighing`).

>>> odds = Odds(lo=0, hi=3, max_fatigue=8)
>>> odds.hit(numpy.array([2, 2]), numpy.array([10, 12])).tolist()  # C2: a raw 10 or more
[0.19, 0.0]
>>> odds.breather(numpy.array([0, 0]), numpy.array([2, 7]), numpy.array([False, False])).tolist()
[False, True]
"""

from __future__ import annotations

import numpy
import numpy.typing as npt

from fracas.rules.heimr.kernel.dice import MAX_CONSISTENCY
from fracas.rules.heimr.weighing import DEFAULT_CHALLENGE, hit_chance, needs_breather, raw_results

#: The name of the policy these tables mirror.
NAME = "default"
Ints = npt.NDArray[numpy.int64]
Bools = npt.NDArray[numpy.bool_]
Floats = npt.NDArray[numpy.float64]


def at_least(consistency: int, threshold: int) -> float:
    """The chance of a result before potential of ``threshold`` or more: the policy's
    ``hit_chance`` where a fatigue or a defence asks for that much.

    >>> round(at_least(0, 5), 3), at_least(0, 7)  # C0: a d6
    (0.333, 0.0)
    """
    return hit_chance(consistency, 0, threshold, None)


class Odds:
    """The default policy's numbers for attack challenges C``lo``..C``hi`` (clamped to
    the dice tables) and fatigue up to ``max_fatigue``."""

    def __init__(self, lo: int, hi: int, max_fatigue: int) -> None:
        self.lo = max(-MAX_CONSISTENCY, min(lo, DEFAULT_CHALLENGE[0]))
        self.hi = min(MAX_CONSISTENCY, max(hi, DEFAULT_CHALLENGE[0]))
        rows = range(self.lo, self.hi + 1)
        raws = [raw for c in rows for raw, _ in raw_results(c)]
        # hit[c, t]: the chance of a raw result of t or more (not failing outright on a
        # fatigue of t, nor below a defence of t + potential - 1): 1 at the lowest, 0 past
        # the highest
        self.t_lo, t_hi = min(raws), max(raws) + 1
        self.table = numpy.array(
            [[at_least(c, t) for t in range(self.t_lo, t_hi + 1)] for c in rows]
        )
        self.max_fatigue = max_fatigue
        self.needs = numpy.array(
            [
                [[_breathes(c, f, breathed) for f in range(max_fatigue + 1)] for c in rows]
                for breathed in (False, True)
            ]
        )

    def row(self, c: Ints) -> Ints:
        return numpy.clip(c, self.lo, self.hi) - self.lo

    def hit(self, c: Ints, threshold: Ints) -> Floats:
        """``hit_chance`` of challenges ``c`` needing a raw result of ``threshold``."""
        t = numpy.clip(threshold - self.t_lo, 0, self.table.shape[1] - 1)
        found: Floats = self.table[self.row(c), t]
        return found

    def breather(self, c: Ints, fatigue: Ints, breathed: Bools) -> Bools:
        """``_needs_breather`` of an aim of consistency ``c``."""
        f = numpy.clip(fatigue, 0, self.max_fatigue)
        found: Bools = self.needs[breathed.astype(numpy.int64), self.row(c), f]
        return found


def _breathes(consistency: int, fatigue: int, breathed: bool) -> bool:
    return needs_breather(consistency, fatigue, lambda: breathed)


def nth_true(mask: Bools, k: Ints) -> Ints:
    """The column of the ``k``-th (from 0) true entry of each row of ``mask``.

    >>> mask = numpy.array([[True, False, True], [False, True, True]])
    >>> nth_true(mask, numpy.array([1, 0])).tolist()
    [2, 1]
    """
    return numpy.argmax(numpy.cumsum(mask, axis=1) > k[:, None], axis=1)  # type: ignore[no-any-return]
