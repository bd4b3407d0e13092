"""The sides kernel against the engine, with dice of their own: for each example (and one
build with surprise), the kernel's win rates fall inside the engine's 99% Wilson
intervals and its mean rounds inside the engine's 99% interval of the mean.

The engine plays through the lab's own runner (``run_batch``: the default policies on the
side's view, the game master's policy), as ``fracas sim --engine engine`` does.
"""

from __future__ import annotations

from dataclasses import replace
from math import sqrt
from typing import Any

import numpy
import pytest

from fracas.lab import runner
from fracas.lab.playout import Outcome

from sides_builders import EXAMPLES, builds

ENGINE_RUNS = 300
KERNEL_RUNS = 10_000
#: Two-sided 99% normal quantile.
Z99 = 2.5758
CASES = [
    *EXAMPLES,
    "ambush, the party surprised",
    "a rider with two axes against a spear and a far archer",
]


def wilson(wins: int, n: int, z: float = Z99) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def both(setup: dict[str, Any]) -> tuple[list[Outcome], list[Outcome]]:
    spec = runner.make_spec("sides", setup, {}, engine="auto")
    assert spec.engine == "kernel"
    engine = runner.run_batch(replace(spec, engine="engine"), runner.seeds(101, ENGINE_RUNS))
    return engine, runner.run_batch(spec, runner.seeds(202, KERNEL_RUNS))


@pytest.mark.rule("S-ROUND-1", "S-MELEE-1", "S-ATK-1", "S-ATK-2", "S-DMG-1", "S-HP-1")
@pytest.mark.parametrize("name", CASES)
def test_the_kernel_agrees_with_the_engine(name: str) -> None:
    engine, kernel = both(builds()[name])
    assert not any(o.capped for o in engine + kernel)
    for side in {o.winner for o in engine + kernel}:
        low, high = wilson(sum(o.winner == side for o in engine), len(engine))
        rate = sum(o.winner == side for o in kernel) / len(kernel)
        assert low <= rate <= high, (side, rate, low, high)
    rounds = numpy.array([o.rounds for o in engine], dtype=float)
    spread = Z99 * rounds.std(ddof=1) / sqrt(len(rounds))
    mean = numpy.mean([o.rounds for o in kernel])
    assert abs(mean - rounds.mean()) <= spread, (mean, rounds.mean(), spread)
