"""Heimr (the core): a weapon attack is the attacker's challenge (its ability, the
modifiers of :func:`fracas.rules.heimr.combat.attack_mods` and the weapon's potential
bonus) against the target's defence.

Usually the defence is pre-rolled, a known number: the attack hits when its result is
higher, or when the attack's d6 is not below the attacker's fatigue and the defence
failed outright (H-ATK-4, H-DEF-2, H-FAT-1); a readied dodge adds 2 to it against a
shot (H-ACT-3). A shot at a parrying target, and any attack from the target's blind
spot, meets a defence rolled at the attack (H-DEF-2, H-MOD-1): a dodge (or a block,
when the attack says ``defence=block`` and the target has a shield), whose distribution
meets the attack's in :func:`fracas.rules.heimr.odds.attack_odds`, as
``fracas odds heimr attack`` works it out.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fracas.dice.heimr import HeimrChallenge
from fracas.engine import Action, Encounter
from fracas.engine.odds import AttackOdds, NoOdds, spread

__all__ = ["NO_FATIGUE", "attack_odds", "beats_held", "brawl_chances", "heimr_odds"]

#: The fatigue of a roll fatigue cannot fail (not physical, H-FAT-1): below any roll.
NO_FATIGUE = -1000


def heimr_odds(state: Any, action: Action) -> AttackOdds | NoOdds | None:
    from fracas.dice.heimr import MAX_CONSISTENCY
    from fracas.rules.heimr import combat, effects

    if action.verb == "brawl":
        return _brawl(state, action)
    if action.verb != "attack" or action.target is None:
        return None
    attacker = state.combatants.get(action.actor)
    target = state.combatants.get(action.target)
    if attacker is None or target is None or not attacker.weapons():
        return None
    weapon = attacker.weapons()[0]
    part = action.option("part")
    choice = action.option("defence")
    ability = attacker.stats.abilities[weapon.ability]
    mods = combat.attack_mods(state, attacker, target, weapon, part)
    consistency = ability.consistency + sum(v for _, v in mods)
    consistency = max(-MAX_CONSISTENCY, min(MAX_CONSISTENCY, consistency))
    potential = ability.potential + weapon.potential_bonus
    challenge = HeimrChallenge(consistency, potential)
    shown = [f"{why} {v:+d}C" for why, v in mods]
    if weapon.potential_bonus:
        shown.append(f"weapon {weapon.potential_bonus:+d}P")
    # Only a physical ability's roll fails outright on fatigue (H-FAT-1).
    physical = attacker.stats.physical(ability)
    if attacker.held_by is not None and physical:
        holder = state.combatants[attacker.held_by].name
        return NoOdds(
            str(action), f"held by {holder}: the attack must first beat a brawl roll (H-ATK-10)"
        )
    fatigue = attacker.fatigue if physical else NO_FATIGUE
    note = f"fatigue {attacker.fatigue}" if physical else None
    held = target.defence
    holding = target.holding is not None
    ranged = not weapon.melee
    if not effects.can_defend(target) or holding or choice == "none" or held is None:
        why = "does not defend" if choice == "none" else "cannot defend"
        hit = beats_held(challenge, None, True, fatigue)
        against = f"{target.name} {why}"
        words = f"vs none --fatigue {fatigue if physical else NO_FATIGUE}"
        return _line(action, challenge, against, shown, hit, weapon.damage, note, words)
    blind = combat.blind_spot_penalty(state, attacker, target, ranged)
    readied = ranged and target.ready_dodge
    if (ranged and held.kind == "parry") or blind:
        return _rolled_now(state, action, attacker, target, challenge, shown, weapon, blind)
    result = held.result + (combat.READY_DODGE_BONUS if readied and held.kind == "dodge" else 0)
    against = f"{target.name}'s {held.kind} {result}"
    if result != held.result:
        against += f" (readied: {held.result}{combat.READY_DODGE_BONUS:+d})"
    hit = beats_held(challenge, result, held.failed, fatigue)
    words = f"vs held {result} --fatigue {fatigue if physical else NO_FATIGUE}"
    words += " --defence-failed" if held.failed else ""
    return _line(action, challenge, against, shown, hit, weapon.damage, note, words)


def _brawl(state: Any, action: Action) -> AttackOdds | NoOdds | None:
    """A brawl (H-ATK-8) against a held defence or none: a hit is Hit 1 (or a hold, with
    ``effect=bind``), a result equal to the defence or one below only touches (a hold
    too: docs/decisions.md). An armed target's weapon first (H-ATK-9), a luck shot
    (H-POS-4), a hold (H-ATK-10) or a blind spot (H-MOD-1) roll more first: no odds."""
    from fracas.dice.heimr import MAX_CONSISTENCY
    from fracas.rules.heimr import combat, effects, hiding, terrain

    attacker = state.combatants.get(action.actor)
    target = state.combatants.get(action.target) if action.target else None
    if attacker is None or target is None or "Brawl" not in attacker.stats.abilities:
        return None
    bind = (action.option("effect", "hit") or "hit") == "bind"
    if hiding.hidden_from(target, attacker.side) == hiding.AWARE:
        return NoOdds(str(action), f"{target.name} is hidden: a luck shot first (H-POS-4)")
    armed = any(w.melee for w in target.weapons())
    if armed and target.id not in attacker.dodged_melee_of and effects.can_act(target):
        return NoOdds(str(action), f"{target.name} is armed: first get past the weapon (H-ATK-9)")
    ability = attacker.stats.abilities["Brawl"]
    physical = attacker.stats.physical(ability)
    if attacker.held_by is not None and physical:
        holder = state.combatants[attacker.held_by].name
        return NoOdds(str(action), f"held by {holder}: first beat a brawl roll (H-ATK-10)")
    mods = [("prone", -combat.PRONE_PENALTY)] if attacker.prone else []
    mods += terrain.attack_mods(state, attacker, target, True)
    consistency = ability.consistency + sum(v for _, v in mods)
    consistency = max(-MAX_CONSISTENCY, min(MAX_CONSISTENCY, consistency))
    challenge = HeimrChallenge(consistency, ability.potential)
    fatigue = attacker.fatigue if physical else NO_FATIGUE
    held = target.defence
    if not effects.can_defend(target) or target.holding is not None or held is None:
        against, result, failed = f"{target.name} cannot defend", None, True
    elif action.option("defence") == "none":
        against, result, failed = f"{target.name} does not defend", None, True
    elif combat.blind_spot_penalty(state, attacker, target, False):
        return NoOdds(str(action), "from a blind spot the defence is rolled at the brawl")
    else:
        against, result, failed = (
            f"{target.name}'s {held.kind} {held.result}",
            held.result,
            held.failed,
        )
    hit, touch = brawl_chances(challenge, result, failed, fatigue)
    shown = tuple(f"{why} {v:+d}C" for why, v in mods)
    tired = f"fatigue {attacker.fatigue}" if physical else "not physical"
    # The hit alone is a weapon attack's against the same defence (Hit 1: damage 1).
    vs = "vs none" if result is None else f"vs held {result}"
    vs += " --defence-failed" if failed and result is not None else ""
    command = f"fracas odds heimr attack {challenge.notation()} {vs} --fatigue {fatigue}"
    figures: tuple[tuple[str, Fraction], ...]
    if bind:
        note = f"a hold {float(hit + touch) * 100:.1f}% (a touch grabs too); {tired}"
        damage, figures = spread({}, Fraction(1)), (("touch", touch), ("hold", hit + touch))
        command += " --damage 0"
    else:
        note = f"touch {float(touch) * 100:.1f}% (no hit points); {tired}"
        damage, figures = spread({1: hit}, 1 - hit), (("touch", touch),)
        command += " --damage 1"
    return AttackOdds(
        str(action),
        challenge.notation(),
        against,
        shown,
        hit,
        damage,
        note,
        command=command,
        figures=figures,
    )


def brawl_chances(
    challenge: HeimrChallenge, defence: int | None, defence_failed: bool, fatigue: int
) -> tuple[Fraction, Fraction]:
    """P(hit) and P(touch) of a brawl against a held ``defence`` (H-ATK-8, H-FAT-1): a touch
    is a result equal to the defence or at most :data:`~fracas.rules.heimr.odds.TOUCH_BAND`
    below.

    A d6 alone (C0P0) against 5: a 6 hits, a 5 or a 4 touches.

    >>> brawl_chances(HeimrChallenge(0, 0), 5, False, 0)
    (Fraction(1, 6), Fraction(1, 3))
    """
    from fracas.rules.heimr.odds import TOUCH_BAND

    hit = touch = Fraction(0)
    for (raw, _d6), p in challenge.joint().items():
        if raw < fatigue:
            continue
        margin = raw + challenge.potential - (defence or 0)
        if defence_failed or defence is None or margin > 0:
            hit += p
        elif margin >= -TOUCH_BAND:
            touch += p
    return hit, touch


def _rolled_now(
    state: Any,
    action: Action,
    attacker: Any,
    target: Any,
    challenge: HeimrChallenge,
    shown: list[str],
    weapon: Any,
    blind: int,
) -> AttackOdds | NoOdds:
    """The defence rolled at the attack, as :func:`fracas.rules.heimr.combat.defend`
    rolls it: its distribution against the attack's (H-DEF-2, H-ACT-3, H-MOD-1)."""
    from fracas.dice.heimr import MAX_CONSISTENCY
    from fracas.rules.heimr import combat
    from fracas.rules.heimr.odds import Side
    from fracas.rules.heimr.odds import attack_odds as duel_odds

    ranged = not weapon.melee
    held = target.defence
    kind = held.kind
    if ranged and held.kind == "parry":
        kind = "block" if action.option("defence") == "block" and target.shield else "dodge"
    found = combat.defence_ability(target, kind)
    if found is None:
        kind, found = "dodge", combat.defence_ability(target, "dodge")
    if found is None:
        return NoOdds(str(action), f"{target.name} has no {kind} to roll")
    skill, bonus = found
    readied = ranged and target.ready_dodge and kind == "dodge"
    potential = skill.potential + bonus + (combat.READY_DODGE_BONUS if readied else 0)
    mods = combat.defence_mods(state, target, kind) + ([("blind spot", -blind)] if blind else [])
    consistency = skill.consistency + sum(v for _, v in mods)
    consistency = max(-MAX_CONSISTENCY, min(MAX_CONSISTENCY, consistency))
    attacking = attacker.stats.abilities[weapon.ability]
    odds = duel_odds(
        Side(
            challenge.consistency,
            challenge.potential,
            attacker.fatigue,
            0,
            attacker.stats.physical(attacking),
        ),
        Side(consistency, potential, target.fatigue, 0, target.stats.physical(skill)),
        weapon.damage,
        kind,
    )
    defence = HeimrChallenge(consistency, potential)
    why = [f"{w} {v:+d}C" for w, v in mods] + (["readied +2P"] if readied else [])
    against = f"{target.name}'s {kind} {defence.notation()} rolled at the attack"
    if why:
        against += f" ({', '.join(why)})"
    note = f"fatigue {attacker.fatigue}, {target.name}'s fatigue {target.fatigue}"
    own = attacker.fatigue if attacker.stats.physical(attacking) else NO_FATIGUE
    theirs = target.fatigue if target.stats.physical(skill) else NO_FATIGUE
    words = f"vs {kind} {defence.notation()} --fatigue {own} --defender-fatigue {theirs}"
    return _line(action, challenge, against, shown, odds.hit, weapon.damage, note, words, kind)


def _line(
    action: Action,
    challenge: HeimrChallenge,
    against: str,
    shown: list[str],
    hit: Fraction,
    damage: int,
    note: str | None,
    words: str,
    defence: str | None = None,
) -> AttackOdds:
    return AttackOdds(
        str(action),
        challenge.notation(),
        against,
        tuple(shown),
        hit,
        spread({damage: hit}, 1 - hit),
        note,
        defence,
        command=f"fracas odds heimr attack {challenge.notation()} {words} --damage {damage}",
    )


def beats_held(
    challenge: HeimrChallenge, defence: int | None, defence_failed: bool, fatigue: int
) -> Fraction:
    """P(the attack hits): its result above ``defence`` (any result, if the defence failed
    outright or there is none), unless its roll before potential is below ``fatigue``
    (H-FAT-1)."""
    chance = Fraction(0)
    for (raw, _d6), p in challenge.joint().items():
        if raw < fatigue:
            continue
        if defence_failed or defence is None or raw + challenge.potential > defence:
            chance += p
    return chance


def attack_odds(encounter: Encounter[Any], action: Action) -> AttackOdds | NoOdds | None:
    """The odds capability (:class:`fracas.engine.capabilities.Odds`)."""
    return heimr_odds(encounter.state, action)


def side_attack_odds(
    encounter: Encounter[Any], side: str, action: Action
) -> AttackOdds | NoOdds | None:
    """The odds ``side`` may be shown of its own attack (the optional side odds of
    :class:`fracas.engine.capabilities.Odds`): only where they follow from what that side
    sees, its own combatant's numbers and the target's pre-rolled defence, which every
    side sees (H-ATK-3). A defence rolled at the attack reads the target's abilities and
    fatigue, a hidden target its concealment, a daze its turns left: none of them shown to
    ``side``, so no odds, with a reason that says nothing of them."""
    from fracas.rules.heimr import hiding

    state = encounter.state
    attacker = state.combatants.get(action.actor)
    if attacker is None or attacker.side != side or action.verb not in ("attack", "brawl"):
        return None
    target = state.combatants.get(action.target) if action.target else None
    if target is None:
        return None
    secret = "its defence would be rolled from numbers your side does not see"
    if target.hide_cr is not None and hiding.hidden_from(target, side) is not None:
        return NoOdds(str(action), secret)
    if target.side != side and target.has("Daze"):
        return NoOdds(str(action), secret)
    found = heimr_odds(state, action)
    if isinstance(found, AttackOdds) and target.side != side and (found.choices or found.defence):
        return NoOdds(str(action), secret)
    return found
