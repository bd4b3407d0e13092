"""The dice of the kernel: every Heimr challenge C-40..C40 as one table of (raw, d6).

A challenge is drawn in one uniform from the exact joint distribution of (result before
potential, d6) of :meth:`fracas.dice.HeimrChallenge.joint` (H-DICE-1..3).
"""

from __future__ import annotations

import numpy
import numpy.typing as npt

from fracas.dice.heimr import HeimrChallenge

#: The largest |consistency| the kernel's tables cover.
MAX_CONSISTENCY = 40
#: Bins a unit of the dice table's guide (a power of two, so a uniform's bin is exact).
GUIDE = 4096

Ints = npt.NDArray[numpy.int64]


class ChallengeTable:
    """Heimr challenges C-40..C40 as one sorted table: a uniform picks (raw, d6) exactly
    as often as :meth:`HeimrChallenge.joint` says (H-DICE-1..3)."""

    def __init__(self) -> None:
        keys: list[float] = []
        raws: list[int] = []
        d6s: list[int] = []
        for c in range(-MAX_CONSISTENCY, MAX_CONSISTENCY + 1):
            row = c + MAX_CONSISTENCY
            joint = HeimrChallenge(c).joint()
            total = 0
            denominator = 6 * 10 ** abs(c)
            for (raw, d6), p in joint.items():
                total += p.numerator * (denominator // p.denominator)
                keys.append(row + total / denominator)
                raws.append(raw)
                d6s.append(d6)
            keys[-1] = row + 1.0
        self.keys = numpy.array(keys)
        self.raw = numpy.array(raws)
        self.d6 = numpy.array(d6s)
        # A guide to the search: the keys below the start of each of GUIDE bins a unit,
        # whether a bin holds more than one key (rare: those draws are searched).
        starts = numpy.arange((2 * MAX_CONSISTENCY + 1) * GUIDE + 1) / GUIDE
        self.first = numpy.searchsorted(self.keys, starts, side="left")
        ends = numpy.searchsorted(self.keys, starts + 1 / GUIDE, side="left")
        self.crowded = ends - self.first > 1
        self.padded = numpy.append(self.keys, numpy.inf)

    def draw(self, consistency: Ints, u: npt.NDArray[numpy.float64]) -> tuple[Ints, Ints]:
        """(raw, d6) for each consistency and uniform in [0, 1)."""
        # numpy.clip's own overhead is more than this for a few thousand draws
        row = numpy.minimum(numpy.maximum(consistency, -MAX_CONSISTENCY), MAX_CONSISTENCY)
        row += MAX_CONSISTENCY
        v = row + u
        # the keys at or below v: those below its bin's start, and the bin's own key
        b = (v * GUIDE).astype(numpy.int64)
        first = self.first[b]
        at = first + (self.padded[first] <= v)
        crowded = self.crowded[b]
        if crowded.any():
            at[crowded] = numpy.searchsorted(self.keys, v[crowded], side="right")
        return self.raw[at], self.d6[at]


_TABLE: ChallengeTable | None = None


def challenge_table() -> ChallengeTable:
    global _TABLE
    if _TABLE is None:
        _TABLE = ChallengeTable()
    return _TABLE
