"""Heimr melee fights, many at once: the engine's rules as ``heimr-melee`` plays them, in NumPy.

One call plays every run of one setup side by side. Each pass of the main loop is one
turn of every fight still going: the same rules as :mod:`fracas.rules.heimr` (initiative
H-INIT-1, pre-rolled defences H-DEF-2, repeated-defence penalties and the parry limit
H-DEF-3, attacks H-ATK-2..5, fatigue H-FAT-1..3, injuries H-HP-1..2, the dying clock
H-HP-5) with :class:`fracas.lab.policies.heimr_melee.MeleePolicy`'s decisions. The
agreement tests play the same builds through the engine and compare win rates.

Dice: a Heimr challenge is drawn in one uniform from the exact joint distribution of
(result before potential, d6) of :meth:`fracas.dice.HeimrChallenge.joint`. Each run draws
its uniforms from its own ``numpy`` Generator, seeded by its own SeedSequence, so a run's
result does not depend on how the runs are split into calls.

:func:`qualifies` says when the kernel applies; :func:`simulate` refuses anything else.

>>> ATTRIBUTES = {"str": 0, "dex": 1, "sta": 0, "int": 0, "soc": 0, "emp": 0}
>>> setup = {"campaign": {"characters": {
...     "a": {"name": "A", "side": "north", "attributes": ATTRIBUTES, "hit_points": 4,
...           "willpower": 3, "items": {"sword_hand": "Light weapon"}},
...     "b": {"name": "B", "side": "south", "attributes": ATTRIBUTES, "hit_points": 4,
...           "willpower": 3, "items": {"sword_hand": "Light weapon"}}}},
...     "combatants": [{"character": "a"}, {"character": "b"}]}
>>> policies = {"north": "heimr-melee", "south": "heimr-melee"}
>>> qualifies("heimr", setup, policies)
True
>>> seeds = numpy.random.SeedSequence(7).spawn(3)
>>> simulate("heimr", setup, seeds) == simulate("heimr", setup, seeds)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy
import numpy.typing as npt

from fracas.dice.heimr import HeimrChallenge
from fracas.lab.kernel.streams import Streams
from fracas.lab.playout import Outcome
from fracas.lab.policies.heimr_melee import BREATHER_GAP
from fracas.rules.heimr import combat
from fracas.rules.heimr.setup import build
from fracas.rules.heimr.state import Combatant, HeimrState, Shield, Weapon

#: The policy the kernel mirrors, and the only one it plays.
POLICY = "heimr-melee"
#: H-DEF-3 repeated defence, H-ACT-1 ongoing action, H-POS-1 prone: consistency penalties.
REPEAT, ONGOING, PRONE = combat.REPEAT_PENALTY, combat.ONGOING_PENALTY, combat.PRONE_PENALTY
#: Runs played side by side at most, to bound memory (results do not depend on it).
CHUNK = 25_000
#: The largest |consistency| the kernel's tables cover.
MAX_CONSISTENCY = 40
#: Bins a unit of the dice table's guide (a power of two, so a uniform's bin is exact).
GUIDE = 4096

# Defence kinds, as stored in the state arrays.
NONE, DODGE, BLOCK, PARRY = -1, 0, 1, 2
STANCES = {"dodge": DODGE, "block": BLOCK, "parry": PARRY, "none": NONE}
# The injury effects the kernel models (H-HP-2).
NO_EFFECT, DAZE, DROP_SWORD, DROP_OTHER, FALL = 0, 1, 2, 3, 4

Ints = npt.NDArray[numpy.int64]
Bools = npt.NDArray[numpy.bool_]


# -- when the kernel applies ----------------------------------------------------------


def qualifies(ruleset_id: str, setup: Mapping[str, Any], policies: Mapping[str, str]) -> bool:
    """Whether :func:`simulate` plays this setup exactly as the engine would with these
    policies (by side, or by combatant id): Heimr, everyone standing in one plain square
    (no terrain, concealment or heights), melee weapons only (in hand or carried), nobody
    prone, injured, hidden or under an effect at the start, every side playing
    ``heimr-melee``.

    >>> qualifies("sides", {}, {})
    False
    """
    return why_not(ruleset_id, setup, policies) is None


def why_not(ruleset_id: str, setup: Mapping[str, Any], policies: Mapping[str, str]) -> str | None:
    """The first reason the kernel does not apply, or ``None`` when it does."""
    if ruleset_id != "heimr":
        return f"the kernel plays heimr, not {ruleset_id!r}"
    try:
        state = build(setup)
    except ValueError as err:  # EngineError, CampaignError
        return f"the setup does not start: {err}"
    people = list(state.combatants.values())
    sides = {c.side for c in people}
    if len(sides) < 2:
        return "a fight needs two sides"
    for c in people:
        chosen = policies.get(c.id, policies.get(c.side))
        if chosen != POLICY:
            return f"{c.id} plays {chosen!r}: the kernel mirrors only {POLICY!r}"
    # The lowest consistency a roll can reach: repeated defences against everyone, prone,
    # after a breather; the dice tables must reach it.
    widest = max(abs(a.consistency) for c in people for a in c.stats.abilities.values())
    if widest + REPEAT * len(people) + PRONE + ONGOING > MAX_CONSISTENCY:
        return "too many combatants or too large a consistency for the kernel's tables"
    field = state.battlefield
    squares = {c.square for c in people}
    if not field.grid or len(squares) != 1:
        return "everyone must stand in one square of a grid"
    (square,) = squares
    spot = field.squares[square]
    if spot.difficult or field.concealment(square) or len({c.height for c in people}) != 1:
        return f"{square} has terrain, concealment or heights the kernel does not model"
    for c in people:
        problem = _unsupported(state, c)
        if problem:
            return f"{c.id}: {problem}"
    effects = {"Daze", "Drop", "Fall"}
    odd = {e for e in state.tables.injury_effects.values() if e not in effects}
    if odd:
        return f"injury effects {sorted(odd)} are not modelled"
    return None


def _unsupported(state: HeimrState, c: Combatant) -> str | None:
    if any(not w.melee for w in c.weapons()):
        return "a ranged weapon"
    if any(not isinstance(i, Weapon) or not i.melee for i in c.carried):
        return "carries something other than melee weapons"
    if c.prone or c.hp < 1 or c.effects or c.climbing or c.hide_cr is not None:
        return "starts prone, injured, under an effect, climbing or hidden"
    numbers = [a.consistency for a in c.stats.abilities.values()] + [
        c.stats.attributes.get("dex", 0)
    ]
    if max(abs(n) for n in numbers) > MAX_CONSISTENCY // 2:
        return "an ability's consistency beyond the kernel's tables"
    return None


# -- the fixed part of a fight: who, with what --------------------------------------


class Roster:
    """What the setup fixes: each combatant's numbers, as arrays (combatants in setup order)."""

    def __init__(self, state: HeimrState) -> None:
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
        self.damage = numpy.zeros((m, k), dtype=numpy.int64)
        for i, (c, kit) in enumerate(zip(people, kits, strict=True)):
            for j, w in enumerate(kit):
                ability = c.stats.abilities[w.ability]
                self.weapon_c[i, j] = ability.consistency
                self.weapon_p[i, j] = ability.potential + w.potential_bonus
                self.weapon_phys[i, j] = c.stats.physical(ability)
                self.damage[i, j] = w.damage
        self.kit_size = numpy.array([len(kit) for kit in kits])
        self.first_weapon = numpy.array([0 if c.sword_hand is not None else -1 for c in people])
        held = [len(c.weapons()) for c in people]
        self.first_off = numpy.array(
            [n - 1 if c.off_hand is not None else -1 for c, n in zip(people, held, strict=True)]
        )
        self.first_carried = numpy.array(held)
        self.has_shield = numpy.array([c.shield is not None for c in people])
        self.block_c, self.block_p, self.block_phys = _defence(people, "block")
        self.dodge_c, self.dodge_p, self.dodge_phys = _defence(people, "dodge")
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
        name, bonus = "Agility", 0
        if kind == "block":
            if not isinstance(c.shield, Shield):
                cs.append(0)
                ps.append(0)
                phys.append(False)
                continue
            name, bonus = c.shield.ability, c.shield.potential_bonus
        ability = c.stats.abilities[name]
        cs.append(ability.consistency)
        ps.append(ability.potential + bonus)
        phys.append(c.stats.physical(ability))
    return numpy.array(cs), numpy.array(ps), numpy.array(phys)


# -- the dice --------------------------------------------------------------------------


class ChallengeTable:
    """Heimr challenges C-40..C40 as one sorted table: a uniform picks (raw, d6) exactly
    as often as :meth:`HeimrChallenge.joint` says (H-DICE-1..3)."""

    def __init__(self) -> None:
        keys: list[float] = []
        raws: list[int] = []
        d6s: list[int] = []
        for c in range(-MAX_CONSISTENCY, MAX_CONSISTENCY + 1):
            row = c + MAX_CONSISTENCY
            joint = HeimrChallenge(c).joint()
            total = 0
            denominator = 6 * 10 ** abs(c)
            for (raw, d6), p in joint.items():
                total += p.numerator * (denominator // p.denominator)
                keys.append(row + total / denominator)
                raws.append(raw)
                d6s.append(d6)
            keys[-1] = row + 1.0
        self.keys = numpy.array(keys)
        self.raw = numpy.array(raws)
        self.d6 = numpy.array(d6s)
        # A guide to the search: the keys below the start of each of GUIDE bins a unit,
        # whether a bin holds more than one key (rare: those draws are searched).
        starts = numpy.arange((2 * MAX_CONSISTENCY + 1) * GUIDE + 1) / GUIDE
        self.first = numpy.searchsorted(self.keys, starts, side="left")
        ends = numpy.searchsorted(self.keys, starts + 1 / GUIDE, side="left")
        self.crowded = ends - self.first > 1
        self.padded = numpy.append(self.keys, numpy.inf)

    def draw(self, consistency: Ints, u: npt.NDArray[numpy.float64]) -> tuple[Ints, Ints]:
        """(raw, d6) for each consistency and uniform in [0, 1)."""
        row = numpy.clip(consistency, -MAX_CONSISTENCY, MAX_CONSISTENCY) + MAX_CONSISTENCY
        v = row + u
        # the keys at or below v: those below its bin's start, and the bin's own key
        b = (v * GUIDE).astype(numpy.int64)
        first = self.first[b]
        at = first + (self.padded[first] <= v)
        crowded = self.crowded[b]
        if crowded.any():
            at[crowded] = numpy.searchsorted(self.keys, v[crowded], side="right")
        return self.raw[at], self.d6[at]


_TABLE: ChallengeTable | None = None


def challenge_table() -> ChallengeTable:
    global _TABLE
    if _TABLE is None:
        _TABLE = ChallengeTable()
    return _TABLE


# -- the fights ------------------------------------------------------------------------


class Fights:
    """The changing state of every run: arrays of runs x combatants."""

    def __init__(self, roster: Roster, seeds: Sequence[numpy.random.SeedSequence], cap: int):
        self.roster = r = roster
        self.dice = challenge_table()
        self.streams = Streams(seeds)
        self.cap = cap
        n, m = len(seeds), r.m
        self.n = n
        grid = (n, m)
        self.hp = numpy.broadcast_to(r.hp, grid).copy()
        self.fatigue = numpy.broadcast_to(r.fatigue, grid).copy()
        self.raised = numpy.zeros(grid, dtype=bool)
        self.uses = numpy.zeros((3, n, m), dtype=numpy.int64)  # dodge, block, parry
        self.ongoing = numpy.zeros(grid, dtype=bool)
        self.prone = numpy.zeros(grid, dtype=bool)
        self.dazed = numpy.zeros(grid, dtype=bool)
        self.unconscious = numpy.zeros(grid, dtype=bool)
        self.dead = numpy.zeros(grid, dtype=bool)
        self.weapon = numpy.broadcast_to(r.first_weapon, grid).copy()  # sword hand: a kit index
        self.off = numpy.broadcast_to(r.first_off, grid).copy()  # off-hand weapon, or -1
        self.carried = numpy.broadcast_to(r.first_carried, grid).copy()
        self.shield = numpy.broadcast_to(r.has_shield, grid).copy()
        self.parts = numpy.zeros(grid, dtype=numpy.int64)  # bit mask of injured body parts
        self.injured_at = numpy.full(grid, -1, dtype=numpy.int64)
        self.kind = numpy.full(grid, NONE, dtype=numpy.int64)  # pre-rolled defence
        self.result = numpy.zeros(grid, dtype=numpy.int64)
        self.d6 = numpy.zeros(grid, dtype=numpy.int64)
        self.failed = numpy.zeros(grid, dtype=bool)
        self.order = numpy.zeros(grid, dtype=numpy.int64)
        self.index = numpy.zeros(n, dtype=numpy.int64)
        self.round = numpy.ones(n, dtype=numpy.int64)
        self.clock = numpy.zeros(n, dtype=numpy.int64)
        self.actions = numpy.zeros(n, dtype=numpy.int64)
        self.done = numpy.zeros(n, dtype=bool)
        self.capped = numpy.zeros(n, dtype=bool)

    # -- rolls -------------------------------------------------------------------

    def roll(self, runs: Ints, c: Ints) -> tuple[Ints, Ints]:
        """(raw, d6) of a challenge of consistency ``c`` for each run."""
        return self.dice.draw(c, self.streams.uniforms(runs))

    def tire(self, runs: Ints, who: Ints, d6: Ints, physical: Bools) -> None:
        """H-FAT-2: a d6 below fatigue raises it by 1, once a turn window, up to the maximum."""
        f = self.fatigue[runs, who]
        up = physical & (d6 < f) & (f < self.roster.max_fatigue[who]) & ~self.raised[runs, who]
        self.fatigue[runs[up], who[up]] += 1
        self.raised[runs[up], who[up]] = True

    def out(self, runs: Ints, who: Ints) -> Bools:
        return self.dead[runs, who] | self.unconscious[runs, who]

    # -- the start -----------------------------------------------------------------

    def begin(self) -> None:
        """``gm begin``: initiative (H-INIT-1), then everyone pre-rolls a defence."""
        r, n, m = self.roster, self.n, self.roster.m
        runs = numpy.arange(n)
        score = numpy.zeros((n, m), dtype=numpy.int64)
        for i in range(m):
            raw, _ = self.roll(runs, numpy.full(n, r.dex[i]))
            score[:, i] = raw + r.willpower[i]
        # highest first; ties to the higher willpower, then the setup's order
        grid = (n, m)
        keys = (
            numpy.broadcast_to(numpy.arange(m), grid),
            numpy.broadcast_to(-r.willpower, grid),
            -score,
        )
        self.order = numpy.lexsort(keys, axis=-1)
        for place in range(m):  # in initiative order, as the engine rolls them
            self.preroll(runs, self.order[:, place])
        self.actions[:] = 1
        self.settle(runs)  # a cap of one action stops here

    # -- defences ------------------------------------------------------------------

    def preroll(self, runs: Ints, who: Ints) -> None:
        """H-DEF-2: roll the next defence of the stance's kind, else block, else dodge."""
        if runs.size == 0:
            return
        r = self.roster
        stance = r.stance[who]
        sword, off = self.weapon[runs, who], self.off[runs, who]
        parries = self.uses[PARRY, runs, who]
        # H-DEF-3: one parry a wielded melee weapon, the first weapon's first
        parry_ok = parries < (sword >= 0).astype(numpy.int64) + (off >= 0)
        block_ok = self.shield[runs, who]
        kind = numpy.where(
            (stance == PARRY) & parry_ok,
            PARRY,
            numpy.where(((stance == PARRY) | (stance == BLOCK)) & block_ok, BLOCK, DODGE),
        )
        kind = numpy.where((stance == DODGE), DODGE, kind)
        kind = numpy.where(stance == NONE, NONE, kind)
        kind = numpy.where(self.out(runs, who), NONE, kind)
        slot = numpy.maximum(numpy.where((parries == 0) & (sword >= 0), sword, off), 0)
        c = numpy.where(
            kind == PARRY,
            r.weapon_c[who, slot],
            numpy.where(kind == BLOCK, r.block_c[who], r.dodge_c[who]),
        )
        p = numpy.where(
            kind == PARRY,
            r.weapon_p[who, slot],
            numpy.where(kind == BLOCK, r.block_p[who], r.dodge_p[who]),
        )
        physical = numpy.where(
            kind == PARRY,
            r.weapon_phys[who, slot],
            numpy.where(kind == BLOCK, r.block_phys[who], r.dodge_phys[who]),
        )
        repeat = numpy.where(
            kind == DODGE,
            self.uses[DODGE, runs, who],
            numpy.where(kind == BLOCK, self.uses[BLOCK, runs, who], 0),
        )
        c = c - REPEAT * repeat - ONGOING * self.ongoing[runs, who] - PRONE * self.prone[runs, who]
        rolling = kind != NONE
        raw = numpy.zeros(runs.size, dtype=numpy.int64)
        d6 = numpy.zeros(runs.size, dtype=numpy.int64)
        if rolling.any():
            raw[rolling], d6[rolling] = self.roll(runs[rolling], c[rolling])
        self.kind[runs, who] = kind
        self.result[runs, who] = raw + p
        self.d6[runs, who] = d6
        self.failed[runs, who] = physical & (raw < self.fatigue[runs, who])

    # -- one attack ----------------------------------------------------------------

    def attack(self, runs: Ints, who: Ints, target: Ints) -> None:
        """H-ATK-2: one roll for each weapon wielded, the sword hand's first, while the
        target lives."""
        sword, off = self.weapon[runs, who], self.off[runs, who]
        self.strike(runs, who, target, numpy.where(sword >= 0, sword, off))
        again = (sword >= 0) & (off >= 0) & ~self.dead[runs, target]
        if again.any():
            self.strike(runs[again], who[again], target[again], off[again])

    def strike(self, runs: Ints, who: Ints, target: Ints, slot: Ints) -> None:
        """H-ATK-3..5: one weapon roll against the target's pre-rolled defence."""
        r = self.roster
        c = r.weapon_c[who, slot] - PRONE * self.prone[runs, who]
        raw, d6 = self.roll(runs, c)
        result = raw + r.weapon_p[who, slot]
        physical = r.weapon_phys[who, slot]
        failed = physical & (raw < self.fatigue[runs, who])  # H-FAT-1
        self.tire(runs, who, d6, physical)
        go = ~failed
        runs, who, target, result, d6, slot = (
            runs[go],
            who[go],
            target[go],
            result[go],
            d6[go],
            slot[go],
        )
        kind = self.kind[runs, target]
        defends = (kind != NONE) & ~self.out(runs, target) & ~self.dazed[runs, target]
        hit = ~defends.copy()
        d = numpy.flatnonzero(defends)
        if d.size:
            dr, dt, dk = runs[d], target[d], kind[d]
            self.uses[dk, dr, dt] += 1
            # H-DEF-2, H-FAT-2: the used defence's d6 moves fatigue (whatever its ability)
            self.tire(dr, dt, self.d6[dr, dt], numpy.ones(d.size, dtype=bool))
            hit[d] = self.failed[dr, dt] | (result[d] > self.result[dr, dt])
            self.preroll(dr, dt)  # H-DEF-2: rolled again once used
        if hit.any():
            part = r.part_of_d6[d6[hit]]
            self.hurt(runs[hit], target[hit], r.damage[who[hit], slot[hit]], part)

    def hurt(self, runs: Ints, who: Ints, amount: Ints, part: Ints) -> None:
        """H-HP-1, H-HP-2: lose hit points; at 0 or fewer an injury and its effect."""
        r = self.roster
        real = (amount > 0) & ~self.dead[runs, who]
        runs, who, amount, part = runs[real], who[real], amount[real], part[real]
        before = r.level(self.hp[runs, who])
        hp = self.hp[runs, who] - amount
        self.hp[runs, who] = hp
        now = r.level(hp)
        injured = r.injured[now]
        runs, who, part = runs[injured], who[injured], part[injured]
        before, now = before[injured], now[injured]
        dies = r.dies_after[now] == 0
        self._die(runs[dies], who[dies])
        live = ~dies
        runs, who, part, before, now = runs[live], who[live], part[live], before[live], now[live]
        bit = 1 << part
        new = (self.parts[runs, who] & bit) == 0
        self.parts[runs, who] |= bit
        effect = numpy.where(new, r.part_effect[part], NO_EFFECT)
        self.dazed[runs[effect == DAZE], who[effect == DAZE]] = True
        self.prone[runs[effect == FALL], who[effect == FALL]] = True
        self.weapon[runs[effect == DROP_SWORD], who[effect == DROP_SWORD]] = -1
        # the other arm drops the off-hand's weapon, else its shield (H-EFF-3)
        other = effect == DROP_OTHER
        weapon_there = other & (self.off[runs, who] >= 0)
        self.off[runs[weapon_there], who[weapon_there]] = -1
        shield_there = other & ~weapon_there
        self.shield[runs[shield_there], who[shield_there]] = False
        worse = ~r.injured[before] | (r.level_high[now] < r.level_high[before])
        runs, who, now = runs[worse], who[worse], now[worse]
        self.injured_at[runs, who] = self.clock[runs]
        knocked = r.unconscious_after[now] == 0
        self._knock_out(runs[knocked], who[knocked])

    def _knock_out(self, runs: Ints, who: Ints) -> None:
        self.unconscious[runs, who] = True
        self.prone[runs, who] = True
        self.kind[runs, who] = NONE

    def _die(self, runs: Ints, who: Ints) -> None:
        self.dead[runs, who] = True
        self._knock_out(runs, who)

    # -- turns ---------------------------------------------------------------------

    def over(self, runs: Ints) -> Bools:
        """Whether at most one side still stands in each run."""
        r = self.roster
        standing = ~(self.dead[runs] | self.unconscious[runs])
        sides = numpy.zeros((runs.size, len(r.sides)), dtype=bool)
        for s in range(len(r.sides)):
            sides[:, s] = (standing & (r.side == s)[None, :]).any(axis=1)
        return sides.sum(axis=1) <= 1  # type: ignore[no-any-return]

    def tick(self, runs: Ints) -> None:
        """H-HP-5: the dying clocks, at the end of each round (2 seconds)."""
        r = self.roster
        lv = r.level(self.hp[runs])
        elapsed = self.clock[runs][:, None] - self.injured_at[runs]
        live = ~self.dead[runs] & r.injured[lv] & (self.injured_at[runs] >= 0)
        dies_after, unc_after = r.dies_after[lv], r.unconscious_after[lv]
        die = live & (dies_after >= 0) & (elapsed >= dies_after)
        faint = live & ~die & (unc_after >= 0) & (elapsed >= unc_after) & ~self.unconscious[runs]
        ri, wi = numpy.nonzero(die)
        self._die(runs[ri], wi)
        ri, wi = numpy.nonzero(faint)
        self._knock_out(runs[ri], wi)

    def advance(self, runs: Ints) -> None:
        """The next turn: skip the dead; a new round moves the clock and ticks."""
        moving = runs
        for _ in range(self.roster.m + 1):
            if moving.size == 0:
                return
            self.index[moving] += 1
            wrap = self.index[moving] >= self.roster.m
            w = moving[wrap]
            if w.size:
                self.index[w] = 0
                self.round[w] += 1
                self.clock[w] += 2
                self.tick(w)
            actor = self.order[moving, self.index[moving]]
            moving = moving[self.dead[moving, actor]]

    def stalled(self, runs: Ints) -> Bools:
        """Runs where nobody standing can attack or draw a weapon any more."""
        r = self.roster
        able = ~(self.dead[runs] | self.unconscious[runs] | self.dazed[runs])
        armed = (
            (self.weapon[runs] >= 0)
            | (self.off[runs] >= 0)
            | (self.carried[runs] < r.kit_size[None, :])
        )
        return numpy.logical_not((able & armed).any(axis=1))

    def turn(self, runs: Ints) -> None:
        """One turn in each of ``runs``, as MeleePolicy plays it."""
        r = self.roster
        who = self.order[runs, self.index[runs]]
        # start of the turn: H-DEF-3 uses restored, H-ACT-1 ongoing ends, H-FAT-2 window
        self.uses[:, runs, who] = 0
        self.ongoing[runs, who] = False
        self.raised[runs, who] = False
        able = ~self.out(runs, who) & ~self.dazed[runs, who]
        tired = able & (self.fatigue[runs, who] >= r.base[who] + BREATHER_GAP)
        armed = (self.weapon[runs, who] >= 0) | (self.off[runs, who] >= 0)
        attacks = able & ~tired & armed
        draws = able & ~tired & ~armed & (self.carried[runs, who] < r.kit_size[who])
        # H-FAT-3 breather, an ongoing action: it ends the turn, -2 on defence until next
        b = numpy.flatnonzero(tired)
        if b.size:
            br, bw = runs[b], who[b]
            self.fatigue[br, bw] = numpy.maximum(r.base[bw], self.fatigue[br, bw] - r.breather)
            self.ongoing[br, bw] = True
        d = numpy.flatnonzero(draws)
        if d.size:
            dr, dw = runs[d], who[d]
            self.weapon[dr, dw] = self.carried[dr, dw]
            self.carried[dr, dw] += 1
        a = numpy.flatnonzero(attacks)
        if a.size:
            ar, aw = runs[a], who[a]
            self.attack(ar, aw, self.target(ar, aw))
        two = attacks | draws  # these take a second action: the end of the turn
        self.actions[runs] += 1
        self.settle(runs[two])
        second = runs[two & ~self.done[runs]]
        self.actions[second] += 1
        ending = runs[~self.done[runs]]
        # the end of the turn: pre-roll the defence (H-DEF-2) and pass the turn on
        enders = self.order[ending, self.index[ending]]
        keep = ~self.out(ending, enders)  # the dazed too, though they cannot use it
        self.preroll(ending[keep], enders[keep])
        self.advance(ending)
        self.settle(ending)

    def settle(self, runs: Ints) -> None:
        """After an action: a fight is over when one side is left, or capped at the limit."""
        stop = self.over(runs)
        cap = ~stop & (self.actions[runs] >= self.cap)
        self.capped[runs[cap]] = True
        self.done[runs[stop | cap]] = True

    def target(self, runs: Ints, who: Ints) -> Ints:
        """MeleePolicy's target: the standing enemy with the weakest defence, ties by id."""
        r = self.roster
        enemy = r.side[None, :] != r.side[who][:, None]
        standing = ~(self.dead[runs] | self.unconscious[runs])
        weak = (self.kind[runs] == NONE) | self.failed[runs] | self.dazed[runs]
        value = numpy.where(weak, -(10**6), self.result[runs])
        key = value * (r.m + 1) + r.rank[None, :]
        key = numpy.where(enemy & standing, key, numpy.iinfo(numpy.int64).max)
        return numpy.argmin(key, axis=1)  # type: ignore[no-any-return]

    def finish_stalled(self, run: int) -> None:
        """Play out a run where nobody can attack: every living combatant's turn is one
        action, and only the dying clocks (H-HP-5) change anything, at the ends of rounds.
        Whole rounds without a clock running out are skipped at once."""
        m, cap = self.roster.m, self.cap
        one = numpy.array([run])
        self.done[run] = True
        while True:
            # the rest of this round: one action for each living combatant
            living = ~self.dead[run, self.order[run]]
            left = int(living[self.index[run] :].sum())
            budget = cap - int(self.actions[run])
            if left > budget:
                self.actions[run] = cap
                self.capped[run] = True
                return
            self.actions[run] += left
            self.index[run] = m - 1
            self.advance(one)  # the last living turn's end closes the round
            if self.over(one)[0]:
                return
            budget = cap - int(self.actions[run])
            if budget <= 0:
                self.capped[run] = True
                return
            k = int((~self.dead[run]).sum())
            wraps = self._next_event(run)
            if wraps is None or (wraps - 1) * k >= budget:
                self.round[run] += budget // k
                self.actions[run] = cap
                self.capped[run] = True
                return
            self.round[run] += wraps - 1
            self.clock[run] += 2 * (wraps - 1)
            self.actions[run] += k * (wraps - 1)

    def _next_event(self, run: int) -> int | None:
        """How many round ends from now until a dying clock runs out (None: never)."""
        r = self.roster
        lv = r.level(self.hp[run])
        best: int | None = None
        for i in range(r.m):
            if self.dead[run, i] or not r.injured[lv[i]] or self.injured_at[run, i] < 0:
                continue
            for limit, pending in (
                (r.dies_after[lv[i]], True),
                (r.unconscious_after[lv[i]], not self.unconscious[run, i]),
            ):
                if limit < 0 or not pending:
                    continue
                due = self.injured_at[run, i] + limit
                rounds = max(1, -(-(due - int(self.clock[run])) // 2))
                best = rounds if best is None else min(best, rounds)
        return best

    def play(self) -> list[Outcome]:
        """Turn after turn until every fight is over or capped; the outcomes, run by run."""
        runs = numpy.arange(self.n)
        while True:
            runs = runs[~self.done[runs]]
            if runs.size == 0:
                return self.outcomes()
            stuck = self.stalled(runs)
            for run in runs[stuck]:
                self.finish_stalled(int(run))
            runs = runs[~stuck]
            if runs.size:
                self.turn(runs)

    def outcomes(self) -> list[Outcome]:
        r = self.roster
        standing = ~(self.dead | self.unconscious)
        counts = numpy.zeros((self.n, len(r.sides)), dtype=numpy.int64)
        for s in range(len(r.sides)):
            counts[:, s] = standing[:, r.side == s].sum(axis=1)
        alive = (counts > 0).sum(axis=1)
        winner = [
            r.sides[w] if a == 1 else None
            for w, a in zip(counts.argmax(axis=1), alive, strict=True)
        ]
        parts = self.parts.copy()
        injuries = numpy.zeros_like(parts)
        while parts.any():
            injuries += parts & 1
            parts >>= 1
        ids = r.ids
        hp = [dict(zip(ids, row, strict=True)) for row in self.hp.tolist()]
        hurt = [dict(zip(ids, row, strict=True)) for row in injuries.tolist()]
        rounds, actions = self.round.tolist(), self.actions.tolist()
        return list(map(Outcome, winner, rounds, hp, hurt, actions, self.capped.tolist()))


def simulate(
    ruleset_id: str,
    setup: Mapping[str, Any],
    seeds: Sequence[numpy.random.SeedSequence],
    max_actions: int = 2000,
) -> list[Outcome]:
    """Play one fight per seed; :class:`ValueError` when :func:`qualifies` would say no
    (every side is taken to play ``heimr-melee``)."""
    try:
        state = build(setup) if ruleset_id == "heimr" else None
    except ValueError as err:
        raise ValueError(f"the kernel cannot play this fight: {err}") from None
    sides = {c.side for c in state.combatants.values()} if state else set()
    problem = why_not(ruleset_id, setup, dict.fromkeys(sides, POLICY))
    if problem is not None or state is None:
        raise ValueError(f"the kernel cannot play this fight: {problem}")
    roster = Roster(state)
    out: list[Outcome] = []
    for start in range(0, len(seeds), CHUNK):  # each run has its own stream: any split
        fights = Fights(roster, seeds[start : start + CHUNK], max_actions)
        fights.begin()
        out += fights.play()
    return out
