"""Checks and their reading: the Prismatic Dice Pool (T-DICE-1), opposed margins (T-RES-1)
and outcome tables with difficulty thresholds (T-RES-2). :func:`roll` and :func:`outcome`
also write what they find in the log.

>>> from fracas.rules.tempo.tables import TempoTables
>>> parry = TempoTables.load().actions["Parry"].outcomes
>>> [read(parry, m, {}).outcome for m in (-1, 0, 1)]
['Failure', 'Bind', 'Success']
>>> margin(7, 4), margin(4, 7), margin(5, None)
(3, -3, 5)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fracas.dice import PrismaticCheck, Roll
from fracas.engine import DiceSource, Event
from fracas.rules.tempo.state import Combatant, Declared, TempoState
from fracas.rules.tempo.tables import Row


def thresholds(state: TempoState, opponent: Combatant | None) -> dict[str, int]:
    """T-RES-2: the named thresholds of an outcome table, read off the opponent."""
    if opponent is None:
        return {}
    protection = state.tables.armour[opponent.armour].protection
    return {
        "Combat Defence": opponent.combat_defence,
        "Combat Defence (Armoured)": opponent.combat_defence + protection,
        "Grapple Defence": opponent.grapple_defence,
    }


def read(rows: Sequence[Row], result: int, named: Mapping[str, int]) -> Row:
    """The row ``result`` reaches: the last whose threshold it meets; the floor otherwise.

    A named threshold with no opponent to read it from is out of reach.
    """
    reached = rows[0]
    for row in rows[1:]:
        dt = row.dt if isinstance(row.dt, int) else named.get(row.dt)
        if dt is not None and result >= dt:
            reached = row
    return reached


def margin(own: int, other: int | None) -> int:
    """T-RES-1: unopposed, the result itself; opposed, minus the opponent's result."""
    return own if other is None else own - other


def roll(
    dice: DiceSource, who: Combatant, action: str, skill: str, bonus: int, events: list[Event]
) -> int:
    """T-DICE-1: the pool plus the skill rating and ``bonus``; the roll goes in the log."""
    rating = who.skills.get(skill, 0)
    result: Roll = dice.roll(PrismaticCheck(rating + bonus), f"{who.name}: {action}")
    events.append(
        Event(
            "roll",
            f"{who.name} rolls {action} ({skill} {rating:+d}"
            + (f", bonus {bonus:+d}" if bonus else "")
            + f"): {result.explanation}",
            {
                "who": who.id,
                "action": action,
                "skill": skill,
                "rating": rating,
                "bonus": bonus,
                "faces": list(result.faces),
                "pool": result.parts["pool"],
                "result": result.result,
            },
        )
    )
    return result.result


def result_of(state: TempoState, declared: Declared, dice: DiceSource, events: list[Event]) -> int:
    """The check's total, or 0 for an action without a check (Move, Aim, Ready)."""
    skill = state.tables.actions[declared.action].check
    if skill is None:
        return 0
    return roll(
        dice, state.combatants[declared.who], declared.action, skill, declared.bonus, events
    )


def outcome(
    state: TempoState,
    declared: Declared,
    result: int,
    theirs: int | None,
    against: Combatant | None,
    events: list[Event],
) -> Row:
    """T-RES-1, T-RES-2: the row of the action's table that its margin reaches."""
    who = state.combatants[declared.who]
    reached = margin(result, theirs)
    row = read(state.tables.actions[declared.action].outcomes, reached, thresholds(state, against))
    vs = "unopposed" if theirs is None else f"{result} - {theirs} = {reached}"
    events.append(
        Event(
            "outcome",
            f"{who.name}'s {declared.action}: {vs}: {row.outcome}"
            + (f". {row.text}" if row.text else ""),
            {
                "who": who.id,
                "action": declared.action,
                "result": result,
                "margin": reached,
                "outcome": row.outcome,
            },
        )
    )
    return row
