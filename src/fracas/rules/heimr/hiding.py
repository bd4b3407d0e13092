"""Hiding and being seen (H-ACT-7, H-POS-3, H-POS-4).

A hidden character has a CR perception must reach (its survival roll) and, for each
opposing side, whether that side is *unaware* of it (cannot attack it) or *aware* that
someone is hidden (only luck shots). A side that spots it sees it again. What one side
sees, all its members see (docs/decisions.md).
"""

from __future__ import annotations

from dataclasses import replace

from fracas.dice import StandardExpression
from fracas.dice.standard import DiceTerm
from fracas.engine import DiceSource, Event, IllegalAction
from fracas.rules.heimr.rolls import Modifier, challenge
from fracas.rules.heimr.state import Combatant, HeimrState

UNAWARE, AWARE = "unaware", "aware"
#: H-ACT-7: each soft sound lowers the hide CR by this much.
SOFT_SOUND = 2
#: H-POS-4: a luck shot's extra consistency penalty (beside the concealment).
LUCK_SHOT_PENALTY = 1
#: H-POS-4: potential for charging or shooting those one is hidden from.
HIDDEN_BONUS = 2
#: H-ACT-3: observing the same square, or a bordering one.
OBSERVE_SAME, OBSERVE_BORDERING = 2, 1


def sides_against(state: HeimrState, who: Combatant) -> set[str]:
    return {c.side for c in state.combatants.values() if c.side != who.side}


def check_hide(state: HeimrState, who: Combatant) -> None:
    """H-ACT-7: hiding needs concealment here, and no combat cluster."""
    if state.cluster_of(who.id) is not None:
        raise IllegalAction("H-ACT-7", f"{who.name} cannot hide while in a combat cluster")
    if state.battlefield.concealment(who.square, who.height) == 0:
        raise IllegalAction(
            "H-ACT-7", f"nothing in {who.square} conceals {who.name} at height {who.height}"
        )


def hide(state: HeimrState, who: Combatant, dice: DiceSource, events: list[Event]) -> None:
    """H-ACT-7: a survival roll sets the CR; not from those in one's cluster at the start
    of the turn, nor from those who shot one in their last turn."""
    check = challenge(
        who,
        who.stats.abilities["Survival"],
        dice,
        f"{who.name} hides",
        events=events,
        seen_by=frozenset({who.side}),
    )
    if check.failed_outright:
        # H-FAT-1: the survival roll "automatically fails": no hiding place found.
        events.append(
            Event("hide", f"{who.name} fails to hide", {"who": who.id}, frozenset({who.side}))
        )
        return
    who.hide_cr = check.result
    seeing = set(state.turn.cluster_at_start if state.turn else []) | set(who.shot_by)
    seeing_sides = {state.combatants[c].side for c in seeing if c in state.combatants}
    who.hidden_from = {side: UNAWARE for side in sides_against(state, who) - seeing_sides}
    text = f"{who.name} hides (CR {who.hide_cr})"
    if seeing_sides:
        text += f"; still seen by {', '.join(sorted(seeing_sides))}"
    events.append(
        Event("hide", text, {"who": who.id, "cr": who.hide_cr}, seen_by=frozenset({who.side}))
    )


def reveal(who: Combatant, why: str, events: list[Event]) -> None:
    """A loud sound, or joining a cluster: ``who`` is hidden from nobody."""
    if who.hide_cr is None:
        return
    who.hide_cr = None
    who.hidden_from.clear()
    events.append(Event("hide", f"{who.name} is no longer hidden: {why}", {"who": who.id}))


def soft_sound(who: Combatant, events: list[Event]) -> None:
    """H-ACT-7: a soft sound (a shot, a whisper) lowers the hide CR by 2."""
    if who.hide_cr is None:
        return
    who.hide_cr -= SOFT_SOUND
    events.append(
        Event(
            "hide",
            f"{who.name} makes a soft sound: hide CR {who.hide_cr}",
            {"who": who.id, "cr": who.hide_cr},
            seen_by=frozenset({who.side}),
        )
    )


def seen_by(state: HeimrState, who: Combatant) -> frozenset[str] | None:
    """The sides that see what ``who`` does: all (``None``) unless it is hidden, then
    those it is not hidden from (its own among them)."""
    if who.hide_cr is None or not who.hidden_from:
        return None
    sides = {c.side for c in state.combatants.values()}
    return frozenset(sides - set(who.hidden_from))


def unseen(state: HeimrState, events: list[Event]) -> list[Event]:
    """H-POS-4: the sides unaware of a hidden character see nothing of it: an event that
    everyone would see and that names it (its turn, its pre-rolled defence, an ally
    guarding it or delaying after it) is kept from them."""
    for c in state.combatants.values():  # a plain loop: asked at every action
        if c.hide_cr is not None:
            break
    else:
        return events  # nobody hidden: nothing to keep from anyone
    out = []
    for event in events:
        if event.seen_by is None:
            unaware = {
                side
                for who in _named(state, event)
                if who.hide_cr is not None
                for side, how in who.hidden_from.items()
                if how == UNAWARE
            }
            if unaware:
                sides = {c.side for c in state.combatants.values()}
                event = replace(event, seen_by=frozenset(sides - unaware))
        out.append(event)
    return out


def _named(state: HeimrState, event: Event) -> list[Combatant]:
    """The combatants an event's data names, by id."""
    values: list[object] = []
    for value in event.data.values():
        values += value if isinstance(value, list) else [value]
    return [state.combatants[v] for v in values if isinstance(v, str) and v in state.combatants]


def hidden_from(target: Combatant, side: str) -> str | None:
    """``unaware``, ``aware`` or ``None`` (seen) for ``side`` looking at ``target``."""
    return target.hidden_from.get(side) if target.hide_cr is not None else None


def check_attack(attacker: Combatant, target: Combatant) -> None:
    """H-POS-4: the unaware cannot attack a hidden character."""
    if hidden_from(target, attacker.side) == UNAWARE:
        raise IllegalAction("H-POS-4", f"{attacker.name} does not know {target.name} is there")


def luck_shot(
    attacker: Combatant, target: Combatant, dice: DiceSource, events: list[Event]
) -> list[Modifier] | None:
    """H-POS-4: against one known to be hidden, a d10 must show 10 before the attack
    roll; the attack then takes 1 more consistency penalty. ``None`` if no 10."""
    if hidden_from(target, attacker.side) != AWARE:
        return []
    roll = dice.roll(StandardExpression((DiceTerm(1, 10),)), f"{attacker.name}'s luck shot")
    lucky = roll.result == 10
    events.append(
        Event(
            "luck",
            f"{attacker.name} tries a luck shot at {target.name}: d10 "
            f"{roll.result}" + ("" if lucky else ", no attack"),
            {"who": attacker.id, "target": target.id, "d10": roll.result},
        )
    )
    return [("luck shot", -LUCK_SHOT_PENALTY)] if lucky else None


def hidden_bonus(attacker: Combatant, target: Combatant) -> list[Modifier]:
    """H-POS-4: +2 potential charging or shooting those one is hidden from."""
    if attacker.hide_cr is not None and target.side in attacker.hidden_from:
        return [("hidden", HIDDEN_BONUS)]
    return []


def after_attack(
    state: HeimrState, attacker: Combatant, target: Combatant, melee: bool, events: list[Event]
) -> None:
    """A hidden attacker: melee puts it in a cluster (no longer hidden); a shot is a soft
    sound that tells the target's side someone hidden is there (docs/decisions.md)."""
    if attacker.hide_cr is None:
        return
    if melee:
        reveal(attacker, "it is in a combat cluster", events)
        return
    soft_sound(attacker, events)
    if attacker.hidden_from.get(target.side) == UNAWARE:
        attacker.hidden_from[target.side] = AWARE


def observe_square(
    state: HeimrState,
    who: Combatant,
    square: str,
    dice: DiceSource,
    events: list[Event],
) -> None:
    """H-ACT-3: perception on a square, +2 potential in it, +1 bordering it; every hidden
    opponent there whose CR the roll reaches is seen by the observer's side."""
    d = state.battlefield.grid_steps(who.square, square)
    bonus: list[Modifier] = (
        [("same square", OBSERVE_SAME)]
        if d == 0
        else [("bordering square", OBSERVE_BORDERING)]
        if d == 1
        else []
    )
    check = challenge(
        who,
        who.stats.abilities["Perception"],
        dice,
        f"{who.name} observes {square}",
        potential=bonus,
        events=events,
        seen_by=frozenset({who.side}),
    )
    for other in state.combatants.values():
        if other.square != square or hidden_from(other, who.side) is None:
            continue
        assert other.hide_cr is not None
        if not check.failed_outright and check.result >= other.hide_cr:
            del other.hidden_from[who.side]
            events.append(
                Event(
                    "spot",
                    f"{who.name} spots {other.name} in {square}",
                    {"who": who.id, "spotted": other.id},
                    seen_by=frozenset({who.side, other.side}),
                )
            )
