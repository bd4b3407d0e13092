"""Every run's own random stream, for all runs at once: NumPy's ``PCG64`` in array form.

A run's uniforms are exactly those of ``numpy.random.Generator(numpy.random.PCG64(seed))``
``.random()`` for its own SeedSequence, so a run's dice do not depend on the other runs
or on how the runs are split into calls. Building one Generator a run costs far more
than the fight it plays (hashing each seed alone is several microseconds of Python), so
the seeding (``SeedSequence.generate_state``, from the seed's entropy pool), the 128-bit
LCG step and the XSL-RR output are done here on arrays of runs, with 64-bit words.

>>> seeds = numpy.random.SeedSequence(7).spawn(3)
>>> streams = Streams(seeds)
>>> mine = streams.uniforms(numpy.arange(3))
>>> theirs = [numpy.random.default_rng(s).random() for s in seeds]
>>> bool((mine == theirs).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy
import numpy.typing as npt

#: Uniforms drawn ahead for each run at the start: enough for most duels.
BUFFER = 32
#: Uniforms drawn again for a run that has read all its buffer (a few runs at a time,
#: late in a batch, when each draw's cost is mostly NumPy's overhead a step).
REFILL = 8

Words = npt.NDArray[numpy.uint64]
Ints = npt.NDArray[numpy.int64]
Floats = npt.NDArray[numpy.float64]

_U64 = numpy.uint64
_LOW32 = _U64(0xFFFFFFFF)
_32, _63, _11, _58, _1 = _U64(32), _U64(63), _U64(11), _U64(58), _U64(1)
# SeedSequence.generate_state (O'Neill's seed_seq): its hash constants
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
# PCG64's 128-bit multiplier, as (high, low) words
_MUL_HIGH, _MUL_LOW = _U64(0x2360ED051FC65DA4), _U64(0x4385DF649FCCF645)
_MUL_LOW_HALVES = (_MUL_LOW & _LOW32, _MUL_LOW >> _32)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


def seed_words(seeds: Sequence[numpy.random.SeedSequence]) -> Words:
    """``seed.generate_state(4, numpy.uint64)`` of every seed, as an (n, 4) array.

    >>> s = numpy.random.SeedSequence(3)
    >>> bool((seed_words([s])[0] == s.generate_state(4, numpy.uint64)).all())
    True
    """
    n = len(seeds)
    plain = [type(s) is numpy.random.SeedSequence and s.pool_size == 4 for s in seeds]
    pools = numpy.zeros((n, 4), dtype=numpy.uint32)
    if n and all(plain):
        pools[:] = [s.pool for s in seeds]
    else:
        for i, s in enumerate(seeds):
            if plain[i]:
                pools[i] = s.pool
    words = numpy.empty((n, 8), dtype=numpy.uint32)
    h = _INIT_B
    for i in range(8):
        v = pools[:, i % 4] ^ numpy.uint32(h)
        h = (h * _MULT_B) & 0xFFFFFFFF
        v *= numpy.uint32(h)
        v ^= v >> numpy.uint32(16)
        words[:, i] = v
    out: Words = words.astype("<u4").view("<u8").astype(numpy.uint64)
    for i, s in enumerate(seeds):
        if not plain[i]:  # any other seed sequence hashes its own way
            out[i] = s.generate_state(4, numpy.uint64)
    return out


def _mul_high(a: Words) -> Words:
    """The high 64 bits of ``a`` times PCG64's low multiplier word."""
    b0, b1 = _MUL_LOW_HALVES
    a0, a1 = a & _LOW32, a >> _32
    p01, p10 = a0 * b1, a1 * b0
    middle = ((a0 * b0) >> _32) + (p01 & _LOW32) + (p10 & _LOW32)
    high: Words = a1 * b1 + (p01 >> _32) + (p10 >> _32) + (middle >> _32)
    return high


def _step(high: Words, low: Words, inc_high: Words, inc_low: Words) -> tuple[Words, Words]:
    """PCG64's LCG step, state * multiplier + increment (mod 2**128)."""
    product = low * _MUL_LOW
    new_low = product + inc_low
    carry = (new_low < product).view(numpy.uint8).astype(numpy.uint64)
    new_high = _mul_high(low) + low * _MUL_HIGH + high * _MUL_LOW + inc_high + carry
    return new_high, new_low


class Streams:
    """One PCG64 stream per run, read ahead: :data:`BUFFER` uniforms, then blocks of
    :data:`REFILL` at the end of the run's buffer."""

    def __init__(self, seeds: Sequence[numpy.random.SeedSequence]) -> None:
        n = len(seeds)
        words = seed_words(seeds)
        # PCG64 seeding (pcg64_set_seed): inc = 2 * words[2:4] + 1, then two steps with
        # words[0:2] added to the state between them
        self.inc_high = (words[:, 2] << _1) | (words[:, 3] >> _63)
        self.inc_low = (words[:, 3] << _1) | _1
        zero = numpy.zeros(n, dtype=numpy.uint64)
        high, low = _step(zero, zero, self.inc_high, self.inc_low)
        new_low = low + words[:, 1]
        high = high + words[:, 0] + (new_low < low).astype(numpy.uint64)
        self.high, self.low = _step(high, new_low, self.inc_high, self.inc_low)
        self.buffer = self._draw(numpy.arange(n), BUFFER)
        self.next = numpy.zeros(n, dtype=numpy.int64)

    def _draw(self, runs: Ints, k: int) -> Floats:
        """The next ``k`` uniforms of each of ``runs``, as ``Generator.random`` gives them
        (XSL-RR output, its top 53 bits)."""
        high, low = self.high[runs], self.low[runs]
        inc_high, inc_low = self.inc_high[runs], self.inc_low[runs]
        out = numpy.empty((k, runs.size), dtype=numpy.uint64)
        for j in range(k):
            high, low = _step(high, low, inc_high, inc_low)
            x = high ^ low
            turn = high >> _58
            out[j] = (x >> turn) | (x << ((-turn) & _63))
        self.high[runs], self.low[runs] = high, low
        return (numpy.ascontiguousarray(out.T) >> _11).astype(numpy.float64) * _TO_UNIT

    def uniforms(self, runs: Ints) -> Floats:
        """One uniform for each of ``runs`` (distinct run indexes)."""
        at = self.next[runs]
        spent = at >= BUFFER
        if spent.any():
            again = runs[spent]
            self.buffer[again, BUFFER - REFILL :] = self._draw(again, REFILL)
            self.next[again] = BUFFER - REFILL
            at = self.next[runs]
        self.next[runs] = at + 1
        return self.buffer.reshape(-1)[runs * BUFFER + at]  # type: ignore[no-any-return]
