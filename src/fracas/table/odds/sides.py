"""sides: an attack is 2d6 at or under the attacker's attribute less the target's
Evasion and the other difficulties, plus bonuses (S-ATK-1; a shot reads its range band,
S-ATK-2); its damage is the weapon's dice less the Protection the weapon does not pierce
(S-DMG-1; with a second weapon in hand the higher of two rolls, not counted here: see
the note). A melee attack is declared in its phase and resolved at the phase's end: the
odds are those of the present state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fracas.engine import Action
from fracas.table.odds.base import AttackOdds, NoOdds
from fracas.table.odds.numbers import sides_line

__all__ = ["sides_odds"]


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
