"""How an encounter stands: over or not, who won, and whether the fight has stalled.

The ruleset says who won (:meth:`~fracas.engine.Ruleset.winner`) and fingerprints
everyone's health (:meth:`~fracas.engine.Ruleset.harm`); a fight has stalled when that
fingerprint has not changed for some rounds, so a game master (or a simulation) can
call it off. The encounter is read through a copy, never changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fracas.engine import Encounter

#: Rounds without anyone harmed or healed after which a fight counts as stalled.
STALL_ROUNDS = 3


@dataclass(frozen=True)
class Outcome:
    """The standing of an encounter: over, its winner, and rounds without harm."""

    over: bool
    winner: str | None
    quiet_rounds: int  # whole rounds since someone was harmed or healed, up to the limit
    stalled: bool

    def describe(self) -> str | None:
        """A sentence for the table, or ``None`` while the fight simply goes on.

        >>> Outcome(True, "north", 0, False).describe()
        'The encounter is over: won by north.'
        >>> Outcome(False, None, 4, True).describe()
        'Nobody has been harmed or healed for 4 rounds: the fight has stalled.'
        """
        if self.over:
            won = f"won by {self.winner}" if self.winner else "no side won"
            return f"The encounter is over: {won}."
        if self.stalled:
            return (
                f"Nobody has been harmed or healed for {self.quiet_rounds} rounds: "
                "the fight has stalled."
            )
        return None


def outcome(encounter: Encounter[Any], stall_rounds: int = STALL_ROUNDS) -> Outcome:
    """How ``encounter`` stands; it has stalled after ``stall_rounds`` quiet rounds."""
    rules = encounter.ruleset
    state = encounter.state
    over = rules.is_over(state)
    now = rules.round_number(state)
    harm = rules.harm(state)
    # Walk back through the undo stack to the state where the present health began.
    back = encounter.copy()
    since = now
    while back.log and now - since < stall_rounds:  # no need to look further back
        back.pop()
        if rules.harm(back.state) != harm:
            break
        since = rules.round_number(back.state)
    since = max(since, min(now, 1))  # the rounds before the first do not count
    quiet = now - since
    return Outcome(
        over=over,
        winner=rules.winner(state) if over else None,
        quiet_rounds=quiet,
        stalled=not over and quiet >= stall_rounds,
    )


__all__ = ["STALL_ROUNDS", "Outcome", "outcome"]
