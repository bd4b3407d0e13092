"""The kernel playing the default policy, where everyone stands in one square, against the
engine playing :class:`fracas.rules.heimr.policies.DefaultPolicy` through the lab's own
play-out loop:

- the engine's dice (and the policy's tie-breaks) replayed through the kernel end every
  fight exactly as the engine did, on the examples and on random builds;
- with dice of their own, the first side's win rates have overlapping 99% Wilson
  intervals and the mean rounds are close, on every example the kernel covers;
- ``--engine auto`` plays those examples on the kernel with the default policies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import sqrt
from pathlib import Path
from typing import Any

import heimr_strategies
import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice import HeimrChallenge
from fracas.engine import Encounter, RandomDice
from fracas.engine.capabilities import Outcome
from fracas.lab import runner
from fracas.lab.playout import play_out
from fracas.lab.policies import policy
from fracas.lab.stats import wilson
from fracas.rules import find
from fracas.rules.heimr import kernel, policies
from fracas.rules.heimr.kernel import Fights, Roster, default
from fracas.rules.heimr.policies import GmPolicy
from fracas.rules.heimr.setup import build
from fracas.table.encounterfile import load

from heimr_builders import setup, sheet

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "heimr"
#: Every example with a fight, and whether the kernel covers it with the default
#: policies: the covered ones by name, the others with (a part of) its reason.
COVERAGE = {
    "ambush": "it moves: the kernel plays it only with everyone in one square",
    "castle-wall": "it moves",
    "doorway": "it moves",
    "duel": None,
    "field": "it moves",
    "grab": None,
    "night": "it moves",
    "wearing-down": None,
}
COVERED = sorted(name for name, why in COVERAGE.items() if why is None)
#: Two-sided 99% normal quantile.
Z99 = 2.5758
ENGINE_RUNS = 400
KERNEL_RUNS = 20_000
REPLAYS = 25


def example(name: str) -> dict[str, Any]:
    _, spec, _ = load(EXAMPLES / f"{name}.yaml")
    return spec


def everyone(spec: Mapping[str, Any], policy: str = "default") -> dict[str, str]:
    return {c.side: policy for c in build(spec).combatants.values()}


class Ties:
    """The policies' generator, recording each tie-break (``integers(n)``) it draws."""

    def __init__(self, rng: numpy.random.Generator) -> None:
        self.rng = rng
        self.drawn: list[tuple[int, int]] = []

    def integers(self, n: int) -> int:
        value = int(self.rng.integers(n))
        self.drawn.append((int(n), value))
        return value


def engine_run(
    spec: Mapping[str, Any],
    seed: numpy.random.SeedSequence,
    policies: Mapping[str, str],
    cap: int = 2000,
) -> tuple[Outcome, RandomDice, Ties]:
    """One fight through the lab's play-out loop, its dice and tie-breaks recorded."""
    start = Encounter(find("heimr"), spec, RandomDice(0))
    dice_seed, rng = runner.streams(seed)
    dice = RandomDice(dice_seed)
    ties = Ties(rng)
    made = {side: policy(name, "heimr") for side, name in policies.items()}
    enc = start.copy(stack=False, dice=dice)
    return play_out(enc, made, GmPolicy("heimr"), ties, cap), dice, ties  # type: ignore[arg-type]


class Replay:
    """The kernel's dice and tie-breaks, read from one engine run."""

    def __init__(self, dice: RandomDice, ties: Ties) -> None:
        self.rolls: list[tuple[int, int, int, str]] = []
        for drawn in dice.drawn:
            challenge = HeimrChallenge.parse(drawn.notation)
            roll = challenge.evaluate(list(drawn.faces))
            self.rolls.append(
                (challenge.consistency, roll.parts["raw"], roll.parts["d6"], drawn.purpose)
            )
        self.ties = list(ties.drawn)
        self.at = 0

    def roll(self, runs: Any, c: Any) -> tuple[Any, Any]:
        assert len(runs) == 1
        consistency, raw, d6, purpose = self.rolls[self.at]
        assert int(c[0]) == consistency, f"roll {self.at} ({purpose}): C{int(c[0])}"
        self.at += 1
        return numpy.array([raw]), numpy.array([d6])

    def pick(self, runs: Any, count: Any) -> Any:
        n, value = self.ties.pop(0)
        assert n == int(count[0]), f"a tie of {int(count[0])}, not {n}"
        return numpy.array([value])

    def check_all_used(self) -> None:
        """Every roll and tie was asked for, but the pre-rolls of a fight nobody can win."""
        left = [purpose for *_, purpose in self.rolls[self.at :]]
        assert all(p.endswith(("'s dodge", "'s block", "'s parry")) for p in left), left[:3]
        assert not self.ties


def replayed(
    spec: Mapping[str, Any],
    policies: Mapping[str, str],
    dice: RandomDice,
    ties: Ties,
    seed: numpy.random.SeedSequence,
    cap: int = 2000,
) -> Outcome:
    state = build(spec)
    default = {c.id for c in state.combatants.values() if policies[c.side] == "default"}
    fights = Fights(Roster(state, default), [seed], cap)
    replay = Replay(dice, ties)
    fights.roll = replay.roll  # type: ignore[method-assign]
    fights.pick = replay.pick  # type: ignore[method-assign]
    fights.begin()
    (outcome,) = fights.play()
    replay.check_all_used()
    return outcome


def assert_replays(
    spec: Mapping[str, Any], policies: Mapping[str, str], seeds: Sequence[Any], cap: int = 2000
) -> None:
    for i, seed in enumerate(seeds):
        engine, dice, ties = engine_run(spec, seed, policies, cap)
        assert replayed(spec, policies, dice, ties, seed, cap) == engine, f"run {i}"


# -- coverage -------------------------------------------------------------------------


def test_the_kernel_weighs_as_the_default_policy_does() -> None:
    """The kernel's tables (from the policy's own numbers, fracas.rules.heimr.weighing)
    give what the policy works out, for every challenge, threshold and fatigue a fight
    can ask."""
    odds = default.Odds(lo=-12, hi=12, max_fatigue=20)
    for c in range(-12, 13):
        for t in range(-10, 25):
            assert default.at_least(c, t) == policies.hit_chance(c, 0, t, None), (c, t)
        every = numpy.arange(21)
        for breathed in (False, True):
            found = [
                policies.DefaultPolicy._needs_breather({}, "", c, f, lambda v, a, b=breathed: b)
                for f in range(21)
            ]
            tables = odds.breather(numpy.full(21, c), every, numpy.full(21, breathed))
            assert tables.tolist() == found, (c, breathed)


# -- coverage -------------------------------------------------------------------------


def test_every_example_is_covered_or_refused_with_its_reason() -> None:
    fights = {p.stem for p in EXAMPLES.glob("*.yaml")} - {"campaign", "troll"}
    assert fights == set(COVERAGE)
    for name, why in COVERAGE.items():
        found = kernel.why_not("heimr", example(name), everyone(example(name)))
        assert (found is None) if why is None else why in (found or ""), (name, found)


def test_the_kernel_names_the_policies_it_mirrors() -> None:
    assert set(kernel.KERNEL.policies) == {"heimr-melee", "default"}
    spec = example("duel")
    found = kernel.why_not("heimr", spec, everyone(spec, "aggressive"))
    assert found is not None and "mirrors only" in found
    counted = setup(
        [
            sheet("a", "n", abilities={"Archery": (1, 1)}, sword="Bow"),
            sheet("b", "s", abilities={"Dueling": (1, 1)}, sword="Medium weapon"),
        ],
        place={"a": {"ammunition": {"Arrow": 3}}},
    )
    assert "does not mirror" in (
        kernel.why_not("heimr", counted, {"n": "default", "s": "default"}) or ""
    )
    assert kernel.why_not("heimr", counted, {"n": "heimr-melee", "s": "default"}) is None


def test_what_the_default_policy_would_do_beyond_the_kernel_is_refused() -> None:
    """Above the ground of its square the policy jumps down after attacking (H-GRID-6),
    and an item it takes for ammunition it never draws: neither is the kernel's."""
    trained = {"Dueling": (2, 2), "Brawl": (1, 1), "Agility": (1, 1)}
    people = [
        sheet("a", "n", hp=6, abilities=trained, sword="Medium weapon"),
        sheet("b", "s", hp=6, abilities=trained, sword="Medium weapon"),
    ]
    everyone_default = {"n": "default", "s": "default"}
    raised = setup(
        people,
        place={"a": {"height": 1}, "b": {"height": 1}},
        battlefield={"columns": 3, "rows": 3, "squares": {"B2": {"height": 0, "top": 2}}},
    )
    assert "jump down" in (kernel.why_not("heimr", raised, everyone_default) or "")
    assert kernel.why_not("heimr", raised, {"n": "heimr-melee", "s": "heimr-melee"}) is None
    people[0] = sheet("a", "n", hp=6, abilities=trained, carried=["Shotel"])
    shotel = setup(people)
    shotel["campaign"]["weapons"] = {
        "Shotel": {
            "range": "melee",
            "damage": 2,
            "potential_bonus": 3,
            "wielding": "either-hand",
            "abilities": ["Dueling"],
        }
    }
    assert "ammunition" in (kernel.why_not("heimr", shotel, everyone_default) or "")


@pytest.mark.parametrize("name", COVERED)
def test_auto_plays_the_covered_examples_on_the_kernel(name: str) -> None:
    path = EXAMPLES / f"{name}.yaml"
    assert runner.spec_from_file(path, {}, engine="auto").engine == "kernel"  # the default
    assert runner.spec_from_file(EXAMPLES / "doorway.yaml", {}, engine="auto").engine == "engine"


def test_a_simulation_on_the_kernel_gives_the_default_policys_odds() -> None:
    spec = runner.spec_from_file(EXAMPLES / "duel.yaml", {}, engine="kernel")
    seeds = runner.seeds(3, 50)
    assert runner.run_batch(spec, seeds) == kernel.simulate(
        "heimr", example("duel"), seeds, 2000, spec.policy_names()
    )
    melee = runner.spec_from_file(EXAMPLES / "duel.yaml", everyone(example("duel"), "heimr-melee"))
    assert runner.run_batch(replace_engine(melee), seeds) != runner.run_batch(spec, seeds)


def replace_engine(spec: runner.SimSpec) -> runner.SimSpec:
    from dataclasses import replace

    return replace(spec, engine="kernel")


# -- the engine's dice replayed -----------------------------------------------------------


@pytest.mark.parametrize("name", COVERED)
@pytest.mark.rule("H-DEF-1", "H-DEF-2", "H-FAT-3", "H-ATK-3", "H-ATK-8", "H-ATK-9", "H-HP-2")
def test_the_kernel_replays_each_covered_example_to_the_engines_end(name: str) -> None:
    spec = example(name)
    assert_replays(spec, everyone(spec), numpy.random.SeedSequence(43).spawn(REPLAYS))


@pytest.mark.rule("H-ATK-8", "H-ATK-9")
def test_mixed_policies_replay_exactly() -> None:
    spec = example("wearing-down")
    policies = {"shieldwall": "default", "raiders": "heimr-melee"}
    assert kernel.why_not("heimr", spec, policies) is None
    assert_replays(spec, policies, numpy.random.SeedSequence(44).spawn(10))
    assert_replays(
        example("grab"),
        {"raiders": "default", "shieldwall": "heimr-melee"},
        numpy.random.SeedSequence(45).spawn(10),
    )


#: The weapons of the default policies' random builds: the agreement tests' but the pole arm.
WEAPONS = {k: v for k, v in heimr_strategies.WEAPONS.items() if k != "Pole arm"}


@st.composite
def fights(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, str]]:
    people, stances = draw(heimr_strategies.line_up(WEAPONS, "Brawl"))
    fatigue = {
        p["name"]: {"fatigue": draw(st.integers(1, 7))} for p in people if draw(st.booleans())
    }
    policies = {s: draw(st.sampled_from(["default", "default", "heimr-melee"])) for s in ("n", "s")}
    return setup(people, stances=stances, place=fatigue), policies


@given(fight=fights(), entropy=st.integers(0, 2**32 - 1), cap=st.sampled_from([2000, 5, 9, 17, 40]))
@settings(max_examples=30, deadline=None)
@pytest.mark.rule("H-ATK-2", "H-ATK-7", "H-ATK-8", "H-ATK-9", "H-DEF-1", "H-FAT-3", "H-HP-2")
def test_random_builds_in_one_square_replay_exactly(
    fight: tuple[dict[str, Any], dict[str, str]], entropy: int, cap: int
) -> None:
    spec, policies = fight
    assert kernel.why_not("heimr", spec, policies) is None
    # a low action cap too: the kernel stops where the engine's play-out loop does
    assert_replays(spec, policies, [numpy.random.SeedSequence(entropy)], cap)


# -- dice of their own ----------------------------------------------------------------


def overlap(wins_a: int, n_a: int, wins_b: int, n_b: int) -> bool:
    """Whether the 99% Wilson intervals of two win rates overlap."""
    low_a, high_a = wilson(wins_a, n_a, Z99)
    low_b, high_b = wilson(wins_b, n_b, Z99)
    return low_a <= high_b and low_b <= high_a


@pytest.mark.parametrize("name", COVERED)
@pytest.mark.rule("H-DEF-2", "H-FAT-1", "H-FAT-3", "H-ATK-8", "H-HP-5")
def test_each_covered_example_agrees_with_the_engine(name: str) -> None:
    spec = example(name)
    made = runner.spec_from_file(EXAMPLES / f"{name}.yaml", {}, engine="engine")
    engine = runner.run_batch(made, runner.seeds(21, ENGINE_RUNS))
    fast = kernel.simulate("heimr", spec, runner.seeds(22, KERNEL_RUNS), 2000, everyone(spec))
    side = next(iter(build(spec).combatants.values())).side
    won = sum(o.winner == side for o in engine), sum(o.winner == side for o in fast)
    assert overlap(won[0], ENGINE_RUNS, won[1], KERNEL_RUNS), (name, won)
    rounds = [[o.rounds for o in out] for out in (engine, fast)]
    means = [float(numpy.mean(r)) for r in rounds]
    spread = sqrt(sum(float(numpy.var(r)) / len(r) for r in rounds))  # of the difference
    assert abs(means[0] - means[1]) < Z99 * max(spread, 0.01), means
    assert not any(o.capped for o in engine + fast)
