"""A playout's views hold no reference cycle: each is freed when its choice is made, not
left for the garbage collector (which a simulation keeps off what it starts with)."""

from __future__ import annotations

import gc
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy
import pytest

from fracas.engine import Action, Encounter, RandomDice, collector
from fracas.engine.views import SideView
from fracas.lab.playout import SideLog, play_out
from fracas.lab.policies import Policy, gm_policy, policy
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parents[2]


class Reading:
    """A side's policy that reads its whole view (state, log, whose turn) before it
    chooses, so that every part a view may keep is made."""

    def __init__(self, inner: Policy) -> None:
        self.inner, self.name = inner, inner.name

    def choose(self, shown: Mapping[str, Any], legal: Sequence[Action], rng: Any) -> Action:
        people = shown["state"]["combatants"]
        for seen in people.values():
            dict(seen)
        shown["to_move"], shown["over"], list(shown["log"])
        return self.inner.choose(shown, legal, rng)


def test_a_playouts_views_are_freed_without_the_collector() -> None:
    ruleset, setup, _ = encounterfile.load(ROOT / "examples/heimr/ambush.yaml")
    encounter = Encounter(ruleset, setup, RandomDice(3), record=False)
    sides = {str(c.side) for c in encounter.state.combatants.values()}
    policies: dict[str, Policy] = {s: Reading(policy("default", "heimr")) for s in sides}
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds is kept in gc.garbage
    try:
        play_out(encounter, policies, gm_policy("heimr"), numpy.random.default_rng(3), 40)
        gc.collect()
        left = [o for o in gc.garbage if isinstance(o, SideView | SideLog)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == []


class Watching:
    """A side's policy that notes whether the collector is on at each choice, and fails
    at its ``fail``-th choice (if any)."""

    def __init__(self, inner: Policy, seen: list[bool], fail: int = 0) -> None:
        self.inner, self.name, self.seen, self.fail = inner, inner.name, seen, fail

    def choose(self, shown: Mapping[str, Any], legal: Sequence[Action], rng: Any) -> Action:
        self.seen.append(gc.isenabled())
        if len(self.seen) == self.fail:
            raise ValueError("no choice")
        return self.inner.choose(shown, legal, rng)


@pytest.mark.parametrize("alone", [True, False])
def test_the_collector_is_paused_while_a_playout_plays_alone_and_on_again_after(
    alone: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its passes would find nothing to free (above): paused in a process with no other
    # thread, and back on even when a policy fails half way; left on where other threads
    # (a server's, a Dask worker's) make garbage meanwhile.
    monkeypatch.setattr(collector, "_alone", lambda: alone)
    ruleset, setup, _ = encounterfile.load(ROOT / "examples/heimr/duel.yaml")
    sides = sorted({str(c.side) for c in Encounter(ruleset, setup).state.combatants.values()})
    for fail in (0, 3):
        seen: list[bool] = []
        encounter = Encounter(ruleset, setup, RandomDice(5), record=False)
        policies: dict[str, Policy] = {
            s: Watching(policy("default", "heimr"), seen, fail) for s in sides
        }
        assert gc.isenabled()
        try:
            play_out(encounter, policies, gm_policy("heimr"), numpy.random.default_rng(5), 30)
        except ValueError:
            assert fail
        assert seen and seen == [not alone] * len(seen)  # on at every choice, or at none
        assert gc.isenabled()
