"""The odds of an attack before it is committed, for the game master's screen: the
exact chance to hit and the damage it would do, from the dice layer, with the modifiers
that make it, in every ruleset (one module each: :mod:`.heimr`, :mod:`.classic`,
:mod:`.sides`, :mod:`.tempo`, :mod:`.diestep`).

Where the defender chooses its defence at resolution (a diestep block, parry, dodge or
passive defence; a tempo reaction) the odds have one line per choice and mark the
defender's best. An attack with no odds to show says why (:class:`NoOdds`).

The odds read the whole state: they are for the game master only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fracas.engine import Action
from fracas.table.odds.base import AttackOdds, NoOdds
from fracas.table.odds.classic import classic_odds
from fracas.table.odds.diestep import diestep_odds
from fracas.table.odds.heimr import heimr_odds
from fracas.table.odds.sides import sides_odds
from fracas.table.odds.tempo import tempo_odds
from fracas.table.table import Table

__all__ = ["AttackOdds", "NoOdds", "attack_odds", "odds_or_why"]

Work = Callable[[Any, Action], AttackOdds | NoOdds | None]


def _of_state(work: Work) -> Work:
    return lambda encounter, action: work(encounter.state, action)


#: Each ruleset's odds, from the encounter and the action.
BY_RULESET: dict[str, Work] = {
    "heimr": _of_state(heimr_odds),
    "sides": _of_state(sides_odds),
    "heimr-classic": _of_state(classic_odds),
    "tempo": tempo_odds,
    "diestep": diestep_odds,
}


def odds_or_why(table: Table, text: str) -> AttackOdds | NoOdds | None:
    """The odds of ``text`` on ``table``; :class:`NoOdds` for an attack whose odds are not
    shown, with why; ``None`` when ``text`` is no attack (or one the rules refuse)."""
    work = BY_RULESET.get(table.ruleset.id)
    if work is None:
        return None
    try:
        action = Action.parse(text)
    except ValueError:
        return None
    try:
        return work(table.encounter, action)
    except ValueError:  # an attack the rules would refuse: no odds to show
        return None


def attack_odds(table: Table, text: str) -> AttackOdds | None:
    """The odds of ``text`` (an attack) on ``table``, or ``None`` where there are none."""
    found = odds_or_why(table, text)
    return found if isinstance(found, AttackOdds) else None
