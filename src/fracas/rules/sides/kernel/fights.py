"""The changing state of many side-initiative fights at once, and the default policy's
decisions in them.

Every run plays the same round at the same time (a round is one pass of :meth:`Fights.play`);
within a round the phases go as the engine settles them: the initiative (S-ROUND-1), the
acting side's characters one after another, the reacting side's, then the melee
(S-MELEE-1). A character's part of its phase is a short loop of the default policy's
choices (charge, shoot, move, done), each one action, as :class:`DefaultPolicy` makes them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy

from fracas.engine.capabilities import Outcome
from fracas.rules.heimr.kernel.streams import Streams
from fracas.rules.sides.kernel.roster import (
    CHARGE,
    CLOSE,
    FAR,
    KINDS,
    MEDIUM,
    MELEE,
    Bools,
    Floats,
    Ints,
    Roster,
)
from fracas.rules.sides.positions import EPS

#: The default policy's melee range (:data:`fracas.rules.sides.policies.MELEE_RANGE`, which
#: imports this package lazily: a test checks the two agree).
MELEE_RANGE = 5.0
# What a character does next in its phase (the default policy's choice).
DONE, CHARGING, SHOOTING, MOVING = 0, 1, 2, 3
# How it moved this round.
STILL, MOVED, CHARGED = 0, 1, 2
# When a melee attack strikes (S-MELEE-1).
FIRST, TOGETHER, LAST = 0, 1, 2


class Fights:
    """Every run's state: arrays of runs x combatants (the roster's setup order)."""

    def __init__(self, roster: Roster, seeds: Sequence[numpy.random.SeedSequence], cap: int):
        self.roster = r = roster
        self.streams = Streams(seeds)
        self.cap = cap
        self.n, self.m = n, m = len(seeds), r.m
        grid = (n, m)
        self.health = numpy.broadcast_to(r.health, grid).copy()
        self.stamina = numpy.broadcast_to(r.stamina, grid).copy()
        self.dead = numpy.zeros(grid, dtype=bool)
        self.position = numpy.broadcast_to(r.position, grid).copy()
        # this round's doings (S-MOVE-1..4, S-ATK-2)
        self.moved = numpy.zeros(grid, dtype=numpy.int64)
        self.before = numpy.zeros(grid)
        self.after = numpy.zeros(grid)
        self.shot = numpy.zeros(grid, dtype=bool)
        self.acting = numpy.zeros(n, dtype=numpy.int64)
        self.round = 0
        self.rounds = numpy.zeros(n, dtype=numpy.int64)
        self.actions = numpy.zeros(n, dtype=numpy.int64)
        self.stopped = numpy.zeros(n, dtype=bool)  # over, or at the action cap
        self.capped = numpy.zeros(n, dtype=bool)
        self.enemy = r.side[None, :] != r.side[:, None]

    # -- bookkeeping -------------------------------------------------------------------

    def push(self, runs: Ints, count: Ints | int = 1) -> Bools:
        """Count ``count`` actions of each run: which of ``runs`` have room for them under
        the cap. Those that do not are capped (having pushed what they could) and stopped."""
        room: Bools = self.actions[runs] + count <= self.cap
        stop = runs[~room]
        self.actions[stop] = self.cap
        self.capped[stop] = self.stopped[stop] = True
        self.actions[runs[room]] += count if isinstance(count, int) else count[room]
        return room

    def going(self, runs: Ints) -> Ints:
        return runs[~self.stopped[runs]]

    def pick(self, runs: Ints, allowed: Bools, score: Floats) -> Ints:
        """For each run, the column of ``allowed`` (a row each run, one at least) of the
        highest ``score``, ties broken at random as :func:`fracas.rules.tactics.best` does."""
        scored = numpy.where(allowed, score, -numpy.inf)
        top = scored.max(axis=1, keepdims=True)
        tied = allowed & (scored >= top - 1e-12)
        chosen: Ints = tied.argmax(axis=1)
        count = tied.sum(axis=1)
        several = count > 1
        if several.any():
            u = self.streams.uniforms(runs[several])
            nth = (u * count[several]).astype(numpy.int64)
            chosen[several] = (tied[several].cumsum(axis=1) > nth[:, None]).argmax(axis=1)
        return chosen

    def wound(self, flat: Ints, damage: Ints) -> None:
        """S-HP-1: damage to distinct (run * m + who), Stamina first, then Health; dead at 0."""
        hurt = damage > 0
        flat, damage = flat[hurt], damage[hurt]
        stamina, health = self.stamina.reshape(-1), self.health.reshape(-1)
        soaked = numpy.minimum(stamina[flat], damage)
        stamina[flat] -= soaked
        health[flat] -= numpy.minimum(health[flat], damage - soaked)
        self.dead.reshape(-1)[flat] = health[flat] <= 0

    def settle(self, runs: Ints) -> None:
        """Stop the runs whose fight is over: fewer than two sides have anyone living."""
        alive = ~self.dead[runs]
        standing = numpy.stack(
            [alive[:, self.roster.side == s].any(axis=1) for s in range(len(self.roster.sides))],
            axis=1,
        )
        self.stopped[runs[standing.sum(axis=1) < 2]] = True

    def strike(self, runs: Ints, who: Ints, target: Ints, kind: Ints) -> Ints:
        """The damage of one attack each (0 for a miss): one uniform a run."""
        u = self.streams.uniforms(runs)
        rows = self.roster.cdf[(who * self.m + target) * len(KINDS) + kind]
        return (rows <= u[:, None]).sum(axis=1)  # type: ignore[no-any-return]

    # -- the fight ---------------------------------------------------------------------

    def play(self) -> list[Outcome]:
        runs = numpy.arange(self.n)
        runs = runs[self.push(runs)]  # the game master begins (S-ROUND-1)
        while runs.size:
            runs = self.play_round(runs)
        return self.outcomes()

    def play_round(self, runs: Ints) -> Ints:
        """One round of every run still going: initiative, both phases, the melee."""
        r = self.roster
        self.round += 1
        if self.round == 1 and r.surprised.all():
            self.round += 1  # S-SURPRISE-1: nobody acts in the first round
        self.rounds[runs] = self.round
        for a in (self.moved, self.before, self.after, self.shot):
            a[runs] = 0
        surprise = self.round == 1 and bool(r.surprised.any())
        if surprise:  # the first side awake acts, without a choice
            self.acting[runs] = int(numpy.flatnonzero(~r.surprised)[0])
        else:  # S-ROUND-1: ties re-rolled, each side wins half; the winner acts
            self.acting[runs] = (self.streams.uniforms(runs) >= 0.5).astype(numpy.int64)
            runs = runs[self.push(runs)]
        for phase in (0, 1):
            sides = self.acting[runs] if phase == 0 else 1 - self.acting[runs]
            for k in range(r.members.shape[1]):
                who = r.members[sides, k]
                go = who >= 0
                if surprise:
                    go &= ~r.surprised[sides]
                go &= ~self.dead[runs, numpy.maximum(who, 0)]
                self.turn(runs[go], who[go])
                runs = self.going(runs)
                sides = self.acting[runs] if phase == 0 else 1 - self.acting[runs]
        self.melee(runs, surprise)
        return self.going(runs)

    def turn(self, runs: Ints, who: Ints) -> None:
        """One character's part of its side's phase, action after action until done."""
        while runs.size:
            choice, target, step = self.decide(runs, who)
            keep = self.push(runs) & (choice != DONE)
            runs, who, choice, target, step = (
                runs[keep],
                who[keep],
                choice[keep],
                target[keep],
                step[keep],
            )
            self.apply(runs, who, choice, target, step)
            alive = ~self.stopped[runs]
            runs, who = runs[alive], who[alive]

    def decide(self, runs: Ints, who: Ints) -> tuple[Ints, Ints, Floats]:
        """The default policy's next choice for each run's character, its target and how
        far it goes (a move's step, a charge's distance)."""
        r, m = self.roster, self.m
        span = numpy.arange(runs.size)
        where = self.position[runs]
        here = where[span, who]
        gap = numpy.abs(where - here[:, None])
        foe = self.enemy[who] & ~self.dead[runs]
        engaged = (foe & (gap <= MELEE_RANGE + 1e-6)).any(axis=1)
        choice = numpy.full(runs.size, DONE, dtype=numpy.int64)
        target = numpy.zeros(runs.size, dtype=numpy.int64)
        if engaged.all():  # in melee everywhere: done (the melee comes)
            return choice, target, numpy.zeros(runs.size)
        moved, shot = self.moved[runs, who], self.shot[runs, who]
        before, after = self.before[runs, who], self.after[runs, who]
        full = r.movement[who]
        free = (moved == STILL) & (before == 0) & (after == 0) & ~shot & r.melee[who]
        charge = foe & free[:, None] & (gap > MELEE_RANGE + EPS)
        charge &= gap - MELEE_RANGE <= full[:, None] + EPS
        shoot = foe & (r.ranged[who] & ~shot & (moved != CHARGED))[:, None]
        shoot &= gap <= r.reach[who, 2][:, None] + EPS
        half = full / 2
        left = numpy.where(
            ~shot,
            full - before,
            numpy.where(
                before <= EPS, full - after, numpy.where(before <= half + EPS, half - after, 0.0)
            ),
        )
        left = numpy.where(moved == CHARGED, 0.0, numpy.maximum(left, 0.0))
        steps = numpy.minimum(numpy.maximum(gap - MELEE_RANGE, 0.0), left[:, None])
        move = foe & (steps > EPS)
        loose = ~engaged
        for kind, allowed, score in (
            (CHARGING, charge, numpy.broadcast_to(-r.evasion, (runs.size, m))),
            (SHOOTING, shoot, numpy.broadcast_to(-r.evasion, (runs.size, m))),
            (MOVING, move, -gap),
        ):
            now = loose & allowed.any(axis=1)
            if now.any():
                choice[now] = kind
                target[now] = self.pick(runs[now], allowed[now], score[now])
                loose &= ~now
        step = numpy.where(choice == MOVING, steps[span, target], gap[span, target] - MELEE_RANGE)
        return choice, target, step

    def apply(self, runs: Ints, who: Ints, choice: Ints, target: Ints, step: Floats) -> None:
        """Carry out the choices (none of them ``done``)."""
        here, there = self.position[runs, who], self.position[runs, target]
        sign = numpy.where(there >= here, 1.0, -1.0)
        going = choice != SHOOTING
        g = runs[going]
        self.position[g, who[going]] = here[going] + sign[going] * step[going]
        acted = self.shot[runs, who]
        self.after[runs[going & acted], who[going & acted]] += step[going & acted]
        self.before[runs[going & ~acted], who[going & ~acted]] += step[going & ~acted]
        self.moved[g, who[going]] = numpy.where(choice[going] == CHARGING, CHARGED, MOVED)
        shooting = ~going
        if shooting.any():  # S-ATK-2: resolved at once; close is a bonus, far a difficulty
            s, w, t = runs[shooting], who[shooting], target[shooting]
            gap = numpy.abs(there[shooting] - here[shooting])
            reach = self.roster.reach[w]
            band = numpy.where(
                gap <= reach[:, 0] + EPS, CLOSE, numpy.where(gap <= reach[:, 1] + EPS, MEDIUM, FAR)
            )
            self.shot[s, w] = True
            self.wound(s * self.m + t, self.strike(s, w, t, band))
            self.settle(s)

    def melee(self, runs: Ints, surprise: bool) -> None:
        """S-MELEE-1: every fighter declares on the enemy in reach it is likeliest to hurt;
        the attacks strike First, together, then Last; damage lands after each strike."""
        r, m = self.roster, self.m
        if runs.size == 0:
            return
        where = self.position[runs]
        alive = ~self.dead[runs]
        can = alive & r.melee[None, :]
        if surprise:
            can &= ~r.surprised[r.side][None, :]
        targets = numpy.full((runs.size, m), -1, dtype=numpy.int64)
        for j in range(m):
            reach = self.enemy[j][None, :] & alive
            reach &= numpy.abs(where - where[:, j : j + 1]) <= MELEE_RANGE + EPS
            fights = can[:, j] & reach.any(axis=1)
            if fights.any():
                score = numpy.broadcast_to(-r.evasion, (int(fights.sum()), m))
                targets[fights, j] = self.pick(runs[fights], reach[fights], score)
        fighting = targets >= 0
        keep = self.push(runs, fighting.sum(axis=1))
        runs, targets, fighting = runs[keep], targets[keep], fighting[keep]
        charged = self.moved[runs] == CHARGED
        first = charged & ~r.negates[numpy.maximum(targets, 0)]
        tier = numpy.where(self.shot[runs], LAST, numpy.where(first, FIRST, TOGETHER))
        kind = numpy.where(charged, CHARGE, MELEE)
        for t in (FIRST, TOGETHER, LAST):
            alive = ~self.dead[runs]
            span = numpy.arange(runs.size)
            harm = numpy.zeros(runs.size * m, dtype=numpy.int64)
            for j in range(m):
                on = fighting[:, j] & (tier[:, j] == t) & alive[:, j]
                on &= alive[span, numpy.maximum(targets[:, j], 0)]
                if on.any():
                    s, aim = runs[on], targets[on, j]
                    damage = self.strike(s, numpy.full(s.size, j), aim, kind[on, j])
                    numpy.add.at(harm, span[on] * m + aim, damage)
            hit = numpy.flatnonzero(harm)
            if hit.size:
                self.wound(runs[hit // m] * m + hit % m, harm[hit])
        self.settle(runs)

    def outcomes(self) -> list[Outcome]:
        r = self.roster
        out = []
        zero = dict.fromkeys(r.ids, 0)
        for i in range(self.n):
            standing = {int(s) for s in r.side[~self.dead[i]]}
            over = len(standing) < 2
            winner = r.sides[standing.pop()] if over and len(standing) == 1 else None
            out.append(
                Outcome(
                    winner=winner,
                    rounds=int(self.rounds[i]),
                    hp_left=dict(zip(r.ids, self.health[i].tolist(), strict=True)),
                    injuries=dict(zero),
                    actions=int(self.actions[i]),
                    capped=bool(self.capped[i]) and not over,
                )
            )
        return out
