"""Property: on any position reached by random play, given any non-empty part of the
legal actions, every default policy and game master returns one of them, and never
raises."""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any

import numpy
from hypothesis import given
from hypothesis import strategies as st

from fracas.engine import Encounter, RandomDice, view
from fracas.table.encounterfile import load

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ENCOUNTERS = [
    str(p.relative_to(EXAMPLES))
    for p in sorted(EXAMPLES.glob("*/*.yaml"))
    if "\nruleset:" in "\n" + p.read_text(encoding="utf-8")
]
MODULES = {
    "heimr": "heimr",
    "heimr-classic": "classic",
    "sides": "sides",
    "tempo": "tempo",
    "diestep": "diestep",
}


@cache
def loaded(name: str) -> tuple[Any, dict[str, Any]]:
    ruleset, setup, _ = load(EXAMPLES / name)
    return ruleset, setup


def side_of(encounter: Encounter[Any], actor: str) -> str | None:
    if actor == "gm":
        return None
    people = encounter.state.combatants
    return str(people[actor].side) if actor in people else actor


@given(
    name=st.sampled_from(ENCOUNTERS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 40),
)
def test_policies_return_one_of_the_legal_actions(name: str, seed: int, steps: int) -> None:
    ruleset, setup = loaded(name)
    module = importlib.import_module(f"fracas.rules.{MODULES[ruleset.id]}.policies")
    policy, gm = module.DefaultPolicy(ruleset.id), module.GmPolicy()
    rng = numpy.random.default_rng(seed)
    encounter = Encounter(ruleset, setup, RandomDice(seed))
    for _ in range(steps + 1):
        actor = encounter.to_move
        if actor is None or encounter.is_over():
            break
        legal = list(encounter.legal_actions(actor))
        if not legal:
            break
        chooser = gm if actor == "gm" else policy
        seen = view(encounter, side_of(encounter, actor))
        assert chooser.choose(seen, legal, rng) in legal
        part = [a for a in legal if rng.random() < 0.5] or legal[-1:]
        assert chooser.choose(seen, part, rng) in part
        encounter.push(legal[int(rng.integers(len(legal)))])  # random play moves on
