"""The odds of an attack before it is committed, for the game master's screen: the
exact chance to hit and the damage it would do, from the dice layer, with the modifiers
that make the attacker's challenge.

Heimr (the core): a weapon attack is the attacker's challenge (its ability, the
modifiers of :func:`fracas.rules.heimr.combat.attack_mods` and the weapon's potential
bonus) against the target's pre-rolled defence, a known number: it hits when its result
is higher, or when the attack's d6 is not below the attacker's fatigue and the defence
failed outright (H-ATK-4, H-DEF-2, H-FAT-1).

sides: a melee attack is 2d6 at or under the attacker's attribute less the target's
Evasion and the other difficulties, plus bonuses (S-ATK-1); its damage is the weapon's
dice less the Protection the weapon does not pierce (S-DMG-1; with a second weapon in
hand the higher of two rolls, not counted here: see the note).

heimr-classic: d20 plus combat skill (or agility, for a shot) and the typed modifiers,
at least the target's defence (or the shot's number), and then not dodged: the
target's d20 dodge must be strictly higher (HC-CS-1, HC-DODGE-1), unless it cannot
dodge now. Declared actions are resolved at the round's end: the odds are those of the
present state.

Other rulesets: not yet (``None``).

The odds read the whole state: they are for the game master only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fracas.dice.heimr import HeimrChallenge
from fracas.engine import Action
from fracas.table.table import Table

__all__ = ["AttackOdds", "attack_odds"]


@dataclass(frozen=True)
class AttackOdds:
    """An attack's exact chance to hit and its damage distribution (damage: chance)."""

    action: str
    challenge: str
    against: str
    modifiers: tuple[str, ...]
    hit: Fraction
    damage: tuple[tuple[int, Fraction], ...]
    note: str | None = None

    @property
    def percent(self) -> str:
        return f"{float(self.hit) * 100:.1f}%"


def attack_odds(table: Table, text: str) -> AttackOdds | None:
    """The odds of ``text`` (an attack) on ``table``, or ``None`` where they are not
    worked out (another ruleset, not an attack, a shot whose defence is rolled then)."""
    work = _BY_RULESET.get(table.ruleset.id)
    if work is None:
        return None
    try:
        action = Action.parse(text)
    except ValueError:
        return None
    if action.verb != "attack" or action.target is None:
        return None
    try:
        return work(table.encounter.state, action)
    except ValueError:  # an attack the rules would refuse: no odds to show
        return None


def _heimr(state: Any, action: Action) -> AttackOdds | None:
    from fracas.rules.heimr import combat, effects

    attacker = state.combatants.get(action.actor)
    target = state.combatants.get(action.target)
    if attacker is None or target is None or not attacker.weapons():
        return None
    weapon = attacker.weapons()[0]
    part = dict(action.options).get("part")
    ability = attacker.stats.abilities[weapon.ability]
    mods = combat.attack_mods(state, attacker, target, weapon, part)
    consistency = ability.consistency + sum(v for _, v in mods)
    potential = ability.potential + weapon.potential_bonus
    challenge = HeimrChallenge(consistency, potential)
    shown = [f"{why} {v:+d}C" for why, v in mods]
    if weapon.potential_bonus:
        shown.append(f"weapon {weapon.potential_bonus:+d}P")
    held = target.defence
    defends = effects.can_defend(target) and target.holding is None and held is not None
    if defends and not weapon.melee and (held.kind == "parry" or target.ready_dodge):
        return None  # the defence is rolled at the shot: not a known number
    # Only a physical ability's roll fails outright on fatigue (H-FAT-1).
    fatigue = attacker.fatigue if attacker.stats.physical(ability) else -(10**9)
    note = None
    if not defends:
        hit, against = Fraction(1), f"{target.name} cannot defend"
    else:
        against = f"{target.name}'s {held.kind} {held.result}"
        hit, note = _beats(challenge, held.result, held.failed, fatigue)
    miss = 1 - hit
    damage = tuple((d, p) for d, p in ((0, miss), (weapon.damage, hit)) if p)
    return AttackOdds(str(action), challenge.notation(), against, tuple(shown), hit, damage, note)


def _beats(
    challenge: HeimrChallenge, defence: int, defence_failed: bool, fatigue: int
) -> tuple[Fraction, str | None]:
    """P(the attack hits): its result above ``defence`` (any result, if the defence failed
    outright), unless its roll before potential is below ``fatigue`` (H-FAT-1)."""
    chance = Fraction(0)
    for (raw, _d6), p in challenge.joint().items():
        if raw < fatigue:
            continue
        if defence_failed or raw + challenge.potential > defence:
            chance += p
    return chance, None


def _sides(state: Any, action: Action) -> AttackOdds | None:
    from fracas.dice import parse
    from fracas.dice.sides import RollUnder
    from fracas.rules.sides import attacks, options

    attacker = state.combatants.get(action.actor)
    target = state.combatants.get(action.target)
    if attacker is None or target is None:
        return None
    _name, weapon = options.weapon(attacker, action, False, "S-MELEE-1")
    needed = attacks.attack_roll(
        state,
        attacker,
        target,
        weapon,
        called=options.called_shot(state, action),
        difficulty=options.number(action, "difficulty", "S-ATK-1") or 0,
        bonus=options.number(action, "bonus", "S-ATK-1") or 0,
    )
    mechanic = RollUnder.target(needed.target)
    hit = mechanic.pmf().get(1, Fraction(0))
    protection, pierced = attacks.protection_against(target, weapon)
    damage: dict[int, Fraction] = {0: 1 - hit}
    for rolled, p in parse("standard", weapon.damage_dice()).pmf().items():
        dealt = attacks.damage_after_protection(rolled, protection, pierced)
        damage[dealt] = damage.get(dealt, Fraction(0)) + hit * p
    off = options.off_hand(attacker, weapon)
    return AttackOdds(
        str(action),
        mechanic.notation(),
        f"{needed.describe()}",
        (),
        hit,
        tuple(sorted((d, p) for d, p in damage.items() if p)),
        "damage with one weapon; a second in hand rolls twice" if off is not None else None,
    )


def _classic(state: Any, action: Action) -> AttackOdds | None:
    from fracas.dice.classic import ClassicRoll
    from fracas.rules.classic import combat
    from fracas.rules.classic.modifiers import Modifier, describe, total

    attacker = state.combatants.get(action.actor)
    target = state.combatants.get(action.target)
    if attacker is None or target is None:
        return None
    _item, kind = combat.attack_weapon(state, attacker, action.option("with"))
    weapon = state.tables.weapons[kind]
    if attacker.stat("agility") < weapon.minimum_agility:
        return None
    if not weapon.ranged and target.position != attacker.position:
        return None
    if target.helpless or (attacker.plan.hero_hits and target.npc):
        return AttackOdds(
            str(action), "-", f"{target.name}: a sure hit", (), Fraction(1), ((0, Fraction(1)),)
        )
    if "attack" in attacker.plan.hero_best or (
        target.plan.hero_dodges and attacker.npc and _classic_dodge(state, attacker, target, True)
    ):
        return None  # a hero point decides the roll: no chance involved
    if weapon.ranged:
        mods = combat.tactic(attacker, "attack") + combat.common(state, attacker, "agility")
        if attacker.prone:
            mods.append(Modifier(-4, "c", "prone"))
        if target.prone:
            mods.append(Modifier(-2, "c", f"{target.name} prone"))
        base, need = attacker.stat("agility"), state.tables.ranged_base + (weapon.needed or 0)
    else:
        mods = [Modifier(weapon.attack, "e", _item)] if weapon.attack else []
        mods += combat.tactic(attacker, "attack") + combat.common(state, attacker, "attack")
        if attacker.prone:
            mods.append(Modifier(-2, "c", "prone"))
        base = attacker.stat("combat_skill")
        need, _ = combat.defence(state, target)
    spent = min(int(action.option("willpower") or 0), attacker.willpower)
    attack = ClassicRoll.parse(f"d20{base + 2 * spent + total(mods):+d}")
    dodge = _classic_dodge(state, attacker, target, not weapon.ranged)
    hit = Fraction(0)
    dodges = dodge.pmf() if dodge is not None else None
    for result, p in attack.pmf().items():
        if result < need:
            continue
        if dodges is None:
            hit += p
        else:  # the dodge must be strictly higher: a tie hits
            hit += p * sum((q for d, q in dodges.items() if d <= result), Fraction(0))
    against = f"defence {need}" + (f", {target.name}'s dodge {dodge.notation()}" if dodge else "")
    shown = (describe(mods),) if describe(mods) else ()
    spread = {0: 1 - hit}
    amount = state.tables.damage(kind)
    spread[amount] = spread.get(amount, Fraction(0)) + hit
    damage = tuple((d, p) for d, p in sorted(spread.items()) if p)
    return AttackOdds(str(action), f"{attack.notation()}>={need}", against, shown, hit, damage)


def _classic_dodge(state: Any, attacker: Any, target: Any, melee: bool) -> Any:
    """The target's dodge roll against this attack, or ``None`` when it cannot dodge
    (``HC-DODGE-1``)."""
    from fracas.dice.classic import ClassicRoll
    from fracas.rules.classic import combat
    from fracas.rules.classic.modifiers import total

    if target.helpless or target.has("confused") or target.plan.dodged:
        return None
    if target.plan.dodge_for not in (None, attacker.id):
        return None
    spend = target.plan.willpower.get("dodge", 0)
    base = target.stat("dodge") + 2 * min(spend, target.willpower)
    return ClassicRoll.parse(f"d20{base + total(combat.dodge_modifiers(state, target, melee)):+d}")


_BY_RULESET: dict[str, Callable[[Any, Action], AttackOdds | None]] = {
    "heimr": _heimr,
    "sides": _sides,
    "heimr-classic": _classic,
}
