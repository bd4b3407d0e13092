"""Forced movement and restraint (H-MOVE-1): moving a character who cannot or will not."""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.rules.heimr import effects, guards, terrain
from fracas.rules.heimr.state import Combatant, HeimrState
from fracas.rules.heimr.verbs.registry import checks, verb, who


def _movers(state: HeimrState, action: Action) -> list[Combatant]:
    names = [n for n in (action.option("with") or "").split(",") if n]
    return [who(state, action.actor)] + [who(state, n) for n in names]


@checks("drag")
def _check_drag(state: HeimrState, action: Action) -> None:
    movers = _movers(state, action)
    target = who(state, action.target)
    to = state.battlefield.place(action.option("to") or "")
    for m in movers:
        if m.square != target.square:
            raise IllegalAction("H-MOVE-1", f"{m.name} is not in {target.name}'s square")
        if m is not movers[0] and not effects.can_act(m):
            raise IllegalAction("H-MOVE-1", f"{m.name} cannot help: it can take no actions")
    if len({m.id for m in movers}) != len(movers) or target in movers:
        raise IllegalAction("H-MOVE-1", "each mover counts once, and not the one moved")
    needed, why = guards.movers_needed(target, action.option("willing") == "1")
    if len(movers) < needed:
        raise IllegalAction(
            "H-MOVE-1",
            f"moving {target.name} ({why}) takes {needed}; {len(movers)} "
            f"{'is' if len(movers) == 1 else 'are'} not enough",
        )
    terrain.check_cross(state, target, to, "move")
    border = state.battlefield.border(target.square, to)
    if border is not None and border.cr is not None:
        raise IllegalAction(
            "H-MOVE-1",
            f"no dragging across the {border.name or 'border'}: "
            f"crossing it is a challenge (CR {border.cr})",
        )


@verb("drag", "standard", "H-MOVE-1", "move a character: <who> to=<square> [with=a,b] [willing=1]")
def _drag(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    movers = _movers(state, action)
    target = who(state, action.target)
    to = state.battlefield.place(action.option("to") or "")
    for c in [target, *movers]:
        terrain.enter(state, c, to, events)
    names = ", ".join(m.name for m in movers)
    events.append(
        Event(
            "move",
            f"{names} move{'s' if len(movers) == 1 else ''} {target.name} to {to}",
            {"who": target.id, "square": to, "movers": [m.id for m in movers]},
        )
    )
