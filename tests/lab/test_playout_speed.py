"""The quick paths of simulation play as the plain ones do: playouts against recorded
encounters, the policy's lazy legal actions against the engine's listing, and the
battlefield's JSON worked out once against worked out every time."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy
import pytest

from fracas.engine import Action, Encounter, RandomDice, view
from fracas.engine.legal import Legal
from fracas.lab import runner
from fracas.lab.playout import LazyView, play_out
from fracas.lab.policies import gm_policy, policy
from fracas.rules.heimr.ruleset import field_view
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parents[2]
#: One example of each ruleset, and the Heimr ones with doors, climbs and many fighters.
EXAMPLES = (
    "examples/heimr/duel.yaml",
    "examples/heimr/doorway.yaml",
    "examples/heimr/castle-wall.yaml",
    "examples/heimr/night.yaml",
    "examples/classic/ford.yaml",
    "examples/sides/mace.yaml",
    "examples/tempo/feint.yaml",
    "examples/diestep/charge.yaml",
)


def recorded_batch(spec: runner.SimSpec, seed: int, runs: int) -> list[Any]:
    """``run_batch`` as it was before playouts: recorded copies (log and undo kept)."""
    start: Encounter[Any] = Encounter(runner.find(spec.ruleset), spec.setup, RandomDice(0))
    names = dict(spec.policies)
    out = []
    for seq in runner.seeds(seed, runs):
        dice_seed, rng = runner.streams(seq)
        encounter = start.copy(stack=False, dice=RandomDice(dice_seed))
        policies = {side: policy(name, spec.ruleset) for side, name in names.items()}
        out.append(play_out(encounter, policies, gm_policy(spec.ruleset), rng, spec.max_actions))
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: Path(p).stem)
def test_playouts_end_as_recorded_encounters_do(path: str) -> None:
    # The default policies read the log (a Heimr fighter's last attack challenge): a
    # playout keeps no log, so play_out keeps the events for the policies' views.
    spec = runner.spec_from_file(ROOT / path, {}, max_actions=150)
    assert runner.run_batch(spec, runner.seeds(4, 6)) == recorded_batch(spec, 4, 6)


class LogSpy:
    """The default policy, noting the log it is shown at each choice and, when it plays a
    recorded encounter, the log the engine's view of it shows."""

    name = "spy"

    def __init__(self, encounter: Encounter[Any], side: str) -> None:
        self.inner = policy("default", encounter.ruleset.id)
        self.verbs_together = getattr(self.inner, "verbs_together", ())
        self.encounter, self.side = encounter, side
        self.logs: list[list[Any]] = []
        self.engine_logs: list[list[Any]] = []

    def choose(self, seen: Any, legal: Any, rng: Any) -> Action:
        self.logs.append(list(seen["log"]))
        if self.encounter.record:
            self.engine_logs.append(view(self.encounter, self.side)["log"])
        chosen: Action = self.inner.choose(seen, legal, rng)
        return chosen


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: Path(p).stem)
def test_a_playouts_policies_read_the_log_of_a_recorded_encounter(path: str) -> None:
    ruleset, setup, _ = encounterfile.load(ROOT / path)
    start = Encounter(ruleset, setup, RandomDice(0))
    recorded = start.copy(stack=False, dice=RandomDice(8))
    playout = start.copy(dice=RandomDice(8), playout=True)
    shown = []
    for encounter in (recorded, playout):
        sides = runner.sides_of(ruleset.id, setup)
        spies = {side: LogSpy(encounter, side) for side in sides}
        play_out(encounter, spies, gm_policy(ruleset.id), numpy.random.default_rng(8), 60)
        shown.append({side: spy.logs for side, spy in spies.items()})
        if encounter is recorded:
            assert all(spy.logs == spy.engine_logs for spy in spies.values())
    assert shown[0] == shown[1]
    assert any(log for logs in shown[1].values() for log in logs)


def test_a_playouts_policy_sees_the_log_a_recorded_encounter_shows() -> None:
    ruleset, setup, _ = encounterfile.load(ROOT / "examples/heimr/duel.yaml")
    recorded = Encounter(ruleset, setup, RandomDice(3))
    playout = recorded.copy(stack=False, dice=RandomDice(3), playout=True)
    history = []
    shared: dict[int, list[dict[str, Any]]] = {}
    rng = random.Random(0)
    for _ in range(40):
        if recorded.is_over():
            break
        actor = recorded.to_move
        assert actor is not None and actor == playout.to_move
        for side in (None, "shieldwall", "raiders"):
            lazy = LazyView(playout, side, history, shared if side == "raiders" else None)
            assert dict(lazy) == view(recorded, side)
        action = rng.choice(list(recorded.legal_actions(actor)))
        assert recorded.push(action) == playout.push(action)
        history.append(recorded.log[-1].events)


@pytest.mark.parametrize("path", EXAMPLES[:4], ids=lambda p: Path(p).stem)
def test_the_lazy_legal_actions_are_the_engines(path: str) -> None:
    ruleset, setup, _ = encounterfile.load(ROOT / path)
    encounter = Encounter(ruleset, setup, RandomDice(2), record=False)
    rng = random.Random(1)
    together = policy("default", ruleset.id).verbs_together  # type: ignore[attr-defined]
    for _ in range(60):
        actor = encounter.to_move
        if actor is None or encounter.is_over():
            break
        everything = list(encounter.legal_actions(actor))
        legal = Legal(encounter, actor, together)
        assert bool(legal) == bool(everything)
        for verb in ("attack", "defend", "end", "move", "climb", "jump", "brawl", "begin"):
            assert legal.verb(verb) == [a for a in everything if a.verb == verb]
            assert all(legal.listed(a) for a in legal.verb(verb))
        assert not legal.listed(Action(actor, "attack", "nobody-at-all"))
        # Whether an action is legal is asked of the rules as that one action, never by
        # listing every legal action (play_out asks it of what a policy chose).
        fresh = Legal(encounter, actor, together)
        assert all(action in fresh for action in everything[:6])
        assert Action(f"not-{actor}", "end") not in fresh
        assert fresh._all is None
        # What is known of the actor's plain actions says nothing of another's.
        if bool(fresh) and fresh.one(Action(actor, "end")) is not None:
            assert not fresh.listed(Action(f"not-{actor}", "end"))
        if not everything:
            break
        encounter.push(rng.choice(everything))


def door(battlefield: dict[str, Any]) -> tuple[str, int | None]:
    """The door between B2 and B3 as a battlefield view shows it, and its toughness."""
    (found,) = [b for b in battlefield["borders"] if b["between"] == ["B2", "B3"]]
    return found["door"], found["toughness"]


@pytest.mark.rule("H-GRID-3")
def test_the_battlefield_worked_out_once_is_the_one_worked_out_each_time() -> None:
    ruleset, setup, _ = encounterfile.load(ROOT / "examples/heimr/doorway.yaml")
    encounter = Encounter(ruleset, setup, RandomDice(5))
    encounter.push("gm begin")
    seen = ruleset.observe(encounter.state, None)["battlefield"]
    assert seen == field_view(encounter.state)
    seen["squares"]["B2"]["cover"].append("scribbled on")  # a reader changes its copy...
    seen["borders"][0]["name"] = "scribbled on"
    again = ruleset.observe(encounter.state, "raiders")["battlefield"]
    assert again == field_view(encounter.state)  # ... and the next view is untouched
    assert door(again) == ("open", None)  # the door stands open
    encounter.push("gm close B2-B3")
    closed = ruleset.observe(encounter.state, None)["battlefield"]
    assert closed == field_view(encounter.state)
    assert door(closed)[0] == "closed" and door(closed)[1] is not None
    encounter.push("gm open B2-B3")
    assert ruleset.observe(encounter.state, None)["battlefield"] == again
