"""Items in hand: draw, put away, pick up, drop, swap (H-ACT-3)."""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.rules.heimr import effects
from fracas.rules.heimr.state import HeimrState, Weapon
from fracas.rules.heimr.verbs.registry import (
    checks,
    verb,
    who,
)


@checks("draw")
def _check_draw(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if not any(i.name.lower() == (action.target or "").lower() for i in c.carried):
        raise IllegalAction("H-ACT-3", f"{c.name} carries no {action.target!r} to draw")
    if c.sword_hand is not None and (c.off_hand is not None or c.shield is not None):
        raise IllegalAction("H-ACT-3", f"{c.name} has no free hand")
    if effects.bound(c, "hands"):
        raise IllegalAction("H-EFF-7", f"{c.name}'s hands are bound")


@verb("draw", "standard", "H-ACT-3", "draw a weapon or ammunition")
def _draw(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:

    c = who(state, action.actor)
    item = next(i for i in c.carried if i.name.lower() == (action.target or "").lower())
    c.carried.remove(item)
    if c.sword_hand is None and isinstance(item, Weapon):
        c.sword_hand = item
    elif isinstance(item, Weapon):
        c.off_hand = item
    else:
        c.shield = item
    events.append(Event("item", f"{c.name} draws the {item.name}", {"who": c.id}))


@checks("sheathe")
def _check_sheathe(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    held = [i for i in (c.sword_hand, c.off_hand, c.shield) if i is not None]
    if not any(i.name.lower() == (action.target or "").lower() for i in held):
        raise IllegalAction("H-ACT-3", f"{c.name} holds no {action.target!r}")


@verb("sheathe", "standard", "H-ACT-3", "put a weapon away")
def _sheathe(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    name = (action.target or "").lower()
    for slot in ("sword_hand", "off_hand", "shield"):
        item = getattr(c, slot)
        if item is not None and item.name.lower() == name:
            setattr(c, slot, None)
            c.carried.append(item)
            events.append(Event("item", f"{c.name} puts away the {item.name}", {"who": c.id}))
            return


@checks("get")
def _check_get(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if not any(i.name.lower() == (action.target or "").lower() for i in c.dropped):
        raise IllegalAction("H-ACT-3", f"no {action.target!r} lies at {c.name}'s feet")
    if c.has("Drop"):
        raise IllegalAction("H-EFF-3", f"{c.name} cannot pick it up until the Drop passes")
    if effects.bound(c, "hands"):
        raise IllegalAction("H-EFF-7", f"{c.name}'s hands are bound: no picking up items")


@verb("get", "ongoing", "H-ACT-3", "pick an item up (into the free hand)")
def _get(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:

    c = who(state, action.actor)
    item = next(i for i in c.dropped if i.name.lower() == (action.target or "").lower())
    c.dropped.remove(item)
    if isinstance(item, Weapon) and c.sword_hand is None:
        c.sword_hand = item
    elif isinstance(item, Weapon) and c.off_hand is None:
        c.off_hand = item
    elif not isinstance(item, Weapon) and c.shield is None:
        c.shield = item
    else:
        c.carried.append(item)
    events.append(Event("item", f"{c.name} picks up the {item.name}", {"who": c.id}))


@checks("drop")
def _check_drop(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    held = [i for i in (c.sword_hand, c.off_hand, c.shield) if i is not None]
    if not held:
        raise IllegalAction("H-ACT-3", f"{c.name} holds nothing to drop")
    if action.target is not None and not any(i.name.lower() == action.target.lower() for i in held):
        raise IllegalAction("H-ACT-3", f"{c.name} holds no {action.target!r}")


@verb("drop", "free", "H-ACT-3", "drop a held item, or all of them: [item]")
def _drop(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    wanted = None if action.target is None else action.target.lower()
    for slot in ("sword_hand", "off_hand", "shield"):
        item = getattr(c, slot)
        if item is not None and wanted in (None, item.name.lower()):
            setattr(c, slot, None)
            c.dropped.append(item)
            events.append(Event("drop", f"{c.name} drops the {item.name}", {"who": c.id}))


@checks("swap")
def _check_swap(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if c.shield is not None:
        raise IllegalAction(
            "H-ACT-3", f"{c.name}'s {c.shield.name} is wielded in the off-hand only"
        )
    if c.sword_hand is None and c.off_hand is None:
        raise IllegalAction("H-ACT-3", f"{c.name} holds nothing to swap")
    if c.sword_hand is not None and c.sword_hand.hands != "either-hand":
        raise IllegalAction("H-ACT-3", f"the {c.sword_hand.name} cannot be wielded in the off-hand")
    if effects.bound(c, "hands"):
        raise IllegalAction("H-EFF-7", f"{c.name}'s hands are bound")


@verb("swap", "free", "H-ACT-3", "move the item of one hand to the other, or swap them")
def _swap(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    c.sword_hand, c.off_hand = c.off_hand, c.sword_hand
    events.append(Event("item", f"{c.name} swaps the items in its hands", {"who": c.id}))
