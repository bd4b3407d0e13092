"""What a setup fixes for the kernel: each combatant's numbers as arrays, and every attack's
outcome as one table of damage dealt (a miss deals 0).

An attack of ``a`` on ``t`` of a kind (:data:`KINDS`: a melee blow, the same blow in a
mounted charge, a shot at close, medium or far range) deals ``d`` with the chance that it
hits (2d6 at or under the attribute less the difficulty plus any bonus, S-ATK-1) times the
chance its damage after Protection and Armour Piercing is ``d`` (S-DMG-1), plus the miss
for ``d = 0``. :attr:`Roster.cdf` holds these chances cumulated, so one uniform a run draws
the damage of one attack.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy
import numpy.typing as npt

from fracas.dice import RollUnder, parse
from fracas.rules.sides.attacks import damage_after_protection
from fracas.rules.sides.campaign import Weapon
from fracas.rules.sides.melee import negates_charge
from fracas.rules.sides.state import Combatant, SidesState

#: Attack kinds, the third axis of :attr:`Roster.cdf`.
MELEE, CHARGE, CLOSE, MEDIUM, FAR = range(5)
KINDS = ("melee", "mounted charge", "close range", "medium range", "far range")

Ints = npt.NDArray[numpy.int64]
Floats = npt.NDArray[numpy.float64]
Bools = npt.NDArray[numpy.bool_]
Pmf = dict[int, Fraction]


@lru_cache(maxsize=64)
def hit_chance(target: int) -> Fraction:
    """S-ATK-1: the chance of 2d6 at or under ``target``.

    >>> hit_chance(9), hit_chance(1), hit_chance(12)
    (Fraction(5, 6), Fraction(0, 1), Fraction(1, 1))
    """
    return RollUnder.target(target).pmf().get(1, Fraction(0))


def damage_pmf(weapon: Weapon, off: Weapon | None, extra: int) -> Pmf:
    """S-DMG-1: the damage rolled: the weapon's dice, the higher of two with a second
    weapon, plus ``extra`` (a mounted charge, S-MOUNT-1).

    >>> from fracas.rules.sides import load
    >>> mace = load({}).weapons["Mace"]
    >>> damage_pmf(mace, mace, 0)[6]
    Fraction(11, 36)
    """
    main = parse("standard", weapon.damage_dice()).pmf()
    if off is not None:
        other = parse("standard", off.damage_dice()).pmf()
        both: Pmf = {}
        for a, pa in main.items():
            for b, pb in other.items():
                both[max(a, b)] = both.get(max(a, b), Fraction(0)) + pa * pb
        main = both
    return {v + extra: p for v, p in main.items()}


class Roster:
    """What the setup fixes (combatants in setup order, sides in ``state.sides`` order)."""

    def __init__(self, state: SidesState) -> None:
        people = list(state.combatants.values())
        self.ids = [c.id for c in people]
        self.m = m = len(people)
        self.sides = list(state.sides)
        self.side = numpy.array([self.sides.index(c.side) for c in people])
        # each side's combatants in setup order, padded with -1 (a phase's order)
        width = max(int((self.side == s).sum()) for s in range(len(self.sides)))
        self.members = numpy.full((len(self.sides), width), -1, dtype=numpy.int64)
        for s in range(len(self.sides)):
            mine = numpy.flatnonzero(self.side == s)
            self.members[s, : mine.size] = mine
        self.surprised = numpy.array([side in state.surprised for side in self.sides])
        self.health = numpy.array([c.health for c in people])
        self.stamina = numpy.array([c.stamina or 0 for c in people])
        self.position = numpy.array([c.position for c in people], dtype=numpy.float64)
        self.movement = numpy.array([c.stats.movement for c in people], dtype=numpy.float64)
        self.evasion = numpy.array([c.stats.evasion for c in people], dtype=numpy.float64)
        self.melee = numpy.array([c.stats.melee_weapon() is not None for c in people])
        self.ranged = numpy.array([c.stats.ranged_weapon() is not None for c in people])
        self.negates = numpy.array([negates_charge(c) for c in people])
        self.mounted = numpy.array([c.stats.mounted for c in people])
        far = [self._reach(state, c) for c in people]
        self.reach = numpy.array(far, dtype=numpy.float64).reshape(m, 3)  # close, medium, far
        rolled: dict[tuple[int, int], Pmf] = {}  # damage rolled, by attacker and kind
        pmfs = [[self._outcomes(state, a, t, rolled) for t in people] for a in people]
        top = max(max(d) for row in pmfs for kinds in row for d in kinds)
        cdf = numpy.ones((m, m, len(KINDS), top + 1))
        for i, row in enumerate(pmfs):
            for j, kinds in enumerate(row):
                for k, pmf in enumerate(kinds):
                    running = Fraction(0)
                    for d in range(top + 1):
                        running += pmf.get(d, Fraction(0))
                        cdf[i, j, k, d] = float(running)
        cdf[..., -1] = 1.0
        #: P(damage <= d) of an attack by (attacker, target, kind), flat on its first axes.
        self.cdf = cdf.reshape(m * m * len(KINDS), top + 1)

    @staticmethod
    def _reach(state: SidesState, c: Combatant) -> tuple[float, float, float]:
        found = c.stats.ranged_weapon()
        if found is None or found[1].range is None:
            return (-1.0, -1.0, -1.0)
        r = found[1].range
        return tuple(state.tables.feet_to(x, state.units) for x in (r.close, r.medium, r.far))  # type: ignore[return-value]

    @staticmethod
    def _outcomes(
        state: SidesState, a: Combatant, t: Combatant, rolled: dict[tuple[int, int], Pmf]
    ) -> list[Pmf]:
        """The damage an attack of each kind by ``a`` deals ``t`` (0 when it misses)."""
        tables = state.tables
        out: list[Pmf] = []
        for kind in range(len(KINDS)):
            found = a.stats.melee_weapon() if kind <= CHARGE else a.stats.ranged_weapon()
            if found is None or a.side == t.side:
                out.append({0: Fraction(1)})
                continue
            _, weapon = found
            score = a.stats.attribute(weapon.attribute) or 0
            need = score - t.stats.evasion
            if kind == CLOSE:
                need += tables.ranged.close_bonus
            if kind == FAR:
                need -= tables.ranged.far_difficulty
            if a.stats.mounted and not a.stats.trained_rider:
                need -= tables.mounted.untrained_difficulty
            if state.confined_space and weapon.length is not None:
                table = tables.confined_space
                need -= {"short": table.short, "middle": table.middle, "long": table.long}[
                    weapon.length
                ]
            off = None
            if kind <= CHARGE and a.stats.off_hand is not None and weapon.hands == 1:
                off = a.stats.off_hand[1]
            extra = tables.mounted.charge_damage if kind == CHARGE and a.stats.mounted else 0
            protection, pierced = 0, 0
            if t.stats.armour is not None:
                protection = t.stats.armour[1].protection
                pierced = min(protection, weapon.piercing_against(t.stats.armour[1].category))
            hit = hit_chance(need)
            pmf: Pmf = {0: 1 - hit}
            key = (id(a), kind)
            if key not in rolled:
                rolled[key] = damage_pmf(weapon, off, extra)
            for points, p in rolled[key].items():
                d = damage_after_protection(points, protection, pierced)
                pmf[d] = pmf.get(d, Fraction(0)) + hit * p
            out.append(pmf)
        return out
