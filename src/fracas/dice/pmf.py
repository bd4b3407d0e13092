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
from math import comb

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


def difference(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """Distribution of ``x - y`` for independent ``x ~ a`` and ``y ~ b``: the margin."""
    out: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x - y] = out.get(x - y, Fraction(0)) + px * py
    return dict(sorted(out.items()))


def mean(pmf: Mapping[int, Fraction]) -> Fraction:
    """Expected value.

    >>> mean({1: Fraction(1, 2), 2: Fraction(1, 2)})
    Fraction(3, 2)
    """
    return sum((Fraction(x) * p for x, p in pmf.items()), Fraction(0))


def at_least(pmf: Mapping[int, Fraction], target: int) -> Fraction:
    """P(outcome >= target): the chance to meet a challenge requirement."""
    return sum((p for x, p in pmf.items() if x >= target), Fraction(0))
