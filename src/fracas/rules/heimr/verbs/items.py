"""Items in hand: draw, put away, get, conceal, drop, swap (H-ACT-3, H-ACT-8)."""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.rules.heimr import effects
from fracas.rules.heimr.rolls import challenge
from fracas.rules.heimr.state import Combatant, HeimrState, Shield, item_named
from fracas.rules.heimr.verbs.registry import (
    ability_of,
    checks,
    verb,
    who,
)


def _ammunition(state: HeimrState, c: Combatant, name: str | None) -> str | None:
    """The counted ammunition (H-ACT-8) called ``name``, any case."""
    return next((a for a in c.ammunition if a.lower() == (name or "").lower()), None)


def _an(word: str) -> str:
    """``word`` with its article: "an Arrow", "a Bolt"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


@checks("draw")
def _check_draw(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if effects.bound(c, "hands"):
        raise IllegalAction("H-EFF-7", f"{c.name}'s hands are bound")
    ammo = _ammunition(state, c, action.target)
    if ammo is not None:  # H-ACT-8: ammunition is drawn for the weapon that shoots it
        if c.drawn_ammunition is not None:
            raise IllegalAction("H-ACT-8", f"{c.name} has {_an(c.drawn_ammunition)} drawn already")
        if c.ammunition[ammo] < 1:
            raise IllegalAction("H-ACT-8", f"{c.name} has no {ammo} left")
        if not any(state.tables.ammunition.get(w.name) == ammo for w in c.weapons()):
            raise IllegalAction("H-ACT-8", f"{c.name} wields nothing that shoots {_an(ammo)}")
        return
    item = item_named(c.carried, action.target) or item_named(c.concealed, action.target)
    if item is None:
        if item_named(c.pouch, action.target) is not None:
            raise IllegalAction(
                "H-ACT-8",
                f"the {action.target} is in {c.name}'s pouch, not easily accessible: get it",
            )
        raise IllegalAction("H-ACT-3", f"{c.name} carries no {action.target!r} to draw")
    if not c.can_take_in_hand(item):
        raise IllegalAction("H-ACT-3", f"{c.name} has no free hand")
    arm = "sword arm" if c.sword_hand is None and not isinstance(item, Shield) else "other arm"
    if arm in effects.bound_arms(c):  # H-EFF-7: attached to whatever it touches
        raise IllegalAction("H-EFF-7", f"{c.name}'s {arm} is bound")


@verb("draw", "standard", "H-ACT-8", "draw an easily accessible weapon or ammunition")
def _draw(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    ammo = _ammunition(state, c, action.target)
    if ammo is not None:
        c.ammunition[ammo] -= 1
        c.drawn_ammunition = ammo
        events.append(
            Event(
                "item",
                f"{c.name} draws {_an(ammo)} ({c.ammunition[ammo]} left)",
                {"who": c.id, "ammunition": ammo, "left": c.ammunition[ammo]},
                detail=frozenset({c.side}),
                outline=f"{c.name} draws {_an(ammo)}",
                outline_data={"who": c.id, "ammunition": ammo},
            )
        )
        return
    item = item_named(c.carried, action.target)
    concealed = item is None
    if item is None:
        item = item_named(c.concealed, action.target)
        assert item is not None
        c.concealed.remove(item)
        if not c.concealed:
            c.conceal_cr, c.concealed_found_by = None, []
    else:
        c.carried.remove(item)
    c.take_in_hand(item)
    how = "from hiding " if concealed else ""
    events.append(Event("item", f"{c.name} draws the {item.name} {how}".rstrip(), {"who": c.id}))


@checks("sheathe")
def _check_sheathe(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if c.drawn_ammunition is not None and (action.target or "").lower() == (
        c.drawn_ammunition.lower()
    ):
        return
    if item_named(c.held(), action.target) is None:
        raise IllegalAction("H-ACT-3", f"{c.name} holds no {action.target!r}")


@verb("sheathe", "standard", "H-ACT-8", "put a weapon or drawn ammunition away, to hand")
def _sheathe(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    ammo = c.drawn_ammunition
    if ammo is not None and (action.target or "").lower() == ammo.lower():
        c.drawn_ammunition = None
        c.ammunition[ammo] = c.ammunition.get(ammo, 0) + 1
        events.append(
            Event("item", f"{c.name} puts the {ammo} back", {"who": c.id}, frozenset({c.side}))
        )
        return
    item = item_named(c.held(), action.target)
    assert item is not None
    c.let_go(item)
    c.carried.append(item)
    events.append(Event("item", f"{c.name} puts away the {item.name}", {"who": c.id}))


@checks("get")
def _check_get(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if effects.bound(c, "hands"):
        raise IllegalAction("H-EFF-7", f"{c.name}'s hands are bound: no picking up items")
    if item_named(c.pouch, action.target) is not None:
        return  # H-ACT-8: from the pouch or bag
    if item_named(c.dropped, action.target) is None:
        raise IllegalAction(
            "H-ACT-8", f"no {action.target!r} lies at {c.name}'s feet or in its pouch"
        )
    if c.has("Drop"):
        raise IllegalAction("H-EFF-3", f"{c.name} cannot pick it up until the Drop passes")


@verb("get", "ongoing", "H-ACT-8", "get an item from your pouch or the ground (into a free hand)")
def _get(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    item = item_named(c.pouch, action.target)
    if item is not None:
        c.pouch.remove(item)
        where = "takes the {} from the pouch"
    else:
        item = item_named(c.dropped, action.target)
        assert item is not None
        c.dropped.remove(item)
        where = "picks up the {}"
    if not c.take_in_hand(item):
        c.carried.append(item)  # no free hand: it is stowed, easily accessible
    events.append(Event("item", f"{c.name} {where.format(item.name)}", {"who": c.id}))


@checks("conceal")
def _check_conceal(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if item_named(c.held(), action.target) is None:
        raise IllegalAction("H-ACT-3", f"{c.name} holds no {action.target!r} to conceal")
    ability_of(state, c, state.tables.concealing_items.ability)


@verb("conceal", "ongoing", "H-ACT-3", "hide an item you hold on yourself: <item>")
def _conceal(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    """H-ACT-3: the item leaves the hand for a hiding place on the character; a roll of
    the campaign's ability (``concealing_items``) sets the CR perception must reach to
    find it; only the own side sees what it is (docs/decisions.md)."""
    c = who(state, action.actor)
    item = item_named(c.held(), action.target)
    assert item is not None
    name = ability_of(state, c, state.tables.concealing_items.ability)
    check = challenge(
        c,
        c.stats.abilities[name],
        dice,
        f"{c.name} conceals an item",
        events=events,
        seen_by=frozenset({c.side}),
    )
    c.let_go(item)
    c.concealed.append(item)
    cr = 0 if check.failed_outright else check.result
    c.conceal_cr = cr if c.conceal_cr is None else min(c.conceal_cr, cr)
    c.concealed_found_by = []
    events.append(
        Event(
            "conceal",
            f"{c.name} conceals the {item.name} (CR {c.conceal_cr})",
            {"who": c.id, "cr": c.conceal_cr},
            detail=frozenset({c.side}),
            outline=f"{c.name} puts something away",
            outline_data={"who": c.id},
        )
    )


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
