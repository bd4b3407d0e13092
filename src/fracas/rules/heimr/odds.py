"""Exact odds of one Heimr attack against a pre-rolled defence (H-DICE-9, H-ATK-*).

The attacker's challenge (its ability's C and P with the weapon's bonus, aiming and
situational penalties) meets the defence held (its C and P, repeated-defence and
situational penalties). Both are exact joint distributions of (result before potential,
d6) from :meth:`fracas.dice.HeimrChallenge.joint`, because fatigue (H-FAT-1, H-FAT-2) and
the body part hit (H-ATK-5) read them.

Each pair of rolls is one of (:func:`classify`):

- ``fails``: the attack fails outright on fatigue and needs no defence (H-FAT-1);
- ``hit``: the defence failed outright, or the attack is higher (H-ATK-4);
- ``touch``: equal to the defence or one below: a brawl's touch (H-ATK-8), which costs no
  hit points; for a weapon it is a miss (the seed has no touch for weapons);
- ``miss``: anything lower.

>>> odds = attack_odds(Side(3, 3), Side(2, 2), damage=2)
>>> odds.hit + odds.touch + odds.miss + odds.fails == 1
True
>>> odds.expected_damage == 2 * odds.hit
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from fracas.dice import HeimrChallenge
from fracas.rules.heimr.combat import AIM_PENALTY, PRONE_PENALTY, REPEAT_PENALTY, defence_ability
from fracas.rules.heimr.state import DEFENCES, Defence, HeimrState

Kind = Literal["fails", "hit", "touch", "miss"]

#: H-ATK-8: a brawl touches when its result is equal to the defence or this much below.
TOUCH_BAND = 1

#: The d6 of the attack picks the body part (H-ATK-5), as the shipped table says.
BODY_PARTS: Mapping[int, str] = {
    1: "left leg",
    2: "right leg",
    3: "other arm",
    4: "sword arm",
    5: "torso",
    6: "torso",
}


@dataclass(frozen=True)
class Side:
    """One roll's numbers: the ability's consistency and potential (item bonus included),
    the roller's fatigue, the consistency penalties on it (a positive number lowers C),
    and whether it is a physical roll that fatigue can fail (H-FAT-1)."""

    consistency: int
    potential: int
    fatigue: int = 0
    penalty: int = 0
    physical: bool = True

    def challenge(self, extra: int = 0) -> HeimrChallenge:
        return HeimrChallenge(self.consistency - self.penalty - extra, self.potential)


@dataclass(frozen=True)
class AttackOdds:
    """The exact chances of one attack roll against one defence held."""

    attack: HeimrChallenge
    defence: HeimrChallenge | None  # None: the target does not or cannot defend (H-DEF-4)
    hit: Fraction
    touch: Fraction
    miss: Fraction
    fails: Fraction
    damage: dict[int, Fraction]  # hit points lost: 0 or the damage
    parts: dict[str, Fraction]  # the body part of a hit, with its chance (H-ATK-5)
    attacker_tires: Fraction  # the attack's d6 below the attacker's fatigue (H-FAT-2)
    defender_tires: Fraction  # the used defence's d6 below the defender's fatigue
    expected_damage: Fraction = field(default=Fraction(0))

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: every chance as an exact fraction string and a float."""

        def both(p: Fraction) -> dict[str, object]:
            return {"exact": str(p), "float": float(p)}

        return {
            "attack": self.attack.notation(),
            "defence": None if self.defence is None else self.defence.notation(),
            "hit": both(self.hit),
            "touch": both(self.touch),
            "miss": both(self.miss),
            "fails_outright": both(self.fails),
            "damage": {str(k): both(v) for k, v in self.damage.items()},
            "parts": {k: both(v) for k, v in self.parts.items()},
            "attacker_tires": both(self.attacker_tires),
            "defender_tires": both(self.defender_tires),
            "expected_damage_per_turn": both(self.expected_damage),
        }


def classify(
    attacker: Side,
    defender: Side | None,
    attack_raw: int,
    defence_raw: int,
) -> Kind:
    """What one pair of rolls does, from their results before potential.

    >>> classify(Side(3, 3, fatigue=4), Side(2, 2), 3, 9)
    'fails'
    >>> classify(Side(3, 3), Side(2, 2), 9, 8), classify(Side(3, 3), Side(2, 2), 8, 9)
    ('hit', 'touch')
    """
    if attacker.physical and attack_raw < attacker.fatigue:
        return "fails"
    if defender is None or (defender.physical and defence_raw < defender.fatigue):
        return "hit"
    margin = (attack_raw + attacker.potential) - (defence_raw + defender.potential)
    if margin > 0:
        return "hit"
    return "touch" if margin >= -TOUCH_BAND else "miss"


def attack_odds(
    attacker: Side,
    defender: Side | None,
    damage: int = 1,
    kind: Defence = "dodge",
    repeated: int = 0,
    aim: str | None = None,
    body_parts: Mapping[int, str] = BODY_PARTS,
) -> AttackOdds:
    """The exact odds of one attack against a defence of ``kind`` held by ``defender``
    (``None``: no defence, so any attack not failing outright hits, H-DEF-4).

    ``repeated`` counts the dodges (or blocks) used since the defender's last turn: -2
    consistency each (H-DEF-3). A parry has no such penalty but one parry a wielded melee
    weapon between turns, so ``repeated`` must be 0 for it. ``aim`` names the body part
    aimed at, for -2 consistency (H-ATK-5). One attack action, one roll: the expected
    damage per turn is the damage times the chance to hit.

    >>> attack_odds(Side(0, 0), None, damage=3).hit
    Fraction(1, 1)
    >>> attack_odds(Side(0, 0), Side(0, 0)).hit
    Fraction(5, 12)
    """
    if kind not in DEFENCES:
        raise ValueError(f"a defence is one of {', '.join(DEFENCES)}, not {kind!r}")
    if repeated < 0:
        raise ValueError(f"repeated defences cannot be negative ({repeated})")
    if kind == "parry" and repeated:
        raise ValueError(
            "one parry a wielded melee weapon between turns (H-DEF-3): a repeated "
            "defence is a dodge or a block"
        )
    if aim is not None and aim not in set(body_parts.values()):
        raise ValueError(f"aim at one of {', '.join(sorted(set(body_parts.values())))}")
    if damage < 0:
        raise ValueError(f"damage cannot be negative ({damage})")
    attack = attacker.challenge(AIM_PENALTY if aim else 0)
    defence = None
    if defender is not None:
        defence = defender.challenge(REPEAT_PENALTY * repeated if kind != "parry" else 0)
        defender = Side(
            defence.consistency, defence.potential, defender.fatigue, 0, defender.physical
        )
    attacker = Side(attack.consistency, attack.potential, attacker.fatigue, 0, attacker.physical)
    totals: dict[Kind, Fraction] = dict.fromkeys(("fails", "hit", "touch", "miss"), Fraction(0))
    parts: dict[str, Fraction] = {}
    attacker_tires = defender_tires = Fraction(0)
    own = list(defence.joint().items()) if defence is not None else [((0, 6), Fraction(1))]
    for (a_raw, a_d6), pa in attack.joint().items():
        if a_d6 < attacker.fatigue:
            attacker_tires += pa
        for (d_raw, d_d6), pd in own:
            p = pa * pd
            what = classify(attacker, defender, a_raw, d_raw)
            totals[what] += p
            if what == "hit":
                part = aim or body_parts[a_d6]
                parts[part] = parts.get(part, Fraction(0)) + p
            if defender is not None and what != "fails" and d_d6 < defender.fatigue:
                defender_tires += p
    hit = totals["hit"]
    spread = {0: 1 - hit, damage: hit} if damage else {0: Fraction(1)}
    return AttackOdds(
        attack=attack,
        defence=defence,
        hit=hit,
        touch=totals["touch"],
        miss=totals["miss"],
        fails=totals["fails"],
        damage=dict(sorted(spread.items())),
        parts=dict(sorted(parts.items())),
        attacker_tires=attacker_tires,
        defender_tires=defender_tires,
        expected_damage=damage * hit,
    )


def attack_between(
    state: HeimrState,
    attacker_id: str,
    defender_id: str,
    *,
    defence: Defence | Literal["none"] | None = None,
    fatigue: int | None = None,
    defender_fatigue: int | None = None,
    penalty: int = 0,
    defender_penalty: int = 0,
    repeated: int = 0,
    aim: str | None = None,
    damage: int | None = None,
) -> AttackOdds:
    """:func:`attack_odds` for two combatants of an encounter: the attacker's first weapon
    (its ability, bonus and damage) against the defence the defender would pre-roll (its
    stance, else block, else dodge, H-DEF-2) or ``defence``, with their fatigue unless
    given, the prone's -2 (H-POS-1) and the campaign's body parts.
    """
    people = state.combatants
    for cid in (attacker_id, defender_id):
        if cid not in people:
            raise ValueError(f"no combatant called {cid!r} (there are {', '.join(people)})")
    a, d = people[attacker_id], people[defender_id]
    weapons = a.weapons()
    if not weapons:
        raise ValueError(f"{a.name} wields no weapon to attack with (H-ATK-2)")
    weapon = weapons[0]
    ability = a.stats.abilities[weapon.ability]
    attacker = Side(
        ability.consistency,
        ability.potential + weapon.potential_bonus,
        a.fatigue if fatigue is None else fatigue,
        penalty + (PRONE_PENALTY if a.prone else 0),  # H-POS-1
        a.stats.physical(ability),
    )
    stance = d.stance if defence is None else defence
    held: Side | None = None
    kind: Defence = "dodge"
    if stance != "none":
        for kind in (stance, "block", "dodge"):
            found = defence_ability(d, kind)
            if found is not None:
                break
            if defence is not None:
                raise ValueError(f"{d.name} cannot {defence} (H-DEF-1)")
        assert found is not None
        skill, bonus = found
        held = Side(
            skill.consistency,
            skill.potential + bonus,
            d.fatigue if defender_fatigue is None else defender_fatigue,
            defender_penalty + (PRONE_PENALTY if d.prone else 0),
            d.stats.physical(skill),
        )
    return attack_odds(
        attacker,
        held,
        weapon.damage if damage is None else damage,
        kind,
        repeated,
        aim,
        state.tables.body_parts,
    )
