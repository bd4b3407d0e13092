"""Effects (H-EFF-1..10): called by a skill or the game master, with a number.

The number is 2 (seconds) or 1 (point) unless called otherwise ("Stumble four").
Durations count the affected character's own turns: floor(seconds / 2) of them
(H-EFF-10). An effect passes at the end of its last turn; one of 0 turns passes at the
start of the affected character's next turn.
"""

from __future__ import annotations

from fracas.engine import Event, IllegalAction
from fracas.rules.heimr import health
from fracas.rules.heimr.state import ActiveEffect, Combatant, HeimrState, Shield, Weapon

#: H-EFF-7: where a Bind can be called.
BIND_PARTS = ("hands", "arm", "feet", "leg", "body")


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
) -> None:
    """``who`` receives the effect ``name``; a reaction (Resist, Miss) negates it (H-EFF-9)."""
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
            )
        )
        return
    if name == "Break":
        return  # items' toughness comes with the battlefield rules
    if name == "Fall":
        who.prone = True
    elif name == "Drop":
        drop(who, part or "sword arm", events)
    elif name == "Stumble":
        leave_cluster(state, who, events)
    elif name == "Bind" and part is not None and part not in BIND_PARTS:
        raise IllegalAction("H-EFF-7", f"a Bind is called on {', '.join(BIND_PARTS)}, not {part}")
    if spec.unit != "seconds":
        return
    who.effects.append(ActiveEffect(name, n, turns(n), odd=n % 2 == 1, source=source, part=part))


def drop(who: Combatant, part: str, events: list[Event]) -> None:
    """H-EFF-3: the item in the hand of ``part`` falls to the ground."""
    item: Weapon | Shield | None
    if part != "other arm":
        item, who.sword_hand = who.sword_hand, None
    elif who.off_hand is not None:
        item, who.off_hand = who.off_hand, None
    else:
        item, who.shield = who.shield, None
    if item is not None:
        who.dropped.append(item)
        events.append(
            Event("drop", f"{who.name} drops the {item.name}", {"who": who.id, "item": item.name})
        )


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


def start_of_turn(who: Combatant, events: list[Event]) -> None:
    """Effects of 0 turns pass now; a final odd-numbered turn lets the dazed defend."""
    for e in list(who.effects):
        if e.injury:
            continue
        if e.turns <= 0:
            expire(who, e, events)
        elif e.turns == 1 and e.odd:
            e.final_turn = True


def end_of_turn(who: Combatant, events: list[Event]) -> None:
    """Each timed effect has one turn fewer; at none it passes."""
    for e in list(who.effects):
        if e.injury or (e.name == "Bind" and e.source in (None, "hold")):
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
    return not (who.helpless or who.out or who.has("Daze"))


def can_defend(who: Combatant) -> bool:
    """H-EFF-5: no defence while dazed, except in the last turn of an odd daze;
    H-POS-2 helpless; H-ATK-10 held in a grab."""
    if who.helpless or who.out or who.held_by is not None:
        return False
    return all(e.final_turn for e in who.effects if e.name == "Daze" and not e.injury) and not any(
        e.name == "Daze" and e.injury for e in who.effects
    )
