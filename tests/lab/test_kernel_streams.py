"""The kernel's array PCG64 against NumPy's own Generator, uniform for uniform."""

from __future__ import annotations

import numpy
import pytest

from fracas.rules.heimr.kernel.streams import BUFFER, REFILL, Streams, seed_words


class Wider(numpy.random.SeedSequence):
    """A seed sequence of another kind: the kernel must ask it for its own words."""


SEEDS = [
    *numpy.random.SeedSequence(12345).spawn(300),
    *(numpy.random.SeedSequence(i) for i in range(40)),
    numpy.random.SeedSequence(2**200 + 7, spawn_key=(3, 2**40, 0)),
    numpy.random.SeedSequence([1, 2, 3, 4, 5, 6], pool_size=8),
    Wider(99),
]


def numpy_uniforms(seed: numpy.random.SeedSequence, k: int) -> list[float]:
    return numpy.random.Generator(numpy.random.PCG64(seed)).random(k).tolist()


def test_seed_words_are_generate_states() -> None:
    words = seed_words(SEEDS)
    for row, seed in zip(words, SEEDS, strict=True):
        assert row.tolist() == seed.generate_state(4, numpy.uint64).tolist()


@pytest.mark.parametrize("k", [1, BUFFER, BUFFER + 1, BUFFER + 3 * REFILL + 5])
def test_every_run_reads_its_own_generator_in_order(k: int) -> None:
    streams = Streams(SEEDS)
    runs = numpy.arange(len(SEEDS))
    drawn = numpy.stack([streams.uniforms(runs) for _ in range(k)], axis=1)
    for row, seed in zip(drawn.tolist(), SEEDS, strict=True):
        assert row == numpy_uniforms(seed, k)


def test_runs_read_apart_keep_their_own_places() -> None:
    seeds = numpy.random.SeedSequence(8).spawn(5)
    streams = Streams(seeds)
    got: list[list[float]] = [[] for _ in seeds]
    rng = numpy.random.default_rng(0)
    for _ in range(200):
        runs = numpy.flatnonzero(rng.random(len(seeds)) < 0.4)
        for run, u in zip(runs.tolist(), streams.uniforms(runs).tolist(), strict=True):
            got[run].append(u)
    for drawn, seed in zip(got, seeds, strict=True):
        assert drawn == numpy_uniforms(seed, len(drawn))


def test_no_seeds() -> None:
    assert Streams([]).uniforms(numpy.arange(0)).size == 0
