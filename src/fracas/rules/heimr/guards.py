"""Guarding (H-GUARD-1..4) and forced movement (H-MOVE-1).

A guard protects a person, a location or a border. An attack on a guarded person goes
to the guard instead; a guarded border cannot be crossed from the guard's side, and a
charge across it from the other side is intercepted; a guarded location cannot be
entered. A guard ends once it has intercepted one opponent. Several guards answer in
initiative order from the attacker, only the first. Guards cannot stop those hidden
from them; a character can get past a guard by outmanoeuvring it.
"""

from __future__ import annotations

from collections.abc import Iterator

from fracas.engine import Event, IllegalAction
from fracas.rules.heimr import effects, hiding
from fracas.rules.heimr.state import Combatant, HeimrState

#: H-GUARD-4: the dodge against a guard's attack when outmanoeuvring it.
OUTMANOEUVRE_PENALTY = -1
#: H-MOVE-1: how many it takes to move a character against its will, by its state.
MOVERS = {
    "willing with a leg injury": 1,
    "unable to stand and resist": 2,
    "unwilling and bound": 3,
    "unwilling": 4,
}


def guard_spec(state: HeimrState, who: Combatant, target: str) -> str:
    """``person:<id>``, ``square:<sq>`` or ``border:<A1-A2>`` for what ``who`` guards."""
    if target in state.combatants:
        if target == who.id:
            raise IllegalAction("H-GUARD-1", f"{who.name} cannot guard itself")
        return f"person:{target}"
    squares = [state.battlefield.place(t) for t in target.split("-")]
    if len(squares) == 1 and squares[0] in state.battlefield:
        return f"square:{squares[0]}"
    if len(squares) == 2 and all(sq in state.battlefield for sq in squares):
        if who.square not in squares or squares[0] not in state.battlefield.neighbours(squares[1]):
            raise IllegalAction(
                "H-GUARD-3", f"{who.name} guards a border of its own square, not {target}"
            )
        return "border:" + "-".join(sorted(squares))
    raise IllegalAction(
        "H-GUARD-1", f"guard a person, a square or a border such as B1-B2, not {target!r}"
    )


def _answering(state: HeimrState, opponent: Combatant, spec: str) -> Iterator[Combatant]:
    """Guards of ``spec`` able to stop ``opponent``, in initiative order from it."""
    for c in state.combatants.values():  # a plain loop: most attacks meet no guard
        if c.guarding == spec:
            break
    else:
        return
    order = state.order or list(state.combatants)
    start = order.index(opponent.id) if opponent.id in order else 0
    for cid in order[start:] + order[:start]:
        guard = state.combatants[cid]
        if guard.guarding != spec or guard.side == opponent.side:
            continue
        if not effects.can_act(guard) or cid in opponent.passed_guards:
            continue
        if hiding.hidden_from(opponent, guard.side) is not None:
            continue  # H-GUARD-4: guards cannot respond to those hidden from them
        yield guard


def first_guard(state: HeimrState, opponent: Combatant, spec: str) -> Combatant | None:
    """H-GUARD-2: the first guard in initiative order from the opponent, if any."""
    return next(_answering(state, opponent, spec), None)


def end_guard(guard: Combatant, why: str, events: list[Event]) -> None:
    if guard.guarding is None:
        return
    what = guard.guarding.split(":", 1)[1]
    guard.guarding = None
    events.append(Event("guard", f"{guard.name} no longer guards {what}: {why}", {"who": guard.id}))


def intercept_attack(
    state: HeimrState, attacker: Combatant, target: Combatant, events: list[Event]
) -> Combatant | None:
    """H-GUARD-1: an attack on a guarded person goes to its guard (in the same square),
    which then stops guarding (H-GUARD-2)."""
    for c in state.combatants.values():  # a plain loop: most attacks meet no guard
        if c.guarding is not None:
            break
    else:
        return None
    guard = next(
        (
            g
            for g in _answering(state, attacker, f"person:{target.id}")
            if g.square == target.square
        ),
        None,
    )
    if guard is None:
        return None
    events.append(
        Event(
            "guard",
            f"{guard.name} steps in front of {target.name}: the attack goes to {guard.name}",
            {"who": guard.id, "for": target.id},
        )
    )
    end_guard(guard, "it intercepted one opponent", events)
    return guard


def stop_crossing(
    state: HeimrState, mover: Combatant, to: str, charging: bool, events: list[Event]
) -> Combatant | None:
    """H-GUARD-3: a guard on the mover's side of the border, or in the location it
    enters, stops it; a guard on the far side stops only a charge (its attack). Moving
    across a guarded border ends the guard."""
    border = "border:" + "-".join(sorted((mover.square, to)))
    stop = next((g for g in _answering(state, mover, border) if g.square == mover.square), None)
    if stop is None:
        stop = next((g for g in _answering(state, mover, f"square:{to}") if g.square == to), None)
    if stop is not None:
        events.append(
            Event(
                "guard",
                f"{stop.name} stops {mover.name} going from {mover.square} to {to}",
                {"who": stop.id, "stopped": mover.id},
            )
        )
        end_guard(stop, "it intercepted one opponent", events)
        return stop
    if not charging:  # a charge meets the far guard instead (charge_guard)
        for guard in state.combatants.values():
            if guard.guarding == border and guard.side != mover.side:
                end_guard(guard, f"{mover.name} crossed the border", events)
    return None


def charge_guard(state: HeimrState, mover: Combatant, to: str) -> Combatant | None:
    """H-GUARD-3: a charge across a border guarded from the far side meets that guard."""
    border = "border:" + "-".join(sorted((mover.square, to)))
    return next((g for g in _answering(state, mover, border) if g.square == to), None)


def movers_needed(target: Combatant, willing: bool) -> tuple[int, str]:
    """H-MOVE-1: how many it takes to move ``target``, and why."""
    leg = any(part.endswith("leg") for part in target.injuries)
    if willing:
        if not leg:
            raise IllegalAction("H-MOVE-1", f"{target.name} is willing and can walk by itself")
        return MOVERS["willing with a leg injury"], "willing with a leg injury"
    if target.helpless or target.out or target.has("Daze"):
        return MOVERS["unable to stand and resist"], "unable to stand and resist"
    if target.held_by is not None or effects.bound(target, "hands", "arm", "feet", "leg", "body"):
        return MOVERS["unwilling and bound"], "unwilling and bound"
    return MOVERS["unwilling"], "unwilling"
