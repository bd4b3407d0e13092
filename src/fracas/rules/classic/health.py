"""Hit points, injuries and dying, from the Health chapter seed 001 shares with seed 000.

The injury levels are the Heimr core's table (:func:`.campaign.heimr_tables`): at 0 or
fewer hit points a character is Bloodied and fights on; a level with a death clock
(Mangled, Mutilated) makes the character dying (HC-COND-1: prone and helpless, dead
when the clock runs out unless healed); the level past the table kills at once.
"""

from __future__ import annotations

from fracas.engine import Event
from fracas.rules.classic.campaign import heimr_tables
from fracas.rules.classic.state import ClassicState, Condition, Fighter

DYING_MINUTES = 10  # HC-COND-1: a dying character dies in 10 minutes unless healed


def hurt(state: ClassicState, who: Fighter, amount: int, events: list[Event]) -> None:
    """Take ``amount`` hit points; an injury level may follow."""
    if amount <= 0 or who.dead:
        return
    who.hp -= amount
    events.append(
        Event(
            "damage",
            f"{who.name} loses {amount} hit point{'s' if amount != 1 else ''} ({who.hp} left)",
            {"who": who.id, "amount": amount, "hp": who.hp},
            detail=frozenset({who.side}),
            outline=f"{who.name} is wounded",
            outline_data={"who": who.id},
        )
    )
    tables = heimr_tables()
    name = tables.injury_level(who.hp)
    if name is None:
        return
    level = tables.injury_levels[name]
    if level.dies_after_minutes == 0:
        die(who, f"{who.name} falls at {who.hp} hit points and dies", events, f"{who.name} dies")
    elif level.dies_after_minutes is not None:
        make_dying(state, who, level.dies_after_minutes, events, name)
    else:
        events.append(Event("injury", f"{who.name} is {name}", {"who": who.id, "level": name}))


def make_dying(
    state: ClassicState, who: Fighter, minutes: int, events: list[Event], level: str = ""
) -> None:
    """HC-COND-1: prone, helpless, and dead after ``minutes`` unless healed first."""
    dies_at = state.clock + 60 * minutes
    current = who.condition("dying")
    if current is not None:
        current.dies_at = min(current.dies_at or dies_at, dies_at)
        return
    who.conditions.append(Condition("dying", dies_at=dies_at))
    state.guards = [g for g in state.guards if g.guard != who.id]
    why = f"{level}: " if level else ""
    events.append(
        Event(
            "condition",
            f"{who.name} is {why}dying, and dies in {minutes} minutes unless healed",
            {"who": who.id, "condition": "dying", "dies_at": dies_at},
        )
    )


def die(who: Fighter, text: str, events: list[Event], outline: str | None = None) -> None:
    """``who`` dies; ``outline`` is the text for the other sides when ``text`` tells its
    hit points."""
    who.dead = True
    who.conditions = [c for c in who.conditions if c.name != "dying"]
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


def tick(state: ClassicState, events: list[Event]) -> None:
    """Run the dying clocks up to ``state.clock``."""
    for who in state.combatants.values():
        dying = who.condition("dying")
        if dying is not None and dying.dies_at is not None and state.clock >= dying.dies_at:
            die(who, f"{who.name} dies", events)


def heal(who: Fighter, to: int, events: list[Event]) -> None:
    """Restore hit points; above 0 the character is no longer dying."""
    who.hp = min(who.profile.max_hp, max(who.hp, to))
    if who.hp > 0:
        who.conditions = [c for c in who.conditions if c.name != "dying"]
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
