"""The odds of an attack before it is committed, for the game master's screen: the
exact chance to hit and the damage it would do, from the dice layer, with the modifiers
that make it, as the table's ruleset works them out (its ``odds`` capability,
:class:`fracas.engine.capabilities.Odds`); a ruleset without one shows none.

Where the defender chooses its defence at resolution (a diestep block, parry, dodge or
passive defence; a tempo reaction) the odds have one line per choice and mark the
defender's best. An attack with no odds to show says why (:class:`NoOdds`).

The odds read the whole state: they are for the game master only.
"""

from __future__ import annotations

from fracas.engine import Action
from fracas.engine.capabilities import odds
from fracas.engine.odds import AttackOdds, NoOdds
from fracas.table.table import Table

__all__ = ["AttackOdds", "NoOdds", "attack_odds", "odds_or_why"]


def odds_or_why(table: Table, text: str) -> AttackOdds | NoOdds | None:
    """The odds of ``text`` on ``table``; :class:`NoOdds` for an attack whose odds are not
    shown, with why; ``None`` when ``text`` is no attack (or one the rules refuse)."""
    work = odds(table.ruleset)
    try:
        action = Action.parse(text)
    except ValueError:
        return None
    try:
        return work.attack_odds(table.encounter, action)
    except ValueError:  # an attack the rules would refuse: no odds to show
        return None


def attack_odds(table: Table, text: str) -> AttackOdds | None:
    """The odds of ``text`` (an attack) on ``table``, or ``None`` where there are none."""
    found = odds_or_why(table, text)
    return found if isinstance(found, AttackOdds) else None
