"""The game master at the table: newcomers, those who leave, and notes (:mod:`fracas.engine.gm`).

A newcomer (``gm add``) is checked like a combatant of the encounter file and joins one
of the two sides. Initiative is a side's (S-ROUND-1): once the fight has begun it
arrives at the end of the round under way, and acts in its side's phases from the next
(docs/decisions.md). One who leaves (``gm remove``) is gone from the melee, the charges
and the opportunity attacks.
"""

from __future__ import annotations

from fracas.engine import Action, DiceSource, EngineError, Event, gm
from fracas.rules.sides import setup
from fracas.rules.sides.state import Combatant, Doing, SidesState
from fracas.rules.sides.verbs import GM, combatant, verb
from fracas.yamlfile import unknown_name


def _newcomer(state: SidesState, action: Action) -> Combatant:
    def make(place: setup.Placement) -> Combatant:
        sheet = setup.sheet_of(state.tables, place, (), "gm add")
        if sheet.side not in state.sides:
            raise EngineError(unknown_name("side", sheet.side, state.sides))
        return setup.combatant(state.tables, sheet, action.target or "", place.at, state.units)

    present = [*state.combatants, *state.sides, GM]
    return gm.newcomer(action, present, "S-ROUND-1", setup.Placement, make)


def _check_add(state: SidesState, action: Action) -> None:
    _newcomer(state, action)


@verb("add", "gm", "S-ROUND-1", gm.ADD, _check_add)
def _add(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = _newcomer(state, action)
    if state.phase != "setup":
        c.doing = Doing(done=True, declared="hold")  # arrives as the round ends
    state.combatants[c.id] = c
    when = "" if state.phase == "setup" else ": it acts from the next round"
    events.append(
        Event(
            "join",
            f"{c.name} joins the fight for {c.side} at {c.position:g}{when}",
            {"who": c.id, "side": c.side, "at": c.position},
        )
    )


def _check_remove(state: SidesState, action: Action) -> None:
    combatant(state, action.target)


@verb("remove", "gm", "S-ROUND-1", gm.REMOVE, _check_remove)
def _remove(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = combatant(state, action.target)
    del state.combatants[c.id]
    for pairs in (state.engaged, state.charges, state.pending, state.offered):
        pairs[:] = [p for p in pairs if c.id not in p]
    for other in state.combatants.values():
        if other.doing.charged == c.id:
            other.doing.charged = None
        declared = (other.doing.declared or "").split()
        if len(declared) > 1 and declared[1] == c.id:
            other.doing.declared = "hold"  # its target is gone
    events.append(Event("leave", f"{c.name} leaves the fight", {"who": c.id}))


def _check_note(state: SidesState, action: Action) -> None:
    gm.check_note(action, state.sides, "S-ROUND-1")


@verb("note", "gm", "S-ROUND-1", gm.NOTE, _check_note)
def _note(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    events.append(gm.note(action, state.sides, "S-ROUND-1"))
