"""An oracle for the odds line: the engine itself, with seeded dice.

:func:`resolve` plays one attack ``n`` times (20,000 by default) from the same position,
each time on a copy of the encounter rolling seeded dice, and counts what happened;
:func:`agree` checks every figure the odds line shows against those counts, in an
interval corrected for the number of comparisons (Bonferroni).

The rules read a roll's result and named parts (its faces are only shown), so the ``n``
plays are memoised on those readings: a trie of the rolls made so far, walked with one
seeded roll of the mechanic the rules asked for at that point, and the engine played once
for each sequence not met before. That is exactly ``n`` seeded plays, at the price of the
distinct ones. Rolls whose purpose the caller marks as irrelevant (initiative, say, with
a single attack declared) roll the same faces in every play, so they do not multiply the
distinct plays.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import sqrt
from statistics import NormalDist
from typing import Any

from hypothesis import HealthCheck, Phase, settings

from fracas.dice import Mechanic, Roll
from fracas.engine import Encounter
from fracas.engine.dicesource import DiceSource
from fracas.engine.odds import AttackOdds

#: Plays a case (the issue: at least 20,000).
PLAYS = 20_000
#: The chance that a correct line is called wrong, over all the comparisons of a run.
FAMILY_ALPHA = 1e-4

Outcome = Mapping[str, Hashable]


def _key(roll: Roll) -> Hashable:
    """What the rules read of a roll: its result and named parts (faces are only shown)."""
    return (roll.result, tuple(sorted(roll.parts.items())))


class _Path(DiceSource):
    """The rolls of ``prefix`` first, then seeded rolls; every roll recorded."""

    def __init__(self, prefix: list[Roll], rng: random.Random, fixed: Callable[[str], bool]):
        super().__init__()
        self.recording = False
        self.prefix = prefix
        self.rng = rng
        self.fixed = fixed
        self.aside = random.Random(0)  # the same faces for the fixed rolls of every play
        self.rolled: list[tuple[Mechanic, Roll]] = []

    def _roll(self, mechanic: Mechanic, purpose: str) -> Roll:
        if self.fixed(purpose):
            return mechanic.roll(self.aside)
        i = len(self.rolled)
        if i < len(self.prefix):
            roll = self.prefix[i]
            assert roll.mechanic == mechanic, f"the engine asked for {mechanic} ({purpose})"
        else:
            roll = mechanic.roll(self.rng)
        self.rolled.append((mechanic, roll))
        return roll


@dataclass
class _Node:
    mechanic: Mechanic | None = None  # what the rules roll next; None at a leaf
    outcome: Outcome | None = None
    children: dict[Hashable, _Node] = field(default_factory=dict)


@dataclass
class Plays:
    """The counted outcomes of ``n`` plays, and how many distinct plays the engine made."""

    n: int
    counts: Counter[tuple[tuple[str, Hashable], ...]]
    distinct: int

    def count(self, test: Callable[[Outcome], bool]) -> int:
        """How many plays ``test`` holds for."""
        return sum(k for o, k in self.counts.items() if test(dict(o)))


def resolve(
    encounter: Encounter[Any],
    play: Callable[[Encounter[Any]], Outcome],
    n: int = PLAYS,
    seed: int = 0,
    fixed: Callable[[str], bool] = lambda purpose: False,
) -> Plays:
    """Play ``play`` (pushing the attack, and whatever resolves it, on the copy it is given;
    returning what happened) ``n`` times on copies of ``encounter`` with seeded dice.

    The plays are memoised on the rolls' readings: a trie of the rolls made so far, walked
    with one seeded roll a level, and the engine played once for each sequence not met
    before. Rolls ``fixed`` picks by purpose roll the same faces in every play."""
    root = _Node()
    rng = random.Random(seed)
    counts: Counter[tuple[tuple[str, Hashable], ...]] = Counter()
    distinct = 0
    for _ in range(n):
        node, path = root, []
        while node.outcome is None and node.mechanic is not None:
            roll = node.mechanic.roll(rng)
            path.append(roll)
            child = node.children.get(_key(roll))
            if child is None:
                break
            node = child
        if node.outcome is None:  # a sequence of rolls not met before: play it
            source = _Path(path, rng, fixed)
            outcome = dict(play(encounter.copy(stack=False, dice=source, playout=True)))
            distinct += 1
            node = root
            for mechanic, roll in source.rolled:
                node.mechanic = mechanic
                node = node.children.setdefault(_key(roll), _Node())
            node.outcome = outcome
        assert node.outcome is not None
        counts[tuple(sorted(node.outcome.items()))] += 1
    return Plays(n, counts, distinct)


def figures(line: AttackOdds, extra: Mapping[str, Fraction] | None = None) -> dict[str, Fraction]:
    """Every figure a line shows: the hit, each damage, and the ``extra`` ones (a touch,
    a hold... read from the line by the caller)."""
    out = {"hit": line.hit}
    out.update({f"damage={d}": p for d, p in line.damage})
    out.update(extra or {})
    return out


def observed(plays: Plays, names: Mapping[str, Callable[[Outcome], bool]]) -> dict[str, int]:
    return {name: plays.count(test) for name, test in names.items()}


def disagreements(
    shown: Mapping[str, Fraction], seen: Mapping[str, int], n: int, comparisons: int
) -> list[str]:
    """The figures the plays contradict: a two-sided test of each shown chance (the null
    hypothesis), with continuity correction, at ``FAMILY_ALPHA / comparisons`` each
    (Bonferroni). A chance of 0 or 1 must be seen never or always."""
    z = NormalDist().inv_cdf(1 - FAMILY_ALPHA / (2 * comparisons))
    wrong = []
    for name, p in shown.items():
        k = seen.get(name, 0)
        exact = p in (0, 1)
        if (k != p * n) if exact else abs(k - n * p) - 0.5 > z * sqrt(n * p * (1 - p)):
            wrong.append(f"{name}: shown {float(p):.4f}, the engine {k / n:.4f} ({k}/{n})")
    return wrong


def cases(count: int) -> Any:
    """The Hypothesis settings of an oracle test: ``count`` generated states, derandomized,
    no shrinking (each state costs thousands of engine plays)."""
    return settings(
        max_examples=count,
        derandomize=True,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
