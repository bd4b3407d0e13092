"""The game master at the table: newcomers, those who leave, and notes (:mod:`fracas.engine.gm`).

The tempo rules have no game-master actions of their own, so these three are the only
actions ``gm`` takes. A newcomer (``gm add``) is checked like a combatant of the
encounter file and takes the last place in the initiative order (T-ROUND-1: initiative
is the setup's, docs/decisions.md). One who leaves (``gm remove``) is gone from the
order; an opponent it was engaged with is freed. Neither is called while an action is
in the middle of its exchange.
"""

from __future__ import annotations

from fracas.engine import Action, EngineError, Event, IllegalAction, gm
from fracas.engine.verbs import named
from fracas.rules.tempo import setup, turns
from fracas.rules.tempo.state import Combatant, TempoState
from fracas.yamlfile import unknown_name

GM = "gm"
VERBS = ("add", "remove", "note")


def sides(state: TempoState) -> list[str]:
    return list(dict.fromkeys(c.side for c in state.combatants.values()))


def check(state: TempoState, action: Action) -> None:
    """Refuse a table verb that cannot be done now, naming the rule."""
    if action.verb not in VERBS:
        raise IllegalAction(
            "T-ROUND-1", f"the game master's actions are {', '.join(VERBS)}, not {action.verb!r}"
        )
    if action.verb == "note":
        gm.check_note(action, sides(state), "T-ROUND-1")
        return
    if state.exchange is not None:
        raise IllegalAction("T-ROUND-2", "an action is in its exchange: wait until it resolves")
    if action.verb == "add":
        _newcomer(state, action)
    else:
        named(state.combatants, action.target, "T-ROUND-1")


def apply(state: TempoState, action: Action, events: list[Event]) -> None:
    if action.verb == "note":
        events.append(gm.note(action, sides(state), "T-ROUND-1"))
    elif action.verb == "add":
        c = _newcomer(state, action)
        state.combatants[c.id] = c
        state.order.append(c.id)
        events.append(
            Event(
                "join",
                f"{c.name} joins the fight for {c.side}, last in the order ({c.status})",
                {"who": c.id, "side": c.side},
            )
        )
    else:
        _remove(state, state.combatants[action.target or ""], events)


def _newcomer(state: TempoState, action: Action) -> Combatant:
    def make(place: setup.Placement) -> Combatant:
        if place.engaged_with is not None:
            raise EngineError("a newcomer joins unengaged: leave out engaged_with")
        if place.character not in state.tables.characters:
            raise EngineError(unknown_name("character", place.character, state.tables.characters))
        sheet = state.tables.characters[place.character]
        c = setup.combatant(state.tables, sheet, action.target or "", place)
        if state.tables.statuses[c.status].engaged:
            raise EngineError(f"a newcomer joins unengaged, not {c.status}")
        return c

    return gm.newcomer(action, [*state.combatants, GM], "T-ROUND-1", setup.Placement, make)


def _remove(state: TempoState, c: Combatant, events: list[Event]) -> None:
    for other in state.combatants.values():
        if other.engaged_with == c.id:
            other.engaged_with = None
            other.status = state.tables.freed_status
    events.append(Event("leave", f"{c.name} leaves the fight", {"who": c.id}))
    current = state.current == c.id
    at = state.order.index(c.id)
    state.order.remove(c.id)
    del state.combatants[c.id]
    if at < state.turn:
        state.turn -= 1  # the turn under way stays with its actor
    if state.over:
        state.turn = max(0, min(state.turn, len(state.order) - 1))
        turns.over(state, events)
    elif current:
        state.turn = at - 1  # the next in the order (past the last: a new round)
        turns.next_turn(state, events)
