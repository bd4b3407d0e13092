"""The game master at the table: newcomers, those who leave, and notes (:mod:`fracas.engine.gm`).

The tempo rules have no game-master actions of their own, so these three are the only
actions ``gm`` takes. A newcomer (``gm add``) is checked like a combatant of the
encounter file and takes the last place in the initiative order (T-ROUND-1: initiative
is the setup's, docs/decisions.md). One who leaves (``gm remove``) is gone from the
order; an opponent it was engaged with is freed. Neither is called while an action is
in the middle of its exchange.
"""

from __future__ import annotations

from fracas.engine import Action, DiceSource, EngineError, Event, IllegalAction, gm
from fracas.engine.verbs import named
from fracas.rules.tempo import setup, turns
from fracas.rules.tempo.checks import roll
from fracas.rules.tempo.state import Combatant, TempoState
from fracas.yamlfile import unknown_name

GM = "gm"
VERBS = ("add", "remove", "note", "initiative")


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
    if action.verb == "initiative":
        if state.rolled:
            raise IllegalAction(
                "T-ROUND-1", "the turn order stands: it is rolled once, before the first turn"
            )
        return
    if state.exchange is not None:
        raise IllegalAction("T-ROUND-2", "an action is in its exchange: wait until it resolves")
    if action.verb == "add":
        _newcomer(state, action)
    else:
        named(state.combatants, action.target, "T-ROUND-1")


def apply(
    state: TempoState, action: Action, events: list[Event], dice: DiceSource | None = None
) -> None:
    if action.verb == "initiative":
        assert dice is not None, "the engine rolls with its dice"
        roll_order(state, dice, events)
        return
    if action.verb == "note":
        events.append(gm.note(action, sides(state), "T-ROUND-1"))
    elif action.verb == "add":
        c = _newcomer(state, action)
        state.combatants[c.id] = c
        state.order.append(c.id)
        for other in c.reach:
            state.combatants[other].reach.add(c.id)
        events.append(
            Event(
                "join",
                f"{c.name} joins the fight for {c.side}, last in the order ({c.status})",
                {"who": c.id, "side": c.side},
            )
        )
    else:
        _remove(state, state.combatants[action.target or ""], events)


def roll_order(state: TempoState, dice: DiceSource, events: list[Event]) -> None:
    """T-ROUND-1: each rolls the check (T-DICE-1) with the initiative skill and its written
    initiative as a bonus; the highest goes first, ties keep the file's order."""
    skill = state.tables.round.initiative_skill
    written = {cid: state.initiative.get(cid, 0) for cid in state.order}
    totals = {
        cid: roll(dice, state.combatants[cid], "initiative", skill, written[cid], events)
        for cid in state.order
    }
    state.order.sort(key=lambda cid: -totals[cid])  # stable: ties keep the file's order
    state.rolled, state.turn = True, 0
    names = ", ".join(f"{state.combatants[c].name} {totals[c]}" for c in state.order)
    events.append(Event("initiative", f"the turn order: {names}", {"order": list(state.order)}))
    first = state.combatants[state.current]
    events.append(
        Event(
            "turn",
            f"{first.name}'s turn ({first.ap} AP, {first.status})",
            {"who": first.id, "ap": first.ap, "status": first.status},
        )
    )


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
        others = {o.id: o for o in state.combatants.values()}
        for other_id in place.reach if place.reach is not None else list(others):
            other = others.get(other_id)
            if other is None:
                raise EngineError(unknown_name("combatant", other_id, others))
            if other.side != c.side:
                c.reach.add(other_id)  # T-MOVE-1: by default within every opponent's reach
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
