"""The quick legality answers exactly as the full check does, for every ruleset.

Positions come from every example script and from seeded random legal play from every
example encounter: their legal actions were recorded from the engine before legality
was made quicker (``tests/golden/*.legal.json`` and ``*.random.json``, see
``tests/golden/record.py --legal``); and from Hypothesis-driven random legal play, where
each answer is compared with the ruleset's full :meth:`check`, by actor and by verb.
"""

from __future__ import annotations

import importlib.util
import json
import random
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.engine import Action, Encounter, EngineError, RandomDice
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parents[2]


def _record_module() -> ModuleType:
    path = ROOT / "tests" / "golden" / "record.py"
    spec = importlib.util.spec_from_file_location("golden_record", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


record = _record_module()
SCRIPTS = list(record.scripts())
ENCOUNTERS = [script.with_suffix(".yaml") for script in SCRIPTS]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_example_position_offers_the_legal_actions_recorded(script: Path) -> None:
    ruleset_id, sets = record.legal_sets(script)
    path = record.golden_path(ruleset_id, script, ".legal.json")
    assert sets == json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_random_play_offers_the_legal_actions_recorded(script: Path) -> None:
    ruleset_id, _ = record.legal_sets(script)
    path = record.golden_path(ruleset_id, script, ".random.json")
    recorded = json.loads(path.read_text(encoding="utf-8"))
    for seed in record.RANDOM_SEEDS:
        assert record.random_play(script, seed) == recorded[str(seed)], f"seed {seed}"


@cache
def _start(path: Path) -> Encounter[Any]:
    ruleset, setup, _ = encounterfile.load(path)
    return Encounter(ruleset, setup, RandomDice(0))


def _checked(enc: Encounter[Any], action: Action) -> bool:
    """Whether the ruleset's full check, with its messages, accepts ``action``."""
    try:
        enc.ruleset.check(enc.state, action)
    except EngineError:
        return False
    return True


def _assert_same_answers(enc: Encounter[Any], actor: str | None, verbs: frozenset[str]) -> None:
    candidates = list(enc.ruleset.candidates(enc.state, actor))
    for action in candidates:
        assert enc.is_legal(action) == _checked(enc, action), action
    accepted = [a for a in candidates if (actor is None or a.actor == actor) and _checked(enc, a)]
    assert list(enc.legal_actions(actor)) == accepted
    assert list(enc.legal_actions(actor, verbs)) == [a for a in accepted if a.verb in verbs]


@settings(max_examples=30)
@given(
    path=st.sampled_from(ENCOUNTERS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(1, 30),
)
def test_random_legal_play_gets_the_full_checks_answers(path: Path, seed: int, steps: int) -> None:
    enc = _start(path).copy(stack=False, dice=RandomDice(seed))
    pick = random.Random(seed)
    for _ in range(steps):
        everyone = list(enc.legal_actions())
        verbs = frozenset(pick.sample(sorted({a.verb for a in everyone} | {"attack", "end"}), 2))
        actors = {None, enc.to_move, *(a.actor for a in everyone[:3])}
        for actor in actors:
            _assert_same_answers(enc, actor, verbs)
        if not everyone:
            break
        enc.push_legal(pick.choice(everyone))
