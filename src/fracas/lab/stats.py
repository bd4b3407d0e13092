"""Statistics of simulated encounters: Wilson score intervals, quantiles, summaries.

The Wilson interval for a proportion (Wilson 1927) stays inside [0, 1] and behaves
well for few runs and for rates near 0 or 1, unlike the normal approximation:

>>> low, high = wilson(50, 100)
>>> round(low, 4), round(high, 4)
(0.4038, 0.5962)
>>> wilson(0, 10)[0], round(wilson(0, 10)[1], 4)
(0.0, 0.2775)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy

from fracas.lab.playout import Outcome

#: The two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
DIGITS = 6


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` in ``n`` trials (``z``: 95% by default).

    centre = (p + z²/2n) / (1 + z²/n), half width = z·√(p(1-p)/n + z²/4n²) / (1 + z²/n).
    """
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes in {n} trials is not a proportion")
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    # Exact ends: at p = 0 (or 1) the lower (upper) bound is 0 (1), not a rounding error.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def _r(x: float) -> float:
    return round(float(x), DIGITS)


def spread(values: Sequence[float] | Iterable[float]) -> dict[str, Any]:
    """Mean, minimum, maximum and the 5, 25, 50, 75 and 95% quantiles of ``values``."""
    data = numpy.asarray(list(values), dtype=float)
    if data.size == 0:
        return {"mean": None, "min": None, "max": None, "quantiles": {}}
    qs = numpy.quantile(data, QUANTILES)
    return {
        "mean": _r(data.mean()),
        "min": _r(data.min()),
        "max": _r(data.max()),
        "quantiles": {f"{round(q * 100)}%": _r(v) for q, v in zip(QUANTILES, qs, strict=True)},
    }


def summarise(outcomes: Sequence[Outcome], sides: Sequence[str]) -> dict[str, Any]:
    """Win rate per side with Wilson 95% intervals, draws and capped runs, rounds and
    actions to finish, and each combatant's hit points and injuries at the end."""
    n = len(outcomes)
    wins = {side: sum(1 for o in outcomes if o.winner == side) for side in sides}
    per_side = {}
    for side in sides:
        low, high = wilson(wins[side], n)
        per_side[side] = {
            "wins": wins[side],
            "win_rate": _r(wins[side] / n) if n else None,
            "ci95": [_r(low), _r(high)],
        }
    finished = [o for o in outcomes if not o.capped]
    people = sorted({cid for o in outcomes for cid in o.hp_left})
    return {
        "runs": n,
        "sides": per_side,
        "draws": sum(1 for o in outcomes if o.winner is None and not o.capped),
        "capped": sum(1 for o in outcomes if o.capped),
        "rounds": spread(o.rounds for o in finished),
        "actions": spread(o.actions for o in outcomes),
        "combatants": {
            cid: {
                "hp_left": spread(o.hp_left[cid] for o in outcomes if cid in o.hp_left),
                "injuries": spread(o.injuries.get(cid, 0) for o in outcomes),
            }
            for cid in people
        },
    }


__all__ = ["QUANTILES", "Z95", "spread", "summarise", "wilson"]
