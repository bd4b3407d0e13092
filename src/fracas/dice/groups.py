"""One group of dice with its operators: thrown face by face, and its exact odds.

A group is thrown as a person throws it: all its dice, then the rerolls, then the
explosions round by round (see :func:`throw`). Faces come from a :class:`Source`
(random, typed in by a person, or every branch at once for brute force), so the one
reading serves all three.

Exact odds work per die, then over the pool:

- each operator on one die maps its distribution (``mi``/``ma`` move faces; ``ro``
  replaces the picked faces by a fresh die; ``rr`` by a fresh die among the faces it
  does not pick);
- an explosion adds a chain of fresh dice, at most its depth;
- the pool is a sum of independent dice, or, when it keeps the highest or lowest, an
  order-statistics walk over the faces from the kept end.

Weights are integers over the number of equally likely ways (see :mod:`fracas.dice.pmf`).

>>> from fracas.dice.syntax import read
>>> weights(read("1d6rr1"))
{2: 6, 3: 6, 4: 6, 5: 6, 6: 6}
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from math import comb
from typing import Protocol

from fracas.dice.core import bigint_factor
from fracas.dice.pmf import Weights, power, transform
from fracas.dice.syntax import Group, any_of

#: Rerolls of one die that typed-in faces may show before fracas calls them implausible.
MAX_REROLLS = 1000
#: Cost of one step of the order-statistics walk, in steps (as for keep in ``standard``).
KEEP_STEP = 12


class Source(Protocol):
    """Where faces come from."""

    def face(self, sides: int) -> int:
        """One face of a fresh die."""

    def face_avoiding(self, sides: int, avoid: frozenset[int]) -> int:
        """A fresh die thrown again until it shows none of ``avoid`` (``rr``)."""


@dataclass
class Die:
    """One die of a group as thrown: every face it showed and what it came to."""

    shown: list[int]  # its first face, then each reroll's (mi and ma applied)
    chain: list[int]  # the value it kept, then each explosion's
    kept: bool = True


def throw(group: Group, source: Source) -> list[Die]:
    """Throw ``group`` from ``source`` as a person would: every die once; then each
    operator in turn over the dice in order (a die rerolled until it stops, before the
    next); then the explosions in rounds, each round every die that just exploded."""
    sides, value = group.sides, group.value
    dice = [Die([v], []) for v in (value(source.face(sides)) for _ in range(group.count))]
    for op in group.face_ops:
        for d in dice:
            v = d.shown[-1]
            if op.name == "mi":
                d.shown[-1] = max(v, op.selectors[0].value)
            elif op.name == "ma":
                d.shown[-1] = min(v, op.selectors[0].value)
            elif any_of(op.selectors, v):
                if op.name == "ro":
                    d.shown.append(value(source.face(sides)))
                else:
                    avoid = frozenset(
                        f for f in range(1, sides + 1) if any_of(op.selectors, value(f))
                    )
                    d.shown.append(value(source.face_avoiding(sides, avoid)))
    for d in dice:
        d.chain = [d.shown[-1]]
    if group.explode is not None:
        picks = group.explode.selectors
        going = [d for d in dice if any_of(picks, d.chain[-1])]
        for _ in range(group.explode.depth):
            for d in going:
                d.chain.append(value(source.face(sides)))
            going = [d for d in going if any_of(picks, d.chain[-1])]
    _mark_kept(group, dice)
    return dice


def _mark_kept(group: Group, dice: list[Die]) -> None:
    keep = group.keep
    if keep is None:
        return
    if keep.mode in ("match", "unmatch"):
        for d in dice:
            d.kept = keep.keeps(d.chain[0])
        return
    order = sorted(range(len(dice)), key=lambda i: dice[i].chain[0], reverse=keep.mode == "highest")
    kept = set(order[: keep.n])
    for i, d in enumerate(dice):
        d.kept = i in kept


def worth(group: Group, dice: list[Die]) -> int:
    """The group's value: the sum of the kept dice, or their successes less failures."""
    score: Callable[[int], int] = group.counts if group.target is not None else int
    return sum(score(v) for d in dice if d.kept for v in d.chain)


# --- exact odds ------------------------------------------------------------------------


def die_weights(group: Group) -> Weights:
    """The value of one die after its face operators, over equally likely ways."""
    values = group.values()
    w: Weights = dict.fromkeys(values, 1)
    for op in group.face_ops:
        if op.name in ("mi", "ma"):
            w = transform(w, _clamp(op.name, op.selectors[0].value))
            continue
        picked = sum(n for v, n in w.items() if any_of(op.selectors, v))
        fresh = values if op.name == "ro" else [v for v in values if not any_of(op.selectors, v)]
        scale = len(fresh)
        new: Weights = {v: n * scale for v, n in w.items() if not any_of(op.selectors, v)}
        for v in fresh:
            new[v] = new.get(v, 0) + picked
        w = {v: n for v, n in new.items() if n}
    return w


def _clamp(name: str, bound: int) -> Callable[[int], int]:
    """``mi``: at least ``bound``; ``ma``: at most."""
    if name == "mi":
        return lambda v: max(v, bound)
    return lambda v: min(v, bound)


def _chain(group: Group, first: Weights, score: Callable[[int], int]) -> Weights:
    """One die's worth with its explosions: the first value, then fresh dice while they
    explode, at most the explosion's depth."""
    assert group.explode is not None
    picks, depth, values = group.explode.selectors, group.explode.depth, group.values()
    n = len(values)
    tail: Weights = {}  # a fresh die with no explosion left
    for v in values:
        tail[score(v)] = tail.get(score(v), 0) + 1
    for k in range(1, depth):  # a fresh die with k explosions left
        grown: Weights = {}
        for v in values:
            if any_of(picks, v):
                for x, m in tail.items():
                    grown[x + score(v)] = grown.get(x + score(v), 0) + m
            else:
                grown[score(v)] = grown.get(score(v), 0) + n**k
        tail = grown
    out: Weights = {}
    for v, m in first.items():
        if depth and any_of(picks, v):
            for x, t in tail.items():
                out[x + score(v)] = out.get(x + score(v), 0) + m * t
        else:
            out[score(v)] = out.get(score(v), 0) + m * n**depth
    return out


def _keep_walk(group: Group, die: Weights, score: Callable[[int], int]) -> Weights:
    """The kept dice's worth: faces visited from the kept end, choosing how many of the
    dice not yet placed show each (the order statistics of ``count`` dice)."""
    keep = group.keep
    assert keep is not None
    count = group.count
    faces = sorted(die, reverse=keep.mode == "highest")
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    for i, v in enumerate(faces):
        last = i == len(faces) - 1
        new: dict[tuple[int, int], int] = {}
        for (placed, total), w in states.items():
            rest = count - placed
            room = max(0, keep.n - placed)
            for j in range(rest if last else 0, rest + 1):
                key = (placed + j, total + min(j, room) * score(v))
                new[key] = new.get(key, 0) + w * comb(rest, j) * die[v] ** j
        states = new
    return {total: w for (_, total), w in sorted(states.items(), key=lambda kv: kv[0][1])}


def weights(group: Group) -> Weights:
    """Exact weights of the group's value (:func:`worth`)."""
    score: Callable[[int], int] = group.counts if group.target is not None else int
    die = die_weights(group)
    keep = group.keep
    if keep is not None and keep.mode in ("highest", "lowest"):
        return _keep_walk(group, die, score)
    if group.explode is not None:
        one = _chain(group, die, score)
    elif keep is not None:
        one = transform(die, lambda v: score(v) if keep.keeps(v) else 0)
    else:
        one = transform(die, score)
    return power(one, group.count) if group.count > 1 else one


def span(group: Group) -> int:
    """An upper bound on the number of values one die can be worth."""
    values = group.values()
    reach = group.explode.depth + 1 if group.explode is not None else 1
    width = 3 if group.target is not None else max(values) - min(values) + 1
    return width * reach


def steps(group: Group) -> float:
    """Estimated work of :func:`weights`, in steps (see :data:`fracas.dice.core.MAX_STEPS`)."""
    n, faces, one = group.count, group.sides, span(group)
    work = float(faces * (len(group.face_ops) + 1) * 4)
    if group.explode is not None:
        work += float(group.explode.depth * faces * one)
    if group.keep is not None and group.keep.mode in ("highest", "lowest"):
        # few of the (placed, total) states are reached: about an eighth (measured)
        states = (n + 1) * (group.keep.n * one + 1)
        work += KEEP_STEP * float(faces) * states * (n + 1) / 8
    else:  # squarings of a widening distribution (measured against the keep walk's step)
        work += 6.0 * one * one * n * max(1, n.bit_length())
    return work * bigint_factor(digits(group))


def digits(group: Group) -> float:
    """Decimal digits of the number of ways the group can fall: how big its weights grow."""
    reach = group.explode.depth + 1 if group.explode is not None else 1
    rerolls = 1 + len([op for op in group.face_ops if op.name in ("rr", "ro")])
    return group.count * reach * rerolls * math.log10(max(group.sides, 2))


def outcomes(group: Group) -> int:
    return group.count * (span(group) - 1) + 1
