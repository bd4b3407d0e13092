"""Pitfight's odds (its ``odds`` and ``commands`` capabilities): the chance a blow lands
(P-HIT-1) and the damage it deals (P-DMG-1), exactly, from the dice layer."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from fracas import dice
from fracas.engine import Action
from fracas.engine.odds import AttackOdds, NoOdds, spread
from pitfight.ruleset import BRACE, TARGET

__all__ = ["COMMANDS", "ODDS", "line"]


def line(attack: int, guard: int, action: str = "hit") -> AttackOdds:
    """The odds of a blow with ``attack`` against ``guard``.

    >>> line(2, 1).hit
    Fraction(13, 18)
    """
    need = TARGET + guard
    rolled = dice.parse("standard", f"2d6+{attack}").pmf()
    hit = sum((p for total, p in rolled.items() if total >= need), Fraction(0))
    damage = dice.parse("standard", "1d3").pmf()
    return AttackOdds(
        action,
        f"2d6+{attack}",
        f"{need} (guard {guard})",
        (),
        hit,
        spread({d: hit * p for d, p in damage.items()}, 1 - hit),
        command=f"fracas odds pitfight attack {attack} vs {guard}",
    )


class Odds:
    """The game master's odds of a blow before it is struck."""

    def attack_odds(self, encounter: Any, action: Action) -> AttackOdds | NoOdds | None:
        if action.verb != "hit":
            return None
        state = encounter.state
        me, foe = state.combatants.get(action.actor), state.combatants.get(action.target)
        if me is None or foe is None:
            return None
        return line(me.attack, foe.guard + (BRACE if foe.braced else 0), str(action))


class Commands:
    """``fracas odds pitfight attack ATTACK vs GUARD``."""

    def odds_lines(self, words: Sequence[str]) -> list[AttackOdds]:
        usage = "fracas odds pitfight attack ATTACK vs GUARD (numbers 0 to 5)"
        if len(words) != 3 or words[1].lower() != "vs":
            raise ValueError(f"expected {usage}")
        try:
            attack, guard = int(words[0]), int(words[2])
        except ValueError:
            raise ValueError(f"the attack and guard are whole numbers ({usage})") from None
        if not (0 <= attack <= 5 and 0 <= guard <= 5 + BRACE):
            raise ValueError(f"out of bounds ({usage})")
        return [line(attack, guard)]


ODDS = Odds()
COMMANDS = Commands()
