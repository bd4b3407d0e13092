"""Items in hand: draw, put away, pick up, drop, swap (H-ACT-3)."""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.rules.heimr import effects
from fracas.rules.heimr.state import HeimrState, item_named
from fracas.rules.heimr.verbs.registry import (
    checks,
    verb,
    who,
)


@checks("draw")
def _check_draw(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    item = item_named(c.carried, action.target)
    if item is None:
        raise IllegalAction("H-ACT-3", f"{c.name} carries no {action.target!r} to draw")
    if not c.clone().take_in_hand(item):
        raise IllegalAction("H-ACT-3", f"{c.name} has no free hand")
    if effects.bound(c, "hands"):
        raise IllegalAction("H-EFF-7", f"{c.name}'s hands are bound")


@verb("draw", "standard", "H-ACT-3", "draw a weapon or ammunition")
def _draw(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    item = item_named(c.carried, action.target)
    assert item is not None
    c.carried.remove(item)
    c.take_in_hand(item)
    events.append(Event("item", f"{c.name} draws the {item.name}", {"who": c.id}))


@checks("sheathe")
def _check_sheathe(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if item_named(c.held(), action.target) is None:
        raise IllegalAction("H-ACT-3", f"{c.name} holds no {action.target!r}")


@verb("sheathe", "standard", "H-ACT-3", "put a weapon away")
def _sheathe(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    item = item_named(c.held(), action.target)
    assert item is not None
    c.let_go(item)
    c.carried.append(item)
    events.append(Event("item", f"{c.name} puts away the {item.name}", {"who": c.id}))


@checks("get")
def _check_get(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if item_named(c.dropped, action.target) is None:
        raise IllegalAction("H-ACT-3", f"no {action.target!r} lies at {c.name}'s feet")
    if c.has("Drop"):
        raise IllegalAction("H-EFF-3", f"{c.name} cannot pick it up until the Drop passes")
    if effects.bound(c, "hands"):
        raise IllegalAction("H-EFF-7", f"{c.name}'s hands are bound: no picking up items")


@verb("get", "ongoing", "H-ACT-3", "pick an item up (into the free hand)")
def _get(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    item = item_named(c.dropped, action.target)
    assert item is not None
    c.dropped.remove(item)
    if not c.take_in_hand(item):
        c.carried.append(item)  # no free hand: it is stowed
    events.append(Event("item", f"{c.name} picks up the {item.name}", {"who": c.id}))


@checks("drop")
def _check_drop(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if not c.held():
        raise IllegalAction("H-ACT-3", f"{c.name} holds nothing to drop")
    if action.target is not None and item_named(c.held(), action.target) is None:
        raise IllegalAction("H-ACT-3", f"{c.name} holds no {action.target!r}")


@verb("drop", "free", "H-ACT-3", "drop a held item, or all of them: [item]")
def _drop(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    for item in c.held():
        if action.target is None or item is item_named(c.held(), action.target):
            c.let_go(item)
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
