"""The kernel against the engine, two ways, on the same builds played by MeleePolicy:

- the engine's dice replayed through the kernel end every fight exactly as the engine
  did (the kernel asks for each roll at the consistency the engine rolled it with);
- with dice of their own, the win rates fall inside each other's 99% intervals.

The engine side is a short private play-out loop (the lab's ``play_out`` has the same
signature). It offers the policy the legal actions of the verbs MeleePolicy ever picks
(attack, breather, draw, end, gm begin), which is all it needs to choose as it would among
every legal action, and is several times quicker than listing all of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from math import sqrt
from pathlib import Path
from typing import Any

import numpy
import pytest
from heimr_strategies import WEAPONS, line_up
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice import HeimrChallenge
from fracas.engine import Action, Encounter, RandomDice, view
from fracas.rules import find
from fracas.rules.heimr import kernel
from fracas.rules.heimr.kernel import Fights, Outcome, Roster
from fracas.rules.heimr.melee_policy import MeleePolicy
from fracas.rules.heimr.setup import build
from fracas.table.encounterfile import load

from heimr_builders import setup, sheet

ROOT = Path(__file__).resolve().parents[2]
ENGINE_RUNS = 100  # the exact replays below check every step; these check the dice
#: The z test's standard error is the engine's: sqrt(p(1-p)(1/100 + 1/4,000)) is 1% wider
#: than with 20,000 kernel runs (the width that decides what it finds), at a fifth of them.
KERNEL_RUNS = 4_000
#: Two-sided 99% normal quantile.
Z99 = 2.5758
VERBS = ("begin", "attack", "breather", "draw", "end")


def engine_legal(enc: Encounter[Any], actor: str | None) -> list[Action]:
    """The legal actions of the verbs MeleePolicy uses, in the engine's order."""
    return [
        a
        for a in enc.ruleset.candidates(enc.state, actor)
        if a.verb in VERBS and a.actor == actor and enc.is_legal(a)
    ]


def play_out(
    start: Encounter[Any],
    seed: numpy.random.SeedSequence,
    max_actions: int = 2000,
    dice: RandomDice | None = None,
) -> Outcome:
    """One fight through the engine, with the run's dice and policy stream from ``seed``."""
    if dice is None:
        dice = RandomDice(int(seed.generate_state(1, numpy.uint64)[0]))
    enc = start.copy(stack=False, dice=dice)
    policy, rng = MeleePolicy(), numpy.random.default_rng(seed)
    actions = 0
    while not enc.is_over() and actions < max_actions:
        actor = enc.to_move
        side = None if actor == "gm" else enc.state.combatants[actor].side
        enc.push(policy.choose(view(enc, side), engine_legal(enc, actor), rng))
        actions += 1
    people = enc.state.combatants
    standing = {c.side for c in people.values() if not c.out}
    over = enc.is_over()
    return Outcome(
        winner=next(iter(standing)) if over and len(standing) == 1 else None,
        rounds=enc.state.round,
        hp_left={cid: c.hp for cid, c in people.items()},
        injuries={cid: len(c.injuries) for cid, c in people.items()},
        actions=actions,
        capped=not over,
    )


def fighter(name: str, side: str, **kw: Any) -> dict[str, Any]:
    return sheet(name, side, **kw)


def builds() -> dict[str, dict[str, Any]]:
    """Thirteen builds: abilities, weapons (one or two in hand, or carried), shields,
    stances, hit points, fatigue; 1v1, 2v1 and 2v2."""
    _, duel, _ = load(ROOT / "examples" / "heimr" / "duel.yaml")
    sword = {"Sword and shield": (2, 1)}
    return {
        "duel example": duel,
        "knives": setup(
            [
                fighter(
                    "a", "n", dex=1, abilities={"Knife fighting": (1, 0)}, sword="Light weapon"
                ),
                fighter(
                    "b", "s", dex=2, abilities={"Knife fighting": (0, 1)}, sword="Light weapon"
                ),
            ]
        ),
        "shield against great weapon": setup(
            [
                fighter(
                    "a",
                    "n",
                    hp=7,
                    str=1,
                    dex=1,
                    abilities=sword,
                    sword="Medium weapon",
                    off="Medium shield",
                ),
                fighter(
                    "b",
                    "s",
                    hp=6,
                    str=2,
                    sta=1,
                    abilities={"Swordmanship": (2, 0)},
                    sword="Great weapon",
                ),
            ]
        ),
        "pole arm against a dodger": setup(
            [
                fighter(
                    "a", "n", hp=3, str=1, dex=1, abilities={"Pole arms": (1, 1)}, sword="Pole arm"
                ),
                fighter(
                    "b",
                    "s",
                    hp=6,
                    dex=3,
                    abilities={"Agility": (2, 0), "Knife fighting": (1, 0)},
                    sword="Light weapon",
                ),
            ],
            stances={"b": "dodge"},
        ),
        "weary fighters": setup(
            [
                fighter(
                    "a",
                    "n",
                    hp=6,
                    sta=-1,
                    dex=1,
                    abilities={"Dueling": (2, 1)},
                    sword="Medium weapon",
                ),
                fighter(
                    "b",
                    "s",
                    hp=6,
                    sta=-2,
                    str=1,
                    abilities={"Dueling": (1, 2)},
                    sword="Medium weapon",
                ),
            ]
        ),
        "a spare weapon": setup(
            [
                fighter(
                    "a",
                    "n",
                    hp=5,
                    dex=1,
                    abilities={"Knife fighting": (1, 1)},
                    sword="Light weapon",
                    carried=["Medium weapon"],
                ),
                fighter(
                    "b", "s", hp=5, dex=1, abilities={"Dueling": (1, 1)}, sword="Medium weapon"
                ),
            ]
        ),
        "untrained against trained": setup(
            [
                fighter(
                    "a",
                    "n",
                    hp=8,
                    dex=-1,
                    str=-1,
                    abilities={"Dueling": (0, 0)},
                    sword="Medium weapon",
                ),
                fighter(
                    "b",
                    "s",
                    hp=3,
                    dex=1,
                    abilities={"Knife fighting": (2, 0)},
                    sword="Light weapon",
                ),
            ]
        ),
        "no defence against parry": setup(
            [
                fighter(
                    "a", "n", hp=6, str=2, abilities={"Swordmanship": (1, 1)}, sword="Great weapon"
                ),
                fighter(
                    "b",
                    "s",
                    hp=4,
                    dex=2,
                    abilities={"Knife fighting": (2, 1)},
                    sword="Light weapon",
                ),
            ],
            stances={"a": "none"},
        ),
        "two knives against a great weapon": setup(
            [
                fighter(
                    "a", "n", dex=1, abilities={"Knife fighting": (1, 0)}, sword="Light weapon"
                ),
                fighter(
                    "b", "n", dex=2, abilities={"Knife fighting": (1, 0)}, sword="Light weapon"
                ),
                fighter(
                    "c",
                    "s",
                    hp=5,
                    str=2,
                    sta=2,
                    abilities={"Swordmanship": (1, 0)},
                    sword="Great weapon",
                ),
            ]
        ),
        "two shields against one": setup(
            [
                fighter(
                    "a",
                    "n",
                    hp=4,
                    str=1,
                    dex=1,
                    abilities=sword,
                    sword="Medium weapon",
                    off="Small shield",
                ),
                fighter(
                    "b",
                    "n",
                    hp=3,
                    dex=1,
                    abilities={"Knife fighting": (1, 1)},
                    sword="Light weapon",
                ),
                fighter(
                    "c",
                    "s",
                    hp=10,
                    str=2,
                    dex=2,
                    abilities=sword,
                    sword="Medium weapon",
                    off="Medium shield",
                ),
            ]
        ),
        "two against two": setup(
            [
                fighter(
                    "a",
                    "n",
                    hp=5,
                    str=1,
                    dex=1,
                    abilities=sword,
                    sword="Medium weapon",
                    off="Medium shield",
                ),
                fighter(
                    "b",
                    "n",
                    hp=4,
                    dex=2,
                    abilities={"Knife fighting": (2, 0)},
                    sword="Light weapon",
                ),
                fighter(
                    "c",
                    "s",
                    hp=6,
                    str=2,
                    sta=1,
                    abilities={"Swordmanship": (1, 1)},
                    sword="Great weapon",
                ),
                fighter(
                    "d",
                    "s",
                    hp=4,
                    str=1,
                    dex=1,
                    abilities={"Pole arms": (1, 0)},
                    sword="Pole arm",
                    carried=["Light weapon"],
                ),
            ]
        ),
        "a knife in each hand": setup(
            [
                fighter(
                    "a",
                    "n",
                    hp=5,
                    dex=2,
                    abilities={"Knife fighting": (2, 0)},
                    sword="Light weapon",
                    off="Light weapon",
                ),
                fighter(
                    "b",
                    "s",
                    hp=6,
                    str=1,
                    dex=1,
                    abilities=sword,
                    sword="Medium weapon",
                    off="Medium shield",
                ),
            ]
        ),
        "long fight": setup(
            [
                fighter(
                    "a",
                    "n",
                    hp=12,
                    sta=1,
                    dex=1,
                    abilities={"Dueling": (2, 0)},
                    sword="Medium weapon",
                ),
                fighter(
                    "b",
                    "s",
                    hp=12,
                    sta=0,
                    dex=1,
                    abilities={"Dueling": (1, 1)},
                    sword="Medium weapon",
                ),
            ]
        ),
    }


BUILDS = builds()


def side_of(setup_: Mapping[str, Any], first: Sequence[Outcome]) -> str:
    """The side whose win rate is compared: the first combatant's."""
    start = Encounter(find("heimr"), setup_)
    return next(iter(start.state.combatants.values())).side


def agree(wins_a: int, n_a: int, wins_b: int, n_b: int) -> tuple[bool, float]:
    """A two-proportion z test at 99%: whether the two rates may be the same."""
    pa, pb = wins_a / n_a, wins_b / n_b
    pooled = (wins_a + wins_b) / (n_a + n_b)
    se = sqrt(max(pooled * (1 - pooled), 1e-12) * (1 / n_a + 1 / n_b))
    z = (pa - pb) / se
    return abs(z) < Z99, z


@pytest.mark.parametrize("name", sorted(BUILDS))
@pytest.mark.rule("H-ATK-4", "H-DEF-3", "H-FAT-1", "H-FAT-2", "H-HP-1", "H-HP-2")
def test_kernel_agrees_with_the_engine(name: str) -> None:
    spec = BUILDS[name]
    policies = {side: "heimr-melee" for side in ("n", "s", "shieldwall", "raiders")}
    assert kernel.qualifies("heimr", spec, policies), kernel.why_not("heimr", spec, policies)
    engine = [engine_fight("build", name, i)[0] for i in range(ENGINE_RUNS)]
    fast = kernel.simulate("heimr", spec, numpy.random.SeedSequence(12).spawn(KERNEL_RUNS))
    side = side_of(spec, engine)
    ok, z = agree(
        sum(o.winner == side for o in engine),
        ENGINE_RUNS,
        sum(o.winner == side for o in fast),
        KERNEL_RUNS,
    )
    assert ok, f"{name}: {side}'s win rates differ (z = {z:.2f})"
    assert not any(o.capped for o in engine)


# -- the engine's dice replayed through the kernel ---------------------------------------

REPLAYS = 40


class Replay:
    """The kernel's dice, read from the engine's log of rolls (one run at a time)."""

    def __init__(self, dice: RandomDice) -> None:
        self.rolls: list[tuple[int, int, int, str]] = []  # (consistency, raw, d6, purpose)
        for drawn in dice.drawn:
            challenge = HeimrChallenge.parse(drawn.notation)
            roll = challenge.evaluate(list(drawn.faces))
            self.rolls.append(
                (challenge.consistency, roll.parts["raw"], roll.parts["d6"], drawn.purpose)
            )
        self.at = 0

    def __call__(self, runs: Any, c: Any) -> tuple[Any, Any]:
        assert len(runs) == 1
        consistency, raw, d6, purpose = self.rolls[self.at]
        assert int(c[0]) == consistency, (
            f"roll {self.at} ({purpose}): C{int(c[0])}, not C{consistency}"
        )
        self.at += 1
        return numpy.array([raw]), numpy.array([d6])

    def check_all_used(self) -> None:
        """Every roll was asked for, except the pre-rolls of a fight nobody could win any
        more, which the kernel skips (it plays those to the end without dice)."""
        left = [purpose for *_, purpose in self.rolls[self.at :]]
        assert all(p.endswith(("'s dodge", "'s block", "'s parry")) for p in left), left[:3]


def replayed(
    spec: dict[str, Any], dice: RandomDice, seed: numpy.random.SeedSequence, cap: int = 2000
) -> Outcome:
    """The kernel's outcome of one fight with the engine's rolls."""
    fights = Fights(Roster(build(spec)), [seed], cap)
    replay = Replay(dice)
    fights.roll = replay  # type: ignore[method-assign]
    fights.begin()
    (outcome,) = fights.play()
    replay.check_all_used()
    return outcome


@pytest.mark.parametrize("name", sorted(BUILDS))
@pytest.mark.rule("H-INIT-1", "H-ATK-4", "H-DEF-2", "H-DEF-3", "H-FAT-1", "H-FAT-2", "H-HP-2")
def test_the_kernel_replays_the_engines_dice_to_the_same_end(name: str) -> None:
    spec = BUILDS[name]
    for i in range(REPLAYS):
        engine, dice = engine_fight("build", name, i)
        assert replayed(spec, dice, SEEDS["build"][i]) == engine, f"{name}, run {i}"


# -- random builds, replayed --------------------------------------------------------------

#: The action cap of the random builds' fights.
RANDOM_CAP = 300


@st.composite
def fights(draw: st.DrawFn) -> dict[str, Any]:
    people, stances = draw(line_up(WEAPONS, "Sword and shield", willpower=True))
    # a bow's arrows counted (H-ACT-8), or not
    arrows = {
        p["name"]: {"ammunition": {"Arrow": n}}
        for p in people
        if p["items"]["sword_hand"] == "Bow"
        and (n := draw(st.sampled_from([None, 0, 1, 4]))) is not None
    }
    # one square, or several on the 3x3 grid: shots between them (H-ATK-6, H-MOD-1)
    spread = draw(st.booleans())
    squares = {
        p["name"]: draw(st.sampled_from(["A1", "B2", "B3", "C1", "C3"])) if spread else "B2"
        for p in people
    }
    return setup(people, squares=squares, stances=stances, place=arrows)


@given(spec=fights(), entropy=st.integers(0, 2**32 - 1))
@settings(max_examples=40)
@pytest.mark.rule(
    "H-ATK-2", "H-ATK-4", "H-ATK-6", "H-ATK-7", "H-ACT-8", "H-DEF-3", "H-FAT-2", "H-HP-2", "H-MOD-1"
)
def test_random_builds_replay_exactly(spec: dict[str, Any], entropy: int) -> None:
    seed = numpy.random.SeedSequence(entropy)
    dice = RandomDice(entropy)
    # a low cap: a fight nobody can win any more plays to it in the engine
    engine = play_out(Encounter(find("heimr"), spec), seed, RANDOM_CAP, dice=dice)
    assert replayed(spec, dice, seed, RANDOM_CAP) == engine


# -- the examples ---------------------------------------------------------------------------

EXAMPLES = ROOT / "examples" / "heimr"
#: Every example with a fight, and whether the kernel covers it under ``heimr-melee``: the
#: covered ones by name, the others with (a part of) the reason it gives.
COVERAGE = {
    "ambush": "A3 has terrain or concealment",
    "castle-wall": "B3 has terrain or concealment",
    "doorway": None,
    "duel": None,
    "field": None,
    "grab": None,
    "night": "D3 has terrain or concealment",
    "wearing-down": None,
}
COVERED = sorted(name for name, why in COVERAGE.items() if why is None)
EXAMPLE_RUNS = 150
#: Fewer engine runs where its fights are long (the doorway's: 115 actions on average).
FEWER = {"doorway": 25}
EXAMPLE_REPLAYS = 20


def example(name: str) -> dict[str, Any]:
    _, spec, _ = load(EXAMPLES / f"{name}.yaml")
    return spec


def melee_everywhere(spec: Mapping[str, Any]) -> dict[str, str]:
    return {c.side: "heimr-melee" for c in build(spec).combatants.values()}


# -- the engine's fights, played once for the two tests that read them ----------------------

#: The seeds of the engine's fights of the builds and of the examples.
SEEDS = {
    "build": numpy.random.SeedSequence(11).spawn(ENGINE_RUNS),
    "example": numpy.random.SeedSequence(13).spawn(EXAMPLE_RUNS),
}


@cache
def start_of(kind: str, name: str) -> Encounter[Any]:
    return Encounter(find("heimr"), BUILDS[name] if kind == "build" else example(name))


@cache
def engine_fight(kind: str, name: str, i: int) -> tuple[Outcome, RandomDice]:
    """The ``i``-th fight of the build or example through the engine, and its dice: the
    win rates count every one, the exact replays replay the first ones through the kernel
    (in the same test process, a fight is played once for both)."""
    seed = SEEDS[kind][i]
    dice = RandomDice(int(seed.generate_state(1, numpy.uint64)[0]))
    return play_out(start_of(kind, name), seed, dice=dice), dice


def test_every_example_is_covered_or_refused_with_its_reason() -> None:
    fights = {p.stem for p in EXAMPLES.glob("*.yaml")} - {"campaign", "troll"}
    assert fights == set(COVERAGE)
    for name, why in COVERAGE.items():
        spec = example(name)
        found = kernel.why_not("heimr", spec, melee_everywhere(spec))
        assert (found is None) if why is None else why in (found or ""), (name, found)


@pytest.mark.parametrize("name", COVERED)
def test_auto_plays_the_covered_examples_on_the_kernel(name: str) -> None:
    from fracas.lab import runner

    spec = example(name)
    chosen = melee_everywhere(spec)
    path = EXAMPLES / f"{name}.yaml"
    assert runner.spec_from_file(path, chosen, engine="auto").engine == "kernel"
    # the default policies: on the kernel where everyone is in one square (test_kernel_default)
    one_square = len({c.square for c in build(spec).combatants.values()}) == 1
    default = runner.spec_from_file(path, {}, engine="auto").engine
    assert default == ("kernel" if one_square else "engine")


@pytest.mark.parametrize("name", COVERED)
@pytest.mark.rule("H-ATK-2", "H-ATK-7", "H-DEF-2", "H-DEF-3", "H-FAT-2", "H-HP-2")
def test_the_kernel_replays_each_covered_example_to_the_engines_end(name: str) -> None:
    spec = example(name)
    for i in range(EXAMPLE_REPLAYS):
        engine, dice = engine_fight("example", name, i)
        assert replayed(spec, dice, SEEDS["example"][i]) == engine, f"{name}, run {i}"


@pytest.mark.parametrize("name", [n for n in COVERED if n != "duel"])  # the duel: in BUILDS
@pytest.mark.rule("H-ATK-7", "H-DEF-2", "H-FAT-1", "H-HP-5")
def test_each_covered_example_agrees_with_the_engine(name: str) -> None:
    spec = example(name)
    runs = FEWER.get(name, EXAMPLE_RUNS)
    engine = [engine_fight("example", name, i)[0] for i in range(runs)]
    fast = kernel.simulate("heimr", spec, numpy.random.SeedSequence(14).spawn(KERNEL_RUNS))
    side = side_of(spec, engine)
    for who in (side, None):  # the first combatant's side, and no winner
        ok, z = agree(
            sum(o.winner == who for o in engine),
            runs,
            sum(o.winner == who for o in fast),
            KERNEL_RUNS,
        )
        assert ok, f"{name}: the rates of {who or 'no winner'} differ (z = {z:.2f})"
    rounds = numpy.mean([o.rounds for o in engine]), numpy.mean([o.rounds for o in fast])
    spread = numpy.std([o.rounds for o in fast]) / sqrt(runs)
    assert abs(rounds[0] - rounds[1]) < Z99 * max(spread, 0.05), rounds
