"""The changing state of many Heimr melee fights at once, and MeleePolicy's turns in them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

from fracas.lab.kernel.dice import challenge_table
from fracas.lab.kernel.roster import (
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
from fracas.lab.kernel.streams import Streams
from fracas.lab.playout import Outcome
from fracas.lab.policies.heimr_melee import BREATHER_GAP


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
