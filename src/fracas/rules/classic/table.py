"""The DM at the table: newcomers, those who leave, and notes (:mod:`fracas.engine.gm`).

A newcomer (``gm add``) is checked like a combatant of the encounter file; it may post
in the round open now and rolls initiative with everyone when the round closes
(HC-INIT-1, docs/decisions.md). One who leaves (``gm remove``) takes back its post and
is gone from the order, the guards and every plan that named it; posts aimed at it
turn to their alternatives when the round resolves, as for any target gone (HC-ROUND-2).
"""

from __future__ import annotations

from fracas.engine import Action, DiceSource, EngineError, Event, gm
from fracas.rules.classic import setup
from fracas.rules.classic import sheet as sheets
from fracas.rules.classic.economy import Planned
from fracas.rules.classic.state import ClassicState, Fighter
from fracas.rules.classic.verbs import checks, fighter, verb
from fracas.yamlfile import unknown_name

GM = "gm"


def _newcomer(state: ClassicState, action: Action) -> tuple[Fighter, list[str]]:
    def make(place: setup.Placement) -> tuple[Fighter, list[str]]:
        characters = state.tables.characters
        if place.character not in characters:
            raise EngineError(unknown_name("character", place.character, characters))
        sheet = characters[place.character]
        warnings = sheets.check(state.tables, sheet)
        made = setup.fighter(state.tables, sheet, action.target or "", place, state.battlefield)
        return made, warnings

    return gm.newcomer(action, [*state.combatants, GM], "HC-INIT-1", setup.Placement, make)


@checks("add")
def _check_add(state: ClassicState, action: Action, plan: Planned) -> None:
    _newcomer(state, action)


@verb("add", "gm", "HC-INIT-1", gm.ADD)
def _add(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    f, warnings = _newcomer(state, action)
    state.combatants[f.id] = f
    state.gone = [g for g in state.gone if g != f.id]
    for warning in warnings:
        events.append(Event("warning", warning, {}))
    events.append(
        Event(
            "join",
            f"{f.name} joins the fight for {f.side} in {f.position}",
            {"who": f.id, "side": f.side, "position": f.position},
        )
    )


@checks("remove")
def _check_remove(state: ClassicState, action: Action, plan: Planned) -> None:
    fighter(state, action.target, "HC-ROUND-2")


@verb("remove", "gm", "HC-ROUND-2", gm.REMOVE)
def _remove(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    f = fighter(state, action.target, "HC-ROUND-2")
    del state.combatants[f.id]
    state.gone.append(f.id)
    state.declared.retract(f.id)
    state.posted = [c for c in state.posted if c != f.id]
    state.order = [c for c in state.order if c != f.id]
    state.initiative.pop(f.id, None)
    state.guards = [g for g in state.guards if f.id not in (g.guard, g.named)]
    for guard in state.guards:
        guard.engaged = [c for c in guard.engaged if c != f.id]
    for other in state.combatants.values():
        plan = other.plan
        if plan.dodge_for == f.id:
            plan.dodge_for = None
        if plan.after == f.id:
            plan.after = None
        if plan.melee_target == f.id:
            plan.melee_target = None
        other.conditions = [c for c in other.conditions if c.source != f.id]  # fear of it
    events.append(Event("leave", f"{f.name} leaves the fight", {"who": f.id}))


def _sides(state: ClassicState) -> list[str]:
    return list(dict.fromkeys(f.side for f in state.combatants.values()))


@checks("note")
def _check_note(state: ClassicState, action: Action, plan: Planned) -> None:
    gm.check_note(action, _sides(state), "HC-ROUND-1")


@verb("note", "gm", "HC-ROUND-1", gm.NOTE)
def _note(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    events.append(gm.note(action, _sides(state), "HC-ROUND-1"))
