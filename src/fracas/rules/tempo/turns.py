"""Turns and rounds (T-ROUND-1) and the end of a turn, Recover Stamina (T-STAM-1).

A turn ends with the special action Recover Stamina (``recover``): an unopposed
check read against its table gives back AP, never above the round's 12. Turns follow
the initiative order; when the last has ended the round counter, 0 at the start,
rises by one. A combatant who is down is skipped, and a turn whose actor goes down
ends at once.
"""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event
from fracas.rules.tempo import outcomes
from fracas.rules.tempo.checks import outcome, result_of
from fracas.rules.tempo.state import Combatant, Declared, TempoState


def recover(
    state: TempoState, action: Action, name: str, dice: DiceSource, events: list[Event]
) -> None:
    """Recover Stamina: the check, its table, the AP regained, then the next turn."""
    who = state.combatants[action.actor]
    declared = Declared(who.id, name)
    row = outcome(state, declared, result_of(state, declared, dice, events), None, None, events)
    outcomes.apply_row(state, who, None, declared, row, dice, events)
    who.aimed = None
    next_turn(state, events)


def after_exchange(state: TempoState, actor: Combatant, events: list[Event]) -> None:
    """After an action resolves: the end of the encounter, or of a downed actor's turn."""
    if state.over:
        over(state, events)
    elif actor.out and state.current == actor.id:
        next_turn(state, events)


def over(state: TempoState, events: list[Event]) -> None:
    standing = sorted(state.standing_sides())
    who = f"the {standing[0]} side stands" if standing else "nobody stands"
    events.append(Event("over", f"The encounter is over: {who}", {"standing": standing}))


def next_turn(state: TempoState, events: list[Event]) -> None:
    """The next in initiative order who is not down; past the last, the round counter rises."""
    if state.over:
        return
    while True:
        state.turn += 1
        if state.turn == len(state.order):
            state.turn = 0
            state.round += 1
            text = f"The round ends: the round counter is {state.round}"
            events.append(Event("round", text, {"round": state.round}))
        if not state.combatants[state.current].out:
            break
    who = state.combatants[state.current]
    events.append(
        Event(
            "turn",
            f"{who.name}'s turn ({who.ap} AP, {who.status})",
            {"who": who.id, "ap": who.ap, "status": who.status},
        )
    )
