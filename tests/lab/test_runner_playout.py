"""Playouts and the baseline policies, in all five rulesets, from their side's view only."""

from __future__ import annotations

import gc
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy
import pytest

from fracas.engine import Action, Encounter, RandomDice
from fracas.lab import runner
from fracas.lab.playout import Outcome, play_out
from fracas.lab.policies import POLICIES, gm_policy, policy
from fracas.lab.policies.baseline import Scripted, distance, vocabulary
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {
    "heimr": "examples/heimr/duel.yaml",
    "heimr-classic": "examples/classic/ford.yaml",
    "sides": "examples/sides/mace.yaml",
    "tempo": "examples/tempo/feint.yaml",
    "diestep": "examples/diestep/charge.yaml",
}
BASELINES = ("random", "attack-nearest", "focus-weakest", "defensive", "scripted")


def start(ruleset_id: str, seed: int = 1) -> Encounter[Any]:
    ruleset, setup, _ = encounterfile.load(ROOT / EXAMPLES[ruleset_id])
    return Encounter(ruleset, setup, RandomDice(seed))


def sides(encounter: Encounter[Any]) -> dict[str, str]:
    seen = encounter.ruleset.observe(encounter.state, None)["combatants"]
    return {cid: c["side"] for cid, c in seen.items()}


class Spy:
    """Wraps a policy and records what it was shown."""

    def __init__(self, inner: Any, side: str) -> None:
        self.inner, self.side, self.name = inner, side, "spy"
        self.shown: list[tuple[Mapping[str, Any], list[Action]]] = []

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action:
        self.shown.append((view, list(legal)))
        chosen: Action = self.inner.choose(view, legal, rng)
        return chosen


@pytest.mark.parametrize("ruleset_id", sorted(EXAMPLES))
@pytest.mark.parametrize("name", BASELINES)
def test_every_baseline_plays_every_ruleset(ruleset_id: str, name: str) -> None:
    encounter = start(ruleset_id)
    who = sides(encounter)
    policies = {side: policy(name, ruleset_id) for side in set(who.values())}
    got = play_out(
        encounter, policies, gm_policy(ruleset_id), numpy.random.default_rng(3), max_actions=150
    )
    assert isinstance(got, Outcome)
    assert got.actions == len(encounter.log) <= 150
    assert got.capped == (not encounter.is_over() and got.actions == 150)
    assert set(got.hp_left) == set(who)
    if got.winner is not None:
        assert encounter.is_over() and got.winner in who.values()


@pytest.mark.parametrize("ruleset_id", sorted(EXAMPLES))
def test_a_policy_sees_only_its_sides_view_and_its_actors_legal_actions(ruleset_id: str) -> None:
    encounter = start(ruleset_id)
    who = sides(encounter)
    spies = {side: Spy(policy("attack-nearest", ruleset_id), side) for side in set(who.values())}
    play_out(encounter, spies, gm_policy(ruleset_id), numpy.random.default_rng(0), 80)
    assert any(spy.shown for spy in spies.values())
    for side, spy in spies.items():
        for view, legal in spy.shown:
            assert not isinstance(view, Encounter)
            assert view["side"] == side
            actors = {a.actor for a in legal}
            assert len(actors) == 1
            (actor,) = actors
            assert who.get(actor, actor) == side
            for cid, seen in view["state"]["combatants"].items():
                if seen["side"] != side:
                    assert "hp" not in seen, f"{side} sees {cid}'s hit points"


@pytest.mark.parametrize("ruleset_id", sorted(EXAMPLES))
def test_attack_nearest_attacks_when_an_attack_is_legal(ruleset_id: str) -> None:
    encounter = start(ruleset_id)
    words = vocabulary(ruleset_id)
    who = sides(encounter)
    spies = {side: Spy(policy("attack-nearest", ruleset_id), side) for side in set(who.values())}
    play_out(encounter, spies, gm_policy(ruleset_id), numpy.random.default_rng(0), 80)
    attacked = 0
    for spy in spies.values():
        for view, legal in spy.shown:
            if any(a.verb in words.attacks for a in legal):
                chosen = spy.inner.choose(view, legal, numpy.random.default_rng(0))
                assert chosen.verb in words.attacks
                attacked += 1
    assert attacked > 0


def test_the_same_seeds_give_the_same_outcomes_in_any_batch_order() -> None:
    spec = runner.spec_from_file(ROOT / EXAMPLES["sides"], {}, fallback="random")
    all_seeds = runner.seeds(11, 6)
    whole = runner.run_batch(spec, all_seeds)
    parts = runner.run_batch(spec, all_seeds[3:]) + runner.run_batch(spec, all_seeds[:3])
    assert parts[3:] + parts[:3] == whole


def test_the_action_cap_stops_a_run_and_says_so() -> None:
    encounter = start("sides")
    policies = {side: policy("defensive", "sides") for side in set(sides(encounter).values())}
    got = play_out(encounter, policies, gm_policy("sides"), numpy.random.default_rng(0), 30)
    assert (got.actions, got.capped, got.winner) == (30, True, None)


def test_scripted_plays_its_actions_then_falls_back() -> None:
    encounter = start("heimr")
    script = Scripted("heimr", ["ylva defend parry", "ylva attack astrid", "ylva end"])
    others = policy("attack-nearest", "heimr")
    play_out(
        encounter,
        {"shieldwall": script, "raiders": others},
        gm_policy("heimr"),
        numpy.random.default_rng(0),
        max_actions=60,
    )
    ylva = [str(e.action) for e in encounter.log if e.action.actor == "ylva"]
    assert ylva[:3] == ["ylva defend parry", "ylva attack astrid", "ylva end"]
    assert len(ylva) > 3  # then attack-nearest


def test_the_registry_lists_its_names_for_an_unknown_one() -> None:
    assert set(BASELINES) <= set(POLICIES)
    with pytest.raises(ValueError, match="unknown policy 'berserk': known are attack-nearest"):
        policy("berserk", "heimr")


def test_distance_reads_each_rulesets_places() -> None:
    grid = {"state": {"battlefield": {"locations": {}}}}
    assert distance(grid, "A1", "C2") == 3
    graph = {"state": {"regions": {"road": ["bend"], "bend": ["road", "ford"], "ford": ["bend"]}}}
    assert distance(graph, "road", "ford") == 2
    assert distance({"state": {}}, 0.0, 25.0) == 25
    assert distance({"state": {}}, None, None) == 0  # tempo: no places


@pytest.mark.parametrize("ruleset_id", sorted(EXAMPLES))
def test_the_view_a_policy_gets_is_the_engines_view(ruleset_id: str) -> None:
    from fracas.engine import view
    from fracas.lab.playout import LazyView

    encounter = start(ruleset_id)
    who = sides(encounter)
    policies = {side: policy("random", ruleset_id) for side in set(who.values())}
    play_out(encounter, policies, gm_policy(ruleset_id), numpy.random.default_rng(5), 12)
    for side in (None, *sorted(set(who.values()))):
        assert dict(LazyView(encounter, side)) == view(encounter, side)


def _frozen() -> int:
    return gc.get_freeze_count()


def test_a_local_worker_keeps_the_collector_off_what_it_starts_with() -> None:
    # fracas, imported, lives as long as the worker: the collector need not walk it.
    with runner._pool(1) as pool:
        assert pool.submit(_frozen).result(timeout=60) > 10_000
