"""Items in hand, stowed and on the ground: draw, put away, drop and pick up (HC-ACT-1).

Drawing a weapon, an arrow or two throwing weapons is a half action, drawing another
item a full one (the cost lives in :mod:`.economy`). A bow or crossbow shoots only with
an arrow drawn; throwing weapons come two at a draw (HC-AGI-1).
"""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.rules.classic.economy import Planned
from fracas.rules.classic.state import ClassicState, Fighter


def _declared(state: ClassicState, actor: str, *verbs: str) -> set[str]:
    return {
        d.action.target or ""
        for d in state.declared.of(actor)
        if d.action.verb in verbs and d.action.target is not None
    }


def check(state: ClassicState, action: Action, plan: Planned) -> None:
    """What can be drawn, put away, dropped or picked up, as far as a post can know."""
    who = state.combatants[action.actor]
    item = action.target
    if item is None:
        raise IllegalAction("HC-ACT-1", f"{action.verb} what? Name the item")
    if action.verb == "draw":
        if item == "arrow":
            if not any(state.tables.weapons[k].ammunition for k in who.profile.weapons.values()):
                raise IllegalAction("HC-AGI-1", f"{who.name} has no bow or crossbow")
        elif item not in who.carried:
            raise IllegalAction("HC-ACT-1", f"{who.name} carries no {item} to draw")
    elif action.verb in ("sheathe", "drop"):
        if item not in who.held() and item not in _declared(state, who.id, "draw", "pick"):
            raise IllegalAction("HC-ACT-1", f"{who.name} holds no {item}")
    elif item not in state.ground.get(plan.position, []) and item not in _declared(
        state, who.id, "drop"
    ):
        raise IllegalAction("HC-ACT-1", f"no {item} lies in {plan.position}")


def _kind(state: ClassicState, who: Fighter, item: str) -> tuple[bool, bool, bool]:
    """(a weapon, two-handed, a throwing weapon)."""
    kind = who.profile.weapons.get(item)
    if kind is None:
        return False, False, False
    w = state.tables.weapons[kind]
    return True, w.hands == "two", w.ranged and not w.ammunition


def _take(state: ClassicState, who: Fighter, item: str, events: list[Event]) -> bool:
    """Put ``item`` in a free hand (both for a two-handed weapon)."""
    _, two, _ = _kind(state, who, item)
    if two:
        if who.main_hand is not None or who.off_hand is not None:
            events.append(Event("item", f"{who.name} needs both hands free for {item}", {}))
            return False
        who.main_hand = item
        return True
    if who.main_hand is None:
        who.main_hand = item
    elif who.off_hand is None and not _kind(state, who, who.main_hand)[1]:
        who.off_hand = item
    else:
        events.append(Event("item", f"{who.name} has no free hand for {item}", {}))
        return False
    return True


def _let_go(who: Fighter, item: str) -> bool:
    if who.main_hand == item:
        who.main_hand = None
    elif who.off_hand == item:
        who.off_hand = None
    else:
        return False
    held_kind = who.profile.weapons.get(item)
    if held_kind is not None:
        who.loaded = 0
    return True


def resolve(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.actor]
    item = action.target or ""
    here = state.ground.setdefault(who.position, [])
    if action.verb == "draw" and item == "arrow":
        bows = [
            i
            for i in who.held()
            if state.tables.weapons[who.profile.weapons.get(i, "unarmed")].ammunition
        ]
        if not bows:
            events.append(Event("item", f"{who.name} holds no bow to draw an arrow for", {}))
            return
        who.loaded = 1
        events.append(Event("item", f"{who.name} draws an arrow", {"who": who.id}))
    elif action.verb == "draw":
        if item not in who.carried or not _take(state, who, item, events):
            return
        who.carried.remove(item)
        throwing = _kind(state, who, item)[2]
        if throwing:
            who.loaded = 2
        what = f"two of {item}" if throwing else item
        events.append(Event("item", f"{who.name} draws {what}", {"who": who.id, "item": item}))
    elif action.verb == "sheathe":
        if _let_go(who, item):
            who.carried.append(item)
            events.append(Event("item", f"{who.name} puts {item} away", {"who": who.id}))
    elif action.verb == "drop":
        if _let_go(who, item):
            here.append(item)
            events.append(Event("item", f"{who.name} drops {item}", {"who": who.id}))
    elif item in here and _take(state, who, item, events):
        here.remove(item)
        events.append(Event("item", f"{who.name} picks up {item}", {"who": who.id}))
    if not here:
        del state.ground[who.position]
