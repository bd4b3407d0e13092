"""What a setup fixes for the kernel: each combatant's numbers, as arrays, and the codes
the kernel's state arrays hold."""

from __future__ import annotations

from collections.abc import Collection, Mapping

import numpy
import numpy.typing as npt

from fracas.rules.heimr import combat, terrain
from fracas.rules.heimr.blindspots import blind_spot, direction_of
from fracas.rules.heimr.kernel.default import Odds
from fracas.rules.heimr.state import Combatant, HeimrState, Shield, Weapon

#: H-DEF-3 repeated defence, H-ACT-1 ongoing action, H-POS-1 prone: consistency penalties.
REPEAT, ONGOING, PRONE = combat.REPEAT_PENALTY, combat.ONGOING_PENALTY, combat.PRONE_PENALTY

# Defence kinds, as stored in the state arrays.
NONE, DODGE, BLOCK, PARRY = -1, 0, 1, 2
STANCES = {"dodge": DODGE, "block": BLOCK, "parry": PARRY, "none": NONE}
# The injury effects the kernel models (H-HP-2).
NO_EFFECT, DAZE, DROP_SWORD, DROP_OTHER, FALL = 0, 1, 2, 3, 4

Ints = npt.NDArray[numpy.int64]
Bools = npt.NDArray[numpy.bool_]


class Roster:
    """What the setup fixes: each combatant's numbers, as arrays (combatants in setup order)."""

    def __init__(self, state: HeimrState, default: Collection[str] = ()) -> None:
        """``default``: the ids of those who play the default policy (the others play
        ``heimr-melee``)."""
        people = list(state.combatants.values())
        self.ids = [c.id for c in people]
        self.m = m = len(people)
        sides = sorted({c.side for c in people})
        self.sides = sides
        self.side = numpy.array([sides.index(c.side) for c in people])
        self.rank = numpy.argsort(numpy.argsort(self.ids))  # ties go to the first id
        self.hp = numpy.array([c.hp for c in people])
        self.fatigue = numpy.array([c.fatigue for c in people])
        self.base = numpy.array([combat.base_fatigue(state, c) for c in people])
        self.max_fatigue = numpy.array([c.max_fatigue for c in people])
        self.willpower = numpy.array([c.willpower for c in people])
        self.dex = numpy.array([c.stats.attributes.get("dex", 0) for c in people])
        self.stance = numpy.array([STANCES[c.stance] for c in people])
        # each one's weapons: the sword hand's, the off-hand's, then those carried
        kits = [
            [w for w in [c.sword_hand, c.off_hand, *c.carried] if isinstance(w, Weapon)]
            for c in people
        ]
        k = max(1, max(len(kit) for kit in kits))
        self.weapon_c = numpy.zeros((m, k), dtype=numpy.int64)
        self.weapon_p = numpy.zeros((m, k), dtype=numpy.int64)
        self.weapon_phys = numpy.zeros((m, k), dtype=bool)
        self.weapon_melee = numpy.zeros((m, k), dtype=bool)
        #: H-ATK-2: a two-hands weapon fills both hands (nothing is drawn beside it).
        self.two_hands = numpy.zeros((m, k), dtype=bool)
        self.counted = numpy.zeros((m, k), dtype=bool)
        self.damage = numpy.zeros((m, k), dtype=numpy.int64)
        for i, (c, kit) in enumerate(zip(people, kits, strict=True)):
            for j, w in enumerate(kit):
                ability = c.stats.abilities[w.ability]
                self.weapon_c[i, j] = ability.consistency
                self.weapon_p[i, j] = ability.potential + w.potential_bonus
                self.weapon_phys[i, j] = c.stats.physical(ability)
                self.weapon_melee[i, j] = w.melee
                self.two_hands[i, j] = w.hands == "two-hands"
                self.damage[i, j] = w.damage
                # H-ACT-8: a weapon whose ammunition its wielder counts shoots a drawn one
                self.counted[i, j] = state.tables.ammunition.get(w.name) in c.ammunition
        #: Whether anyone has a ranged weapon: only then are combat clusters kept (H-ATK-7).
        self.ranged = any(not w.melee for kit in kits for w in kit)
        #: Counted ammunition (H-ACT-8): how many each has (one kind at most), if anyone counts.
        self.ammunition = numpy.array([sum(c.ammunition.values()) for c in people])
        self.counts = bool(self.counted.any())
        self.kit_size = numpy.array([len(kit) for kit in kits])
        self.first_weapon = numpy.array([0 if c.sword_hand is not None else -1 for c in people])
        held = [len(c.weapons()) for c in people]
        self.first_off = numpy.array(
            [n - 1 if c.off_hand is not None else -1 for c, n in zip(people, held, strict=True)]
        )
        self.first_carried = numpy.array(held)
        self.has_shield = numpy.array([c.shield is not None for c in people])
        #: Who plays the default policy, and the numbers it weighs (only if anyone does).
        self.default = numpy.array([c.id in default for c in people], dtype=bool)
        self.any_default = bool(self.default.any())
        # H-ATK-8: each one's brawl (a punch is Hit 1)
        self.brawl_c, self.brawl_p, self.brawl_phys = _defence(people, "brawl")
        self.odds: Odds | None = None
        if self.any_default:
            lowest = (
                int(self.weapon_c.min()) - 2 * PRONE - m
            )  # prone, at a prone target, into a cluster
            self.odds = Odds(lowest, int(self.weapon_c.max()), int(self.max_fatigue.max()))
            self.popcount = numpy.array([bin(i).count("1") for i in range(64)])
        self.block_c, self.block_p, self.block_phys = _defence(people, "block")
        self.dodge_c, self.dodge_p, self.dodge_phys = _defence(people, "dodge")
        # Every defence a combatant can pre-roll as one code: dodge 0, block 1, the parry
        # of kit slot j 2 + j; the numbers flat, at who * codes + code.
        self.k, self.codes = k, 2 + k
        self.defence_c, self.defence_p, self.defence_phys = (
            numpy.column_stack([dodge, block, weapon]).reshape(-1)
            for dodge, block, weapon in (
                (self.dodge_c, self.block_c, self.weapon_c),
                (self.dodge_p, self.block_p, self.weapon_p),
                (self.dodge_phys, self.block_phys, self.weapon_phys),
            )
        )
        self.enemy = self.side[None, :] != self.side[:, None]
        self._place(state, people, kits)
        tables = state.tables
        parts = sorted(set(tables.body_parts.values()))
        self.part_of_d6 = numpy.array(
            [0] + [parts.index(tables.body_parts[f]) for f in range(1, 7)]
        )
        self.part_effect = numpy.array([_injury_effect(tables.injury_effects, p) for p in parts])
        self.breather = tables.fatigue.breather
        # H-HP-1: the injury level by hit points, over a range wide enough for any blow.
        self.hp_low = int(min(-64, self.hp.min() - 64))
        span = range(self.hp_low, int(self.hp.max()) + 1)
        levels = [tables.injury_level(h) for h in span]
        self.injured = numpy.array([name is not None for name in levels])
        high, unconscious, dies = [], [], []
        for name in levels:
            lv = tables.injury_levels[name] if name is not None else None
            high.append(lv.highest if lv else 10**6)
            unconscious.append(
                -1
                if lv is None or lv.unconscious_after_minutes is None
                else 60 * lv.unconscious_after_minutes
            )
            dies.append(
                -1 if lv is None or lv.dies_after_minutes is None else 60 * lv.dies_after_minutes
            )
        self.level_high = numpy.array(high)
        self.unconscious_after = numpy.array(unconscious)
        self.dies_after = numpy.array(dies)

    def _place(self, state: HeimrState, people: list[Combatant], kits: list[list[Weapon]]) -> None:
        """Where everyone stands, which never changes (neither policy the kernel plays moves it):
        ``reach[who, slot, other]`` whether kit ``slot`` may attack ``other`` from there
        (H-ATK-1 melee in the square, H-ATK-6 a shot within range), ``shot[who, other]``
        the distance penalty of a shot (H-ATK-6), and ``blind[who, other]`` the bit mask of
        those standing in the blind spot a defended shot by ``other`` leaves ``who`` (H-MOD-1)."""
        m, k = self.m, self.k
        self.one_square = len({c.square for c in people}) == 1
        self.reach = numpy.zeros((m, k, m), dtype=bool)
        self.shot = numpy.zeros((m, m), dtype=numpy.int64)
        self.blind = numpy.zeros((m, m), dtype=numpy.int64)
        field = state.battlefield
        spots = bool(state.options.get("blind_spots", 1)) and field.grid
        for i, a in enumerate(people):
            for e, b in enumerate(people):
                if i == e:
                    continue
                d = terrain.shot_distance(state, a, b)
                self.shot[i, e] = d // 2
                for j, w in enumerate(kits[i]):
                    if w.melee:
                        near = a.square == b.square and abs(a.height - b.height) <= 1
                        self.reach[i, j, e] = near
                    else:
                        self.reach[i, j, e] = w.ranged is not None and d <= w.ranged
                if spots and a.square != b.square:
                    (way, *_) = direction_of(a.square, b.square, "straight")
                    spot = blind_spot(a.square, way, field.columns, field.rows)
                    bits = [1 << t for t, c in enumerate(people) if c.square in spot]
                    self.blind[i, e] = sum(bits)

    def level(self, hp: Ints) -> Ints:
        """Indexes into the level arrays for ``hp``."""
        return numpy.clip(hp - self.hp_low, 0, len(self.injured) - 1)


def _injury_effect(effects: Mapping[str, str], part: str) -> int:
    """H-HP-2: what an injury to ``part`` does, as a code; Drop empties the hand of the
    arm hit (the other arm's, or the sword hand for any other part, as the engine does)."""
    name = effects.get(part)
    if name == "Drop":
        return DROP_OTHER if part == "other arm" else DROP_SWORD
    return {"Daze": DAZE, "Fall": FALL}.get(name or "", NO_EFFECT)


def _defence(people: list[Combatant], kind: str) -> tuple[Ints, Ints, Bools]:
    cs, ps, phys = [], [], []
    for c in people:
        name, bonus = ("Brawl" if kind == "brawl" else "Agility"), 0
        if kind == "block":
            if not isinstance(c.shield, Shield):
                cs.append(0)
                ps.append(0)
                phys.append(False)
                continue
            name, bonus = c.shield.ability, c.shield.potential_bonus
        ability = c.stats.abilities.get(name)
        if ability is None:  # no brawl: refused by why_not for a default player
            cs.append(0)
            ps.append(0)
            phys.append(False)
            continue
        cs.append(ability.consistency)
        ps.append(ability.potential + bonus)
        phys.append(c.stats.physical(ability))
    return numpy.array(cs), numpy.array(ps), numpy.array(phys)
