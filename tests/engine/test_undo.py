"""Undo from keyframes, and playouts: the same states as keeping every state would give."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from fracas.dice import DiceError
from fracas.engine import Encounter, EngineError, RandomDice, ScriptedDice
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [ROOT / "examples" / "heimr" / "duel.yaml", ROOT / "examples" / "sides" / "mace.yaml"]


@cache
def _start(path: Path) -> Encounter[Any]:
    ruleset, setup, _ = encounterfile.load(path)
    return Encounter(ruleset, setup, RandomDice(0))


def _played(path: Path, seed: int, steps: int) -> tuple[Encounter[Any], list[Any]]:
    """An encounter after random legal play with a keyframe every 4 actions, and a copy
    of the state before each action and after the last."""
    enc = _start(path).copy(stack=False, dice=RandomDice(seed))
    enc.KEYFRAME, enc.RECENT = 4, 2
    pick = random.Random(seed)
    states = [enc.state.clone()]
    for _ in range(steps):
        legal = list(enc.legal_actions())
        if not legal:
            break
        enc.push(pick.choice(legal))
        states.append(enc.state.clone())
    return enc, states


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.parent.name)
def test_undo_goes_back_through_every_state_to_the_start(path: Path) -> None:
    enc, states = _played(path, seed=7, steps=40)
    assert len(states) > 10
    while enc.log:
        states.pop()
        enc.pop()
        assert enc.state == states[-1]
    with pytest.raises(EngineError, match="at its start"):
        enc.pop()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.parent.name)
def test_undo_and_play_on_in_turn_keeps_the_states_exact(path: Path) -> None:
    enc, states = _played(path, seed=11, steps=30)
    pick = random.Random(3)
    for _ in range(60):
        if enc.log and pick.random() < 0.5:
            enc.pop()
            states.pop()
        else:
            legal = list(enc.legal_actions())
            if not legal:
                continue
            enc.push(pick.choice(legal))
            states.append(enc.state.clone())
        assert enc.state == states[-1]
        kept = [i for i, s in enumerate(enc._stack) if s is not None]
        assert all(i % enc.KEYFRAME == 0 or i >= len(enc._stack) - enc.RECENT for i in kept)


def test_a_copy_with_its_stack_undoes_what_the_original_played() -> None:
    enc, states = _played(EXAMPLES[0], seed=5, steps=25)
    other = enc.copy()
    played = len(enc.log)
    for _ in range(played):
        other.pop()
        states.pop()
        assert other.state == states[-1]
    assert len(enc.log) == played


def test_a_playout_plays_as_a_recorded_encounter_and_keeps_nothing() -> None:
    recorded = _start(EXAMPLES[0]).copy(stack=False, dice=RandomDice(9))
    playout = _start(EXAMPLES[0]).copy(dice=RandomDice(9), playout=True)
    verbs = {"begin", "attack", "end"}
    while not recorded.is_over():
        legal = list(recorded.legal_actions(recorded.to_move, verbs))
        assert list(playout.legal_actions(playout.to_move, verbs)) == legal
        action = legal[-1]  # an attack when there is one: the end of the turn comes first
        assert playout.push_legal(action) == recorded.push(action)
        assert playout.state == recorded.state
    assert playout.log == [] and playout.dice.drawn == [] and recorded.dice.drawn
    with pytest.raises(EngineError, match="a playout keeps no log"):
        playout.pop()


def test_a_playout_refused_half_way_refuses_everything_after() -> None:
    playout = _start(EXAMPLES[0]).copy(dice=ScriptedDice([]), playout=True)
    with pytest.raises(DiceError):
        playout.push("gm begin")  # initiative rolls: the script has no dice
    with pytest.raises(EngineError, match="spoilt"):
        playout.push("gm begin")
    assert playout.copy(playout=True)._spoilt is not None


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.parent.name)
def test_a_loaded_save_undoes_to_every_state_it_replayed(path: Path) -> None:
    enc, states = _played(path, seed=13, steps=150)
    loaded = Encounter.load(enc.save(), enc.ruleset)
    assert loaded.state == enc.state
    while loaded.log:
        states.pop()
        loaded.pop()
        assert loaded.state == states[-1]
