"""A playout's policies read the log's events themselves (kind, data, text), last
first: the same as the log's JSON read backwards, for every side; and the default
policy, reading on from where it last read, finds what reading the whole log finds."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy
import pytest

from fracas.engine import Encounter, RandomDice, view
from fracas.lab.playout import LazyView, play_out
from fracas.lab.policies import Policy, gm_policy
from fracas.rules.heimr.policies import (
    DefaultPolicy,
    breathed_last,
    event_text,
    events_back,
    last_challenge,
)
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parents[2]


def backwards(log: list[list[dict[str, Any]]]) -> list[tuple[Any, Any, str]]:
    return [(e["kind"], e["data"], e["text"]) for entry in reversed(log) for e in reversed(entry)]


@pytest.mark.rule("H-ATK-3")
@pytest.mark.parametrize("example", ["duel", "night", "wearing-down"])
def test_the_events_read_back_are_the_logs_json_read_back(example: str) -> None:
    ruleset, setup, _ = encounterfile.load(ROOT / f"examples/heimr/{example}.yaml")
    recorded = Encounter(ruleset, setup, RandomDice(11))
    playout = recorded.copy(stack=False, dice=RandomDice(11), playout=True)
    history: list[Any] = []
    rng = random.Random(2)
    fighters = list(ruleset.observe(recorded.state, None)["combatants"])
    for _ in range(80):
        actor = recorded.to_move
        if actor is None or recorded.is_over():
            break
        for side in (None, *ruleset.sides(recorded.state)):
            plain = view(recorded, side)
            lazy = LazyView(playout, side, history)
            read = [(kind, dict(data), event_text(e)) for kind, data, e in events_back(lazy)]
            assert read == backwards(plain["log"])
            for who in fighters:
                assert last_challenge(lazy, who) == last_challenge(plain, who)
                assert breathed_last(lazy, who) == breathed_last(plain, who)
        action = rng.choice(list(recorded.legal_actions(actor)))
        history.append(playout.push(action))
        recorded.push(action)
    assert len(history) > 10


class _Checked(DefaultPolicy):
    """The default policy, each of its reads of the log (on from where it last read)
    checked against reading the whole log."""

    asked = 0

    def _aim(self, view: Mapping[str, Any], actor: str) -> tuple[int, int]:
        found = super()._aim(view, actor)
        assert found == last_challenge(view, actor)
        _Checked.asked += 1
        return found

    def _breathed(self, view: Mapping[str, Any], actor: str) -> bool:
        found = super()._breathed(view, actor)
        assert found == breathed_last(view, actor)
        _Checked.asked += 1
        return found


@pytest.mark.parametrize("example", ["night", "ambush"])
def test_the_default_policy_reading_on_finds_what_reading_all_finds(example: str) -> None:
    ruleset, setup, _ = encounterfile.load(ROOT / f"examples/heimr/{example}.yaml")
    start = Encounter(ruleset, setup, RandomDice(0), record=False)
    sides = ruleset.sides(start.state)
    _Checked.asked = 0
    for seed in range(3):
        policies: dict[str, Policy] = {side: _Checked("heimr") for side in sides}
        encounter = start.copy(dice=RandomDice(seed), playout=True)
        play_out(encounter, policies, gm_policy("heimr"), numpy.random.default_rng(seed))
    assert _Checked.asked > 100
