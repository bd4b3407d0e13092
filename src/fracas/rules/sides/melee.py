"""Melee (S-MELEE-1) and opportunity attacks (S-MOVE-2, S-ATK-3).

In the melee phase every fighter declares an attack on an enemy within melee range, or
holds; then the attacks resolve in three strikes: First Strike (a charge, S-MOVE-4),
the simultaneous strike, and Last Strike (a run, S-MOVE-3; a ranged attack, S-ATK-2; a
spell, S-ATK-3). Attacks of one strike are simultaneous: all are rolled, then all
damage lands, so both deal damage even if one is taken out; a combatant taken out by an
earlier strike does not strike back. Pairwise this is the seed's rule: First before the
rest, Last after the rest, both First (or both Last) together.
"""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event
from fracas.rules.sides import options
from fracas.rules.sides.attacks import Hit, land, strike
from fracas.rules.sides.positions import engaged_with
from fracas.rules.sides.state import Combatant, SidesState

FIRST, TOGETHER, LAST = 0, 1, 2
STRIKE_NAMES = {FIRST: "First Strike", TOGETHER: "the simultaneous strike", LAST: "Last Strike"}


def cannot_fight(state: SidesState, who: Combatant) -> tuple[str, str] | None:
    """Why ``who`` makes no melee attack this round, as (rule, reason); None if it may."""
    if who.out:
        return "S-HP-1", f"{who.name} is dead"
    if state.surprised_now(who.side):
        return "S-SURPRISE-1", f"{who.name} is surprised and does not act in the first round"
    if who.doing.improvised:
        return "S-IMPROV-1", f"{who.name} improvised this round instead of attacking"
    if who.doing.movement == "run" and not state.charged_by(who.id):
        return "S-MOVE-3", f"{who.name} ran this round and fights in melee only if charged"
    if who.dropped:
        return "S-CALLED-1", f"{who.name} dropped its weapon: it may pick it up in its phase"
    if who.stats.melee_weapon() is None:
        return "S-MELEE-1", f"{who.name} has no melee weapon"
    if not engaged_with(state, who):
        return "S-MELEE-1", f"{who.name} has no enemy within melee range"
    return None


def fighters(state: SidesState) -> list[Combatant]:
    return [
        state.combatants[cid]
        for cid in state.order()
        if cannot_fight(state, state.combatants[cid]) is None
    ]


def next_to_declare(state: SidesState) -> Combatant | None:
    for who in fighters(state):
        if who.doing.declared is None:
            return who
    return None


def begin(state: SidesState, events: list[Event]) -> None:
    names = [c.name for c in fighters(state)]
    verb = " fights" if len(names) == 1 else " fight"
    text = "the melee: " + (", ".join(names) + verb if names else "no one is in melee")
    events.append(
        Event("phase", text, {"phase": "melee", "fighters": [c.id for c in fighters(state)]})
    )


def negates_charge(who: Combatant) -> bool:
    """S-MOVE-4: a weapon in hand that specifically negates a charge's First Strike."""
    return not who.dropped and any(w.negates_charge for _, w in who.stats.weapons)


def timing(state: SidesState, who: Combatant, target: Combatant) -> int:
    """When ``who``'s melee attack on ``target`` strikes (S-MELEE-1)."""
    doing = who.doing
    if doing.movement == "run" or doing.shot or doing.cast:
        return LAST
    if doing.charged is not None and not negates_charge(target):
        return FIRST
    return TOGETHER


def resolve(state: SidesState, dice: DiceSource, events: list[Event]) -> None:
    """Roll the declared attacks strike by strike; damage lands at the end of each."""
    attacks: list[tuple[int, Combatant, Action]] = []
    for cid in state.order():
        who = state.combatants[cid]
        if who.doing.declared and who.doing.declared != "hold":
            action = Action.parse(f"{cid} {who.doing.declared}")
            assert action.target is not None
            attacks.append((timing(state, who, state.combatants[action.target]), who, action))
    for tier in (FIRST, TOGETHER, LAST):
        batch = [(who, action) for t, who, action in attacks if t == tier]
        if not batch:
            continue
        if tier != TOGETHER or len({t for t, _, _ in attacks}) > 1:
            events.append(Event("strike", f"{STRIKE_NAMES[tier]}:", {"strike": tier}))
        hits: list[Hit] = []
        for who, action in batch:
            assert action.target is not None
            target = state.combatants[action.target]
            if who.out:
                events.append(
                    Event("lost", f"{who.name} is taken out before striking", {"who": who.id})
                )
                continue
            if target.out:
                events.append(
                    Event(
                        "lost",
                        f"{target.name} is already down: {who.name}'s attack is lost",
                        {"who": who.id, "target": target.id},
                    )
                )
                continue
            if who.dropped:
                events.append(
                    Event(
                        "lost", f"{who.name} dropped its weapon and cannot strike", {"who": who.id}
                    )
                )
                continue
            hit = attack(state, dice, who, target, action, events, "attacks", charging=True)
            if hit is not None:
                hits.append(hit)
        for hit in hits:
            land(state, hit, events)


def attack(
    state: SidesState,
    dice: DiceSource,
    who: Combatant,
    target: Combatant,
    action: Action,
    events: list[Event],
    kind: str,
    *,
    charging: bool = False,
) -> Hit | None:
    """One melee attack with the options of ``action`` (weapon, called shot, referee's
    difficulty and bonus). In the melee phase (``charging``) a mounted charger deals 1
    more damage (S-MOUNT-1)."""
    name, weapon = options.weapon(who, action, False, "S-MELEE-1")
    extra = 0
    if charging and who.stats.mounted and who.doing.charged is not None:
        extra = state.tables.mounted.charge_damage
    return strike(
        state,
        dice,
        who,
        target,
        (name, weapon),
        events,
        kind=kind,
        called=options.called_shot(state, action),
        difficulty=options.number(action, "difficulty", "S-ATK-1") or 0,
        bonus=options.number(action, "bonus", "S-ATK-1") or 0,
        off=options.off_hand(who, weapon),
        extra_damage=extra,
    )


# -- opportunity attacks ---------------------------------------------------------------


def can_strike_back(state: SidesState, enemy: Combatant) -> bool:
    """Whether ``enemy`` may make an opportunity attack: alive, not surprised, armed."""
    return (
        not enemy.out
        and not state.surprised_now(enemy.side)
        and not enemy.dropped
        and enemy.stats.melee_weapon() is not None
    )


def offer(
    state: SidesState, enemy: Combatant, who: Combatant, reason: str, events: list[Event]
) -> None:
    """Give ``enemy`` an opportunity attack on ``who`` (once per reason and round)."""
    key = [enemy.id, who.id, reason]
    if key in state.offered or not can_strike_back(state, enemy):
        return
    state.offered.append(key)
    state.pending.append(key)
    events.append(
        Event(
            "opportunity",
            f"{who.name} {reason}: {enemy.name} may make an opportunity attack "
            f"({enemy.id} attack {who.id}, or {enemy.id} pass)",
            {"attacker": enemy.id, "target": who.id, "reason": reason},
        )
    )


def opportunity(state: SidesState, dice: DiceSource, action: Action, events: list[Event]) -> None:
    """Resolve (or pass) the first pending opportunity attack: one melee attack, at once."""
    attacker_id, target_id, _ = state.pending.pop(0)
    who, target = state.combatants[attacker_id], state.combatants[target_id]
    if action.verb == "pass":
        events.append(
            Event(
                "opportunity",
                f"{who.name} lets {target.name} go",
                {"attacker": who.id, "target": target.id},
            )
        )
        return
    hit = attack(state, dice, who, target, action, events, "makes an opportunity attack on")
    if hit is not None:
        land(state, hit, events)
