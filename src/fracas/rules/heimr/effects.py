"""Effects (H-EFF-1..10): called by a skill or the game master, with a number.

The number is 2 (seconds) or 1 (point) unless called otherwise ("Stumble four").
Durations count the affected character's own turns: floor(seconds / 2) of them
(H-EFF-10). An effect passes at the end of its last turn; one of 0 turns passes at the
start of the affected character's next turn. An effect received during the affected
character's own turn does not count that turn (docs/decisions.md, H-EFF-10). Injury
effects last while injured (H-HP-2) and a grab's Bind until it is released (H-ATK-10).
"""

from __future__ import annotations

from fracas.engine import Event, IllegalAction
from fracas.rules.heimr import health
from fracas.rules.heimr.health import drop
from fracas.rules.heimr.state import ActiveEffect, Combatant, HeimrState

#: H-EFF-7: where a Bind can be called.
BIND_PARTS = ("hands", "arm", "feet", "leg", "body")
#: H-EFF-7: an arm or a leg named as the body part table names it; a plain "arm" is the
#: sword arm (docs/decisions.md).
BIND_LIMBS = {"sword arm": "arm", "other arm": "arm", "right leg": "leg", "left leg": "leg"}

#: H-EFF-4: the directions of the grid, as (column, row) steps; A1 is bottom left.
DIRECTIONS = {"left": (-1, 0), "right": (1, 0), "up": (0, 1), "down": (0, -1)}


def turns(seconds: int) -> int:
    """H-EFF-10: an effect of ``seconds`` lasts floor(seconds / 2) turns.

    >>> turns(2), turns(5), turns(1)
    (1, 2, 0)
    """
    return seconds // 2


def name_of(state: HeimrState, text: str) -> str:
    """The effect called ``text`` in the campaign's table (case ignored)."""
    for name in state.tables.effects:
        if name.lower() == text.lower():
            return name
    known = ", ".join(state.tables.effects)
    raise IllegalAction("H-EFF-1", f"unknown effect {text!r}: known are {known}")


def receive(
    state: HeimrState,
    who: Combatant,
    name: str,
    number: int | None,
    events: list[Event],
    source: str | None = None,
    part: str | None = None,
    reaction: str | None = None,
    direction: str | None = None,
    item: str | None = None,
) -> None:
    """``who`` receives the effect ``name``; a reaction (Resist, Miss) negates it (H-EFF-9).

    A Stumble bars the direction it came from (H-EFF-4): ``direction``, or the one
    way from ``who`` towards the source (see :func:`stumble_direction`).
    """
    spec = state.tables.effects[name]
    n = (spec.number or 0) if number is None else number
    label = f"{name} {n}" + (f" on the {part}" if part else "")
    if reaction is not None:
        events.append(
            Event(
                "effect",
                f"{who.name} answers {label} with {reaction}: negated",
                {"who": who.id, "effect": name, "number": n, "reaction": reaction},
            )
        )
        return
    events.append(
        Event(
            "effect",
            f"{who.name} receives {label}" + (f" from {source}" if source else ""),
            {"who": who.id, "effect": name, "number": n, "source": source, "part": part},
        )
    )
    interrupt(who, f"{name} effect", events)
    release_hold(state, who, "receives an effect", events)  # H-ATK-10
    if name == "Hit":
        health.lose_hit_points(state, who, n, part, events)
        return
    if name == "Drain":
        who.willpower = max(0, who.willpower - n)
        events.append(
            Event(
                "willpower",
                f"{who.name} has {who.willpower} willpower",
                {"who": who.id, "willpower": who.willpower},
                detail=frozenset({who.side}),  # willpower is the own side's
            )
        )
        return
    if name == "Break":
        break_item(state, who, item, n, events)
        return
    if name == "Fall":
        who.prone = True
    elif name == "Drop":
        drop(who, part or "sword arm", events)
    elif name == "Stumble":
        leave_cluster(state, who, events)
        direction = stumble_direction(state, who, source, direction)
    limb = None
    if name == "Bind":
        limb = (part or "").lower() if (part or "").lower() in BIND_LIMBS else None
        part = bind_part(part)
    if spec.unit != "seconds":
        return
    who.effects.append(
        ActiveEffect(
            name,
            n,
            turns(n),
            odd=n % 2 == 1,
            source=source,
            part=part,
            fresh=state.current == who.id,
            direction=direction if name == "Stumble" else None,
            limb=limb,
        )
    )


def break_item(
    state: HeimrState, who: Combatant, item: str | None, strength: int, events: list[Event]
) -> None:
    """H-EFF-6: Break on an item destroys it when at least as strong as its toughness
    (the campaign's ``item_toughness`` table, docs/decisions.md)."""
    held = [i for i in (who.sword_hand, who.off_hand, who.shield) if i is not None]
    found = [
        i for i in [*held, *who.carried] if item is not None and i.name.lower() == item.lower()
    ]
    if not found:
        names = ", ".join(i.name for i in [*held, *who.carried]) or "nothing"
        raise IllegalAction("H-EFF-6", f"Break is called on an item: item= one of {names}")
    target = found[0]
    toughness = state.tables.item_toughness.get(target.name, state.tables.item_toughness["default"])
    if strength < toughness:
        events.append(
            Event(
                "break",
                f"the {target.name} holds: Break {strength} against toughness {toughness}",
                {"who": who.id, "item": target.name, "broken": False},
            )
        )
        return
    for slot in ("sword_hand", "off_hand", "shield"):
        if getattr(who, slot) is target:
            setattr(who, slot, None)
            break
    else:
        who.carried.remove(target)
    events.append(
        Event(
            "break",
            f"{who.name}'s {target.name} breaks: Break {strength} against toughness {toughness}",
            {"who": who.id, "item": target.name, "broken": True},
        )
    )


def bind_part(part: str | None) -> str:
    """H-EFF-7: a Bind is called on the hands, an arm, the feet, a leg or the body (an
    arm or a leg may be named: ``sword arm``, ``left leg``)."""
    if part is not None and part.lower() in BIND_LIMBS:
        return BIND_LIMBS[part.lower()]
    if part is None or part.lower() not in BIND_PARTS:
        raise IllegalAction(
            "H-EFF-7",
            f"a Bind is called on a body part: part= one of {', '.join(BIND_PARTS)} "
            f"(or {', '.join(BIND_LIMBS)})",
        )
    return part.lower()


def bound_arms(who: Combatant) -> set[str]:
    """H-EFF-7: the arms a Bind holds ("attached to whatever it touches"): ``sword arm``,
    ``other arm``; a Bind on "arm" with no arm named holds the sword arm."""
    return {e.limb or "sword arm" for e in who.effects if e.name == "Bind" and e.part == "arm"}


def arm_free(who: Combatant, item: object) -> bool:
    """H-EFF-7: whether the hand holding ``item`` is free to use it: a two-hands weapon
    needs both arms, the sword hand the sword arm, the off-hand and shield the other."""
    arms = bound_arms(who)
    if not arms:
        return True
    if item is who.sword_hand and getattr(item, "hands", "") == "two-hands":
        return False
    if item is who.sword_hand:
        return "sword arm" not in arms
    return "other arm" not in arms


def bound(who: Combatant, *parts: str) -> bool:
    """H-EFF-7: whether a Bind holds one of ``parts`` of ``who``."""
    if not who.effects:
        return False  # the common case, at every check of an attack
    return any(e.name == "Bind" and e.part in parts for e in who.effects)


def directions_towards(square: str, origin: str) -> list[str]:
    """H-EFF-4: the grid directions from ``square`` towards ``origin``: one when they line
    up, two on a diagonal, all four in the same square.

    >>> directions_towards("B2", "B3"), directions_towards("B2", "A3")
    (['up'], ['left', 'up'])
    """
    dc = ord(origin[0].upper()) - ord(square[0].upper())
    dr = int(origin[1:]) - int(square[1:])
    found = [name for name, (c, r) in DIRECTIONS.items() if c * dc > 0 or r * dr > 0]
    return found or list(DIRECTIONS)


def stumble_direction(
    state: HeimrState, who: Combatant, source: str | None, chosen: str | None
) -> str | None:
    """H-EFF-4: the direction a Stumble came from, which ``who`` cannot move in.

    With a combatant as the source it is the way towards it; where several fit (the same
    square, a diagonal) the causer chooses one (``chosen``). Without either, none.
    """
    if not state.battlefield.grid:
        return None  # outside combat there are no grid directions to bar
    causer = state.combatants.get(source or "")
    fits = directions_towards(who.square, causer.square) if causer else list(DIRECTIONS)
    if chosen is not None:
        if chosen.lower() not in fits:
            raise IllegalAction(
                "H-EFF-4", f"the Stumble comes from {' or '.join(fits)}, not {chosen}"
            )
        return chosen.lower()
    if causer is None:
        return None
    if len(fits) > 1:
        raise IllegalAction(
            "H-EFF-4",
            f"the Stumble could come from {', '.join(fits)}: the causer chooses with direction=",
        )
    return fits[0]


def barred(who: Combatant, square: str) -> str | None:
    """H-EFF-4: the barred direction a step from ``who``'s square to ``square`` takes."""
    barring = [e.direction for e in who.effects if e.name == "Stumble" and e.direction]
    if square == who.square or not barring:
        return None
    ways = directions_towards(who.square, square)
    for e in who.effects:
        if e.name == "Stumble" and e.direction in ways:
            return e.direction
    return None


def leave_cluster(state: HeimrState, who: Combatant, events: list[Event]) -> None:
    cluster = state.cluster_of(who.id)
    if cluster is None:
        return
    cluster.remove(who.id)
    if len(cluster) < 2:
        state.clusters.remove(cluster)
    events.append(Event("cluster", f"{who.name} is out of the combat cluster", {"who": who.id}))


def interrupt(who: Combatant, why: str, events: list[Event]) -> None:
    """H-ACT-1: an upcoming action is cancelled by an attack, an effect or a skill."""
    if who.upcoming is not None:
        events.append(
            Event(
                "upcoming",
                f"{who.name}'s upcoming {who.upcoming} is cancelled by the {why}",
                {"who": who.id},
            )
        )
        if who.upcoming.startswith("skill "):
            who.skill_in_use = None  # H-SKILL-1: the prepared skill is lost
        who.upcoming = None


def release_hold(state: HeimrState, who: Combatant, why: str, events: list[Event]) -> None:
    """End a grab that ``who`` holds (H-ATK-10)."""
    if who.holding is None:
        return
    held = state.combatants[who.holding]
    held.held_by = None
    held.effects = [e for e in held.effects if not (e.name == "Bind" and e.source == who.id)]
    who.holding = None
    events.append(
        Event("hold", f"{who.name} lets go of {held.name}: {why}", {"who": who.id, "held": held.id})
    )


def timed(who: Combatant, effect: ActiveEffect) -> bool:
    """Whether ``effect`` runs out by turns: not an injury's (H-HP-2), which lasts while
    injured, nor the Bind of a grab, which lasts until released (H-ATK-10)."""
    if effect.injury:
        return False
    return not (
        effect.name == "Bind" and effect.source is not None and effect.source == who.held_by
    )


def start_of_turn(who: Combatant, events: list[Event]) -> None:
    """Effects of 0 turns pass now; a final odd-numbered turn lets the dazed defend."""
    if not who.effects:
        return  # the common case, at every turn
    for e in list(who.effects):
        if not timed(who, e):
            continue
        if e.turns <= 0:
            expire(who, e, events)
        elif e.turns == 1 and e.odd:
            e.final_turn = True


def end_of_turn(who: Combatant, events: list[Event]) -> None:
    """Each timed effect has one turn fewer; at none it passes. An effect received in
    this very turn starts counting with the next one."""
    if not who.effects:
        return  # the common case, at every turn
    for e in list(who.effects):
        if not timed(who, e):
            continue
        if e.fresh:
            e.fresh = False
            continue
        e.turns -= 1
        if e.turns <= 0:
            expire(who, e, events)


def expire(who: Combatant, effect: ActiveEffect, events: list[Event]) -> None:
    who.effects.remove(effect)
    events.append(
        Event(
            "effect",
            f"{who.name}'s {effect.name} passes",
            {"who": who.id, "effect": effect.name, "expired": True},
        )
    )


def can_act(who: Combatant) -> bool:
    """H-EFF-5, H-POS-2: the dazed and the helpless take no actions."""
    if who.helpless or who.out:
        return False
    return not who.effects or not who.has("Daze")


def can_defend(who: Combatant) -> bool:
    """H-EFF-5: no defence while dazed, except in the last turn of an odd daze;
    H-POS-2 helpless; H-ATK-10 holding someone in a grab ("If you have an opponent
    grabbed using bind, you can not make any defensive rolls")."""
    if who.helpless or who.out or who.holding is not None:
        return False
    if not who.effects:
        return True  # the common case, at every attack
    return all(e.final_turn and not e.injury for e in who.effects if e.name == "Daze")
