"""Every example encounter, played by the default policies on every side and the game
master's policy: fights end by the rules, within the action cap.

``FRACAS_POLICY_RUNS`` sets the runs per example (30 by default). Win rates are
written to ``build/policy-examples.json`` and printed (``pytest -s``); a lopsided
example is reported, not failed: some examples are lopsided by design.
"""

from __future__ import annotations

import fcntl
import importlib
import json
import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy
import pytest

from fracas.engine import Encounter, RandomDice, view
from fracas.table.encounterfile import load

ROOT = Path(__file__).resolve().parents[2]
#: Encounter files (campaign files have no ruleset line).
EXAMPLES = [
    p
    for p in sorted((ROOT / "examples").glob("*/*.yaml"))
    if "\nruleset:" in "\n" + p.read_text(encoding="utf-8")
]
RUNS = int(os.environ.get("FRACAS_POLICY_RUNS", "30"))
MAX_ACTIONS = 2000
MODULES = {
    "heimr": "heimr",
    "heimr-classic": "classic",
    "sides": "sides",
    "tempo": "tempo",
    "diestep": "diestep",
}
REPORT = ROOT / "build" / "policy-examples.json"


@dataclass(frozen=True)
class Ending:
    """How one run ended (the part of the lab's ``Outcome`` these tests read)."""

    winner: str | None
    actions: int
    capped: bool
    over: bool


def policies_of(ruleset_id: str) -> tuple[Any, Any]:
    module = importlib.import_module(f"fracas.rules.{MODULES[ruleset_id]}.policies")
    return module.DefaultPolicy(ruleset_id), module.GmPolicy()


def standing_sides(state: Any) -> set[str]:
    """The sides with someone still in the fight, read from any ruleset's state."""
    sides = set()
    for c in state.combatants.values():
        up = c.in_fight if hasattr(c, "in_fight") else not c.out
        if up:
            sides.add(c.side)
    return sides


def side_of(encounter: Encounter[Any], actor: str) -> str:
    """The side whose view ``actor`` acts on: its own, or itself when it is a side
    (the winner of the initiative in sides chooses for its side)."""
    people = encounter.state.combatants
    return str(people[actor].side) if actor in people else actor


def play(
    encounter: Encounter[Any],
    policy: Any,
    gm: Any,
    rng: numpy.random.Generator,
    max_actions: int = MAX_ACTIONS,
) -> Ending:
    """A short private loop until the lab's ``play_out`` is merged: the same policy
    for every side, the game master's for ``gm``."""
    actions = 0
    while not encounter.is_over() and actions < max_actions:
        actor = encounter.to_move
        if actor is None:
            break
        legal = list(encounter.legal_actions(actor))
        if actor == "gm":
            action = gm.choose(view(encounter, None), legal, rng)
        else:
            action = policy.choose(view(encounter, side_of(encounter, actor)), legal, rng)
        assert action in legal, f"{action} is not among the legal actions"
        encounter.push(action)
        actions += 1
    over = encounter.is_over()
    sides = standing_sides(encounter.state)
    winner = next(iter(sides)) if over and len(sides) == 1 else None
    return Ending(winner, actions, not over and actions >= max_actions, over)


@cache
def loaded(path: Path) -> tuple[Any, dict[str, Any]]:
    ruleset, setup, _ = load(path)
    return ruleset, setup


def run_example(path: Path, runs: int, seed: int = 2026) -> list[Ending]:
    ruleset, setup = loaded(path)
    policy, gm = policies_of(ruleset.id)
    endings = []
    for child in numpy.random.SeedSequence(seed).spawn(runs):
        dice_seed = int(child.generate_state(2, numpy.uint64)[0])
        encounter = Encounter(ruleset, setup, RandomDice(dice_seed))
        endings.append(play(encounter, policy, gm, numpy.random.default_rng(child)))
    return endings


def summary(path: Path, endings: list[Ending]) -> dict[str, Any]:
    wins = Counter(e.winner or "draw" for e in endings if e.over)
    return {
        "runs": len(endings),
        "ended": sum(e.over for e in endings) / len(endings),
        "capped": sum(e.capped for e in endings),
        "wins": {side: n / len(endings) for side, n in sorted(wins.items())},
        "mean_actions": sum(e.actions for e in endings) / len(endings),
    }


def record(name: str, result: Mapping[str, Any]) -> None:
    """Merge one example's result into the report: under a lock, since test workers
    (pytest-xdist) record at the same time, and through a file of this process's own."""
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    with open(REPORT.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            data = json.loads(REPORT.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        data[name] = result
        tmp = REPORT.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(json.dumps(data, indent=1, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, REPORT)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_default_policies_end_every_example_by_the_rules(path: Path) -> None:
    endings = run_example(path, RUNS)
    result = summary(path, endings)
    name = f"{path.parent.name}/{path.stem}"
    record(name, result)
    sides = {side for side, share in result["wins"].items() if side != "draw" and share > 0}
    lopsided = "" if len(sides) > 1 else "  (lopsided: one side wins every time)"
    print(f"\n{name}: ended {result['ended']:.0%}, wins {result['wins']}{lopsided}")
    assert result["ended"] >= 0.99, f"{name}: only {result['ended']:.0%} ended by the rules"
    assert result["capped"] <= 0.01 * len(endings)


def test_every_ruleset_has_an_example() -> None:
    assert {loaded(p)[0].id for p in EXAMPLES} == set(MODULES)


def test_runs_repeat_exactly_from_their_seed() -> None:
    path = ROOT / "examples" / "heimr" / "duel.yaml"
    assert run_example(path, 3, seed=7) == run_example(path, 3, seed=7)
