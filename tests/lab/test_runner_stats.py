"""Statistics of simulations: the Wilson interval against known values and an oracle."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.lab.playout import Outcome
from fracas.lab.stats import spread, summarise, wilson


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Values as published for the Wilson score interval at 95%.
        (50, 100, 0.4038, 0.5962),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 10, 0.0179, 0.4042),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_known_values(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert got == pytest.approx((low, high), abs=5e-5)


@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_matches_scipy_and_holds_the_rate(kn: tuple[int, int]) -> None:
    from scipy.stats import binomtest  # here: ~0.8 s to import, for this test alone

    k, n = kn
    low, high = wilson(k, n)
    oracle = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert (low, high) == pytest.approx((oracle.low, oracle.high), abs=1e-9)
    assert 0.0 <= low <= k / n <= high <= 1.0


def test_wilson_refuses_what_is_no_proportion() -> None:
    with pytest.raises(ValueError, match="not a proportion"):
        wilson(11, 10)
    assert wilson(0, 0) == (0.0, 1.0)


def test_spread_gives_mean_and_quantiles() -> None:
    got = spread([1, 2, 3, 4, 5])
    assert got["mean"] == 3.0
    assert (got["min"], got["max"]) == (1.0, 5.0)
    assert got["quantiles"]["50%"] == 3.0
    assert spread([])["mean"] is None


def outcome(winner: str | None, rounds: int, capped: bool = False) -> Outcome:
    return Outcome(winner, rounds, {"a": 3, "b": -1}, {"a": 0, "b": 2}, rounds * 4, capped)


def test_summary_counts_wins_draws_and_capped_runs() -> None:
    runs = [outcome("north", 3), outcome("north", 5), outcome("south", 4), outcome(None, 9)]
    runs.append(outcome(None, 99, capped=True))
    got = summarise(runs, ["north", "south"])
    assert got["runs"] == 5
    assert got["sides"]["north"]["wins"] == 2
    assert got["sides"]["north"]["win_rate"] == 0.4
    assert got["sides"]["north"]["ci95"] == [round(x, 6) for x in wilson(2, 5)]
    assert (got["draws"], got["capped"]) == (1, 1)
    assert got["rounds"]["max"] == 9.0  # capped runs never finished
    assert got["combatants"]["b"]["injuries"]["mean"] == 2.0
