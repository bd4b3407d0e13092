"""The shortcuts a playout's policy takes choose as the long way does: the view worked
out field by field equals the engine's view, and the Heimr default policy's memory (its
attack this turn, the challenge last read) changes none of its choices."""

from __future__ import annotations

import copy
import glob
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy
import pytest

from fracas.engine import Action, Encounter, RandomDice, view
from fracas.engine.views import lazy_view, side_log
from fracas.lab.playout import LazyView, play_out
from fracas.lab.policies import gm_policy
from fracas.rules.heimr.policies import DefaultPolicy
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parents[2]
#: The Heimr encounter files (not the campaigns and characters beside them).
HEIMR = sorted(
    p
    for p in glob.glob(str(ROOT / "examples/heimr/*.yaml"))
    if "\nruleset: heimr" in "\n" + Path(p).read_text()
)


def materialized(value: Any) -> Any:
    """A lazy mapping (and all inside it) as plain dicts and lists."""
    if isinstance(value, Mapping):
        return {key: materialized(value[key]) for key in value}
    if isinstance(value, list):
        return [materialized(v) for v in value]
    return value


@pytest.mark.parametrize("path", HEIMR, ids=lambda p: Path(p).stem)
def test_the_lazy_view_is_the_view_for_every_side_at_every_step(path: str) -> None:
    ruleset, setup, _ = encounterfile.load(path)
    encounter = Encounter(ruleset, setup, RandomDice(4))
    rng = random.Random(4)
    sides = (None, *ruleset.sides(encounter.state))
    for _ in range(40):
        for side in sides:
            full = view(encounter, side)
            lazy = lazy_view(encounter, side, lambda side=side: side_log(encounter, side))
            assert materialized(lazy) == full
            # Field by field, as a policy reads them, including those it may not see.
            seen = lazy["state"]["combatants"]
            for cid in ruleset.combatant_ids(encounter.state):
                if cid not in full["state"]["combatants"]:
                    assert cid not in seen and seen.get(cid) is None
                    continue
                shown = full["state"]["combatants"][cid]
                for key in ("hp", "fatigue", "square", "stance", "defence", "injuries"):
                    assert seen[cid].get(key, "absent") == shown.get(key, "absent")
                    assert (key in seen[cid]) == (key in shown)
            assert lazy.get("to_move") == full["to_move"]
        if encounter.is_over() or encounter.to_move is None:
            break
        actions = list(encounter.legal_actions(encounter.to_move))
        if not actions:
            break
        encounter.push(rng.choice(actions))


class Twin:
    """The default policy as played, checked at each choice against a new one that
    remembers nothing, given the same view, legal actions and random state."""

    name = "default"

    def __init__(self) -> None:
        self.played = DefaultPolicy()
        self.verbs_together = self.played.verbs_together
        self.choices = 0
        self.after_attacks = 0  # choices made knowing the turn's attack is made

    def choose(
        self, seen: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action:
        before = copy.deepcopy(rng.bit_generator.state)
        expected = DefaultPolicy().choose(seen, list(legal), rng)
        rng.bit_generator.state = before
        kept = self.played._attacked.get(legal[0].actor)
        if kept is not None and kept == (seen["log"].position()[0], len(seen["log"])):
            self.after_attacks += 1
        chosen = self.played.choose(seen, legal, rng)
        assert chosen == expected
        self.choices += 1
        return chosen


@pytest.mark.parametrize("path", HEIMR, ids=lambda p: Path(p).stem)
def test_the_default_policys_memory_changes_no_choice(path: str) -> None:
    ruleset, setup, _ = encounterfile.load(path)
    start = Encounter(ruleset, setup, RandomDice(0))
    sides = ruleset.sides(start.state)
    choices = after_attacks = 0
    for seed in range(4):
        twins = {side: Twin() for side in sides}
        encounter = start.copy(dice=RandomDice(seed), playout=True)
        play_out(encounter, twins, gm_policy("heimr"), numpy.random.default_rng(seed), 300)
        choices += sum(t.choices for t in twins.values())
        after_attacks += sum(t.after_attacks for t in twins.values())
    assert choices > 20 and after_attacks > 0


def test_a_playouts_log_tells_where_it_stands() -> None:
    ruleset, setup, _ = encounterfile.load(ROOT / "examples/heimr/duel.yaml")
    encounter = Encounter(ruleset, setup, RandomDice(1), record=False)
    history: list[Any] = []
    built: dict[int, Any] = {}
    log = LazyView(encounter, "shieldwall", history, built)["log"]
    assert log.position() == (built, 0)
    history.append(encounter.push(Action.parse("gm begin")))
    assert log.position()[0] is built and log.position()[1] == 1
    # The token shows nothing of the events: read, they are the side's own.
    assert not isinstance(log.position()[0], list)
    assert list(log.events_back(since=1)) == []
    assert list(log.events_back(since=0)) == list(log.events_back())


def test_one_action_is_asked_of_the_rules_for_the_actor_only() -> None:
    from fracas.engine.legal import Legal

    ruleset, setup, _ = encounterfile.load(ROOT / "examples/heimr/duel.yaml")
    encounter = Encounter(ruleset, setup, RandomDice(1), record=False)
    encounter.push(Action.parse("gm begin"))
    actor = encounter.to_move
    assert actor is not None
    other = next(c for c in ruleset.combatant_ids(encounter.state) if c != actor)
    legal = Legal(encounter, actor, probes=("end",))
    assert bool(legal) and legal.listed(Action(actor, "end"))  # the probe answered
    note = Action.parse("gm note text=hello")
    assert encounter.is_legal(note) and legal.one(note) is None  # legal, not the actor's
    assert legal.one(Action(other, "end")) is None
    assert legal.one(Action(actor, "defend", "none")) == Action(actor, "defend", "none")
    assert legal.one(Action(actor, "fly")) is None
    everything = list(encounter.legal_actions(actor))
    for action in everything:
        assert legal.one(action) == action
