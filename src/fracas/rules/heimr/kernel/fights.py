"""The changing state of many Heimr fights at once, and the turns MeleePolicy and (in one
square) DefaultPolicy play in them."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import Any

import numpy
from numpy.typing import NDArray

from fracas.engine.capabilities import Outcome
from fracas.rules.heimr.blindspots import PENALTY as BLIND
from fracas.rules.heimr.kernel.default import nth_true
from fracas.rules.heimr.kernel.dice import challenge_table
from fracas.rules.heimr.kernel.roster import (
    BLOCK,
    DAZE,
    DODGE,
    DROP_OTHER,
    DROP_SWORD,
    FALL,
    NO_EFFECT,
    NONE,
    ONGOING,
    PARRY,
    PRONE,
    REPEAT,
    Bools,
    Ints,
    Roster,
)
from fracas.rules.heimr.kernel.streams import Streams
from fracas.rules.heimr.melee_policy import BREATHER_GAP
from fracas.rules.heimr.weighing import DEFAULT_CHALLENGE
from fracas.rules.tactics import TIE


def _flat(a: NDArray[Any]) -> NDArray[Any]:
    """The flat view of a state array (all are C-contiguous)."""
    return a.reshape(-1)


#: The default policy's order of the defences (DefaultPolicy's DEFENCES), by kind + 1:
#: block, parry, dodge, then none.
_RANK = numpy.array([3, 2, 0, 1], dtype=numpy.int64)

# H-DEF-2: the defence pre-rolled, by (stance + 1) * 4 + 2 * (a parry is left) + (a shield)
_KIND = numpy.array(
    [NONE] * 4  # no defence
    + [DODGE] * 4  # dodge
    + [DODGE, BLOCK] * 2  # block, else dodge
    + [DODGE, BLOCK, PARRY, PARRY],  # parry, else block, else dodge
    dtype=numpy.int64,
)


class Fights:
    """The changing state of every run: arrays of runs x combatants.

    The methods reach a combatant of a run through the flat position ``run * m + who``
    (and the ``uses`` plane of a defence kind at ``kind * n * m`` further): one gather
    from a flat array costs a fraction of NumPy's two-index fancy indexing."""

    def __init__(self, roster: Roster, seeds: Sequence[numpy.random.SeedSequence], cap: int):
        self.roster = r = roster
        self.dice = challenge_table()
        self.streams = Streams(seeds)
        self.cap = cap
        n, m = len(seeds), r.m
        self.n, self.m, self.size = n, m, n * m
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
        # H-ATK-1: each one's combat cluster (a label, -1: none), kept for the shots only
        self.cluster = numpy.full(grid, -1, dtype=numpy.int64) if r.ranged else None
        # H-ACT-8: counted ammunition left, and whether one is drawn (only if anyone counts)
        self.ammo = numpy.broadcast_to(r.ammunition, grid).copy()
        self.drawn = numpy.zeros(grid, dtype=bool)
        # H-MOD-1: each one's blind spot, as a bit mask of those standing in it
        self.blind_spot = numpy.zeros(grid, dtype=numpy.int64)
        # H-DEF-2: the kind of defence each pre-rolls (the default policy changes it)
        self.stance = numpy.broadcast_to(r.stance, grid).copy()
        if r.any_default:  # what the default policy reads of the log, and H-ATK-9
            # the challenge of each one's last attack roll, as the log showed it
            self.aim_c = numpy.full(grid, DEFAULT_CHALLENGE[0], dtype=numpy.int64)
            self.aim_p = numpy.full(grid, DEFAULT_CHALLENGE[1], dtype=numpy.int64)
            # whether each one's last breather or attack roll was a breather
            self.breathed = numpy.zeros(grid, dtype=bool)
            # H-ATK-9: bit mask of those whose melee attack each dodged since their turn
            self.dodged = numpy.zeros(grid, dtype=numpy.int64)

    # -- rolls -------------------------------------------------------------------

    def roll(self, runs: Ints, c: Ints) -> tuple[Ints, Ints]:
        """(raw, d6) of a challenge of consistency ``c`` for each run."""
        return self.dice.draw(c, self.streams.uniforms(runs))

    def tire(self, pos: Ints, who: Ints, d6: Ints, physical: Bools | None) -> None:
        """H-FAT-2: a d6 below fatigue raises it by 1, once a turn window, up to the maximum
        (``physical`` None: every roll counts)."""
        fatigue, raised = _flat(self.fatigue), _flat(self.raised)
        f = fatigue[pos]
        up = (d6 < f) & (f < self.roster.max_fatigue[who]) & ~raised[pos]
        if physical is not None:
            up &= physical
        pos = pos[up]
        fatigue[pos] += 1
        raised[pos] = True

    def out(self, pos: Ints) -> Bools:
        return _flat(self.dead)[pos] | _flat(self.unconscious)[pos]  # type: ignore[no-any-return]

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
        self.order[:] = numpy.lexsort(keys, axis=-1)
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
        pos = runs * self.m + who
        uses = _flat(self.uses)
        sword, off = _flat(self.weapon)[pos], _flat(self.off)[pos]
        parries = uses[PARRY * self.size + pos]
        # H-DEF-3: one parry a wielded melee weapon, the first melee weapon's first
        sword_m, off_m = self.melee(who, sword), self.melee(who, off)
        parry_ok = parries < sword_m.view(numpy.int8) + off_m.view(numpy.int8)
        block_ok = _flat(self.shield)[pos]
        stance = _flat(self.stance)[pos]
        choice = (stance + 1) * 4 + parry_ok.view(numpy.int8) * 2 + block_ok.view(numpy.int8)
        kind = _KIND[choice]
        out = self.out(pos)
        if out.any():
            kind[out] = NONE
        slot = numpy.maximum(numpy.where((parries == 0) & sword_m, sword, off), 0)
        # the defence's code (a kind with no roll reads the dodge's numbers, unused)
        parry = kind == PARRY
        code = who * r.codes + numpy.where(parry, 2 + slot, numpy.maximum(kind, 0))
        repeat = numpy.where(parry, 0, uses[numpy.maximum(kind, 0) * self.size + pos])
        c = r.defence_c[code] - REPEAT * repeat
        c -= ONGOING * _flat(self.ongoing)[pos] + PRONE * _flat(self.prone)[pos]
        rolling = kind != NONE
        if rolling.all():
            raw, d6 = self.roll(runs, c)
        else:
            raw = numpy.zeros(runs.size, dtype=numpy.int64)
            d6 = numpy.zeros(runs.size, dtype=numpy.int64)
            if rolling.any():
                raw[rolling], d6[rolling] = self.roll(runs[rolling], c[rolling])
        _flat(self.kind)[pos] = kind
        _flat(self.result)[pos] = raw + r.defence_p[code]
        _flat(self.d6)[pos] = d6
        _flat(self.failed)[pos] = r.defence_phys[code] & (raw < _flat(self.fatigue)[pos])

    # -- one attack ----------------------------------------------------------------

    def attack(self, runs: Ints, who: Ints, target: Ints) -> None:
        """H-ATK-2: one roll for each usable weapon wielded, the sword hand's first, while
        the target lives; H-ACT-8: a shot spends the drawn ammunition."""
        pos = runs * self.m + who
        sword, off = _flat(self.weapon)[pos], _flat(self.off)[pos]
        first, second = self.usable(pos, who, sword), self.usable(pos, who, off)
        if self.roster.counts:
            spent = (first & self.counted(who, sword)) | (second & self.counted(who, off))
            _flat(self.drawn)[pos[spent]] = False
        self.strike(runs, who, target, numpy.where(first, sword, off))
        again = first & second
        if again.any():
            again &= ~_flat(self.dead)[runs * self.m + target]
            self.strike(runs[again], who[again], target[again], off[again])

    def counted(self, who: Ints, slot: Ints) -> Bools:
        """Whether kit ``slot`` (-1: none) of each of ``who`` shoots counted ammunition."""
        r = self.roster
        return (slot >= 0) & r.counted.reshape(-1)[who * r.k + numpy.maximum(slot, 0)]

    def usable(self, pos: Ints, who: Ints, slot: Ints) -> Bools:
        """H-ACT-8: whether each one can attack with kit ``slot`` (-1: none): held, and its
        counted ammunition drawn."""
        if not self.roster.counts:
            return slot >= 0
        drawn: Bools = _flat(self.drawn)[pos]
        return (slot >= 0) & (~self.counted(who, slot) | drawn)

    def can_draw(self, pos: Ints, who: Ints) -> tuple[Bools, Bools]:
        """H-ACT-3, H-ACT-8: whether each one may draw its next carried weapon (into a free
        hand: the sword hand, else the off hand beside no shield, never beside a two-hands
        weapon, H-ATK-2), and its ammunition
        (none drawn, some left, for a weapon wielded)."""
        sword, off = _flat(self.weapon)[pos], _flat(self.off)[pos]
        r = self.roster
        both = (sword >= 0) & r.two_hands.reshape(-1)[who * r.k + numpy.maximum(sword, 0)]
        free = ((sword < 0) | ((off < 0) & ~_flat(self.shield)[pos])) & ~both
        item = free & (_flat(self.carried)[pos] < self.roster.kit_size[who])
        if not self.roster.counts:
            return item, numpy.zeros(pos.size, dtype=bool)
        shoots = self.counted(who, sword) | self.counted(who, off)
        return item, shoots & ~_flat(self.drawn)[pos] & (_flat(self.ammo)[pos] > 0)

    def melee(self, who: Ints, slot: Ints) -> Bools:
        """Whether kit ``slot`` (-1: none) of each of ``who`` is a melee weapon."""
        r = self.roster
        if not r.ranged:
            return slot >= 0
        return (slot >= 0) & r.weapon_melee.reshape(-1)[who * r.k + numpy.maximum(slot, 0)]

    def strike(self, runs: Ints, who: Ints, target: Ints, slot: Ints) -> None:
        """H-ATK-3..5: one weapon roll against the target's defence; H-ATK-7: a shot at one
        in a combat cluster the shooter is not in is fired into the cluster."""
        if runs.size == 0:
            return
        weapon = who * self.roster.k + slot
        if self.cluster is not None:
            cluster = _flat(self.cluster)
            theirs = cluster[runs * self.m + target]
            into = ~self.melee(who, slot) & (theirs >= 0) & (theirs != cluster[runs * self.m + who])
            if into.any():
                self.fire_into_cluster(runs[into], who[into], target[into], weapon[into])
                plain = ~into
                runs, who, target, weapon = runs[plain], who[plain], target[plain], weapon[plain]
        self.hit(runs, who, target, weapon)

    def fire_into_cluster(self, runs: Ints, who: Ints, target: Ints, weapon: Ints) -> None:
        """H-ATK-7: a penalty of one a character in the cluster; a dodged shot goes on to
        the next in initiative order from the target, the penalty one lower, until someone
        is hit or blocks (or parries). Only the first roll can raise fatigue."""
        m, k = self.m, runs.size
        assert self.cluster is not None
        label = _flat(self.cluster)[runs * m + target]
        members = self.cluster.take(runs, axis=0) == label[:, None]  # by combatant
        size = members.sum(axis=1)
        order = self.order.take(runs, axis=0)
        rows = numpy.arange(k)
        start = numpy.argmax(order == target[:, None], axis=1)
        victims = numpy.zeros(k, dtype=numpy.int64)  # the cluster's members passed so far
        going = numpy.ones(k, dtype=bool)
        for step in range(m):
            victim = order[rows, (start + step) % m]
            member = members[rows, victim]
            shot = going & member & ~_flat(self.dead)[runs * m + victim]
            at = numpy.flatnonzero(shot)
            if at.size:
                dodged = self.hit(
                    runs[at],
                    who[at],
                    victim[at],
                    weapon[at],
                    size[at] - victims[at],
                    victims[at] == 0,
                )
                going[at] = dodged
            victims += member
            if not going.any():
                return

    def hit(
        self,
        runs: Ints,
        who: Ints,
        target: Ints,
        weapon: Ints,
        penalty: Ints | int = 0,
        tires: Bools | None = None,
    ) -> Bools:
        """One attack roll with kit ``weapon`` (``who * k + slot``) against the target's
        defence (H-ATK-3..5, H-DEF-2..4), ``penalty`` off its consistency; ``tires``: whether
        it can raise fatigue (all by default). Whether each shot was dodged and missed."""
        r, m = self.roster, self.m
        dodged = numpy.zeros(runs.size, dtype=bool)
        if runs.size == 0:
            return dodged
        pos = runs * m + who
        tpos = runs * m + target
        melee = r.weapon_melee.reshape(-1)[weapon]
        prone = _flat(self.prone)
        c = r.weapon_c.reshape(-1)[weapon] - PRONE * prone[pos] - penalty
        if not melee.all():  # H-ATK-6: a shot's distance, and a prone target
            shot = ~melee
            c -= (PRONE * prone[tpos] + r.shot.reshape(-1)[who * m + target]) * shot
        raw, d6 = self.roll(runs, c)
        potential = r.weapon_p.reshape(-1)[weapon]
        result = raw + potential
        if r.any_default:  # the roll as the log shows it: the default policy's aim
            _flat(self.aim_c)[pos] = c
            _flat(self.aim_p)[pos] = potential
            _flat(self.breathed)[pos] = False
        physical = r.weapon_phys.reshape(-1)[weapon]
        failed = physical & (raw < _flat(self.fatigue)[pos])  # H-FAT-1
        self.tire(pos, who, d6, physical if tires is None else physical & tires)
        if self.cluster is not None and melee.any():  # H-ATK-1: a melee attack joins them
            self.join(runs[melee], who[melee], target[melee])
        go = numpy.flatnonzero(~failed)
        if go.size < runs.size:
            runs, who, target, result, d6, weapon, melee, tpos = (
                runs[go],
                who[go],
                target[go],
                result[go],
                d6[go],
                weapon[go],
                melee[go],
                tpos[go],
            )
        missed = self.land(runs, who, target, result, d6, melee, r.damage.reshape(-1)[weapon])
        dodged[go] = missed
        if r.any_default:  # H-ATK-9: a dodged melee attack lets a brawler in
            d = numpy.flatnonzero(missed & melee)
            _flat(self.dodged)[tpos[d]] |= 1 << who[d]
        return dodged

    def land(
        self,
        runs: Ints,
        who: Ints,
        target: Ints,
        result: Ints,
        d6: Ints,
        melee: Bools,
        damage: Ints,
    ) -> Bools:
        """An attack roll of ``result`` (not failed outright) against the target's defence
        (H-ATK-3, H-DEF-2..4): on a hit ``damage`` to the body part of ``d6`` (H-HP-1..2).
        Whether each was dodged and missed."""
        r, m = self.roster, self.m
        tpos = runs * m + target
        prone = _flat(self.prone)
        kind = _flat(self.kind)[tpos]
        defends = (kind != NONE) & ~self.out(tpos) & ~_flat(self.dazed)[tpos]
        hit = ~defends
        # H-DEF-2: no parrying a shot: a dodge is rolled now, the parry kept for melee;
        # H-MOD-1: against a shot from the blind spot the defence is rolled now at -5
        now = defends & (kind == PARRY) & ~melee
        blind = numpy.zeros(runs.size, dtype=bool)
        if not r.one_square:
            blind = defends & ~melee & ((_flat(self.blind_spot)[tpos] >> who) & 1).astype(bool)
            now |= blind
        held = numpy.flatnonzero(defends & ~now)
        if held.size:
            dr, dt, dpos = runs[held], target[held], tpos[held]
            _flat(self.uses)[kind[held] * self.size + dpos] += 1
            # H-DEF-2, H-FAT-2: the used defence's d6 moves fatigue (whatever its ability)
            self.tire(dpos, dt, _flat(self.d6)[dpos], None)
            hit[held] = _flat(self.failed)[dpos] | (result[held] > _flat(self.result)[dpos])
            self.preroll(dr, dt)  # H-DEF-2: rolled again once used
        used = kind.copy()
        fresh = numpy.flatnonzero(now)
        if fresh.size:
            dr, dt, dpos = runs[fresh], target[fresh], tpos[fresh]
            # the held kind, but a dodge for a parry, or a block without its shield
            k = kind[fresh]
            k = numpy.where((k == PARRY) | ((k == BLOCK) & ~_flat(self.shield)[dpos]), DODGE, k)
            used[fresh] = k
            uses = _flat(self.uses)
            code = dt * r.codes + k
            c = r.defence_c[code] - REPEAT * uses[k * self.size + dpos]
            c -= ONGOING * _flat(self.ongoing)[dpos] + PRONE * prone[dpos]
            c -= BLIND * blind[fresh]
            draw, dd6 = self.roll(dr, c)
            missed = r.defence_phys[code] & (draw < _flat(self.fatigue)[dpos])  # H-FAT-1
            uses[k * self.size + dpos] += 1
            self.tire(dpos, dt, dd6, None)  # then H-FAT-2
            hit[fresh] = missed | (result[fresh] > draw + r.defence_p[code])
        if not r.one_square:  # H-MOD-1: a defended shot leaves a blind spot opposite it
            shots = numpy.flatnonzero(defends & ~melee)
            if shots.size:
                spot = _flat(self.blind_spot)
                sp, sw = tpos[shots], who[shots]
                inside = ((spot[sp] >> sw) & 1).astype(bool)
                spot[sp] |= numpy.where(inside, 0, r.blind.reshape(-1)[target[shots] * m + sw])
        h = numpy.flatnonzero(hit)
        if h.size:
            self.hurt(runs[h], target[h], damage[h], r.part_of_d6[d6[h]])
        return ~hit & (used == DODGE)  # type: ignore[no-any-return]

    def join(self, runs: Ints, a: Ints, b: Ints) -> None:
        """H-ATK-1: a melee attack puts both in one combat cluster (a cluster's label is
        the index of one of its members)."""
        assert self.cluster is not None
        m = self.m
        cluster = self.cluster
        la, lb = _flat(cluster)[runs * m + a], _flat(cluster)[runs * m + b]
        apart = (la < 0) | (la != lb)
        if not apart.all():
            runs, a, b, la, lb = runs[apart], a[apart], b[apart], la[apart], lb[apart]
        if runs.size == 0:
            return
        label = numpy.where(la >= 0, la, numpy.where(lb >= 0, lb, a))
        rows = cluster.take(runs, axis=0)
        merged = ((rows == la[:, None]) & (la >= 0)[:, None]) | (
            (rows == lb[:, None]) & (lb >= 0)[:, None]
        )
        k = numpy.arange(runs.size)
        merged[k, a] = True
        merged[k, b] = True
        cluster[runs] = numpy.where(merged, label[:, None], rows)

    def hurt(self, runs: Ints, who: Ints, amount: Ints, part: Ints) -> None:
        """H-HP-1, H-HP-2: lose hit points; at 0 or fewer an injury and its effect."""
        r = self.roster
        pos = runs * self.m + who
        real = (amount > 0) & ~_flat(self.dead)[pos]
        runs, pos, amount, part = runs[real], pos[real], amount[real], part[real]
        hp = _flat(self.hp)
        before = r.level(hp[pos])
        hp[pos] -= amount
        now = r.level(hp[pos])
        injured = r.injured[now]
        if not injured.any():
            return
        runs, pos, part = runs[injured], pos[injured], part[injured]
        before, now = before[injured], now[injured]
        dies = r.dies_after[now] == 0
        self._die(pos[dies])
        live = ~dies
        runs, pos, part, before, now = runs[live], pos[live], part[live], before[live], now[live]
        bit = 1 << part
        parts = _flat(self.parts)
        new = (parts[pos] & bit) == 0
        parts[pos] |= bit
        effect = numpy.where(new, r.part_effect[part], NO_EFFECT)
        _flat(self.dazed)[pos[effect == DAZE]] = True
        _flat(self.prone)[pos[effect == FALL]] = True
        _flat(self.weapon)[pos[effect == DROP_SWORD]] = -1
        # the other arm drops the off-hand's weapon, else its shield (H-EFF-3)
        other = effect == DROP_OTHER
        weapon_there = other & (_flat(self.off)[pos] >= 0)
        _flat(self.off)[pos[weapon_there]] = -1
        _flat(self.shield)[pos[other & ~weapon_there]] = False
        worse = ~r.injured[before] | (r.level_high[now] < r.level_high[before])
        runs, pos, now = runs[worse], pos[worse], now[worse]
        _flat(self.injured_at)[pos] = self.clock[runs]
        self._knock_out(pos[r.unconscious_after[now] == 0])

    def _knock_out(self, pos: Ints) -> None:
        _flat(self.unconscious)[pos] = True
        _flat(self.prone)[pos] = True
        _flat(self.kind)[pos] = NONE

    def _die(self, pos: Ints) -> None:
        _flat(self.dead)[pos] = True
        self._knock_out(pos)

    # -- turns ---------------------------------------------------------------------

    def over(self, runs: Ints) -> Bools:
        """Whether at most one side still stands in each run."""
        r = self.roster
        standing = ~(self.dead.take(runs, axis=0) | self.unconscious.take(runs, axis=0))
        sides = numpy.zeros(runs.size, dtype=numpy.int64)
        for s in range(len(r.sides)):
            sides += standing[:, r.side == s].any(axis=1)
        return sides <= 1

    def tick(self, runs: Ints) -> None:
        """H-HP-5: the dying clocks, at the end of each round (2 seconds)."""
        r = self.roster
        injured_at = self.injured_at.take(runs, axis=0)
        live = injured_at >= 0
        if not live.any():
            return
        lv = r.level(self.hp.take(runs, axis=0))
        elapsed = self.clock[runs][:, None] - injured_at
        live &= ~self.dead.take(runs, axis=0) & r.injured[lv]
        dies_after, unc_after = r.dies_after[lv], r.unconscious_after[lv]
        die = live & (dies_after >= 0) & (elapsed >= dies_after)
        faint = live & ~die & (unc_after >= 0) & (elapsed >= unc_after)
        faint &= ~self.unconscious.take(runs, axis=0)
        ri, wi = numpy.nonzero(die)
        self._die(runs[ri] * self.m + wi)
        ri, wi = numpy.nonzero(faint)
        self._knock_out(runs[ri] * self.m + wi)

    def advance(self, runs: Ints) -> None:
        """The next turn: skip the dead; a new round moves the clock and ticks."""
        m = self.m
        moving = runs
        for _ in range(m + 1):
            if moving.size == 0:
                return
            index = self.index[moving] + 1
            wrap = index >= m
            if wrap.any():
                index[wrap] = 0
                w = moving[wrap]
                self.round[w] += 1
                self.clock[w] += 2
                self.index[moving] = index
                self.tick(w)
            else:
                self.index[moving] = index
            actor = _flat(self.order)[moving * m + index]
            moving = moving[_flat(self.dead)[moving * m + actor]]

    def stalled(self, runs: Ints) -> Bools:
        """Runs where nobody standing can attack a standing enemy, or, on several squares,
        ever draw a weapon or ammunition again."""
        m = self.m
        unable = self.dead.take(runs, axis=0) | self.unconscious.take(runs, axis=0)
        unable |= self.dazed.take(runs, axis=0)
        if self.roster.one_square:
            who = numpy.tile(numpy.arange(m), runs.size)
            pos = numpy.repeat(runs * m, m) + who
            armed = self.usable(pos, who, _flat(self.weapon)[pos])
            armed |= self.usable(pos, who, _flat(self.off)[pos])
            item, ammo = self.can_draw(pos, who)
            armed |= item | ammo
            if self.roster.any_default:  # the default policy punches when it cannot draw
                armed |= self.roster.default[who]
            return numpy.logical_not((armed.reshape(-1, m) & ~unable).any(axis=1))
        down = self.unconscious.take(runs, axis=0)  # the dead are never legal targets
        able = numpy.zeros((runs.size, m), dtype=bool)
        for i in range(m):
            who = numpy.full(runs.size, i)
            legal = self.legal(runs, who)
            item, ammo = self.can_draw(runs * m + i, who)
            # a death can leave one no attack at all, so that it draws (MeleePolicy)
            able[:, i] = (legal & ~down).any(axis=1) | item | ammo
        return numpy.logical_not((able & ~unable).any(axis=1))

    def legal(self, runs: Ints, who: Ints) -> Bools:
        """Whom each of ``who`` may attack (H-ATK-1, H-ATK-6): every living enemy every
        usable weapon it wields reaches, if it has one."""
        r, m, k = self.roster, self.m, self.roster.k
        pos = runs * m + who
        sword, off = _flat(self.weapon)[pos], _flat(self.off)[pos]
        first, second = self.usable(pos, who, sword), self.usable(pos, who, off)
        reach = r.reach.reshape(-1, m)
        ok: Bools = r.enemy.take(who, axis=0) & ~self.dead.take(runs, axis=0)
        ok &= (first | second)[:, None]
        ok &= ~first[:, None] | reach[who * k + numpy.maximum(sword, 0)]
        ok &= ~second[:, None] | reach[who * k + numpy.maximum(off, 0)]
        return ok

    def turn(self, runs: Ints) -> None:
        """One turn in each of ``runs``, as the actor's policy plays it: MeleePolicy's
        (:meth:`melee_step`) or the default policy's (:meth:`default_step`)."""
        r, m, size = self.roster, self.m, self.size
        who = _flat(self.order)[runs * m + self.index[runs]]
        pos = runs * m + who
        # start of the turn: H-DEF-3 uses restored, H-ACT-1 ongoing ends, H-FAT-2 window
        uses = _flat(self.uses)
        uses[pos] = 0
        uses[size + pos] = 0
        uses[2 * size + pos] = 0
        _flat(self.ongoing)[pos] = False
        _flat(self.raised)[pos] = False
        _flat(self.blind_spot)[pos] = 0  # H-MOD-1: until the defender's next turn
        able = ~self.out(pos) & ~_flat(self.dazed)[pos]
        chosen: Ints | None = None  # the default policy's targets (-1: MeleePolicy's)
        punches = restance = None
        if not r.any_default:
            tired, attacks, draws, loads = self.melee_step(runs, who, pos, able)
        else:
            # H-ATK-9: a dodge of the actor's attacks lets a brawler in until its next turn
            self.dodged[runs] &= ~(numpy.int64(1) << who)[:, None]
            theirs = able & r.default[who]
            tired, attacks, draws, loads = self.melee_step(runs, who, pos, able & ~theirs)
            if theirs.any():
                chosen, punches, stanced = self.default_step(
                    runs, who, pos, theirs, tired, attacks, draws
                )
        # H-FAT-3 breather, an ongoing action: it ends the turn, -2 on defence until next
        b = numpy.flatnonzero(tired)
        if b.size:
            bp, bw = pos[b], who[b]
            fatigue = _flat(self.fatigue)
            fatigue[bp] = numpy.maximum(r.base[bw], fatigue[bp] - r.breather)
            _flat(self.ongoing)[bp] = True
            if r.any_default:
                _flat(self.breathed)[bp] = True
        d = numpy.flatnonzero(draws)
        if d.size:
            dp = pos[d]
            carried = _flat(self.carried)
            sword = _flat(self.weapon)[dp] < 0
            _flat(self.weapon)[dp[sword]] = carried[dp[sword]]
            _flat(self.off)[dp[~sword]] = carried[dp[~sword]]
            carried[dp] += 1
            if chosen is not None:  # the default policy: the stance the weapon allows, unless
                # it took one this turn already ("defend" is a free action: once a turn)
                restance = numpy.zeros(runs.size, dtype=bool)
                mine = d[r.default[who[d]] & ~stanced[d]]
                restance[mine] = self.take_stance(pos[mine], who[mine])
        if loads.any():  # H-ACT-8: one drawn from those counted
            lp = pos[loads]
            _flat(self.ammo)[lp] -= 1
            _flat(self.drawn)[lp] = True
        a = numpy.flatnonzero(attacks)
        if a.size:
            ar, aw = runs[a], who[a]
            if chosen is None:
                target = self.target(ar, aw)
            else:
                target = chosen[a]
                melee = target < 0
                if melee.any():
                    target[melee] = self.target(ar[melee], aw[melee])
            self.attack(ar, aw, target)
        two = attacks | draws | loads  # these take a second action: the end of the turn
        knocked = None
        if punches is not None and chosen is not None and punches.any():
            p = numpy.flatnonzero(punches)
            self.punch(runs[p], who[p], chosen[p])
            # a puncher struck down by the weapon it went past: its turn ends with it
            knocked = numpy.zeros(runs.size, dtype=bool)
            knocked[p] = self.out(pos[p])
            two |= punches & ~knocked
        if chosen is None:
            self.actions[runs] += 1
        else:  # not those a stance taken brought to the action cap
            self.actions[runs[~self.done[runs]]] += 1
        self.settle(runs[two])
        going = ~self.done[runs]
        if restance is not None and restance.any():  # "defend <kind>" after the draw
            again = restance & going
            self.actions[runs[again]] += 1
            self.settle(runs[again])
            going = ~self.done[runs]
        second = runs[two & going]
        self.actions[second] += 1
        if knocked is not None:
            going |= knocked  # the rules end its turn whether or not the fight is over
        ending, enders = runs[going], who[going]
        # the end of the turn: pre-roll the defence (H-DEF-2) and pass the turn on
        keep = ~self.out(ending * m + enders)  # the dazed too, though they cannot use it
        self.preroll(ending[keep], enders[keep])
        self.advance(ending)
        self.settle(ending)

    def melee_step(
        self, runs: Ints, who: Ints, pos: Ints, able: Bools
    ) -> tuple[Bools, Bools, Bools, Bools]:
        """MeleePolicy's choice for those ``able`` (its rules 2 to 5): whether each takes a
        breather, attacks, draws a weapon or draws ammunition."""
        r = self.roster
        tired = able & (_flat(self.fatigue)[pos] >= r.base[who] + BREATHER_GAP)
        fresh = able & ~tired
        if r.one_square:  # anyone armed reaches every enemy in the square
            armed = self.usable(pos, who, _flat(self.weapon)[pos])
            armed |= self.usable(pos, who, _flat(self.off)[pos])
            attacks = fresh & armed
            draws = fresh & ~armed
        else:
            legal = self.legal(runs, who)
            attacks = fresh & (legal & ~self.unconscious.take(runs, axis=0)).any(axis=1)
            draws = fresh & ~legal.any(axis=1)  # MeleePolicy draws only with no attack legal
        loads = numpy.zeros(runs.size, dtype=bool)
        if draws.any():  # MeleePolicy draws the first it may: a carried weapon, else ammunition
            item, ammo = self.can_draw(pos, who)
            loads = draws & ~item & ammo
            draws &= item
        return tired, attacks, draws, loads

    def default_step(
        self,
        runs: Ints,
        who: Ints,
        pos: Ints,
        theirs: Bools,
        tired: Bools,
        attacks: Bools,
        draws: Bools,
    ) -> tuple[Ints, Bools, Bools]:
        """DefaultPolicy's turn for those of ``theirs``, where everyone is in one square:
        the best defence stance it may take (a free action, counted here), then a
        breather when its ``_needs_breather`` says so, else the attack likeliest to hit,
        else a weapon drawn, else a punch. Marks ``tired``, ``attacks`` and ``draws`` in
        place; the targets chosen (-1 for others), who punches and who took a stance."""
        odds = self.roster.odds
        assert odds is not None
        d = numpy.flatnonzero(theirs)
        dr, dw, dp = runs[d], who[d], pos[d]
        changed = self.take_stance(dp, dw)
        if changed.any():  # "defend <kind>": an action of its own
            self.actions[dr[changed]] += 1
            self.settle(dr[changed])
        breather = odds.breather(
            _flat(self.aim_c)[dp], _flat(self.fatigue)[dp], _flat(self.breathed)[dp]
        )
        armed = self.usable(dp, dw, _flat(self.weapon)[dp]) | self.usable(
            dp, dw, _flat(self.off)[dp]
        )
        item, _ = self.can_draw(dp, dw)  # never ammunition (the default policy's draws)
        acts = ~breather & ~self.done[dr]  # nothing more where the stance met the action cap
        attack = acts & armed
        draw = acts & ~armed & item
        punch = acts & ~armed & ~item
        breather &= ~self.done[dr]
        chosen = numpy.full(runs.size, -1, dtype=numpy.int64)
        if attack.any():
            chosen[d[attack]] = self.likeliest(dr[attack], dw[attack])
        if punch.any():
            chosen[d[punch]] = self.most_hurt(dr[punch], dw[punch])
        tired[d] = breather
        attacks[d] = attack
        draws[d] = draw
        punches = numpy.zeros(runs.size, dtype=bool)
        punches[d] = punch
        stanced = numpy.zeros(runs.size, dtype=bool)
        stanced[d] = changed
        return chosen, punches, stanced

    def take_stance(self, pos: Ints, who: Ints) -> Bools:
        """The default policy's first choice of a turn (H-DEF-1): the best defence it may
        pre-roll, block, parry or dodge, if better than its stance. Whether it changed."""
        stance = _flat(self.stance)
        now = stance[pos]
        parry = self.melee(who, _flat(self.weapon)[pos]) | self.melee(who, _flat(self.off)[pos])
        best = numpy.where(_flat(self.shield)[pos], BLOCK, numpy.where(parry, PARRY, DODGE))
        changed: Bools = _RANK[best + 1] < _RANK[now + 1]
        stance[pos[changed]] = best[changed]
        return changed

    def likeliest(self, runs: Ints, who: Ints) -> Ints:
        """The default policy's target: the living enemy its aim (its last attack roll's
        challenge) is likeliest to hit past its pre-rolled defence, ties at random."""
        odds = self.roster.odds
        assert odds is not None
        pos = runs * self.m + who
        fatigue = _flat(self.fatigue)[pos][:, None]
        potential = _flat(self.aim_p)[pos][:, None]
        shown = (self.kind.take(runs, axis=0) != NONE) & ~self.failed.take(runs, axis=0)
        need = numpy.where(
            shown,
            numpy.maximum(fatigue, self.result.take(runs, axis=0) - potential + 1),
            fatigue,
        )
        score = odds.hit(_flat(self.aim_c)[pos][:, None], need)
        return self.best(runs, who, score)

    def most_hurt(self, runs: Ints, who: Ints) -> Ints:
        """The default policy's punch: the living enemy with the most injuries, ties at
        random."""
        r = self.roster
        return self.best(runs, who, r.popcount[self.parts.take(runs, axis=0) & 63].astype(float))

    def best(self, runs: Ints, who: Ints, score: NDArray[numpy.float64]) -> Ints:
        """The living enemy of highest ``score`` (runs x combatants), ties drawn from the
        run's stream (fracas.rules.tactics.best)."""
        r = self.roster
        living = r.enemy.take(who, axis=0) & ~self.dead.take(runs, axis=0)
        score = numpy.where(living, score, -numpy.inf)
        top = score.max(axis=1)
        tied = living & (score >= top[:, None] - TIE)
        count = tied.sum(axis=1)
        k = numpy.zeros(runs.size, dtype=numpy.int64)
        many = count > 1
        if many.any():
            k[many] = self.pick(runs[many], count[many])
        return nth_true(tied, k)

    def pick(self, runs: Ints, count: Ints) -> Ints:
        """A uniform choice among ``count`` for each run, from its stream."""
        return numpy.minimum((self.streams.uniforms(runs) * count).astype(numpy.int64), count - 1)

    def punch(self, runs: Ints, who: Ints, target: Ints) -> None:
        """H-ATK-8: a punch (Hit 1) by each of ``who``; H-ATK-9: past the target's first
        melee weapon first, unless it dodged the target's melee attack since the target's
        turn began, or the target cannot act: the target strikes, a hit ends the punch."""
        r, m, size = self.roster, self.m, self.size
        pos, tpos = runs * m + who, runs * m + target
        sword, off = _flat(self.weapon)[tpos], _flat(self.off)[tpos]
        sword_m, off_m = self.melee(target, sword), self.melee(target, off)
        slot = numpy.where(sword_m, sword, off)
        let_in = ((_flat(self.dodged)[pos] >> target) & 1).astype(bool)
        strikes = (sword_m | off_m) & ~let_in & ~self.out(tpos) & ~_flat(self.dazed)[tpos]
        passed = ~strikes
        s = numpy.flatnonzero(strikes)
        if s.size:
            sr, sw, st, sp, stp = runs[s], who[s], target[s], pos[s], tpos[s]
            weapon = st * r.k + slot[s]
            prone = _flat(self.prone)
            raw, d6 = self.roll(sr, r.weapon_c.reshape(-1)[weapon] - PRONE * prone[stp])
            result = raw + r.weapon_p.reshape(-1)[weapon]
            physical = r.weapon_phys.reshape(-1)[weapon]
            failed = physical & (raw < _flat(self.fatigue)[stp])  # H-FAT-1: no attack to dodge
            self.tire(stp, st, d6, physical)
            if self.cluster is not None:
                self.join(sr, sw, st)
            ok = failed.copy()
            g = numpy.flatnonzero(~failed)
            if g.size:  # the puncher dodges: its pre-rolled dodge, else one rolled now
                gr, gw, gp = sr[g], sw[g], sp[g]
                held = _flat(self.kind)[gp] == DODGE
                dodge = _flat(self.result)[gp]
                missed = _flat(self.failed)[gp]
                dd6 = _flat(self.d6)[gp]
                uses = _flat(self.uses)
                f = numpy.flatnonzero(~held)
                if f.size:
                    fp = gp[f]
                    code = gw[f] * r.codes + DODGE
                    c = r.defence_c[code] - REPEAT * uses[DODGE * size + fp]
                    c -= ONGOING * _flat(self.ongoing)[fp] + PRONE * prone[fp]
                    draw, fd6 = self.roll(gr[f], c)
                    dodge[f] = draw + r.defence_p[code]
                    missed[f] = r.defence_phys[code] & (draw < _flat(self.fatigue)[fp])
                    dd6[f] = fd6
                uses[DODGE * size + gp] += 1
                self.tire(gp, gw, dd6, None)
                if held.any():
                    self.preroll(gr[held], gw[held])  # H-DEF-2: rolled again once used
                through = ~missed & (dodge >= result[g])
                ok[g] = through
                h = numpy.flatnonzero(~through)
                if h.size:
                    hw = weapon[g][h]
                    self.hurt(gr[h], gw[h], r.damage.reshape(-1)[hw], r.part_of_d6[d6[g][h]])
            passed[s] = ok
        b = numpy.flatnonzero(passed)
        if b.size == 0:
            return
        br, bw, bt, bp = runs[b], who[b], target[b], pos[b]
        raw, d6 = self.roll(br, r.brawl_c[bw] - PRONE * _flat(self.prone)[bp])
        physical = r.brawl_phys[bw]
        failed = physical & (raw < _flat(self.fatigue)[bp])  # H-FAT-1
        self.tire(bp, bw, d6, physical)
        if self.cluster is not None:
            self.join(br, bw, bt)
        go = numpy.flatnonzero(~failed)
        if go.size:
            result = raw[go] + r.brawl_p[bw[go]]
            melee = numpy.ones(go.size, dtype=bool)
            self.land(
                br[go],
                bw[go],
                bt[go],
                result,
                d6[go],
                melee,
                numpy.ones(go.size, dtype=numpy.int64),
            )

    def settle(self, runs: Ints) -> None:
        """After an action: a fight is over when one side is left, or capped at the limit."""
        stop = self.over(runs)
        cap = ~stop & (self.actions[runs] >= self.cap)
        self.capped[runs[cap]] = True
        self.done[runs[stop | cap]] = True

    def target(self, runs: Ints, who: Ints) -> Ints:
        """MeleePolicy's target: the standing enemy with the weakest defence, ties by id."""
        r = self.roster
        down = self.dead.take(runs, axis=0) | self.unconscious.take(runs, axis=0)
        weak = self.kind.take(runs, axis=0) == NONE
        weak |= self.failed.take(runs, axis=0)
        weak |= self.dazed.take(runs, axis=0)
        value = numpy.where(weak, -(10**6), self.result.take(runs, axis=0))
        key = value * (r.m + 1) + r.rank[None, :]
        barred = down | ~r.enemy.take(who, axis=0)
        if not r.one_square:
            barred |= ~self.legal(runs, who)
        key[barred] = numpy.iinfo(numpy.int64).max
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
            if stuck.any():
                for run in runs[stuck]:
                    self.finish_stalled(int(run))
                runs = runs[~self.done[runs]]  # those a death may have changed play on
            if runs.size:
                self.turn(runs)

    def outcomes(self) -> list[Outcome]:
        r = self.roster
        standing = ~(self.dead | self.unconscious)
        counts = numpy.zeros((self.n, len(r.sides)), dtype=numpy.int64)
        for s in range(len(r.sides)):
            counts[:, s] = standing[:, r.side == s].sum(axis=1)
        alive = (counts > 0).sum(axis=1)
        # the side left standing, else None (the last name)
        names = [*r.sides, None]
        who_won = numpy.where(alive == 1, counts.argmax(axis=1), len(r.sides))
        winner = list(map(names.__getitem__, who_won.tolist()))
        parts = self.parts.copy()
        injuries = numpy.zeros_like(parts)
        while parts.any():
            injuries += parts & 1
            parts >>= 1
        by_id = repeat(self.roster.ids)  # every row has one number a combatant
        hp = list(map(dict, map(zip, by_id, self.hp.tolist())))
        hurt = list(map(dict, map(zip, by_id, injuries.tolist())))
        rounds, actions = self.round.tolist(), self.actions.tolist()
        return list(map(Outcome, winner, rounds, hp, hurt, actions, self.capped.tolist()))
