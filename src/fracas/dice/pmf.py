"""Exact distributions as integer weights, and the few operations the mechanics need.

Weights stay integers (a ``dict`` from outcome to count) while a distribution is
built; :func:`fracas.dice.core.normalize` turns them into ``Fraction``s at the end.

>>> d6 = uniform(6)
>>> convolve(d6, d6)[7], sum(convolve(d6, d6).values())
(6, 36)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from itertools import accumulate
from math import comb, lcm

from fracas.dice.errors import LimitError

Weights = dict[int, int]


def uniform(sides: int) -> Weights:
    """One die: each face once."""
    return dict.fromkeys(range(1, sides + 1), 1)


def convolve(a: Mapping[int, int], b: Mapping[int, int]) -> Weights:
    """The weights of the sum of two independent outcomes."""
    out: Weights = {}
    for x, wx in a.items():
        for y, wy in b.items():
            out[x + y] = out.get(x + y, 0) + wx * wy
    return out


def power(a: Mapping[int, int], n: int) -> Weights:
    """The sum of ``n`` independent copies, by repeated squaring."""
    result: Weights = {0: 1}
    base = dict(a)
    while n:
        if n & 1:
            result = convolve(result, base)
        n >>= 1
        if n:
            base = convolve(base, base)
    return result


def uniform_sum(count: int, sides: int) -> Weights:
    """The sum of ``count`` d``sides``, adding one die at a time by running sums.

    Each die costs one pass over the distribution so far, whatever its sides; tested
    against :func:`power` and brute force.

    >>> uniform_sum(2, 6) == power(uniform(6), 2)
    True
    """
    w = [1]  # w[i] is the weight of the sum count_so_far + i
    for _ in range(count):
        prefix = [0, *accumulate(w)]
        last = len(w)
        w = [
            prefix[min(j + 1, last)] - prefix[max(0, j - sides + 1)]
            for j in range(last + sides - 1)
        ]
    return {count + i: x for i, x in enumerate(w)}


def transform(a: Mapping[int, int], f: Callable[[int], int]) -> Weights:
    """Weights of ``f(outcome)``."""
    out: Weights = {}
    for x, w in a.items():
        y = f(x)
        out[y] = out.get(y, 0) + w
    return out


def best_of_two(a: Mapping[int, int], highest: bool) -> Weights:
    """Two independent copies, keeping the higher (or lower): advantage and disadvantage.

    >>> best_of_two({1: 1, 2: 1}, highest=True)
    {1: 1, 2: 3}
    """
    keys = sorted(a, reverse=not highest)
    out: Weights = {}
    below = 0  # weight of outcomes strictly worse than x
    for x in keys:
        w = a[x]
        out[x] = w * w + 2 * w * below
        below += w
    return dict(sorted(out.items()))


def keep_weights(count: int, sides: int, keep: int, highest: bool) -> Weights:
    """Weights of the sum of the ``keep`` highest (or lowest) of ``count`` d``sides``.

    Faces are visited from the kept end; at each face we choose how many of the
    dice not yet placed show it. Tested against brute force in both orders.

    >>> keep_weights(2, 6, 1, highest=True) == best_of_two(uniform(6), highest=True)
    True
    """
    keep = min(keep, count)
    faces = range(sides, 0, -1) if highest else range(1, sides + 1)
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    last = faces[-1]
    for v in faces:
        new: dict[tuple[int, int], int] = {}
        for (placed, total), w in states.items():
            rest = count - placed
            for j in range(rest if v == last else 0, rest + 1):
                kept = min(j, max(0, keep - placed))
                key = (placed + j, total + kept * v)
                new[key] = new.get(key, 0) + w * comb(rest, j)
        states = new
    return {total: w for (placed, total), w in sorted(states.items(), key=lambda kv: kv[0][1])}


def as_weights(pmf: Mapping[int, Fraction]) -> tuple[Weights, int]:
    """Integer weights over the common denominator of ``pmf``, and that denominator.

    >>> as_weights({1: Fraction(1, 2), 2: Fraction(1, 3)})
    ({1: 3, 2: 2}, 6)
    """
    den = lcm(*(p.denominator for p in pmf.values())) if pmf else 1
    return {x: p.numerator * (den // p.denominator) for x, p in pmf.items()}, den


def difference(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """Distribution of ``x - y`` for independent ``x ~ a`` and ``y ~ b``: the margin.

    Worked in integer weights over a common denominator, which is exact and many times
    faster than multiplying ``Fraction``s.

    >>> difference({1: Fraction(1, 2), 2: Fraction(1, 2)}, {1: Fraction(1)})
    {0: Fraction(1, 2), 1: Fraction(1, 2)}
    """
    wa, da = as_weights(a)
    wb, db = as_weights(b)
    out: Weights = {}
    for x, px in wa.items():
        for y, py in wb.items():
            out[x - y] = out.get(x - y, 0) + px * py
    total = da * db
    return {k: Fraction(w, total) for k, w in sorted(out.items())}


def mean(pmf: Mapping[int, Fraction]) -> Fraction:
    """Expected value (worked in integer weights, so one division at the end).

    >>> mean({1: Fraction(1, 2), 2: Fraction(1, 2)})
    Fraction(3, 2)
    """
    w, den = as_weights(pmf)
    return Fraction(sum(x * wx for x, wx in w.items()), den)


def as_float(x: Fraction | float, what: str = "the number") -> float:
    """``x`` as a float; :class:`LimitError` instead of ``OverflowError`` when too large.

    >>> as_float(Fraction(1, 4))
    0.25
    >>> as_float(10**400, "the mean")
    Traceback (most recent call last):
    ...
    fracas.dice.errors.LimitError: the mean is too large to show as a decimal
    """
    try:
        return float(x)
    except OverflowError:
        raise LimitError(f"{what} is too large to show as a decimal") from None


def at_least(pmf: Mapping[int, Fraction], target: int) -> Fraction:
    """P(outcome >= target): the chance to meet a challenge requirement."""
    return sum((p for x, p in pmf.items() if x >= target), Fraction(0))
