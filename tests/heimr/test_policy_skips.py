"""Heimr's default policy leaves out asking the rules for an action only when the rules
would refuse it: brawls and charges with every foe its side knows of out of reach, a
jump down with nothing to jump down from, charges, steps and climbs when prone, and
anything but the end of its turn when dazed; with the actor anywhere on the field at
any height, and whatever its side sees. A door's guard, asked as one action, is legal
as the offer lists it; the lazy view's foe squares are those its records show."""

from __future__ import annotations

import glob
import random
from pathlib import Path

import pytest

from fracas.engine import Action, Encounter, RandomDice
from fracas.lab.playout import LazyView
from fracas.rules.heimr import policies
from fracas.rules.heimr.state import ActiveEffect
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parents[2]
#: Verbs the default policy never takes (the game master's re-roll, taken at any time).
NOT_TAKEN = frozenset({"reroll"})
HEIMR = sorted(
    p
    for p in glob.glob(str(ROOT / "examples/heimr/*.yaml"))
    if "\nruleset: heimr" in "\n" + Path(p).read_text()
)


@pytest.mark.rule("H-ATK-1")
@pytest.mark.rule("H-ACT-4")
@pytest.mark.rule("H-GRID-5")
@pytest.mark.rule("H-POS-4")
@pytest.mark.rule("H-ACT-3")
@pytest.mark.rule("H-GUARD-3")
@pytest.mark.rule("H-EFF-5")
@pytest.mark.rule("H-POS-1")
@pytest.mark.parametrize("path", HEIMR, ids=lambda p: Path(p).stem)
def test_default_policy_skips_brawls_charges_and_jumps_only_when_every_one_is_refused(
    path: str,
) -> None:
    ruleset, setup, _ = encounterfile.load(path)
    encounter = Encounter(ruleset, setup, RandomDice(11), record=False)
    rng = random.Random(11)
    skipped = 0
    for _ in range(25):
        actor = encounter.to_move
        if actor is None or encounter.is_over():
            break
        state = encounter.state
        c = state.combatants.get(actor)
        if c is not None:
            skipped += _skips_agree(encounter, actor)  # where it stands
            if rng.random() < 0.3:  # dazed for a moment (H-EFF-5)
                c.effects.append(ActiveEffect("Daze", 1, 1))
                skipped += _skips_agree(encounter, actor)
                c.effects.pop()
            if not c.prone and rng.random() < 0.3:  # fallen for a moment (H-POS-1)
                c.prone = True
                skipped += _skips_agree(encounter, actor)
                c.prone = False
            kept = c.square, c.height
            # Random positions: the actor anywhere on the field, at any height.
            for square in rng.sample(sorted(state.battlefield.squares), 2):
                c.square, c.height = square, rng.randrange(6)
                skipped += _skips_agree(encounter, actor)
            c.square, c.height = kept
        encounter.push_legal(rng.choice(list(ruleset.legal(state, actor))))
    assert skipped or "castle-wall" not in path  # the wall is where it is tried


def _skips_agree(encounter: Encounter[object], actor: str) -> int:
    """That the rules refuse every brawl, charge and jump the policy skips asking for (and its
    foe squares are those the view's records show): how many verbs it skips."""
    side = encounter.state.combatants[actor].side  # type: ignore[attr-defined]
    view = LazyView(encounter, side)
    people = view["state"]["combatants"]
    me = people[actor]
    plain = {cid: dict(p) for cid, p in people.items()}
    assert policies._foe_squares(me, people) == policies._foe_squares(dict(me), plain)
    skipped = 0
    state = encounter.state
    if not policies._may_brawl(me, people):
        assert not any(a.verb == "brawl" for a in encounter.ruleset.legal(state, actor))
        skipped += 1
    if not policies._may_charge(view, me, people):
        assert not list(encounter.ruleset.legal(state, actor, {"charge"}))
        skipped += 1
    if not policies._may_jump(view, me):
        assert not list(encounter.ruleset.legal(state, actor, {"jump"}))
        skipped += 1
    if policies._held_down(me):  # prone: no charge, step or climb
        verbs = {"charge", "move", "run", "climb"}
        assert not list(encounter.ruleset.legal(state, actor, verbs))
        skipped += 1
    if policies._dazed(me):  # the end of its turn, or nothing it would take
        assert {a.verb for a in encounter.ruleset.legal(state, actor)} <= NOT_TAKEN | {"end"}
        skipped += 1
    if me.get("upcoming") is None:  # a door's guard asked as one action: as offered
        guards = list(encounter.ruleset.legal(state, actor, {"guard"}))
        for name, _ in policies._doors(view).get(me["square"], ()):
            guard = Action(actor, "guard", name)
            assert encounter.ruleset.is_legal(state, guard) == (guard in guards)
    return skipped
