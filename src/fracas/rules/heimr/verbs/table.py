"""The game master at the table: doors, newcomers, those who leave, and notes.

``gm open A2-B2`` and ``gm close A2-B2`` swing a door or gate (H-GRID-3): open, it is
a movement limit; closed, a structural barrier that stops crossing and that shots go
round. ``gm add`` brings in a campaign character mid-fight (it rolls initiative, see
:func:`~fracas.rules.heimr.turns.join`); ``gm remove`` takes one out of everything;
``gm note`` writes a line in the log (:mod:`fracas.engine.gm`).
"""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction, gm
from fracas.rules.heimr import effects, turns
from fracas.rules.heimr.battlefield import Border
from fracas.rules.heimr.setup import Placement, placed
from fracas.rules.heimr.state import Combatant, HeimrState
from fracas.rules.heimr.terrain import border_key
from fracas.rules.heimr.verbs.registry import checks, verb, who

# -- doors and gates ---------------------------------------------------------------------


def _door(state: HeimrState, action: Action) -> tuple[Border, str]:
    field = state.battlefield
    squares = [field.place(t) for t in (action.target or "").split("-")]
    border = field.border(squares[0], squares[1]) if len(squares) == 2 else None
    if border is None or not border.door:
        doors = [border_key(*sorted(b.squares)) for b in field.borders.values() if b.door]
        known = f": the doors are {', '.join(sorted(doors))}" if doors else ": there is none"
        raise IllegalAction(
            "H-GRID-3", f"no door or gate between {action.target}, <square>-<square>{known}"
        )
    return border, border_key(*sorted(border.squares))


@checks("open", "close")
def _check_door(state: HeimrState, action: Action) -> None:
    border, key = _door(state, action)
    name = border.name.lower()
    if key in state.broken:
        raise IllegalAction("H-GRID-3", f"the {name} between {key} is broken: it stands open")
    is_open = key in state.open_doors
    if is_open == (action.verb == "open"):
        raise IllegalAction(
            "H-GRID-3", f"the {name} between {key} is {'open' if is_open else 'closed'} already"
        )


def _swing(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    border, key = _door(state, action)
    if action.verb == "open":
        state.open_doors = sorted([*state.open_doors, key])
        how = f"opened: it lets {border.limit} through at a time"
    else:
        state.open_doors.remove(key)
        how = f"closed: it stops anyone crossing (toughness {border.toughness})"
    events.append(
        Event(
            "door",
            f"the {border.name.lower()} between {key} is {how}",
            {"border": key, "open": action.verb == "open"},
        )
    )


verb("open", "gm", "H-GRID-3", "open a door or gate: <A1>-<A2>")(_swing)
verb("close", "gm", "H-GRID-3", "close a door or gate: <A1>-<A2>")(_swing)


# -- joining and leaving -----------------------------------------------------------------


def _newcomer(state: HeimrState, action: Action) -> Combatant:
    campaign = state.campaign
    if campaign is None:
        gm.check_joining(action, state.combatants, "H-INIT-1")
        raise IllegalAction("H-INIT-1", "this encounter keeps no campaign to bring anyone from")
    return gm.newcomer(
        action,
        state.combatants,
        "H-INIT-1",
        Placement,
        lambda place: placed(campaign, state.battlefield, place),
    )


@checks("add")
def _check_add(state: HeimrState, action: Action) -> None:
    _newcomer(state, action)


@verb("add", "gm", "H-INIT-1", gm.ADD)
def _add(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = _newcomer(state, action)
    state.combatants[c.id] = c
    events.append(
        Event(
            "join",
            f"{c.name} joins the fight for {c.side} in {c.square}",
            {"who": c.id, "side": c.side, "square": c.square},
        )
    )
    if state.started:
        turns.join(state, c, dice, events)


@checks("remove")
def _check_remove(state: HeimrState, action: Action) -> None:
    who(state, action.target)


@verb("remove", "gm", "H-INIT-2", gm.REMOVE)
def _remove(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.target)
    effects.leave_cluster(state, c, events)
    for other in state.combatants.values():
        if other.holding == c.id:
            other.holding = None
        if other.held_by == c.id:
            other.held_by = None
        if other.guarding == f"person:{c.id}":
            other.guarding = None
        for seen in (
            other.dodged_melee_of,
            other.shot_by,
            other.attacked_melee,
            other.passed_guards,
        ):
            if c.id in seen:
                seen.remove(c.id)
    if state.turn is not None and c.id in state.turn.cluster_at_start:
        state.turn.cluster_at_start.remove(c.id)
    for crossed in state.crossings.values():
        if c.id in crossed:
            crossed.remove(c.id)
    state.crossings = {k: v for k, v in state.crossings.items() if v}
    state.blind_spots.pop(c.id, None)
    if state.pending is not None and Action.parse(state.pending).target == c.id:
        state.pending = None
    events.append(Event("leave", f"{c.name} leaves the fight", {"who": c.id}))
    turns.leave(state, c.id, dice, events)
    del state.combatants[c.id]


# -- notes -------------------------------------------------------------------------------


def _sides(state: HeimrState) -> list[str]:
    return list(dict.fromkeys(c.side for c in state.combatants.values()))


@checks("note")
def _check_note(state: HeimrState, action: Action) -> None:
    gm.check_note(action, _sides(state), "H-ACT-3")


@verb("note", "gm", "H-ACT-3", gm.NOTE)
def _note(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    events.append(gm.note(action, _sides(state), "H-ACT-3"))
