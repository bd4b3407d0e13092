"""sides: an attack is 2d6 at or under the attacker's attribute less the target's
Evasion and the other difficulties, plus bonuses (S-ATK-1; a shot reads its range band,
S-ATK-2); its damage is the weapon's dice less the Protection the weapon does not pierce
(S-DMG-1; with a second weapon in hand the higher of two rolls, not counted here: see
the note). A melee attack is declared in its phase and resolved at the phase's end: the
odds are those of the present state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from fracas.dice import parse
from fracas.dice.sides import RollUnder
from fracas.engine import Action, Encounter
from fracas.engine.odds import AttackOdds, NoOdds, Words, spread

__all__ = ["attack_odds", "odds_lines", "sides_line", "sides_odds"]


def sides_odds(state: Any, action: Action) -> AttackOdds | NoOdds | None:
    from fracas.dice.sides import RollUnder
    from fracas.rules.sides import attacks, options, ranged

    if action.verb not in ("attack", "shoot") or action.target is None:
        return None
    attacker = state.combatants.get(action.actor)
    target = state.combatants.get(action.target)
    if attacker is None or target is None:
        return None
    shot = action.verb == "shoot"
    rule = "S-ATK-2" if shot else "S-ATK-1"
    _name, weapon = options.weapon(attacker, action, shot, "S-ATK-2" if shot else "S-MELEE-1")
    needed = attacks.attack_roll(
        state,
        attacker,
        target,
        weapon,
        band=ranged.band(state, attacker, target, action) if shot else None,
        called=options.called_shot(state, action),
        difficulty=options.number(action, "difficulty", rule) or 0,
        bonus=options.number(action, "bonus", rule) or 0,
    )
    mechanic = RollUnder.target(needed.target)
    protection, pierced = attacks.protection_against(target, weapon)
    line = sides_line(mechanic, weapon.damage_dice(), protection, pierced)
    off = None if shot else options.off_hand(attacker, weapon)
    return replace(
        line,
        action=str(action),
        against=needed.describe(),
        note="damage with one weapon; a second in hand rolls twice" if off is not None else None,
        command=f"fracas odds sides attack '{mechanic.notation()}' --damage "
        f"{weapon.damage_dice()} --protection {protection} --pierce {pierced}",
    )


# -- from the numbers alone (fracas odds sides attack) ------------------------


def sides_line(roll: RollUnder, damage: str, protection: int = 0, pierce: int = 0) -> AttackOdds:
    """2d6 at or under the number needed (S-ATK-1); on a hit the damage dice less the
    Protection the weapon does not pierce, at least 0 (S-DMG-1)."""
    from fracas.rules.sides.attacks import damage_after_protection

    hit = roll.pmf().get(1, Fraction(0))
    dealt: dict[int, Fraction] = {}
    for rolled, q in parse("standard", damage).pmf().items():
        d = damage_after_protection(rolled, protection, pierce)
        dealt[d] = dealt.get(d, Fraction(0)) + hit * q
    against = f"Protection {protection}" + (f" ({pierce} pierced)" if pierce else "")
    return AttackOdds("attack", roll.notation(), against, (), hit, spread(dealt, 1 - hit))


SIDES_USAGE = "fracas odds sides attack 2d6<=N --damage DICE [--protection N] [--pierce N]"


def odds_lines(words: Sequence[str]) -> list[AttackOdds]:
    from fracas.dice.sides import RollUnder

    p = Words("fracas odds sides attack", SIDES_USAGE)
    p.add_argument("--damage", required=True)
    p.add_argument("--protection", type=int, default=0)
    p.add_argument("--pierce", type=int, default=0)
    args = p.parse_args(list(words))
    if len(args.words) != 1:
        raise ValueError(f"expected one roll such as 2d6<=8 ({SIDES_USAGE})")
    roll = RollUnder.parse(args.words[0])
    return [sides_line(roll, args.damage, args.protection, args.pierce)]


def attack_odds(encounter: Encounter[Any], action: Action) -> AttackOdds | NoOdds | None:
    """The odds capability (:class:`fracas.engine.capabilities.Odds`)."""
    return sides_odds(encounter.state, action)
