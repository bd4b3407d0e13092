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
    struck: str | None = None,
) -> None:
    """Carry out the effects of ``row``, the outcome of ``who``'s ``declared`` action
    (``struck``: the opponent whose reaction hit ``who`` on its way, T-MOVE-1)."""
    for effect in row.effects:
        word, _, rest = effect.partition(" ")
        if effect in MOVES:
            move(state, who, opponent, declared, effect, struck, events)
        elif effect in ("damage", "damage ignoring armour") and opponent is not None:
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


#: T-MOVE-1: the movement effects of an outcome row.
MOVES = ("move", "move unless hit", "edge", "surge", "edge away", "withdraw")


def move(
    state: TempoState,
    who: Combatant,
    opponent: Combatant | None,
    declared: Declared,
    effect: str,
    struck: str | None,
    events: list[Event],
) -> None:
    """T-MOVE-1: a movement's outcome. ``move``: as declared (``to=`` closes with an
    opponent, ``from=`` leaves its reach); ``move unless hit``: as declared, but one
    hit on the way stops it at the first valid square: within the striker's reach, no
    further; ``edge``: one square, so one of them (``to=`` first); ``surge``: both, past
    the opponent's guard; ``edge away``: the reactor leaves the mover's reach;
    ``withdraw``: the reactor leaves every opponent's reach (a hasty withdrawal)."""
    if effect in ("edge away", "withdraw"):
        away = [opponent.id] if opponent is not None else []
        if effect == "withdraw":
            away = sorted(who.reach)
        _part(state, who, away, events, "hasty withdrawal" if effect == "withdraw" else "retreat")
        return
    to, leave = declared.to, declared.away
    if effect == "move unless hit" and struck is not None:
        if to == struck:
            _close(state, who, to, events, "stopped at the first valid square")
        events.append(
            Event(
                "stopped", f"{who.name} is hit and stops at the first valid square", {"who": who.id}
            )
        )
        return
    if effect == "edge" and to is not None:
        leave = None
    if leave is not None:
        _part(state, who, [leave], events, declared.action)
    if to is not None:
        _close(
            state,
            who,
            to,
            events,
            "surging past the guard" if effect == "surge" else declared.action,
        )


def _close(state: TempoState, who: Combatant, other_id: str, events: list[Event], how: str) -> None:
    other = state.combatants[other_id]
    if other_id in who.reach:
        return
    who.reach.add(other_id)
    other.reach.add(who.id)
    events.append(
        Event(
            "reach",
            f"{who.name} is within {other.name}'s reach ({how})",
            {"who": who.id, "with": other_id, "reach": True},
        )
    )


def _part(
    state: TempoState, who: Combatant, others: list[str], events: list[Event], how: str
) -> None:
    for other_id in others:
        other = state.combatants[other_id]
        if other_id not in who.reach or other.engaged_with == who.id:
            continue  # a bind or grapple holds them together: Withdraw or Escape first
        who.reach.discard(other_id)
        other.reach.discard(who.id)
        events.append(
            Event(
                "reach",
                f"{who.name} is out of {other.name}'s reach ({how})",
                {"who": who.id, "with": other_id, "reach": False},
            )
        )


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
    if opponent is not None and partner is not None:
        who.reach.add(partner)  # a bind or grapple is within reach (T-MOVE-1)
        opponent.reach.add(who.id)
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
