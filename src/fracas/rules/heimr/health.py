"""Hit points, injuries and the dying clock (H-HP-1..5).

At 0 or fewer hit points a character is injured; the level follows the hit points.
The body part hit while injured gives an injury effect (H-HP-2). Mangled and
Mutilated characters fall unconscious and die on the in-game clock (H-HP-5) unless
stabilized (H-HP-4). The levels and their clocks are the campaign's table
``injury_levels``; below -5 a character dies at once (docs/decisions.md, H-HP-1).
"""

from __future__ import annotations

from fracas.engine import Event
from fracas.rules.heimr.state import ActiveEffect, Combatant, HeimrState, Shield, Weapon
from fracas.rules.heimr.tables import InjuryLevel


def level(state: HeimrState, hp: int) -> InjuryLevel | None:
    """The injury level at ``hp`` hit points (H-HP-1, from the campaign's tables)."""
    name = state.tables.injury_level(hp)
    return None if name is None else state.tables.injury_levels[name]


def level_name(state: HeimrState, hp: int) -> str | None:
    return state.tables.injury_level(hp)


def lose_hit_points(
    state: HeimrState, who: Combatant, amount: int, part: str | None, events: list[Event]
) -> None:
    """Take ``amount`` hit points from ``who``; an injury follows at 0 or fewer."""
    if amount <= 0 or who.dead:
        return
    before = level(state, who.hp) if who.hp <= amount else None  # read only when injured
    who.hp -= amount
    events.append(
        Event(
            "damage",
            f"{who.name} loses {amount} hit point{'s' if amount != 1 else ''} "
            f"({who.hp} left)" + (f", hit in the {part}" if part else ""),
            {"who": who.id, "amount": amount, "hp": who.hp, "part": part},
            detail=frozenset({who.side}),  # hit points are the own side's
            outline=f"{who.name} is wounded" + (f", hit in the {part}" if part else ""),
            outline_data={"who": who.id, "part": part},
        )
    )
    if who.sleeping:
        wake(who, "hit", events)  # H-POS-2: a sleeper wakes when hit
    if who.hp > 0:
        return
    injure(state, who, part, before, events)


def set_hit_points(
    state: HeimrState, who: Combatant, hp: int, parts: list[str], events: list[Event]
) -> None:
    """Set hit points directly (a fall, H-GRID-6), injuring ``parts`` if at 0 or fewer."""
    before = level(state, who.hp)
    who.hp = min(who.hp, hp)
    events.append(
        Event(
            "damage",
            f"{who.name} is reduced to {who.hp} hit points",
            {"who": who.id, "hp": who.hp},
            detail=frozenset({who.side}),
            outline=f"{who.name} is wounded",
            outline_data={"who": who.id},
        )
    )
    if who.hp <= 0:
        for part in parts:
            injure(state, who, part, before, events)
            before = level(state, who.hp)


def injure(
    state: HeimrState,
    who: Combatant,
    part: str | None,
    before: InjuryLevel | None,
    events: list[Event],
) -> None:
    now = level(state, who.hp)
    assert now is not None
    if now.dies_after_minutes == 0:
        die(who, f"{who.name} falls to {who.hp} hit points and dies", events, f"{who.name} dies")
        return
    if part is not None and part not in who.injuries:
        who.injuries.append(part)
        name = state.tables.injury_effects[part]
        who.effects.append(ActiveEffect(name, 0, 0, source=None, part=part, injury=True))
        if name == "Fall":
            who.prone = True
        elif name == "Drop":
            drop(who, part, events)
        events.append(
            Event(
                "injury",
                f"{who.name}'s {part} is injured: {name} while injured",
                {"who": who.id, "part": part, "effect": name},
            )
        )
    if before is None or now.highest < before.highest:
        # A new or worse level starts its own count (docs/decisions.md, H-HP-1).
        who.injured_at = state.clock
        who.stabilized = False
        level_now = level_name(state, who.hp)
        events.append(
            Event("injury", f"{who.name} is {level_now}", {"who": who.id, "level": level_now})
        )
        if now.unconscious_after_minutes == 0:
            knock_out(who, events)


def wake(who: Combatant, why: str, events: list[Event]) -> None:
    """H-POS-2: a sleeper wakes: no longer helpless (unless unconscious), still prone."""
    if not who.sleeping:
        return
    who.sleeping = False
    if not who.unconscious:
        who.helpless = False
    events.append(Event("wake", f"{who.name} wakes up ({why})", {"who": who.id}))


def fall_asleep(who: Combatant, events: list[Event]) -> None:
    """H-POS-2: asleep: prone and helpless, no defence."""
    who.sleeping = who.prone = who.helpless = True
    who.defence = None
    events.append(Event("sleep", f"{who.name} is asleep", {"who": who.id}))


def knock_out(who: Combatant, events: list[Event]) -> None:
    if who.unconscious:
        return
    who.unconscious = True
    who.prone = True
    who.helpless = True
    who.defence = None
    events.append(Event("unconscious", f"{who.name} falls unconscious", {"who": who.id}))


def die(who: Combatant, text: str, events: list[Event], outline: str | None = None) -> None:
    """``who`` dies; ``outline`` is the other sides' text when ``text`` tells hit points."""
    who.dead = True
    who.unconscious = True
    who.helpless = True
    who.prone = True
    who.defence = None
    if outline is None:
        events.append(Event("death", text, {"who": who.id}))
        return
    events.append(
        Event(
            "death",
            text,
            {"who": who.id},
            detail=frozenset({who.side}),
            outline=outline,
            outline_data={"who": who.id},
        )
    )


def tick(state: HeimrState, events: list[Event]) -> None:
    """Run the dying clocks up to ``state.clock`` (H-HP-5)."""
    for who in state.combatants.values():
        # The cheap tests first: most are unhurt, and the level is looked up only for
        # the injured.
        if who.dead or who.stabilized or who.injured_at is None:
            continue
        lv = level(state, who.hp)
        if lv is None:
            continue
        elapsed = state.clock - who.injured_at
        if lv.dies_after_minutes is not None and elapsed >= 60 * lv.dies_after_minutes:
            name = str(level_name(state, who.hp)).lower()
            die(who, f"{who.name} dies of a {name} injury", events)
        elif (
            lv.unconscious_after_minutes is not None
            and elapsed >= 60 * lv.unconscious_after_minutes
        ):
            knock_out(who, events)


def stabilize(who: Combatant, events: list[Event]) -> None:
    """H-HP-4: no longer dying, and conscious again."""
    who.stabilized = True
    if who.unconscious and not who.dead:
        who.unconscious = False
        who.helpless = False
    events.append(Event("stabilized", f"{who.name} is stabilized", {"who": who.id}))


def reopen(state: HeimrState, who: Combatant, events: list[Event]) -> None:
    """H-HP-4: moving the injured part reopens the injury; the count restarts from zero,
    so a Mutilated character falls unconscious again at once."""
    who.stabilized = False
    who.injured_at = state.clock
    events.append(Event("injury", f"{who.name}'s injury reopens", {"who": who.id}))
    now = level(state, who.hp)
    if now is not None and now.unconscious_after_minutes == 0:
        knock_out(who, events)


def heal(who: Combatant, to: int, events: list[Event]) -> None:
    """Restore hit points; above 0 the injury and its effects end."""
    who.hp = min(who.stats.hit_points, max(who.hp, to))
    if who.hp > 0:
        who.injuries.clear()
        who.effects = [e for e in who.effects if not e.injury]
        who.injured_at = None
        who.stabilized = False
    events.append(
        Event(
            "heal",
            f"{who.name} has {who.hp} hit points",
            {"who": who.id, "hp": who.hp},
            detail=frozenset({who.side}),
            outline=f"{who.name} is healed",
            outline_data={"who": who.id},
        )
    )


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
