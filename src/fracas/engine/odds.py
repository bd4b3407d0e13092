"""What every ruleset's odds are made of (a ruleset's odds capability, see
:mod:`fracas.engine.capabilities`): :class:`AttackOdds` (one line of odds), :class:`NoOdds`
(an attack with no odds to show, and why) and :class:`Probe`, the dice source that records
what the rules would roll without deciding anything."""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import NoReturn

from fracas.dice import Mechanic, Roll
from fracas.engine.dicesource import DiceSource

__all__ = ["AttackOdds", "NoOdds", "Probe", "Words", "best_choice", "choose", "spread", "vs_groups"]


@dataclass(frozen=True)
class AttackOdds:
    """An attack's exact chance to hit and its damage distribution (damage: chance).

    ``defence`` names the defence this line is for, when the defender chooses one at
    resolution; then ``choices`` holds one line per defence it may choose (this line
    among them: the defender's best, ``best``). ``command`` is the ``fracas odds``
    command that works out the same line from its numbers. ``figures`` holds the other
    chances the line shows in its note (a touch, a partial or a full hold...), by name."""

    action: str
    challenge: str
    against: str
    modifiers: tuple[str, ...]
    hit: Fraction
    damage: tuple[tuple[int, Fraction], ...]
    note: str | None = None
    defence: str | None = None
    best: bool = False
    choices: tuple[AttackOdds, ...] = ()
    command: str | None = None
    figures: tuple[tuple[str, Fraction], ...] = ()

    @property
    def percent(self) -> str:
        return f"{float(self.hit) * 100:.1f}%"

    @property
    def expected_damage(self) -> Fraction:
        return sum((d * p for d, p in self.damage), Fraction(0))

    @property
    def lines(self) -> tuple[AttackOdds, ...]:
        """The lines to show: one per defence the defender may choose, or this one."""
        return self.choices or (self,)


@dataclass(frozen=True)
class NoOdds:
    """An attack whose odds are not shown, and the honest reason."""

    action: str
    why: str


def spread(
    hit: Mapping[int, Fraction], miss: Fraction = Fraction(0)
) -> tuple[tuple[int, Fraction], ...]:
    """Damage and chance, sorted, without impossible lines; a miss deals 0.

    >>> spread({3: Fraction(1, 4)}, Fraction(3, 4))
    ((0, Fraction(3, 4)), (3, Fraction(1, 4)))
    """
    out: dict[int, Fraction] = {0: miss}
    for d, p in hit.items():
        out[d] = out.get(d, Fraction(0)) + p
    return tuple((d, p) for d, p in sorted(out.items()) if p)


def best_choice(lines: Iterable[AttackOdds]) -> AttackOdds:
    """The defender's best line: the least expected damage, then the least chance to be
    hit, then the first offered (docs/decisions.md, "The defender's best defence")."""
    ranked = list(lines)
    return min(ranked, key=lambda o: (o.expected_damage, o.hit, ranked.index(o)))


class Probe(DiceSource):
    """Dice that remember every mechanic asked for, in order, and roll it at random (the
    encounter they roll for is a throwaway copy: only the mechanics matter)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[tuple[Mechanic, str]] = []
        self._rng = random.Random(0)

    def _roll(self, mechanic: Mechanic, purpose: str) -> Roll:
        self.asked.append((mechanic, purpose))
        return mechanic.roll(self._rng)


def choose(lines: list[AttackOdds]) -> list[AttackOdds]:
    """The lines with the defender's best marked, when it has a choice."""
    if len(lines) < 2:
        return lines
    best = best_choice(lines)
    return [replace(x, best=x is best) for x in lines]


class Words(argparse.ArgumentParser):
    """The words of ``fracas odds RULESET attack ...``: a mistake is a :class:`ValueError`
    ending with the usage, never an exit."""

    def __init__(self, prog: str, usage: str) -> None:
        super().__init__(prog=prog, add_help=False)
        self.usage_text = usage
        self.add_argument("words", nargs="*")

    def error(self, message: str) -> NoReturn:
        raise ValueError(f"{message} ({self.usage_text})")


def vs_groups(words: Sequence[str]) -> list[list[str]]:
    """The words split at each ``vs``: the attack first, then one group a defence.

    >>> vs_groups(["d8", "vs", "block", "d6"])
    [['d8'], ['block', 'd6']]
    """
    out: list[list[str]] = [[]]
    for w in words:
        if w.lower() == "vs":
            out.append([])
        else:
            out[-1].append(w)
    return out
