"""Every example played to its end, once per side: at every step nothing the oracle
calls secret is in that side's view (state, log, whose turn, the actions offered),
and the game master's view shows every secret."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.hidden.secrets import leaks, present, secrets

from fracas.engine import Action, Encounter, RandomDice, view
from fracas.table import encounterfile
from fracas.table.scripts import Script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*/*.script"))


def start(script: Path) -> Encounter[Any]:
    ruleset, setup, _ = encounterfile.load(script.with_suffix(".yaml"))
    return Encounter(ruleset, setup, RandomDice(Script.read(script).seed))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_side_is_shown_a_secret_at_any_step_of_an_example(script: Path) -> None:
    enc = start(script)
    sides = enc.ruleset.sides(enc.state)
    found: list[str] = []
    for number, line in Script.read(script).lines:
        enc.push(Action.parse(line))
        gm = json.dumps(view(enc), ensure_ascii=False)
        for side in sides:
            told = secrets(enc, side)
            whole = json.dumps(view(enc, side), ensure_ascii=False)
            now = present(enc, side)
            for secret in told.gm_shows:
                assert leaks(secret, gm), f"line {number}: {secret!r} is not in the GM's view"
            found += [
                f"line {number} ({line}), {side}: {s!r}" for s in told.never if leaks(s, whole)
            ]
            found += [
                f"line {number} ({line}), {side} now: {s!r}" for s in told.now if leaks(s, now)
            ]
    assert not found, "\n".join(dict.fromkeys(found))
