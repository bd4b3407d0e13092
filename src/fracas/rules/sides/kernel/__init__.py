"""Side-initiative fights, many at once: the engine's rules as the default policy plays them,
in NumPy.

One call plays every run of one setup side by side, round by round: the initiative
(S-ROUND-1, the winner acts), each side's phase with :class:`~fracas.rules.sides.policies.
DefaultPolicy`'s choices (charge the enemy in reach with the lowest Evasion, S-MOVE-4; else
shoot, S-ATK-2; else move toward the nearest enemy, S-MOVE-1; ranges, Split Fire and Move),
then the melee (S-MELEE-1: First, together, Last Strike), with attacks, Protection, Armour
Piercing, Stamina and Health (S-ATK-1, S-DMG-1, S-HP-1), a surprised side's first round
(S-SURPRISE-1), the confined-space rule (S-OPT-1) and mounted combatants (S-MOUNT-1). The
engine's game master only begins the fight; the default policy never runs, casts,
improvises, calls a shot or leaves melee, so no opportunity attack ever arises.

Dice: an attack of a given kind by one combatant on another deals damage with a chance the
roster works out exactly (the hit and the damage after Protection at once), drawn with one
uniform. Each run draws its uniforms from its own stream (that of a ``numpy`` PCG64
Generator seeded by its own SeedSequence, :mod:`fracas.rules.heimr.kernel.streams`), so a
run's result does not depend on how the runs are split into calls. The kernel agrees with
the engine in distribution, not roll for roll (``tests/sides/test_kernel_agreement.py``).

>>> from fracas.table.encounterfile import load
>>> _, setup, _ = load("examples/sides/mace.yaml")
>>> why_not("sides", setup, {"party": "default", "orcs": "default"}) is None
True
>>> seeds = numpy.random.SeedSequence(7).spawn(4)
>>> simulate("sides", setup, seeds) == simulate("sides", setup, seeds[:2]) + simulate(
...     "sides", setup, seeds[2:])
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy

from fracas.engine.capabilities import Outcome, OwnKernel, made_once
from fracas.rules.sides.kernel.fights import MELEE_RANGE, Fights
from fracas.rules.sides.kernel.roster import Roster, damage_pmf
from fracas.rules.sides.setup import build

__all__ = [
    "CHUNK",
    "KERNEL",
    "MELEE_RANGE",
    "POLICY",
    "Fights",
    "Roster",
    "qualifies",
    "simulate",
    "why_not",
]

#: The policy the kernel mirrors, and the only one it plays.
POLICY = "default"
#: Runs played side by side at most, to bound memory (results do not depend on it).
CHUNK = 25_000
#: Rosters of the setups played last in this process, by setup (as JSON): the batches of
#: one simulation after the first skip the setup's tables.
_ROSTERS: dict[str, Roster] = {}
#: The most combatants the kernel plays (its arrays are runs x combatants, its attack
#: table combatants x combatants).
MAX_COMBATANTS = 64
#: Distances are kept exact in floating point when they are multiples of this.
QUANTUM = 0.25


def qualifies(ruleset_id: str, setup: Mapping[str, Any], policies: Mapping[str, str]) -> bool:
    """Whether :func:`simulate` plays this setup as the engine would with these policies
    (by side, or by combatant id).

    >>> qualifies("heimr", {}, {})
    False
    """
    return why_not(ruleset_id, setup, policies) is None


def _exact(x: float) -> bool:
    return float(x / QUANTUM).is_integer()


def why_not(ruleset_id: str, setup: Mapping[str, Any], policies: Mapping[str, str]) -> str | None:
    """The first reason the kernel does not apply, or ``None`` when it does: sides, every
    side playing ``default``, distances in feet with the melee range the policy reads (5'),
    positions, movements and ranges on a quarter of a foot, nobody starting dead."""
    if ruleset_id != "sides":
        return f"the kernel plays sides, not {ruleset_id!r}"
    try:
        state = build(setup)
    except ValueError as err:  # EngineError, CampaignError
        return f"the setup does not start: {err}"
    people = list(state.combatants.values())
    if len(people) > MAX_COMBATANTS:
        return f"{len(people)} combatants: the kernel plays at most {MAX_COMBATANTS}"
    for c in people:
        chosen = policies.get(c.id, policies.get(c.side))
        if chosen != POLICY:
            return f"{c.id} plays {chosen!r}: the kernel mirrors only {POLICY!r}"
    if state.melee_range != MELEE_RANGE:
        return (
            f"the melee range is {state.melee_range:g} {state.units}: the default policy "
            f"reads {MELEE_RANGE:g}, and the kernel plays only where the two agree"
        )
    for c in people:
        if c.dead or c.health < 1 or c.dropped:
            return f"{c.id} starts dead or without its weapon"
        numbers = [c.position, 2 * c.stats.movement]
        found = c.stats.ranged_weapon()
        reach = found[1].range if found is not None else None
        if reach is not None:
            numbers += [state.tables.feet_to(x, state.units) for x in (reach.close, reach.far)]
            numbers.append(state.tables.feet_to(reach.medium, state.units))
        if not all(_exact(x) for x in numbers):
            return f"{c.id}: positions, movements and ranges must be multiples of {QUANTUM}"
        for _, weapon in c.stats.weapons:
            try:
                pmf = damage_pmf(weapon, None, 0)
            except (ValueError, TypeError) as err:
                return f"{c.id}: the damage of its weapons cannot be tabled ({err})"
            if max(pmf) > 1000:
                return f"{c.id}: a weapon's damage is beyond the kernel's tables"
    return None


def simulate(
    ruleset_id: str,
    setup: Mapping[str, Any],
    seeds: Sequence[numpy.random.SeedSequence],
    max_actions: int = 2000,
    policies: Mapping[str, str] | None = None,
) -> list[Outcome]:
    """Play one fight per seed; :class:`ValueError` when :func:`qualifies` would say no
    (with ``policies`` ``None`` every side is taken to play ``default``)."""
    roster = made_once(
        _ROSTERS, ruleset_id, setup, policies, lambda: _roster(ruleset_id, setup, policies)
    )
    out: list[Outcome] = []
    for start in range(0, len(seeds), CHUNK):  # each run has its own stream: any split
        out += Fights(roster, seeds[start : start + CHUNK], max_actions).play()
    return out


def _roster(
    ruleset_id: str, setup: Mapping[str, Any], policies: Mapping[str, str] | None = None
) -> Roster:
    try:
        state = build(setup) if ruleset_id == "sides" else None
    except ValueError as err:
        raise ValueError(f"the kernel cannot play this fight: {err}") from None
    sides = state.sides if state else []
    chosen = dict.fromkeys(sides, POLICY) if policies is None else policies
    problem = why_not(ruleset_id, setup, chosen)
    if problem is not None or state is None:
        raise ValueError(f"the kernel cannot play this fight: {problem}")
    return Roster(state)


#: The kernel as the sides ruleset's policies capability offers it
#: (:class:`fracas.engine.capabilities.Kernel`).
KERNEL = OwnKernel("sides", (POLICY,), why_not, simulate)
