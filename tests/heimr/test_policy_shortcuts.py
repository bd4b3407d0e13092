"""The default Heimr policy's shortcuts choose what it chooses without them: after a
move it asks only for free actions (H-ACT-1, H-ACT-2); it leaves out asking for steps
toward its enemies that every closer square's height refuses (H-GRID-5), and for the
doors of a square that has none (H-GUARD-3); a side's lazy view tells it the enemies it
sees and its own standing without each field read. Played on every Heimr example, with
and without them, it makes the same choices throughout; and the view's count is what
reading each field tells, for every side, through hiding."""

from __future__ import annotations

import glob
import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy
import pytest

from fracas.engine import Action, Encounter, RandomDice
from fracas.lab import runner
from fracas.rules.heimr import policies
from fracas.rules.heimr.observing import SeenCombatants
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parents[2]
HEIMR = sorted(
    p
    for p in glob.glob(str(ROOT / "examples/heimr/*.yaml"))
    if "\nruleset: heimr" in "\n" + Path(p).read_text()
)


@contextmanager
def recorded(monkeypatch: pytest.MonkeyPatch, chosen: list[str], shortcuts: bool) -> Iterator[None]:
    """The default policy's choices appended to ``chosen``; without ``shortcuts``, it
    asks the rules every question its shortcuts leave out."""
    choose = policies.DefaultPolicy.choose

    def choosing(
        self: policies.DefaultPolicy,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        rng: numpy.random.Generator,
    ) -> Action:
        if not shortcuts:
            self._moved.clear()  # never known to have moved
        action = choose(self, view, legal, rng)
        chosen.append(str(action))
        return action

    with monkeypatch.context() as patch:
        patch.setattr(policies.DefaultPolicy, "choose", choosing)
        if not shortcuts:
            patch.setattr(policies, "_may_step_closer", lambda *args: True)
            patch.setattr(policies, "_no_door_to_hold", lambda *args: False)
            patch.setattr(policies, "SeenCombatants", type(None))  # each field read
            # The rules asked of what the view says they refuse (tests/heimr/
            # test_policy_skips.py holds each skip to the rules).
            for skip in ("_may_brawl", "_may_charge", "_may_jump"):
                patch.setattr(policies, skip, lambda *args: True)
            for skip in ("_dazed", "_held_down"):
                patch.setattr(policies, skip, lambda *args: False)
        yield


@pytest.mark.rule("H-ACT-1")
@pytest.mark.rule("H-ACT-2")
@pytest.mark.rule("H-GUARD-3")
@pytest.mark.parametrize("path", HEIMR, ids=lambda p: Path(p).stem)
def test_the_default_policy_chooses_the_same_with_its_shortcuts_and_without(
    path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = runner.spec_from_file(path, {}, engine="engine")
    batch = runner.seeds(5, 4)
    plays: dict[bool, tuple[list[str], object]] = {}
    for shortcuts in (True, False):
        chosen: list[str] = []
        with recorded(monkeypatch, chosen, shortcuts):
            outcomes = runner.run_batch(spec, batch)
        plays[shortcuts] = chosen, outcomes
    assert plays[True][0]  # the default policy played
    assert plays[True] == plays[False]


@pytest.mark.rule("H-POS-4")
@pytest.mark.parametrize("path", HEIMR, ids=lambda p: Path(p).stem)
def test_a_sides_view_counts_the_forces_as_reading_each_field_does(path: str) -> None:
    ruleset, setup, _ = encounterfile.load(path)
    encounter = Encounter(ruleset, setup, RandomDice(13), record=False)
    rng = random.Random(13)
    for _ in range(40):
        actor = encounter.to_move
        if actor is None or encounter.is_over():
            break
        state = encounter.state
        for side in (None, *ruleset.sides(state)):
            people = SeenCombatants(state, side)
            fields = {cid: dict(p) for cid, p in people.items()}  # a plain mapping
            for me in fields.values():
                enemies, own = people.forces(me["side"])
                plain, own_plain = policies._forces(me, fields)
                assert [dict(e) for e in enemies] == plain
                assert own == own_plain
        encounter.push_legal(rng.choice(list(ruleset.legal(state, actor))))
