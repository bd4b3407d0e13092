"""What Heimr's default policy weighs, worked out exactly from the challenge's dice: the
chance that a roll fails outright on fatigue (H-FAT-1), the chance that an attack beats a
pre-rolled defence (H-ATK-4), and when a breather is worth its turn (H-FAT-3); and the
items it takes for ammunition, never drawn to fight with.

:mod:`fracas.rules.heimr.policies` decides with these one choice at a time;
:mod:`fracas.rules.heimr.kernel` reads them as tables for many runs at once.

>>> round(fails_outright(0, 3), 3), hit_chance(0, 0, 1, 3)
(0.333, 0.5)
>>> needs_breather(0, 5, lambda: False), needs_breather(0, 5, lambda: True)
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

from fracas.dice.heimr import HeimrChallenge

#: The attack challenge assumed until the log shows the fighter's own (C2P2: a trained
#: fighter of the seed's examples).
DEFAULT_CHALLENGE = (2, 2)
#: A breather is worth its turn when fatigue fails this share of attacks outright...
BREATHER_FAIL = 0.25
#: ... and lowering fatigue by 2 would save at least this share.
BREATHER_GAIN = 0.1
#: ... or when it fails this share whatever one breather saves (many are needed).
HOPELESS = 0.9
#: H-FAT-3: base fatigue is max(1, 4 - sta), at most 5 for the lowest stamina, -1.
HIGHEST_BASE_FATIGUE = 5
#: Words that make an item ammunition to the policy: drawn to fight with, it is a weapon.
AMMUNITION = ("arrow", "bolt", "quiver", "shot")


def ammunition_named(name: str) -> bool:
    """Whether the policy takes an item called ``name`` for ammunition (never drawn to
    fight with).

    >>> ammunition_named("quiver of arrows"), ammunition_named("Axe")
    (True, False)
    """
    lowered = name.lower()
    return any(word in lowered for word in AMMUNITION)


@lru_cache(maxsize=256)
def raw_results(consistency: int) -> tuple[tuple[int, Fraction], ...]:
    """The exact distribution of a challenge's result before potential (the dice
    layer's joint distribution with the d6, summed over the d6), once per consistency."""
    found: dict[int, Fraction] = {}
    for (raw, _), p in HeimrChallenge(consistency, 0).joint().items():
        found[raw] = found.get(raw, Fraction(0)) + p
    return tuple(sorted(found.items()))


@lru_cache(maxsize=4096)
def fails_outright(consistency: int, fatigue: int) -> float:
    """The chance that a roll of ``consistency`` fails outright on ``fatigue`` (H-FAT-1).

    >>> fails_outright(2, 1)
    0.0
    """
    return float(sum((p for raw, p in raw_results(consistency) if raw < fatigue), Fraction(0)))


@lru_cache(maxsize=16384)
def hit_chance(consistency: int, potential: int, fatigue: int, defence: int | None) -> float:
    """The chance that an attack beats a pre-rolled defence of ``defence`` (``None``: it
    failed, or there is none) without failing outright on fatigue.

    >>> hit_chance(0, 0, 1, None)
    1.0
    """
    return float(
        sum(
            (
                p
                for raw, p in raw_results(consistency)
                if raw >= fatigue and (defence is None or raw + potential > defence)
            ),
            Fraction(0),
        )
    )


def needs_breather(consistency: int, fatigue: int, breathed: Callable[[], bool]) -> bool:
    """Whether an attacker of ``consistency`` at ``fatigue`` takes a breather rather than
    attack; ``breathed()`` (asked only when it matters): whether its last roll or breather
    was a breather, which at its base fatigue did nothing."""
    if fatigue < 3:
        return False
    now = fails_outright(consistency, fatigue)
    gain = now - fails_outright(consistency, fatigue - 2)
    if now < BREATHER_FAIL or (gain < BREATHER_GAIN and now < HOPELESS):
        return False
    # At its base fatigue a breather does nothing: never two running, unless fatigue is
    # above any base the tables give (H-FAT-3).
    return fatigue > HIGHEST_BASE_FATIGUE + 1 or not breathed()


__all__ = [
    "AMMUNITION",
    "BREATHER_FAIL",
    "BREATHER_GAIN",
    "DEFAULT_CHALLENGE",
    "HIGHEST_BASE_FATIGUE",
    "HOPELESS",
    "ammunition_named",
    "fails_outright",
    "hit_chance",
    "needs_breather",
    "raw_results",
]
