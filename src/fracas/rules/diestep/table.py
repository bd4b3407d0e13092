"""The game master at the table: newcomers, those who leave, and notes (:mod:`fracas.engine.gm`).

A newcomer (``gm add``) is checked like a combatant of the encounter file and comes on
foot; once the fight has begun it rolls REF for its place in the turn order
(:func:`~fracas.rules.diestep.turns.join`). One who leaves (``gm remove``) lets go of
and is let go by every grab, leaves its mount or rider, and is gone from the order.
"""

from __future__ import annotations

from fracas.engine import Action, DiceSource, EngineError, Event, IllegalAction, gm
from fracas.rules.diestep import grapple, turns
from fracas.rules.diestep.setup import Placement, placed
from fracas.rules.diestep.state import Combatant, DieStepState
from fracas.rules.diestep.verbs import GM, checks, verb, who
from fracas.yamlfile import unknown_name


def _newcomer(state: DieStepState, action: Action) -> Combatant:
    present = [*state.combatants, GM]
    campaign = state.campaign
    if campaign is None:
        gm.check_joining(action, present, "D-ACT-1")
        raise IllegalAction("D-ACT-1", "this encounter keeps no campaign to bring anyone from")

    def make(place: Placement) -> Combatant:
        if place.mounted_on is not None:
            raise EngineError("a newcomer comes on foot: leave out mounted_on")
        for other in place.unaware_of:
            if other not in state.combatants:
                raise EngineError(unknown_name("combatant", other, state.combatants))
        return placed(campaign, state.regions, place)

    return gm.newcomer(action, present, "D-ACT-1", Placement, make)


@checks("add")
def _check_add(state: DieStepState, action: Action) -> None:
    _newcomer(state, action)


@verb("add", "gm", "D-ACT-1", gm.ADD)
def _add(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = _newcomer(state, action)
    state.combatants[c.id] = c
    events.append(
        Event(
            "join",
            f"{c.name} joins the fight for {c.side} in {c.region}",
            {"who": c.id, "side": c.side, "region": c.region},
        )
    )
    if state.started and not state.over:
        turns.join(state, c, dice, events)


@checks("remove")
def _check_remove(state: DieStepState, action: Action) -> None:
    who(state, action.target)


@verb("remove", "gm", "D-ACT-1", gm.REMOVE)
def _remove(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.target)
    grapple.break_grabs(state, c, events, f"{c.name} leaves the fight")
    partner = state.partner(c)
    if partner is not None:
        partner.mounted_on = partner.rider = None
    turn = state.turn
    if turn is not None and turn.partner == c.id:
        turn.partner = None
    for other in state.combatants.values():
        if c.id in other.unaware_of:
            other.unaware_of.remove(c.id)
    events.append(Event("leave", f"{c.name} leaves the fight", {"who": c.id}))
    turns.leave(state, c.id, events)
    del state.combatants[c.id]


def _sides(state: DieStepState) -> list[str]:
    return list(dict.fromkeys(c.side for c in state.combatants.values()))


@checks("note")
def _check_note(state: DieStepState, action: Action) -> None:
    gm.check_note(action, _sides(state), "D-ACT-1")


@verb("note", "gm", "D-ACT-1", gm.NOTE)
def _note(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    events.append(gm.note(action, _sides(state), "D-ACT-1"))
