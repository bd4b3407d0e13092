"""Grabs, holds and escapes (D-GRAB-1, D-ESCAPE-1).

A grab is an attack (:mod:`.combat`): STR two ranks down against the target's STR.
One success is a partial grab, two or more a full hold. Both stay in place (a much
larger grappler may move, taking the target along); attacks on anyone else are
disadvantaged; a fully held target is disadvantaged on physical actions and
defences, and its holder's defences are disadvantaged against physical attacks except
the target's, where they are advantaged. The holder sustains the grab each turn with a
minor action (``hold``), or lets go at the end of its turn.

An escape rolls STR (disadvantaged when fully held) against the grappler's STR two
ranks down; ties go to the one escaping (D-ATK-2). A win costs a major action and
ends the turn; double the grappler's roll costs a minor action, triple nothing. A
failed escape costs a major action.
"""

from __future__ import annotations

from fracas.dice import successes
from fracas.engine import DiceSource, Event, IllegalAction
from fracas.rules.diestep.rolls import conditions, roll
from fracas.rules.diestep.state import Combatant, DieStepState, Hold


def take_hold(
    state: DieStepState, grappler: Combatant, target: Combatant, hold: Hold, events: list[Event]
) -> None:
    grappler.holding, target.held_by, target.hold = target.id, grappler.id, hold
    what = "a partial grab on" if hold == "partial" else "a full hold on"
    events.append(
        Event(
            "grab",
            f"{grappler.name} has {what} {target.name}",
            {"who": grappler.id, "target": target.id, "hold": hold},
        )
    )
    if state.turn is not None and grappler.id in state.turn.members():
        state.turn.grabbed = True


def release(state: DieStepState, grappler: Combatant, events: list[Event], why: str) -> None:
    """``grappler`` lets go of whoever it holds."""
    if grappler.holding is None:
        return
    target = state.who(grappler.holding)
    grappler.holding, target.held_by, target.hold = None, None, None
    events.append(
        Event(
            "release",
            f"{grappler.name} lets go of {target.name}: {why}",
            {"who": grappler.id, "target": target.id},
        )
    )


def break_grabs(state: DieStepState, who: Combatant, events: list[Event], why: str) -> None:
    """Every grab ``who`` is part of ends (knocked out, killed, thrown...)."""
    release(state, who, events, why)
    if who.held_by is not None:
        release(state, state.who(who.held_by), events, why)


def much_larger(state: DieStepState, a: Combatant, b: Combatant) -> bool:
    return a.sheet.size - b.sheet.size >= state.tables.sizes.much_larger


def held_target(state: DieStepState, who: Combatant, need: Hold | None = None) -> Combatant:
    """The target ``who`` holds (fully, when ``need`` is ``"full"``), or refuse."""
    if who.holding is None:
        raise IllegalAction("D-GRAB-1", f"{who.name} holds nobody")
    target = state.who(who.holding)
    if need == "full" and target.hold != "full":
        raise IllegalAction("D-GRAB-1", f"{who.name} has only a partial grab on {target.name}")
    return target


def escape(
    state: DieStepState, who: Combatant, dice: DiceSource, events: list[Event]
) -> tuple[int, str]:
    """D-ESCAPE-1: roll the escape; returns the AP it costs and what it counts as."""
    assert who.held_by is not None
    grappler = state.who(who.held_by)
    mine = conditions(who, physical=True)  # includes "fully held"
    mine_roll = roll(dice, who, "STR to escape", who.die("str"), mine, events)
    theirs = conditions(grappler, physical=True)
    ranks = state.tables.unarmed_ranks
    theirs_roll = roll(dice, grappler, "STR to hold on", grappler.die("str"), theirs, events, ranks)
    n = successes(mine_roll, theirs_roll)
    costs = state.tables.costs
    if n == 0:
        events.append(
            Event("escape", f"{who.name} fails to escape {grappler.name}", {"who": who.id})
        )
        return costs["major"], "major"
    release(state, grappler, events, f"{who.name} escapes")
    if n >= 3:
        return 0, "free"
    if n == 2:
        return costs["minor"], "minor"
    return -1, "major"  # all the turn's AP: the turn is over
