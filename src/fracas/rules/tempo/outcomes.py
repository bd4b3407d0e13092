"""What an outcome row does (T-RES-2): damage, statuses, aim, disarm, regained AP.

The effects are the words of ``data/actions.yaml``; ``cancel`` is read by the exchange
before anything applies (a successful defence makes the opponent's action fail
without effect, T-ACT-2). Damage and health are open in the seed (T-OPEN-1): a Hit
rolls the weapon's damage less the target's armour, a Critical Hit ignores armour,
and a combatant at 0 HP or less is down.
"""

from __future__ import annotations

from fracas.dice import parse
from fracas.engine import DiceSource, Event
from fracas.rules.tempo.legality import weapon
from fracas.rules.tempo.state import Combatant, Declared, TempoState
from fracas.rules.tempo.tables import Row


def apply_row(
    state: TempoState,
    who: Combatant,
    opponent: Combatant | None,
    declared: Declared,
    row: Row,
    dice: DiceSource,
    events: list[Event],
) -> None:
    """Carry out the effects of ``row``, the outcome of ``who``'s ``declared`` action."""
    for effect in row.effects:
        word, _, rest = effect.partition(" ")
        if effect in ("damage", "damage ignoring armour") and opponent is not None:
            damage(state, who, opponent, declared, effect != "damage", dice, events)
        elif word == "self":
            set_status(state, who, rest, opponent, events)
        elif word == "target" and opponent is not None:
            set_status(state, opponent, rest, who, events)
        elif word == "aim":
            who.aimed = declared.weapon
            events.append(Event("aim", f"{who.name} has aimed the {declared.weapon}"))
        elif word == "disarm" and opponent is not None:
            disarm(state, opponent, events)
        elif word == "regain":
            regain(state, who, int(rest), events)


def damage(
    state: TempoState,
    who: Combatant,
    target: Combatant,
    declared: Declared,
    ignore_armour: bool,
    dice: DiceSource,
    events: list[Event],
) -> None:
    """Roll the weapon's damage (unarmed without one) and take the armour off unless ignored."""
    used = weapon(state, declared.weapon)
    notation = used.damage if used is not None else state.tables.unarmed.damage
    rolled = dice.roll(parse("standard", notation), f"{who.name}: damage to {target.name}").result
    protection = 0 if ignore_armour else state.tables.armour[target.armour].protection
    dealt = max(0, rolled - protection)
    target.hp -= dealt
    armour = "ignoring armour" if ignore_armour else f"armour {protection}"
    seen = {
        "who": who.id,
        "target": target.id,
        "rolled": rolled,
        "protection": protection,
        "damage": dealt,
    }
    taken = f"{target.name} takes {dealt} damage ({notation} rolled {rolled}, {armour})"
    events.append(
        Event(
            "damage",
            f"{taken}: {target.hp} HP left",
            {**seen, "hp": target.hp},
            detail=frozenset({target.side}),  # hit points are the own side's (observe)
            outline=taken,
            outline_data=seen,
        )
    )
    if target.out:
        down(state, target, events)


def down(state: TempoState, target: Combatant, events: list[Event]) -> None:
    """Decision: a downed combatant leaves the fight; whoever it held or bound is freed."""
    events.append(Event("down", f"{target.name} is down", {"who": target.id}))
    partner = state.combatants.get(target.engaged_with or "")
    if partner is not None and partner.engaged_with == target.id:
        set_status(state, partner, state.tables.freed_status, None, events)
    target.engaged_with = None


def set_status(
    state: TempoState,
    who: Combatant,
    status: str,
    opponent: Combatant | None,
    events: list[Event],
) -> None:
    """T-STAT-1: change status; a bind, grapple or pin ties ``who`` to ``opponent``."""
    engaged = state.tables.statuses[status].engaged and opponent is not None
    partner = opponent.id if engaged and opponent is not None else None
    if who.out or (who.status == status and who.engaged_with == partner):
        return
    who.status = status
    who.engaged_with = partner
    with_whom = f" with {opponent.name}" if engaged and opponent is not None else ""
    events.append(
        Event(
            "status",
            f"{who.name} is {status}{with_whom}",
            {"who": who.id, "status": status, "engaged_with": partner},
        )
    )


def disarm(state: TempoState, target: Combatant, events: list[Event]) -> None:
    """The target loses its melee weapon (the first it holds)."""
    melee = [w for w in target.weapons if state.tables.weapons[w].kind == "melee"]
    if not melee:
        return
    target.weapons.remove(melee[0])
    events.append(
        Event(
            "disarm",
            f"{target.name} is disarmed of the {melee[0]}",
            {"who": target.id, "weapon": melee[0]},
        )
    )


def regain(state: TempoState, who: Combatant, ap: int, events: list[Event]) -> None:
    """T-STAM-1: regain AP, up to the round's allocation (decision: no more than 12)."""
    before = who.ap
    who.ap = min(state.tables.round.ap, who.ap + ap)
    events.append(
        Event(
            "regain",
            f"{who.name} regains {ap} AP: {who.ap} AP",
            {"who": who.id, "regain": ap, "before": before, "ap": who.ap},
        )
    )
