"""Attacks, defences and opportunity attacks (D-ATK-1, D-ATK-2, D-DEF-1, D-DEF-2, D-OA-1).

An attack is two steps. The attacker declares it (``attack``, ``spell``, ``strike``,
``grab``, ``opportunity``) and pays for it; if the target could block, parry or dodge,
a defence window opens and the target answers, out of turn: ``block``, ``parry`` or
``dodge`` (minor interrupts, owed by its next turn) or ``take`` (the passive defence
alone; one kind of defence per attack). A ridden mount answers ``dodge`` for its rider.
Then the dice are rolled, the attacker's first, and the successes settle the outcome
(:func:`fracas.dice.successes`: equal or more succeeds, double is two successes...).
When the target cannot defend actively (unaware, knocked out, helpless, no AP left to
owe, no way to defend against that attack) no window opens: the passive defence is
rolled at once.

An action that provokes opportunity attacks opens an opportunity window first: the
enemies who may attack answer one by one in turn order, ``opportunity`` or ``pass``;
then the action is carried out (a run provokes on arrival: it moves first).
"""

from __future__ import annotations

from fracas.dice import successes
from fracas.engine import DiceSource, Event
from fracas.rules.diestep import grapple, health
from fracas.rules.diestep.rolls import ADV, DIS, Source, conditions, roll
from fracas.rules.diestep.state import (
    Attack,
    Combatant,
    DefenceWindow,
    DieStepState,
    OpportunityWindow,
)
from fracas.rules.diestep.turns import can_interrupt

PHYSICAL_KINDS = ("weapon", "strike", "grab", "crush", "throw", "opportunity")


def unaware(target: Combatant, attack: Attack) -> bool:
    return attack.attacker in target.unaware_of


def defences(state: DieStepState, attack: Attack) -> dict[str, str]:
    """D-DEF-1, D-DEF-2: the active defences open to ``attack``'s target, and who rolls each."""
    target = state.combatants[attack.target]
    if not attack.active or not target.able or attack.attacker in target.unaware_of:
        return {}
    out: dict[str, str] = {}
    spell_on_def = attack.kind == "spell" and attack.defence == "def" and attack.physical
    owes = can_interrupt(state, target)
    if owes and target.shield and target.ready and (attack.melee or attack.ranged or spell_on_def):
        out["block"] = target.id
    if owes and attack.melee:
        out["parry"] = target.id
    if attack.melee or attack.ranged or attack.physical:
        if target.mounted_on is not None:  # D-MOUNT-1: the mount dodges for both
            mount = state.combatants[target.mounted_on]
            if mount.able and can_interrupt(state, mount):
                out["dodge"] = mount.id
        elif owes:  # (asked of the target above)
            out["dodge"] = target.id
    return out


def declare(state: DieStepState, attack: Attack, dice: DiceSource, events: list[Event]) -> None:
    """Open a defence window, or resolve at once against the passive defence."""
    combatants = state.combatants
    attacker, target = combatants[attack.attacker], combatants[attack.target]
    options = defences(state, attack)
    what = _DECLARED.get(attack.kind, "attacks")
    if not options:
        events.append(
            Event(
                "attack",
                f"{attacker.name} {what} {target.name}",
                {"attacker": attacker.id, "target": target.id, "kind": attack.kind},
            )
        )
        resolve(state, attack, "take", target.id, dice, events)
        return
    state.windows.append(DefenceWindow(attack, options))
    answers = ", ".join(f"{combatants[by].name} may {how}" for how, by in options.items())
    events.append(
        Event(
            "attack",
            f"{attacker.name} {what} {target.name}: {answers}, or take it",
            {"attacker": attacker.id, "target": target.id, "kind": attack.kind},
        )
    )


#: How the log names an attack's roll, by its die and kind (a few of each).
_WHAT: dict[tuple[str, str], str] = {}
#: How the log words the declaration of an attack of each kind (else "attacks").
_DECLARED = {"spell": "casts at", "grab": "tries to grab", "opportunity": "strikes at"}


def attack_sources(
    state: DieStepState, attacker: Combatant, target: Combatant, attack: Attack
) -> list[Source]:
    physical = attack.kind in PHYSICAL_KINDS
    out = conditions(attacker, physical)
    weapon = attacker.weapon if attack.weapon else None
    if physical and attacker.prone and not (weapon and weapon.ignores_prone):
        out.append(("prone", DIS))  # D-PRONE-1
    partner = attacker.holding or attacker.held_by
    if partner is not None and partner != target.id:
        out.append(("grappling someone else", DIS))  # D-GRAB-1
    if (
        attack.melee
        and attack.kind in ("weapon", "opportunity")
        and attacker.mounted_on is not None
        and weapon is not None
        and weapon.hands == 1
        and target.mounted_on is None
    ):
        theirs = target.melee_weapon()
        if theirs is None or not theirs.long:
            out.append(("mounted one-handed attack", ADV))  # D-MOUNT-1
    turn = state.turn
    moving = turn is not None and turn.mount_moved and attacker.id in turn.members()
    if attack.ranged and attacker.mounted_on and moving:
        out.append(("from a moving mount", DIS))  # D-MOUNT-1
    if attack.kind == "throw":
        out.append(("throw", ADV))  # D-GRAB-1
    return out


def defence_sources(
    state: DieStepState, defender: Combatant, attack: Attack, active: bool
) -> list[Source]:
    out = conditions(defender, physical=False)
    if defender.hold == "full":
        out.append(("fully held", DIS))  # D-GRAB-1: physical actions and defences
    if active and defender.mounted_on is not None and not defender.sheet.riding:
        out.append(("unskilled rider", DIS))  # D-MOUNT-1
    physical = attack.kind in PHYSICAL_KINDS or attack.physical
    if defender.holding is not None and physical:
        held = state.who(defender.holding)
        if held.hold == "full":
            if attack.attacker == held.id:
                out.append(("holding the attacker", ADV))  # D-GRAB-1
            else:
                out.append(("holding someone", DIS))
    if defender.prone and attack.melee:
        out.append(("prone", DIS))  # D-PRONE-1
    if not active:
        if defender.surprised:
            out.append(("surprised", DIS))  # D-PRONE-1
        if unaware(defender, attack) and not attack.indirect:
            out.append(("unaware", DIS))  # D-DEF-1
    return out


def defence_roll(
    state: DieStepState, attack: Attack, how: str, by: str, dice: DiceSource, events: list[Event]
) -> int:
    attacker, defender = state.combatants[attack.attacker], state.combatants[by]
    sources = defence_sources(state, defender, attack, active=how != "take")
    if how == "block":
        sources.append(("block", ADV))
        return roll(dice, defender, "DEF to block", defender.sheet.dice["def"], sources, events)
    if how == "parry":
        if defender.melee_weapon() is None and attack.weapon is not None:
            sources.append(("unarmed against a weapon", DIS))
        elif (w := defender.melee_weapon()) is not None and not w.parry:
            sources.append((f"a {w.name} is not made to parry", DIS))
        if attacker.sheet.size >= state.tables.sizes.giant:
            sources.append(("parrying a giant", DIS))
        return roll(dice, defender, "ATT to parry", defender.sheet.dice["att"], sources, events)
    if how == "dodge":
        if state.regions[defender.region].cramped:
            sources.append(("no room to move", DIS))
        return roll(dice, defender, "REF to dodge", defender.sheet.dice["ref"], sources, events)
    sides = defender.sheet.dice[attack.defence]
    if defender.helpless and attack.defence == "def":
        sides = 2  # D-PRONE-1: a helpless DEF is a d2 with disadvantage
        sources.append(("helpless", DIS))
    minimum = state.tables.minimum_defence(attack.distance)
    if attack.ranged and attack.physical and minimum is not None and sides <= minimum:
        sides = minimum  # D-DEF-1: the minimum for the range, with no disadvantage
        sources = [s for s in sources if s[1] > 0] + [("minimum for the range", 0)]
    label = f"{attack.defence.upper()} (passive)"
    return roll(dice, defender, label, sides, sources, events)


def resolve(
    state: DieStepState,
    attack: Attack,
    how: str,
    by: str,
    dice: DiceSource,
    events: list[Event],
) -> None:
    """Roll the attack, then ``by``'s defence ``how``; successes decide (D-ATK-2)."""
    attacker, target = state.combatants[attack.attacker], state.combatants[attack.target]
    what = _WHAT.get((attack.die, attack.kind))
    if what is None:
        what = _WHAT[attack.die, attack.kind] = f"{attack.die.upper()} ({attack.kind})"
    rolled = roll(
        dice,
        attacker,
        what,
        attacker.sheet.dice[attack.die],
        attack_sources(state, attacker, target, attack),
        events,
        attack.ranks,
    )
    against = defence_roll(state, attack, how, by, dice, events)
    n = successes(rolled, against)
    if attacker.id in target.unaware_of:
        target.unaware_of.remove(attacker.id)  # attacked: now aware of the attacker
    events.append(
        Event(
            "result",
            f"{rolled} against {against}: "
            + (f"{n} success{'es' if n > 1 else ''}" if n else "no success"),
            {"attacker": attacker.id, "target": target.id, "successes": n},
        )
    )
    if n == 0:
        return
    if attack.kind == "grab":
        grapple.take_hold(state, attacker, target, "partial" if n == 1 else "full", events)
        return
    lethal = attack.lethal
    if attack.kind in ("strike", "crush"):
        lethal = target.knocked_out  # D-UNARMED-1
    if attack.kind == "throw":
        lethal = target.knocked_out or state.regions[target.region].ground == "hard"
        grapple.release(state, attacker, events, f"{target.name} is thrown to the ground")
        target.prone = True
    health.damage(state, target, n, lethal, events)  # D-DMG-1: one point per success


def opportunists(
    state: DieStepState, provokers: list[Combatant], regions: set[str], only: str | None = None
) -> tuple[str, ...]:
    """D-OA-1: the enemies in ``regions`` able to make an opportunity attack, in turn order."""
    ids = {p.id for p in provokers}
    sides = {p.side for p in provokers}
    out = []
    combatants = state.combatants
    for cid in state.order or list(combatants):
        c = combatants[cid]
        if cid in ids or c.side in sides or (only is not None and cid != only):
            continue
        if c.region not in regions or not c.able or c.melee_weapon() is None:
            continue
        if not ids.isdisjoint(c.unaware_of) or not can_interrupt(state, c):
            continue
        out.append(cid)
    return tuple(out)


def provoke(
    state: DieStepState,
    provoker: Combatant,
    waiting: tuple[str, ...],
    action: str | None,
    why: str,
    events: list[Event],
) -> None:
    state.windows.append(OpportunityWindow(provoker.id, waiting, action))
    names = ", ".join(state.who(c).name for c in waiting)
    events.append(
        Event(
            "provoke",
            f"{provoker.name} {why}: opportunity attacks from {names}",
            {"who": provoker.id, "from": list(waiting)},
        )
    )
