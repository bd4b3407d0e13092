"""Movement between named positions and guarded borders (HC-MOVE-1, HC-MOVE-2).

A move action goes to a bordering position (or stays, which a guard may want). A
guard stands in a position and bars one border: enemies cannot leave through it while
one of its guards is not occupied (they may still come in). A guard is occupied when
it has blocked someone (it holds as many as the border's terrain allows, one unless
the DM says more), made an attack, or been attacked in melee. A guard that made a
melee attack (its last this round) or named an enemy holds only that enemy.
"""

from __future__ import annotations

from fracas.engine import Event
from fracas.rules.classic.state import ClassicState, Fighter, Guard


def occupied_for(state: ClassicState, guard: Guard, mover: str) -> bool:
    """Whether ``guard`` lets ``mover`` through (HC-MOVE-2)."""
    g = state.combatants[guard.guard]
    if g.plan.attacked or g.plan.melee_attacked:
        return True
    only = g.plan.melee_target or guard.named
    if only is not None:
        return mover != only
    if mover in guard.engaged:
        return False
    return len(guard.engaged) >= state.battlefield.capacity(guard.at, guard.toward)


def guards_on(state: ClassicState, mover: Fighter, at: str, toward: str) -> list[Guard]:
    """The enemy guards standing watch over the border from ``at`` to ``toward``."""
    out = []
    for guard in state.guards:
        g = state.combatants[guard.guard]
        if (guard.at, guard.toward) != (at, toward) or g.side == mover.side:
            continue
        if g.position == at and g.in_fight and not g.helpless:
            out.append(guard)
    return out


def move(
    state: ClassicState, who: Fighter, to: str, events: list[Event], how: str = "moves"
) -> bool:
    """Move ``who`` to ``to`` unless a guard blocks the border; ``True`` when it moved."""
    start = who.position
    if to == start:
        events.append(Event("move", f"{who.name} stays in {to}", {"who": who.id, "to": to}))
        return True
    if to not in state.battlefield.borders(start):
        events.append(Event("move", f"{who.name} cannot reach {to} from {start}", {"who": who.id}))
        return False
    for guard in guards_on(state, who, start, to):
        if not occupied_for(state, guard, who.id):
            if who.id not in guard.engaged:
                guard.engaged.append(who.id)
            name = state.combatants[guard.guard].name
            events.append(
                Event(
                    "blocked",
                    f"{name} guards the way to {to}: {who.name} is blocked",
                    {"who": who.id, "guard": guard.guard, "to": to},
                )
            )
            return False
    who.position = to
    state.guards = [g for g in state.guards if g.guard != who.id]
    events.append(
        Event("move", f"{who.name} {how} to {to}", {"who": who.id, "from": start, "to": to})
    )
    return True


def guard(
    state: ClassicState, who: Fighter, toward: str, named: str | None, events: list[Event]
) -> None:
    """Stand guard over the border from ``who``'s position to ``toward``."""
    if toward not in state.battlefield.borders(who.position):
        events.append(Event("guard", f"{who.name} cannot guard {toward} from {who.position}", {}))
        return
    state.guards = [g for g in state.guards if g.guard != who.id]
    state.guards.append(Guard(who.id, who.position, toward, named))
    only = f" against {state.combatants[named].name}" if named else ""
    events.append(
        Event(
            "guard",
            f"{who.name} guards the way from {who.position} to {toward}{only}",
            {"who": who.id, "at": who.position, "toward": toward, "named": named},
        )
    )


def new_round(state: ClassicState) -> None:
    """Guards stay while their guard stands in place; what occupied them passes."""
    state.guards = [
        g
        for g in state.guards
        if state.combatants[g.guard].position == g.at and state.combatants[g.guard].in_fight
    ]
    for g in state.guards:
        g.engaged.clear()
