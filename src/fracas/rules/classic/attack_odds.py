"""heimr-classic: d20 plus combat skill (or agility, for a shot) and the typed
modifiers, at least the target's defence (or the shot's number), and then not dodged:
the target's d20 dodge must be strictly higher (HC-CS-1, HC-DODGE-1), unless it cannot
dodge now. Declared actions are resolved at the round's end: the odds are those of the
present state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from fracas.dice.classic import ClassicRoll
from fracas.engine import Action, Encounter
from fracas.engine.odds import AttackOdds, NoOdds, Words, spread, vs_groups

__all__ = ["attack_odds", "classic_line", "classic_odds", "odds_lines"]


def classic_odds(state: Any, action: Action) -> AttackOdds | NoOdds | None:
    from fracas.dice.classic import ClassicRoll
    from fracas.rules.classic import combat
    from fracas.rules.classic.modifiers import Modifier, describe, total

    if action.verb != "attack" or action.target is None:
        return None
    attacker = state.combatants.get(action.actor)
    target = state.combatants.get(action.target)
    if attacker is None or target is None:
        return None
    _item, kind = combat.attack_weapon(state, attacker, action.option("with"))
    weapon = state.tables.weapons[kind]
    if attacker.stat("agility") < weapon.minimum_agility:
        return NoOdds(str(action), f"{attacker.name} lacks the agility for the {_item}")
    if not weapon.ranged and target.position != attacker.position:
        return NoOdds(str(action), f"{target.name} is out of reach of the {_item} now")
    if target.helpless or (attacker.plan.hero_hits and target.npc):
        return AttackOdds(
            str(action), "-", f"{target.name}: a sure hit", (), Fraction(1), ((0, Fraction(1)),)
        )
    if "attack" in attacker.plan.hero_best or (
        target.plan.hero_dodges and attacker.npc and _dodge(state, attacker, target, True)
    ):
        return NoOdds(str(action), "a hero point decides the roll: no chance involved")
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
    dodge = _dodge(state, attacker, target, not weapon.ranged)
    amount = state.tables.damage(kind)
    line = classic_line(attack, need, dodge, amount)
    against = f"defence {need}" + (f", {target.name}'s dodge {dodge.notation()}" if dodge else "")
    command = f"fracas odds heimr-classic attack {attack.notation()} vs {need}"
    command += (f" --dodge {dodge.notation()}" if dodge else "") + f" --damage {amount}"
    shown = (describe(mods),) if describe(mods) else ()
    return replace(line, action=str(action), against=against, modifiers=shown, command=command)


def _dodge(state: Any, attacker: Any, target: Any, melee: bool) -> Any:
    """The target's dodge roll against this attack, or ``None`` when it cannot dodge
    (``HC-DODGE-1``)."""
    from fracas.dice.classic import ClassicRoll
    from fracas.rules.classic import combat
    from fracas.rules.classic.modifiers import total

    spent = target.plan.dodged and state.tables.one_dodge_a_round
    if target.helpless or target.has("confused") or spent:
        return None
    if target.plan.dodge_for not in (None, attacker.id):
        return None
    spend = target.plan.willpower.get("dodge", 0) + _declared_dodge_willpower(state, target.id)
    base = target.stat("dodge") + 2 * min(spend, target.willpower)
    return ClassicRoll.parse(f"d20{base + total(combat.dodge_modifiers(state, target, melee)):+d}")


def _declared_dodge_willpower(state: Any, who: str) -> int:
    """The willpower ``who`` has declared into its dodge this round (``willpower
    roll=dodge``): it is put in when the round closes, before the attacks resolve (HC-WP-1)."""
    return sum(
        int(d.action.option("spend") or 0)
        for d in state.declared.of(who)
        if d.action.verb == "willpower" and (d.action.option("roll") or "dodge") == "dodge"
    )


# -- from the numbers alone (fracas odds heimr-classic attack) ------------------------


def classic_line(
    attack: ClassicRoll, need: int, dodge: ClassicRoll | None, damage: int
) -> AttackOdds:
    """At least ``need`` (HC-CS-1), then not dodged: the dodge must be strictly higher, a
    tie hits (HC-DODGE-1)."""
    dodges = dodge.pmf() if dodge is not None else None
    hit = Fraction(0)
    for result, q in attack.pmf().items():
        if result < need:
            continue
        if dodges is None:
            hit += q
        else:
            hit += q * sum((d for v, d in dodges.items() if v <= result), Fraction(0))
    against = f"defence {need}" + (f", dodge {dodge.notation()}" if dodge else "")
    spread_ = spread({damage: hit}, 1 - hit)
    return AttackOdds("attack", f"{attack.notation()}>={need}", against, (), hit, spread_)


CLASSIC_USAGE = "fracas odds heimr-classic attack d20+N vs DEFENCE [--dodge d20+M] [--damage N]"


def odds_lines(words: Sequence[str]) -> list[AttackOdds]:
    from fracas.dice.classic import ClassicRoll

    p = Words("fracas odds heimr-classic attack", CLASSIC_USAGE)
    p.add_argument("--dodge")
    p.add_argument("--damage", type=int, default=1)
    args = p.parse_args(list(words))
    groups = vs_groups(args.words)
    if len(groups) != 2 or len(groups[0]) != 1 or len(groups[1]) != 1:
        raise ValueError(f"expected 'd20+7 vs 18' ({CLASSIC_USAGE})")
    if not groups[1][0].lstrip("-").isdigit():
        raise ValueError(f"the defence is a number, not {groups[1][0]!r} ({CLASSIC_USAGE})")
    dodge = ClassicRoll.parse(args.dodge) if args.dodge else None
    attack = ClassicRoll.parse(groups[0][0])
    return [classic_line(attack, int(groups[1][0]), dodge, args.damage)]


def attack_odds(encounter: Encounter[Any], action: Action) -> AttackOdds | NoOdds | None:
    """The odds capability (:class:`fracas.engine.capabilities.Odds`)."""
    return classic_odds(encounter.state, action)
