"""Moving in a side's phase: move, run, charge (S-MOVE-1..4), pick up, done.

darna move orc                 toward the orc, up to melee range (or by=N)
darna move orc dir=away by=10  away from the orc
darna move to=35               to a position on the line
darna run orc dir=away         up to twice the combat movement, in a straight line
darna charge orc               into melee range, with First Strike this round
darna done                     her part of the phase is over
"""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.rules.sides import melee, options
from fracas.rules.sides.melee import negates_charge
from fracas.rules.sides.positions import (
    EPS,
    RUN_FACTOR,
    charge_end,
    destination,
    distance,
    in_melee,
    left_melee,
    movement_left,
    run_blocked_by,
    show,
)
from fracas.rules.sides.state import Combatant, SidesState
from fracas.rules.sides.verbs import combatant, enemy, verb


def _where(state: SidesState, action: Action, who: Combatant, limit: float, rule: str) -> float:
    """Where a move or run ends; its options checked."""
    by = options.distance(action, "by", rule)
    to = options.distance(action, "to", rule)
    way = action.option("dir", "toward")
    if way not in ("toward", "away"):
        raise IllegalAction(rule, f"dir={way!r}: toward or away")
    if (action.target is None) == (to is None):
        raise IllegalAction(
            rule,
            f"move toward or away from someone ({who.id} {action.verb} <who> [dir=away] "
            f"[by=N]) or to a position ({who.id} {action.verb} to=N)",
        )
    toward = None
    if action.target is not None:
        toward = combatant(state, action.target, rule)
        if toward.id == who.id:
            raise IllegalAction(rule, f"{who.name} cannot move toward itself")
    end = destination(state, who, toward, way == "away", by, to, limit)
    if distance(end, who.position) <= EPS:
        raise IllegalAction(rule, f"that {action.verb} goes nowhere")
    return end


def _check_move(state: SidesState, action: Action) -> None:
    who = combatant(state, action.actor)
    if who.doing.movement == "run":
        raise IllegalAction("S-MOVE-3", f"{who.name} ran this round: a run is instead of moving")
    if who.doing.movement == "charge":
        raise IllegalAction("S-MOVE-4", f"{who.name} charged this round: a charge ends the move")
    left = movement_left(who)
    end = _where(state, action, who, left, "S-MOVE-1")
    gone = distance(end, who.position)
    if gone > left + EPS:
        u = state.units
        split = who.doing.acted and who.doing.before > EPS
        why = " (split fire and move: at most half before and half after)" if split else ""
        raise IllegalAction(
            "S-ATK-2" if split else "S-MOVE-1",
            f"{who.name} can move {show(left, u)} more this round, not {show(gone, u)}{why}",
        )


def _moved(
    state: SidesState, who: Combatant, end: float, events: list[Event], text: str, note: str = ""
) -> None:
    gone = distance(end, who.position)
    if who.doing.acted:
        who.doing.after += gone
    else:
        who.doing.before += gone
    who.position = end
    events.append(
        Event(
            "move",
            f"{who.name} {text} {show(gone, state.units)} to {show(end, state.units)}{note}",
            {"who": who.id, "to": end, "distance": gone},
        )
    )
    for foe in left_melee(state, who):
        melee.offer(state, foe, who, "moves away from melee", events)


@verb("move", "phase", "S-MOVE-1", "move up to the combat movement", _check_move)
def _move(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = combatant(state, action.actor)
    end = _where(state, action, who, movement_left(who), "S-MOVE-1")
    who.doing.movement = "move"
    _moved(state, who, end, events, "moves")


def _check_run(state: SidesState, action: Action) -> None:
    who = combatant(state, action.actor)
    doing = who.doing
    if doing.movement is not None or doing.before or doing.after:
        raise IllegalAction("S-MOVE-3", f"a run is instead of moving: {who.name} has moved")
    if doing.shot or doing.cast:
        raise IllegalAction(
            "S-MOVE-3", f"a running character may not fire or cast: {who.name} already did"
        )
    limit = RUN_FACTOR * who.stats.movement
    end = _where(state, action, who, limit, "S-MOVE-3")
    gone = distance(end, who.position)
    if gone > limit + EPS:
        u = state.units
        raise IllegalAction(
            "S-MOVE-3", f"{who.name} runs at most {show(limit, u)}, not {show(gone, u)}"
        )
    foe = run_blocked_by(state, who, end)
    if foe is not None:
        raise IllegalAction(
            "S-MOVE-3",
            f"a running character may not move within melee range of an enemy ({foe.name}); "
            "run a shorter way (by=N) or charge",
        )


@verb("run", "phase", "S-MOVE-3", "run up to twice the combat movement", _check_run)
def _run(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = combatant(state, action.actor)
    end = _where(state, action, who, RUN_FACTOR * who.stats.movement, "S-MOVE-3")
    who.doing.movement = "run"
    _moved(state, who, end, events, "runs")


def _check_charge(state: SidesState, action: Action) -> None:
    who = combatant(state, action.actor)
    doing = who.doing
    target = enemy(state, who, action.target, "S-MOVE-4")
    if doing.movement == "run":
        raise IllegalAction("S-MOVE-3", f"{who.name} ran this round: a charge is instead of it")
    if doing.movement is not None or doing.before or doing.after:
        raise IllegalAction(
            "S-MOVE-4", f"a charge is instead of moving or running: {who.name} has moved"
        )
    if doing.shot:
        raise IllegalAction(
            "S-ATK-2", f"{who.name} attacked with a ranged weapon and cannot charge"
        )
    if doing.cast:
        raise IllegalAction("S-ATK-3", f"{who.name} cast a spell and cannot charge")
    if doing.improvised:
        raise IllegalAction("S-IMPROV-1", f"{who.name} improvised instead of attacking this round")
    options.weapon(who, Action(who.id, "charge"), False, "S-MOVE-4")
    if in_melee(state, who, target):
        raise IllegalAction("S-MOVE-4", f"{target.name} is already within melee range")
    _, gone = charge_end(state, who, target)
    if gone > who.stats.movement + EPS:
        u = state.units
        raise IllegalAction(
            "S-MOVE-4",
            f"{target.name} is {show(distance(who.position, target.position), u)} away: a charge "
            f"reaches enemies within {show(who.stats.movement, u)} movement "
            f"(+ {show(state.melee_range, u)} melee range)",
        )


@verb("charge", "phase", "S-MOVE-4", "charge into melee: First Strike this round", _check_charge)
def _charge(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = combatant(state, action.actor)
    assert action.target is not None
    target = state.combatants[action.target]
    end, _ = charge_end(state, who, target)
    who.doing.movement = "charge"
    who.doing.charged = target.id
    state.charges.append([who.id, target.id])
    note = (
        f"; {target.name}'s weapon negates the charge's First Strike against it"
        if negates_charge(target)
        else ": First Strike this round"
    )
    _moved(state, who, end, events, f"charges {target.name},", note)


def _check_pickup(state: SidesState, action: Action) -> None:
    who = combatant(state, action.actor)
    if not who.dropped:
        raise IllegalAction("S-CALLED-1", f"{who.name} has dropped nothing")
    if who.doing.movement is not None or who.doing.before or who.doing.after:
        raise IllegalAction("S-CALLED-1", f"picking up takes the move, and {who.name} has moved")


@verb(
    "pickup", "phase", "S-CALLED-1", "pick up what was dropped (instead of moving)", _check_pickup
)
def _pickup(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = combatant(state, action.actor)
    who.dropped = False
    who.doing.movement = "move"
    who.doing.before = who.stats.movement
    events.append(Event("pickup", f"{who.name} picks up what it dropped", {"who": who.id}))


@verb("done", "phase", "S-ROUND-2", "end this character's part of the phase")
def _done(state: SidesState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = combatant(state, action.actor)
    who.doing.done = True
    events.append(Event("done", f"{who.name} is done", {"who": who.id}))
