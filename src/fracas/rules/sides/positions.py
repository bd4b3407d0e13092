"""The battlefield as a line (docs/decisions.md): movement, runs and charges.

Every combatant stands at a position on one line, in the encounter's unit; distances are
differences of positions. Two enemies within the melee range (5 feet) are in melee. The
functions here are pure: they compute where a move ends and what it is allowed.

>>> distance(10, 25.5)
15.5
>>> path_min(0, 30, 12)   # the path from 0 to 30 passes 12
0.0
>>> show(7.5, "feet"), show(4.5, "metres")
("7.5'", '4.5 m')
"""

from __future__ import annotations

from fracas.rules.sides.campaign import Units
from fracas.rules.sides.state import Combatant, SidesState

#: Floating-point slack for comparing distances.
EPS = 1e-6
#: S-MOVE-3: a run covers up to twice the combat movement.
RUN_FACTOR = 2


def distance(a: float, b: float) -> float:
    return abs(a - b)


def within(d: float, limit: float) -> bool:
    return d <= limit + EPS


def path_min(start: float, end: float, point: float) -> float:
    """The least distance from ``point`` to the straight path from ``start`` to ``end``."""
    low, high = min(start, end), max(start, end)
    if low <= point <= high:
        return 0.0
    return min(distance(start, point), distance(end, point))


def show(d: float, units: Units) -> str:
    text = f"{d:.2f}".rstrip("0").rstrip(".")
    return f"{text}'" if units == "feet" else f"{text} m"


def in_melee(state: SidesState, a: Combatant, b: Combatant) -> bool:
    return within(distance(a.position, b.position), state.melee_range)


def engaged_with(state: SidesState, who: Combatant) -> list[Combatant]:
    """The living enemies within melee range of ``who`` now."""
    return [e for e in state.enemies(who) if in_melee(state, who, e)]


def movement_left(who: Combatant) -> float:
    """S-MOVE-1, S-ATK-2: how far a normal move may still go this round.

    Before shooting (casting, improvising) the whole combat movement; after it, the rest
    of it if the character had not moved before ("fire before or after moving"), half of
    it if it moved at most half before (Split Fire and Move), else nothing.
    """
    full = who.stats.movement
    doing = who.doing
    if doing.movement in ("run", "charge"):
        return 0.0
    if not doing.acted:
        return max(0.0, full - doing.before)
    if doing.before <= EPS:
        return max(0.0, full - doing.after)
    if doing.before <= full / 2 + EPS:
        return max(0.0, full / 2 - doing.after)
    return 0.0


def destination(
    state: SidesState,
    who: Combatant,
    toward: Combatant | None,
    away: bool,
    by: float | None,
    to: float | None,
    limit: float,
) -> float:
    """Where a move or run ends: ``to`` a position, or toward (away from) a combatant.

    Toward a combatant, a move stops at melee range unless ``by`` says how far; it never
    goes past the one it heads for. Away, it goes ``by`` or as far as ``limit``.
    """
    if to is not None:
        return to
    assert toward is not None
    here, there = who.position, toward.position
    if away:
        sign = 1.0 if here >= there else -1.0
        return round(here + sign * (limit if by is None else by), 2)
    sign = 1.0 if there >= here else -1.0
    gap = distance(here, there)
    step = min(max(0.0, gap - state.melee_range), limit) if by is None else min(by, gap)
    return round(here + sign * step, 2)


def run_blocked_by(state: SidesState, who: Combatant, end: float) -> Combatant | None:
    """S-MOVE-3: the enemy a run from here to ``end`` would come into melee range of.

    A run may leave an enemy's melee range (moving away) but never come closer to an enemy
    while within its melee range.
    """
    reach = state.melee_range
    for enemy in state.enemies(who):
        start = distance(who.position, enemy.position)
        nearest = path_min(who.position, end, enemy.position)
        if within(nearest, reach) and (not within(start, reach) or nearest < start - EPS):
            return enemy
    return None


def charge_end(state: SidesState, who: Combatant, target: Combatant) -> tuple[float, float]:
    """S-MOVE-4: where a charge at ``target`` ends (at melee range, on the charger's
    side) and how far it goes."""
    gap = distance(who.position, target.position)
    step = max(0.0, gap - state.melee_range)
    sign = 1.0 if target.position >= who.position else -1.0
    return round(who.position + sign * step, 2), step


def left_melee(state: SidesState, who: Combatant) -> list[Combatant]:
    """S-MOVE-2: enemies ``who`` was in melee with at the start of the round and is no
    longer within melee range of."""
    out = []
    for a, b in state.engaged:
        other = b if a == who.id else a if b == who.id else None
        if other is None:
            continue
        enemy = state.combatants[other]
        if not enemy.out and not in_melee(state, who, enemy):
            out.append(enemy)
    return out


def engaged_pairs(state: SidesState) -> list[list[str]]:
    """Every pair of living enemies within melee range of each other, now."""
    people = state.living()
    pairs = []
    for i, a in enumerate(people):
        for b in people[i + 1 :]:
            if a.side != b.side and in_melee(state, a, b):
                pairs.append([a.id, b.id])
    return pairs
