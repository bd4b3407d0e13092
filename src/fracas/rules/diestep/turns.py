"""Turn order and action points (D-ACT-1, D-MOUNT-1).

Each character rolls REF once when combat begins; the highest acts first (ties: the
larger REF die, then the order of the setup). A turn has the character's AP (3
unless its sheet says otherwise): a major action costs 2, a minor 1, a free action
nothing, and an exclusive action must be the turn's first and takes all its AP. A
minor interrupt, taken in someone else's turn, is owed by the next turn.

A mounted pair acts once, at the better place of the two, with the higher of their
AP; the mount's extra AP only move, the rider's extra AP never do.
"""

from __future__ import annotations

from typing import Literal

from fracas.engine import DiceSource, Event, IllegalAction
from fracas.rules.diestep import grapple
from fracas.rules.diestep.rolls import DIS, conditions, roll, side_only
from fracas.rules.diestep.state import Combatant, DieStepState, Turn

Kind = Literal["major", "minor", "exclusive", "free"]


def base_ap(who: Combatant) -> int:
    """AP of a whole turn: halved (rounded down) when badly wounded or an unskilled rider."""
    ap = who.sheet.ap or 0
    if who.wound == "badly" and not who.knocked_out:  # (who.badly_wounded, asked often)
        ap //= 2  # D-WOUND-1
    if who.mounted_on is not None and not who.sheet.riding:
        ap //= 2  # D-MOUNT-1
    return ap


def can_interrupt(state: DieStepState, who: Combatant) -> bool:
    """Whether ``who`` (with its mount or rider) has an AP of its next turn left to owe."""
    other = who.mounted_on or who.rider  # (state.partner)
    if other is None:
        return who.debt < base_ap(who)
    partner = state.combatants[other]
    return who.debt + partner.debt < max(base_ap(who), base_ap(partner))


def roll_initiative(state: DieStepState, dice: DiceSource, events: list[Event]) -> None:
    """D-ACT-1: turn order by a REF roll (disadvantaged when surprised, D-PRONE-1)."""
    setup_order = list(state.combatants)
    for who in state.combatants.values():
        _roll_ref(state, who, dice, events)
    state.order = sorted(
        setup_order,
        key=lambda c: (-state.initiative[c], -state.who(c).die("ref"), setup_order.index(c)),
    )
    pair_up(state)
    names = ", ".join(state.who(c).name for c in state.order)
    events.append(Event("order", f"turn order: {names}", {"order": list(state.order)}))


def _roll_ref(state: DieStepState, who: Combatant, dice: DiceSource, events: list[Event]) -> None:
    sources = conditions(who, physical=False)
    if who.surprised:
        sources.append(("surprised", DIS))
    state.initiative[who.id] = roll(
        dice, who, "REF for turn order", who.die("ref"), sources, events
    )


def join(state: DieStepState, who: Combatant, dice: DiceSource, events: list[Event]) -> None:
    """A combatant joins a fight under way (docs/decisions.md, D-ACT-1): it rolls REF and
    takes its place in the turn order after everyone it does not beat (a tie on the roll
    and the die goes to those already there). A place this round's turns have passed is
    first taken next round."""
    _roll_ref(state, who, dice, events)
    mine = (state.initiative[who.id], who.die("ref"))
    at = len(state.order)
    for i, cid in enumerate(state.order):
        if mine > (state.initiative.get(cid, 0), state.who(cid).die("ref")):
            at = i
            break
    state.order.insert(at, who.id)
    if at <= state.index:
        state.index += 1  # the turn under way stays where it is
    names = ", ".join(state.who(c).name for c in state.order)
    events.append(Event("order", f"turn order: {names}", {"order": list(state.order)}))


def leave(state: DieStepState, cid: str, events: list[Event]) -> None:
    """Take ``cid`` out of the turn order; if the turn was its own, the next one starts."""
    if cid not in state.order:
        return
    at = state.order.index(cid)
    current = state.turn is not None and state.turn.actor == cid
    state.order.remove(cid)
    state.initiative.pop(cid, None)
    if at < state.index:
        state.index -= 1
    if not state.order:
        state.turn = None
        return
    if current:
        state.index -= 1  # the next turn is the one now standing at its place
        _advance(state)
        start_turn(state, events)


def pair_up(state: DieStepState) -> None:
    """D-MOUNT-1: a rider acts at its mount's place when that comes first."""
    for who in state.combatants.values():
        if who.mounted_on is None:
            continue
        rider_at, mount_at = state.order.index(who.id), state.order.index(who.mounted_on)
        if mount_at < rider_at:
            state.order.remove(who.id)
            state.order.insert(mount_at, who.id)


def begin(state: DieStepState, dice: DiceSource, events: list[Event]) -> None:
    roll_initiative(state, dice, events)
    state.started = True
    state.round = 1
    state.index = 0
    start_turn(state, events)


def start_turn(state: DieStepState, events: list[Event]) -> None:
    """Start the turn of ``state.order[state.index]``, passing over those who cannot act."""
    combatants, order = state.combatants, state.order  # (pair_up reorders it in place)
    for _ in range(len(order) * 8):
        who = combatants[order[state.index]]
        if who.out or who.rider is not None:
            _advance(state)
            continue
        who.surprised = False  # D-PRONE-1: only until its first turn
        if not who.able:
            why = "helpless" if who.helpless else "stunned"
            events.append(Event("turn", f"{who.name} is {why} and loses the turn", {"who": who.id}))
            who.debt = 0
            who.stunned = max(0, who.stunned - 1)
            _advance(state)
            continue
        break
    else:
        state.turn = None
        return
    partner = state.partner(who)
    rider_ap = base_ap(who)
    mount_ap = base_ap(partner) if partner else rider_ap
    owed = who.debt + (partner.debt if partner else 0)
    pool = max(0, max(rider_ap, mount_ap) - owed)
    who.debt = 0
    if partner is not None:
        partner.debt = 0
    state.turn = Turn(who.id, partner.id if partner else None, pool, rider_ap, mount_ap)
    with_mount = f" (riding {partner.name})" if partner else ""
    outline = f"round {state.round}: {who.name}'s turn{with_mount}"
    events.append(
        Event(
            "turn",
            f"{outline}, {pool} AP",
            {"who": who.id, "round": state.round, "ap": pool},
            detail=side_only(who.side),  # AP are the own side's
            outline=outline,
            outline_data={"who": who.id, "round": state.round},
        )
    )


def end_turn(state: DieStepState, events: list[Event]) -> None:
    """End the current turn: an unsustained grab is let go (D-GRAB-1); the next turn starts."""
    turn = state.turn
    assert turn is not None
    for cid in turn.members():
        who = state.who(cid)
        if who.holding is not None and not (turn.grabbed or turn.sustained):
            grapple.release(state, who, events, "the grab was not sustained")
    events.append(Event("end", f"{state.who(turn.actor).name} ends the turn", {"who": turn.actor}))
    _advance(state)
    start_turn(state, events)


def _advance(state: DieStepState) -> None:
    state.index += 1
    if state.index >= len(state.order):
        state.index = 0
        state.round += 1
        pair_up(state)


def cost(state: DieStepState, kind: Kind) -> int:
    turn = state.turn
    if kind == "exclusive":
        return turn.left if turn else 0
    if kind == "free":
        return 0
    return state.tables.costs[kind]


def check_spend(state: DieStepState, who: Combatant, kind: Kind, moving: bool) -> None:
    """Raise unless the turn has the AP for an action of ``kind`` (D-ACT-1, D-MOUNT-1)."""
    refused = spend_refusal(state, who, kind, moving)
    if refused is not None:
        raise IllegalAction(*refused)


def spend_refusal(
    state: DieStepState, who: Combatant, kind: Kind, moving: bool
) -> tuple[str, str] | None:
    """Why the turn lacks the AP for an action of ``kind`` (its rule and a sentence), or
    ``None``: :func:`check_spend` without raising."""
    short = shortfall(state, kind, moving)
    if short is None:
        return None
    turn = state.turn
    assert turn is not None
    if short == "exclusive":
        return "D-ACT-1", "an exclusive action must be the turn's only one: it takes all its AP"
    if short == "ap":
        need = cost(state, kind)
        return "D-ACT-1", f"{who.name} has {turn.left} AP left; a {kind} action costs {need}"
    if short == "moving":
        return "D-MOUNT-1", "the rider's extra AP cannot be used for movement"
    return "D-MOUNT-1", "the mount's extra AP can only be used for movement"


def shortfall(state: DieStepState, kind: Kind, moving: bool) -> str | None:
    """What the turn's AP lack for an action of ``kind`` (``exclusive``: not the turn's
    first; ``ap``: too few left; ``moving`` or ``other``: the mounted pair's share for
    movement or the rest is spent), or ``None`` when they pay for it."""
    turn = state.turn
    assert turn is not None
    if kind == "exclusive":
        return "exclusive" if turn.spent or turn.left < 1 else None
    need = cost(state, kind)
    if need > turn.left:
        return "ap"
    if turn.partner is not None and need:
        if moving and turn.moving + need > turn.mount_cap:
            return "moving"
        if not moving and turn.other + need > turn.rider_cap:
            return "other"
    return None


def spend(state: DieStepState, kind: Kind, moving: bool) -> int:
    turn = state.turn
    assert turn is not None
    need = cost(state, kind)
    turn.spent += need
    if moving:
        turn.moving += need
    else:
        turn.other += need
    return need
