"""Heimr fights, many at once: the engine's rules as ``heimr-melee`` and, where everyone
stands in one square, the default policy play them, in NumPy.

One call plays every run of one setup side by side. Each pass of the main loop is one
turn of every fight still going: the same rules as :mod:`fracas.rules.heimr` (initiative
H-INIT-1, pre-rolled defences H-DEF-2, repeated-defence penalties and the parry limit
H-DEF-3, attacks H-ATK-2..5, fatigue H-FAT-1..3, injuries H-HP-1..2, the dying clock
H-HP-5; shots H-ATK-6..7, counted ammunition H-ACT-8, blind spots H-MOD-1) with
:class:`fracas.rules.heimr.melee_policy.MeleePolicy`'s decisions. Nobody moves under that
policy, so where everyone stands, and whom each weapon reaches, is fixed at the start.
:class:`fracas.rules.heimr.policies.DefaultPolicy` moves toward its enemies, so the kernel
plays it only where everyone already stands in one square: there it takes its best
defence stance (H-DEF-1), breathes (H-FAT-3), attacks the enemy it is likeliest to hit,
draws a weapon, or punches (H-ATK-8, past the weapon H-ATK-9), as :mod:`.default` tables
its numbers; either policy may play any side. The agreement tests play the same builds
through the engine and compare win rates.

Dice: a Heimr challenge is drawn in one uniform from the exact joint distribution of
(result before potential, d6) of :meth:`fracas.dice.HeimrChallenge.joint`. Each run draws
its uniforms from its own stream, those of a ``numpy`` PCG64 Generator seeded by its own
SeedSequence, so a run's result does not depend on how the runs are split into calls.

The parts: :mod:`.roster` (what a setup fixes), :mod:`.dice` (the challenge table),
:mod:`.streams` (the runs' random streams), :mod:`.fights` (the fights' state and turns).

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

from fracas.engine.capabilities import Outcome, OwnKernel, made_once
from fracas.rules.heimr.kernel.default import NAME as DEFAULT
from fracas.rules.heimr.kernel.dice import GUIDE, MAX_CONSISTENCY, ChallengeTable, challenge_table
from fracas.rules.heimr.kernel.fights import Fights
from fracas.rules.heimr.kernel.roster import (
    BLOCK,
    DODGE,
    NONE,
    ONGOING,
    PARRY,
    PRONE,
    REPEAT,
    STANCES,
    Roster,
)
from fracas.rules.heimr.setup import build
from fracas.rules.heimr.state import Combatant, HeimrState, Weapon
from fracas.rules.heimr.weighing import ammunition_named

__all__ = [
    "BLOCK",
    "CHUNK",
    "DODGE",
    "GUIDE",
    "KERNEL",
    "MAX_CONSISTENCY",
    "NONE",
    "PARRY",
    "POLICIES",
    "POLICY",
    "STANCES",
    "ChallengeTable",
    "Fights",
    "Outcome",
    "Roster",
    "challenge_table",
    "qualifies",
    "simulate",
    "why_not",
]

#: The policy the kernel mirrors everywhere it plays (every side's, when none are named).
POLICY = "heimr-melee"
#: The policies it mirrors: the default one only where everyone stands in one square.
POLICIES = (POLICY, DEFAULT)
#: Runs played side by side at most, to bound memory (results do not depend on it).
CHUNK = 25_000


# -- when the kernel applies ----------------------------------------------------------


def qualifies(ruleset_id: str, setup: Mapping[str, Any], policies: Mapping[str, str]) -> bool:
    """Whether :func:`simulate` plays this setup exactly as the engine would with these
    policies (by side, or by combatant id): Heimr, everyone on plain squares of a grid (no
    terrain, concealment or heights; guards, brawls and hiding are never played by the
    policy), melee weapons in hand or carried and ranged ones
    in hand (one kind of counted ammunition at most, none drawn), nobody prone, injured,
    hidden or under an effect at the start, every side playing ``heimr-melee``, or the
    default policy with everyone in one square (no counted ammunition for it; its punches
    need a Brawl ability).

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
        if chosen not in POLICIES:
            return f"{c.id} plays {chosen!r}: the kernel mirrors only {POLICY!r} and {DEFAULT!r}"
        if chosen == DEFAULT:
            problem = _default_unsupported(state, c)
            if problem:
                return f"{c.id} plays {DEFAULT!r}: {problem}"
    # The lowest consistency a roll can reach: repeated defences against everyone, prone,
    # after a breather; the dice tables must reach it.
    widest = max(abs(a.consistency) for c in people for a in c.stats.abilities.values())
    if widest + REPEAT * len(people) + PRONE + ONGOING > MAX_CONSISTENCY:
        return "too many combatants or too large a consistency for the kernel's tables"
    field = state.battlefield
    if not field.grid:
        return "everyone must stand on a grid"
    if len(people) > 62:
        return "more than 62 combatants"
    for square in sorted({c.square for c in people}):
        spot = field.squares[square]
        if spot.difficult or field.concealment(square):
            return f"{square} has terrain or concealment the kernel does not model"
    if (
        len({c.height for c in people}) != 1
        or len({field.squares[c.square].height for c in people}) != 1
    ):
        return "heights the kernel does not model"
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
    if len(c.ammunition) > 1 or c.drawn_ammunition is not None:
        return "counts more than one kind of ammunition, or starts with one drawn (H-ACT-8)"
    if any(not isinstance(i, Weapon) or not i.melee for i in c.carried):
        return "carries something other than melee weapons (a ranged weapon must be in hand)"
    if any(isinstance(i, Weapon) and i.hands == "two-hands" for i in c.carried):
        return "carries a two-hands weapon (drawn only with both hands free, H-ATK-2)"
    if c.prone or c.hp < 1 or c.effects or c.climbing or c.hide_cr is not None:
        return "starts prone, injured, under an effect, climbing or hidden"
    numbers = [a.consistency for a in c.stats.abilities.values()] + [
        c.stats.attributes.get("dex", 0)
    ]
    if max(abs(n) for n in numbers) > MAX_CONSISTENCY // 2:
        return "an ability's consistency beyond the kernel's tables"
    return None


def _default_unsupported(state: HeimrState, c: Combatant) -> str | None:
    """Why the kernel cannot play ``c`` as the default policy does, or ``None``."""
    if len({p.square for p in state.combatants.values()}) != 1:
        return "it moves: the kernel plays it only with everyone in one square"
    if c.height != state.battlefield.squares[c.square].height:
        return "it stands above the ground of its square, and would jump down (H-GRID-6)"
    if c.ammunition:
        return "it counts ammunition (H-ACT-8), whose draws the kernel does not mirror"
    if any(ammunition_named(i.name) for i in c.carried):
        return "it carries an item the default policy takes for ammunition and never draws"
    names = ["weapon" in i.name.lower() for i in c.carried]
    if names != sorted(names, reverse=True):
        return "it would draw its carried weapons in another order than the kernel"
    if "Brawl" not in c.stats.abilities:
        return "it has no Brawl ability to punch with (H-ATK-8)"
    if c.guarding is not None or c.holding is not None or c.held_by is not None:
        return "it starts guarding, holding or held"
    if c.concealed:
        return "it conceals items it might draw (H-ACT-3)"
    return None


def simulate(
    ruleset_id: str,
    setup: Mapping[str, Any],
    seeds: Sequence[numpy.random.SeedSequence],
    max_actions: int = 2000,
    policies: Mapping[str, str] | None = None,
) -> list[Outcome]:
    """Play one fight per seed with ``policies`` (by side, or by combatant id; ``None``:
    every side plays ``heimr-melee``); :class:`ValueError` when :func:`qualifies` would
    say no. What a setup fixes is worked out once a process (a simulation's batches, a
    sweep's repeated cells ask again)."""
    roster = made_once(
        _ROSTERS, ruleset_id, setup, policies, lambda: _roster(ruleset_id, setup, policies)
    )
    out: list[Outcome] = []
    for start in range(0, len(seeds), CHUNK):  # each run has its own stream: any split
        fights = Fights(roster, seeds[start : start + CHUNK], max_actions)
        fights.begin()
        out += fights.play()
    return out


#: Rosters made, by setup and policies (as JSON): never changed by the fights they start.
_ROSTERS: dict[str, Roster] = {}


def _roster(
    ruleset_id: str, setup: Mapping[str, Any], policies: Mapping[str, str] | None
) -> Roster:
    """What ``setup`` fixes for the kernel, once :func:`why_not` has no objection."""
    try:
        state = build(setup) if ruleset_id == "heimr" else None
    except ValueError as err:
        raise ValueError(f"the kernel cannot play this fight: {err}") from None
    people = list(state.combatants.values()) if state else []
    if policies is None:
        policies = {c.side: POLICY for c in people}
    problem = why_not(ruleset_id, setup, policies)
    if problem is not None or state is None:
        raise ValueError(f"the kernel cannot play this fight: {problem}")
    default = {c.id for c in people if policies.get(c.id, policies.get(c.side)) == DEFAULT}
    return Roster(state, default)


#: The kernel as Heimr's policies capability offers it
#: (:class:`fracas.engine.capabilities.Kernel`).
KERNEL = OwnKernel("heimr", POLICIES, why_not, simulate)
