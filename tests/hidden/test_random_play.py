"""Every example encounter played by random legal actions from seeded dice and choices:
at every step no side is shown what the oracle calls secret. Random play reaches what
the scripts do not (a hidden character ending its turn unseen, an ally guarding it)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from tests.hidden.secrets import leaks, present, secrets

from fracas.engine import Encounter, RandomDice, view
from fracas.engine.views import offered
from fracas.table import encounterfile

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ENCOUNTERS = sorted(p for p in EXAMPLES.glob("*/*.yaml") if p.with_suffix(".script").exists())
GAMES, STEPS = 2, 40


@pytest.mark.parametrize("path", ENCOUNTERS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_random_play_shows_no_side_a_secret(path: Path) -> None:
    found: list[str] = []
    for game in range(GAMES):
        ruleset, setup, _ = encounterfile.load(path)
        enc = Encounter(ruleset, setup, RandomDice(game))
        choose = random.Random(game)
        sides = ruleset.sides(enc.state)
        for _ in range(STEPS):
            actions = offered(enc)
            if not actions:
                break
            action = choose.choice(actions)
            enc.push(action)
            for side in sides:
                told = secrets(enc, side)
                whole = json.dumps(view(enc, side), ensure_ascii=False)
                now = present(enc, side)
                found += [f"{action}, {side}: {s!r}" for s in told.never if leaks(s, whole)]
                found += [f"{action}, {side} now: {s!r}" for s in told.now if leaks(s, now)]
    assert not found, "\n".join(dict.fromkeys(found))
