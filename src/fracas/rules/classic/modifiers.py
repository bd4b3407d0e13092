"""Typed modifiers and how they add up (HC-MOD-1).

Bonuses of one type do not stack: the highest applies. Penalties of one type do stack.
A modifier without a type does not stack at all: the highest untyped bonus and the
worst untyped penalty apply (docs/decisions.md). A modifier the rules name as
an exception (the shield's defence bonus, the off-hand weapon's half) always adds.

>>> total([Modifier(7, "e", "sword"), Modifier(5, "e", "dagger"), Modifier(-2, "c", "prone"),
...        Modifier(-5, "c", "blinded"), Modifier(1, "t", "aggressive")])
1
>>> describe([Modifier(7, "e", "sword"), Modifier(-1, "t", "aggressive")])
'+7e sword, -1t aggressive'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Modifier", "describe", "strongest_penalty", "total"]


@dataclass(frozen=True, init=False)
class Modifier:
    """A bonus or penalty of a type (``e``, ``p``, ``t``, ``env``, ``c``, ``m`` or ``None``)."""

    value: int
    type: str | None
    source: str
    stacks: bool = False  # an exception the rules name: always added

    def __init__(self, value: int, type: str | None, source: str, stacks: bool = False) -> None:
        # The fields set at once (a frozen dataclass's own init sets them one by one
        # through object.__setattr__): every roll of a fight makes a few.
        own = self.__dict__
        own["value"] = value
        own["type"] = type
        own["source"] = source
        own["stacks"] = stacks

    def __str__(self) -> str:
        return f"{self.value:+d}{self.type or ''} {self.source}"


def total(modifiers: Iterable[Modifier]) -> int:
    """HC-MOD-1: the sum of the modifiers under the stacking rule."""
    result = 0
    best: dict[str | None, int] = {}  # the highest bonus of each type
    worst_untyped = 0  # the worst penalty without a type
    for m in modifiers:
        value = m.value
        if m.stacks:
            result += value
        elif value > 0:
            if value > best.get(m.type, 0):
                best[m.type] = value
        elif value < 0:
            if m.type is not None:
                result += value  # penalties of one type stack
            elif value < worst_untyped:
                worst_untyped = value
    return result + sum(best.values()) + worst_untyped


def strongest_penalty(modifiers: Iterable[Modifier]) -> list[Modifier]:
    """Only the largest penalty of ``modifiers`` (Armourstacking, HC-DODGE-1)."""
    worst = min(modifiers, key=lambda m: m.value, default=None)
    return [] if worst is None else [worst]


def describe(modifiers: Iterable[Modifier]) -> str:
    return ", ".join(str(m) for m in modifiers if m.value)
