"""Attacks, defence and dodges (HC-CS-1, HC-DODGE-1, HC-AGI-1) and their modifiers.

Melee: d20 + combat skill + the attack modifiers must reach the target's defence
(combat skill + its weapon's and shield's defence bonus) for a potential hit.
Ranged: d20 + agility must reach 15 + the weapon's modifier. A potential hit may be
dodged: d20 + dodge strictly higher than the attack roll misses (ties go to the
attacker, :data:`fracas.dice.opposed.TIES_TO_FIRST`). A character dodges once a round:
the dodge is its reactive action (HC-ACT-1; docs/decisions.md), unless the campaign
sets ``one_dodge_a_round: false``.

Tactics (HC-TAC-1), conditions (HC-COND-1), willpower (HC-WP-1), hero points
(HC-HERO-1) and the environment of the position change these rolls.
"""

from __future__ import annotations

from functools import lru_cache

from fracas.dice import ClassicRoll, Roll, opposed
from fracas.engine import DiceSource, Event
from fracas.rules.classic import health
from fracas.rules.classic.campaign import WeaponType
from fracas.rules.classic.modifiers import Modifier, describe, strongest_penalty, total
from fracas.rules.classic.state import ClassicState, Fighter

#: HC-TAC-1: tactic -> roll -> modifier (type t).
TACTIC_MODIFIERS: dict[str, dict[str, int]] = {
    "normal": {},
    "aggressive": {"attack": 1, "defence": -1},
    "defensive": {"defence": 1, "attack": -1},
    "mobile": {"dodge": 1, "attack": -1},
}


def weapon_in(state: ClassicState, who: Fighter, hand: str) -> tuple[str, str] | None:
    """The item and weapon type in a hand (``main`` or ``off``), if the item is a weapon."""
    item = who.main_hand if hand == "main" else who.off_hand
    kind = who.profile.weapons.get(item or "")
    if item is None or kind is None:
        return None
    return item, kind


def attack_weapon(state: ClassicState, who: Fighter, hand: str | None) -> tuple[str, str]:
    """The weapon an attack is made with: the named hand, else the sword hand's, else the
    off hand's, else bare hands (docs/decisions.md)."""
    for h in (hand,) if hand else ("main", "off"):
        found = weapon_in(state, who, h)
        if found is not None and not state.tables.weapons[found[1]].shield:
            return found
    return "bare hands", "unarmed"


def tactic(who: Fighter, roll: str) -> list[Modifier]:
    """HC-TAC-1: the round's tactic modifier (type t) to ``roll``."""
    value = TACTIC_MODIFIERS[who.plan.tactic].get(roll)
    return [Modifier(value, "t", who.plan.tactic)] if value else []


#: HC-COND-1: "a -5 conditional penalty on weapon skills, agility and dodge": the
#: combat skill's attack and defence, agility (ranged attacks) and dodge, not initiative.
BLINDED_ROLLS = frozenset({"attack", "defence", "agility", "dodge"})


def common(state: ClassicState, who: Fighter, roll: str) -> list[Modifier]:
    """Blindness (HC-COND-1) and the position's environment modifiers to ``roll``."""
    mods = []
    if who.has("blinded") and roll in BLINDED_ROLLS:
        mods.append(Modifier(-5, "c", "blinded"))
    env = state.battlefield.places[who.position].modifiers.get(roll)
    if env:
        mods.append(Modifier(env, "env", who.position))
    return mods


def defence(state: ClassicState, who: Fighter) -> tuple[int, list[Modifier]]:
    """HC-CS-1: combat skill plus the defence bonus of the weapons and shield held."""
    held = [found for h in ("main", "off") if (found := weapon_in(state, who, h)) is not None]
    weapons = [(item, state.tables.weapons[kind]) for item, kind in held]
    melee = [(item, w) for item, w in weapons if not w.shield and not w.ranged]
    mods: list[Modifier] = []
    if not melee:
        mods.append(Modifier(state.tables.weapons["unarmed"].defence, "e", "unarmed"))
    else:
        item, w = melee[0]
        mods.append(Modifier(w.defence, "e", item))
        if len(melee) > 1:  # two weapons: the main hand plus half the off hand, rounded down
            off_item, off = melee[1]
            mods.append(Modifier(off.defence // 2, "e", f"half {off_item}", stacks=True))
    for item, w in weapons:
        if w.shield:  # a shield's defence stacks with the weapon's
            mods.append(Modifier(w.defence, "e", item, stacks=True))
    mods += tactic(who, "defence") + common(state, who, "defence")
    return who.stat("combat_skill") + total(mods), mods


def dodge_modifiers(state: ClassicState, who: Fighter, melee: bool) -> list[Modifier]:
    """HC-DODGE-1: armour and shield penalties (Armourstacking keeps only the highest)."""
    armour = [Modifier(state.tables.armour[a], "e", f"{a} armour") for a in who.profile.armour]
    if state.tables.armour_stacking_skill in who.profile.skills:
        armour = strongest_penalty(armour)
    mods = armour
    for h in ("main", "off"):
        found = weapon_in(state, who, h)
        if found is not None and state.tables.weapons[found[1]].dodge:
            mods.append(Modifier(state.tables.weapons[found[1]].dodge, "e", found[0]))
    if who.prone and melee:
        mods.append(Modifier(-2, "c", "prone"))
    return mods + tactic(who, "dodge") + common(state, who, "dodge")


@lru_cache(maxsize=256)
def _d20(modifier: int) -> ClassicRoll:
    """The d20 roll with ``modifier`` (a mechanic is immutable: parsed once)."""
    return ClassicRoll.parse(f"d20{modifier:+d}")


def roll_d20(
    dice: DiceSource, modifier: int, purpose: str, best: bool = False
) -> tuple[ClassicRoll, Roll]:
    """A d20 + ``modifier``; ``best`` makes it as good as possible (a hero point)."""
    mechanic = _d20(modifier)
    roll = mechanic.evaluate([20]) if best else dice.roll(mechanic, purpose)
    return mechanic, roll


def _spend_willpower(who: Fighter, amount: int, events: list[Event]) -> int:
    """HC-WP-1: each willpower spent before a roll adds 2 to the statistic."""
    amount = min(amount, who.willpower)
    if amount > 0:
        who.willpower -= amount
        events.append(
            Event(
                "willpower",
                f"{who.name} spends {amount} willpower: +{2 * amount} to the roll",
                {"who": who.id, "spent": amount, "left": who.willpower},
                detail=frozenset({who.side}),  # what is left is the own side's
                outline=f"{who.name} spends {amount} willpower: +{2 * amount} to the roll",
                outline_data={"who": who.id, "spent": amount},
            )
        )
    return 2 * amount


def _best(who: Fighter, roll: str, against: Fighter) -> bool:
    """HC-HERO-1: a hero point makes this roll as good as possible (only against NPCs)."""
    if roll in who.plan.hero_best and against.npc:
        who.plan.hero_best.remove(roll)
        return True
    return False


def _roll_event(who: Fighter, what: str, roll: Roll, mods: list[Modifier], best: bool) -> Event:
    name, shown = who.name, tuple(mods)

    def render() -> str:  # the words, written only if the log is read
        how = "a hero point makes it a 20" if best else f"d20 shows {roll.faces[0]}"
        said = describe(shown)
        extra = f" ({said})" if said else ""
        return f"{name}'s {what}: {how}, {roll.result}{extra}"

    return Event.deferred(
        "roll",
        render,
        {"who": who.id, "roll": what, "faces": list(roll.faces), "result": roll.result},
    )


def attack(
    state: ClassicState,
    attacker: Fighter,
    target: Fighter,
    dice: DiceSource,
    events: list[Event],
    *,
    hand: str | None = None,
    willpower: int = 0,
    touch: bool = False,
    damage: int | None = None,
) -> bool:
    """One attack; ``True`` when it hits. A touch attack (a spell's) uses no weapon."""
    item, kind = ("a touch", "unarmed") if touch else attack_weapon(state, attacker, hand)
    weapon = state.tables.weapons[kind]
    ranged = weapon.ranged
    if ranged:
        attacker.plan.attacked = True
    else:
        attacker.plan.melee_target = target.id
        target.plan.melee_attacked = True
    verb = "shoots at" if ranged else "attacks"
    events.append(
        Event(
            "attack",
            f"{attacker.name} {verb} {target.name} with {item}",
            {"who": attacker.id, "target": target.id, "weapon": item},
        )
    )
    if ranged and not _loose(state, attacker, item, weapon, events):
        return False
    if target.helpless:
        events.append(Event("hit", f"{target.name} is helpless: the attack hits", {}))
    elif attacker.plan.hero_hits and target.npc:
        attacker.plan.hero_hits -= 1
        events.append(Event("hit", f"a hero point: {attacker.name}'s attack hits", {}))
    elif not _rolls_hit(state, attacker, target, dice, events, item, weapon, willpower):
        return False
    amount = damage if damage is not None else (0 if touch else state.tables.damage(kind))
    health.hurt(state, target, amount, events)
    return True


def _loose(
    state: ClassicState, who: Fighter, item: str, weapon: WeaponType, events: list[Event]
) -> bool:
    """A ranged weapon needs a drawn arrow, or a throwing weapon in hand."""
    if who.loaded <= 0:
        what = "no arrow drawn" if weapon.ammunition else f"no {item} in hand to throw"
        events.append(Event("miss", f"{who.name} has {what}: nothing flies", {}))
        return False
    who.loaded -= 1
    if not weapon.ammunition and who.loaded == 0:  # every throwing weapon thrown
        who.main_hand = None if who.main_hand == item else who.main_hand
        who.off_hand = None if who.off_hand == item else who.off_hand
        who.carried.append(item)
    return True


def _rolls_hit(
    state: ClassicState,
    attacker: Fighter,
    target: Fighter,
    dice: DiceSource,
    events: list[Event],
    item: str,
    weapon: WeaponType,
    willpower: int,
) -> bool:
    ranged = weapon.ranged
    if ranged:
        mods = tactic(attacker, "attack") + common(state, attacker, "agility")
        if attacker.prone:
            mods.append(Modifier(-4, "c", "prone"))
        if target.prone:
            mods.append(Modifier(-2, "c", f"{target.name} prone"))
        base, need = attacker.stat("agility"), state.tables.ranged_base + (weapon.needed or 0)
        what, against = "agility roll", f"needs {need}"
    else:
        mods = [Modifier(weapon.attack, "e", item)] if weapon.attack else []
        mods += tactic(attacker, "attack") + common(state, attacker, "attack")
        if attacker.prone:
            mods.append(Modifier(-2, "c", "prone"))
        base = attacker.stat("combat_skill")
        need, _ = defence(state, target)
        what, against = "attack", f"against defence {need}"
    base += _spend_willpower(attacker, willpower, events)
    best = _best(attacker, "attack", target)
    mechanic, roll = roll_d20(dice, base + total(mods), f"{attacker.name}'s {what}", best)
    events.append(_roll_event(attacker, what, roll, mods, best))
    if roll.result < need:
        events.append(Event("miss", f"{roll.result} {against}: a miss", {"target": target.id}))
        return False
    events.append(
        Event("potential", f"{roll.result} {against}: a potential hit", {"target": target.id})
    )
    return not dodge(state, attacker, target, mechanic, roll, not ranged, dice, events)


def dodge(
    state: ClassicState,
    attacker: Fighter,
    target: Fighter,
    attack_mechanic: ClassicRoll,
    attack_roll: Roll,
    melee: bool,
    dice: DiceSource,
    events: list[Event],
) -> bool:
    """HC-DODGE-1: ``True`` when ``target`` dodges the potential hit."""
    name = target.name
    if target.helpless or target.has("confused"):
        state_ = "helpless" if target.helpless else "confused"
        events.append(Event("hit", f"{name} is {state_} and cannot dodge: a hit", {}))
        return False
    if target.plan.hero_dodges and attacker.npc:
        target.plan.hero_dodges -= 1
        events.append(Event("dodge", f"a hero point: {name} dodges {attacker.name}", {}))
        return True
    if target.plan.dodged and state.tables.one_dodge_a_round:
        events.append(Event("hit", f"{name} has dodged once this round already: a hit", {}))
        return False
    if target.plan.dodge_for not in (None, attacker.id):
        kept = state.combatants[target.plan.dodge_for or ""].name
        events.append(Event("hit", f"{name} keeps the dodge for {kept}: a hit", {}))
        return False
    target.plan.dodged = True
    mods = dodge_modifiers(state, target, melee)
    spend = target.plan.willpower.pop("dodge", 0)
    base = target.stat("dodge") + _spend_willpower(target, spend, events)
    best = _best(target, "dodge", attacker)
    mechanic, roll = roll_d20(dice, base + total(mods), f"{name}'s dodge", best)
    events.append(_roll_event(target, "dodge", roll, mods, best))
    outcome = opposed("heimr-classic", attack_mechanic, mechanic).resolve(attack_roll, roll)
    if outcome.parts["success"]:
        events.append(Event("hit", f"{roll.result} is not above {attack_roll.result}: a hit", {}))
        return False
    events.append(Event("dodge", f"{roll.result} beats {attack_roll.result}: dodged", {}))
    return True
