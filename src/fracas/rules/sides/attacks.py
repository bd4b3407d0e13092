"""Attacks: the 2d6 roll-under, damage, Protection and Armour Piercing, Stamina and Health.

An attack rolls 2d6 at or under the weapon's Attack Attribute minus the difficulty plus
any circumstance bonus (S-ATK-1). The difficulty is the target's Evasion, raised by far
range (S-ATK-2), a called shot (S-CALLED-1), an untrained rider (S-MOUNT-1), a confined
space (S-OPT-1) and whatever the referee adds; close range is a bonus.

>>> AttackRoll("Strength", 10, (("Evasion", 1),), ()).describe()  # the seed's Darna
'Strength 10 - Evasion 1 = 9'
>>> damage_after_protection(4, 3, 2)  # thick metal armour 3, "Metal; 2", a 4: 3 damage
3
"""

from __future__ import annotations

from dataclasses import dataclass

from fracas.dice import Roll, RollUnder, parse
from fracas.engine import DiceSource, Event
from fracas.rules.sides.campaign import CalledShot, Weapon
from fracas.rules.sides.state import Combatant, SidesState


@dataclass(frozen=True)
class AttackRoll:
    """S-ATK-1: the number to roll at or under, and how it was reached."""

    attribute: str
    score: int
    difficulty: tuple[tuple[str, int], ...]
    bonus: tuple[tuple[str, int], ...]

    @property
    def target(self) -> int:
        return self.score - sum(n for _, n in self.difficulty) + sum(n for _, n in self.bonus)

    def describe(self) -> str:
        terms = [f"{self.attribute} {self.score}"]
        terms += [f"- {why} {n}" for why, n in self.difficulty if n or why == "Evasion"]
        terms += [f"+ {why} {n}" for why, n in self.bonus if n]
        return " ".join(terms) + f" = {self.target}"


@dataclass(frozen=True)
class Called:
    """A called shot (S-CALLED-1): the part, its difficulty and what a hit there does."""

    part: str
    difficulty: int
    shot: CalledShot | None


@dataclass(frozen=True)
class Hit:
    """An attack's outcome, applied when its strike comes (S-MELEE-1)."""

    attacker: str
    target: str
    damage: int
    drop: bool = False


def attack_roll(
    state: SidesState,
    attacker: Combatant,
    target: Combatant,
    weapon: Weapon,
    *,
    band: str | None = None,
    called: Called | None = None,
    difficulty: int = 0,
    bonus: int = 0,
) -> AttackRoll:
    """The roll ``attacker`` makes with ``weapon`` against ``target``; ``band`` is the
    range band of a ranged attack (close, medium, far)."""
    tables = state.tables
    hard: list[tuple[str, int]] = [("Evasion", target.stats.evasion)]
    easy: list[tuple[str, int]] = []
    if band == "close":
        easy.append(("close range", tables.ranged.close_bonus))
    if band == "far":
        hard.append(("far range", tables.ranged.far_difficulty))
    if called is not None:
        hard.append((f"called shot at the {called.part}", called.difficulty))
    if attacker.stats.mounted and not attacker.stats.trained_rider:
        hard.append(("untrained rider", tables.mounted.untrained_difficulty))
    if state.confined_space and weapon.length is not None:
        hard.append((f"{weapon.length} weapon in a confined space", _confined(state, weapon)))
    if difficulty:
        hard.append(("the referee's difficulty", difficulty))
    if bonus:
        easy.append(("circumstance bonus", bonus))
    score = attacker.stats.attribute(weapon.attribute)
    assert score is not None  # checked when the sheet was loaded
    return AttackRoll(weapon.attribute, score, tuple(hard), tuple(easy))


def _confined(state: SidesState, weapon: Weapon) -> int:
    table = state.tables.confined_space
    return {"short": table.short, "middle": table.middle, "long": table.long}[weapon.length or ""]


def protection_against(target: Combatant, weapon: Weapon) -> tuple[int, int]:
    """S-DMG-1: the target's Protection, and how much of it the weapon's Armour
    Piercing bypasses (up to N of the listed category)."""
    if target.stats.armour is None:
        return 0, 0
    _, armour = target.stats.armour
    protection = armour.protection
    return protection, min(protection, weapon.piercing_against(armour.category))


def damage_after_protection(rolled: int, protection: int, pierced: int = 0) -> int:
    """S-DMG-1: damage less the Protection left after Armour Piercing, at least 0."""
    return max(0, rolled - (protection - pierced))


def roll_damage(
    dice: DiceSource, attacker: Combatant, weapon: Weapon, off: Weapon | None, extra: int
) -> tuple[int, str, list[int]]:
    """S-DMG-1: the weapon's damage dice; with a second weapon both are rolled and the
    higher kept. ``extra`` is added (a mounted charge, S-MOUNT-1)."""
    rolls = [dice.roll(parse("standard", weapon.damage_dice()), f"{attacker.name}'s damage")]
    if off is not None:
        rolls.append(dice.roll(parse("standard", off.damage_dice()), f"{attacker.name}'s damage"))
    best = max(r.result for r in rolls)
    faces = [f for r in rolls for f in r.faces]
    text = " and ".join(_read(r) for r in rolls)
    if len(rolls) > 1:
        text += f", the higher {best}"
    if extra:
        text += f", +{extra} for the mounted charge"
    return best + extra, text, faces


def _read(roll: Roll) -> str:
    """A damage roll as the seed tells it: "a 3", or "4 (d6+1: 3)"."""
    if roll.mechanic is None or roll.mechanic.notation() == "d6":
        return str(roll.result)
    return f"{roll.result} ({roll.mechanic.notation()}: {'+'.join(map(str, roll.faces))})"


def strike(
    state: SidesState,
    dice: DiceSource,
    attacker: Combatant,
    target: Combatant,
    weapon: tuple[str, Weapon],
    events: list[Event],
    *,
    kind: str,
    band: str | None = None,
    called: Called | None = None,
    difficulty: int = 0,
    bonus: int = 0,
    off: Weapon | None = None,
    extra_damage: int = 0,
) -> Hit | None:
    """Roll one attack and, on a hit, its damage; the caller applies the :class:`Hit`."""
    wname, w = weapon
    odds = attack_roll(
        state, attacker, target, w, band=band, called=called, difficulty=difficulty, bonus=bonus
    )
    roll = dice.roll(RollUnder.target(odds.target), f"{attacker.name} attacks {target.name}")
    total = roll.parts["total"]
    hit = roll.result == 1
    rolls = f"rolls {'+'.join(map(str, roll.faces))} = {total}: {'a hit' if hit else 'a miss'}"
    seen_before = {"attacker": attacker.id, "target": target.id, "weapon": wname, "kind": kind}
    seen_after = {"faces": list(roll.faces), "total": total, "hit": hit}
    events.append(
        Event(
            "attack",
            f"{attacker.name} {kind} {target.name} with the {wname}: {odds.describe()}; {rolls}",
            {**seen_before, "needed": odds.target, **seen_after},
            # The number needed tells the attacker's attribute, which is its own side's.
            detail=frozenset({attacker.side}),
            outline=f"{attacker.name} {kind} {target.name} with the {wname}: {rolls}",
            outline_data={**seen_before, **seen_after},
        )
    )
    if not hit:
        return None
    rolled, text, faces = roll_damage(dice, attacker, w, off, extra_damage)
    protection, pierced = protection_against(target, w)
    damage = damage_after_protection(rolled, protection, pierced)
    why = f"damage {text}"
    if protection:
        why += f" - Protection {protection}"
        if pierced:
            why += f" ({pierced} pierced)"
    events.append(
        Event(
            "damage",
            f"{why} = {damage}",
            {
                "attacker": attacker.id,
                "target": target.id,
                "faces": faces,
                "rolled": rolled,
                "protection": protection,
                "pierced": pierced,
                "damage": damage,
            },
        )
    )
    drop = called is not None and called.shot is not None and called.shot.effect == "drop"
    return Hit(attacker.id, target.id, damage, drop)


def land(state: SidesState, hit: Hit, events: list[Event]) -> None:
    """Apply a hit: damage (S-HP-1), then a called shot's effect (S-CALLED-1)."""
    target = state.combatants[hit.target]
    take_damage(target, hit.damage, events)
    if hit.drop and not target.dead and not target.dropped:
        target.dropped = True
        events.append(
            Event(
                "drop",
                f"{target.name} is hit in the hands and drops what it holds",
                {"who": target.id},
            )
        )


def take_damage(target: Combatant, points: int, events: list[Event]) -> None:
    """S-HP-1: Stamina first (if the character has any), the rest to Health; at Health 0
    the character dies."""
    if points <= 0 or target.dead:
        return
    from_stamina = 0
    if target.stamina is not None:
        from_stamina = min(target.stamina, points)
        target.stamina -= from_stamina
    from_health = min(target.health, points - from_stamina)
    target.health -= from_health
    parts = []
    if from_stamina:
        parts.append(f"{from_stamina} Stamina (left {target.stamina})")
    if from_health or not from_stamina:
        parts.append(f"{from_health} Health (left {target.health})")
    events.append(
        Event(
            "wound",
            f"{target.name} loses {' and '.join(parts)}",
            {
                "who": target.id,
                "stamina_lost": from_stamina,
                "health_lost": from_health,
                "stamina": target.stamina,
                "health": target.health,
            },
            detail=frozenset({target.side}),  # Health and Stamina are the own side's
            outline=f"{target.name} is hurt",
            outline_data={"who": target.id},
        )
    )
    if target.health <= 0:
        target.dead = True
        events.append(Event("death", f"{target.name} dies", {"who": target.id}))
