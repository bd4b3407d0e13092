"""The quick paths of a fight under way give what the plain ones do: the quick legality
(``DieStepRules.checking``: the turn's listings made straight from the state, a window's
answers from the open window, the quick checks of :mod:`fracas.rules.diestep.quick`)
answers as the full check does (whether an actor has any legal action too), and a
die-step roll draws what the generic roll draws.

Positions come from both examples, played by the default policies and by random legal
actions in turn; at each, every actor's listing (all verbs, each verb alone, the
default policy's verbs together) and the check of every candidate and of actions no
listing offers (allies as targets, options, unknown names) are compared with the
ruleset's own :meth:`check`, which builds every refusal's message.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import numpy
import pytest

from fracas.dice import DieStep
from fracas.dice.core import Mechanic
from fracas.engine import Action, Encounter, EngineError, IllegalAction, RandomDice
from fracas.engine.legal import Legal
from fracas.lab.playout import LazyView
from fracas.rules.diestep.policies import DefaultPolicy, GmPolicy
from fracas.rules.diestep.ruleset import DieStepRules
from fracas.rules.diestep.state import DieStepState
from fracas.rules.diestep.verbs import GM, VERBS
from fracas.table import encounterfile

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "diestep"


@cache
def _start(name: str) -> Encounter[Any]:
    ruleset, setup, _ = encounterfile.load(EXAMPLES / f"{name}.yaml")
    return Encounter(ruleset, setup, RandomDice(0), record=False)


def _positions(name: str, seed: int, steps: int = 80) -> Iterator[Encounter[Any]]:
    """The positions of one fight: the default policies' choices, one action in three a
    random legal one instead (so that odd positions come up: prone, mounted, held)."""
    enc = _start(name).copy(stack=False, dice=RandomDice(seed), playout=True)
    pick = random.Random(seed)
    rng = numpy.random.default_rng(seed)
    policy, gm = DefaultPolicy(), GmPolicy()
    sides = {cid: c.side for cid, c in enc.state.combatants.items()}
    for _ in range(steps):
        actor = enc.to_move
        if actor is None:
            return
        yield enc
        chooser: DefaultPolicy | GmPolicy = gm if actor == GM else policy
        legal = Legal(enc, actor, getattr(chooser, "verbs_together", ()), chooser.probes)
        if not legal:
            return
        if pick.random() < 1 / 3:
            action = pick.choice(list(legal))
        else:
            action = chooser.choose(LazyView(enc, sides.get(actor), [], {}), legal, rng)
        enc.push_legal(action)


def _full(enc: Encounter[Any], action: Action) -> bool:
    try:
        enc.ruleset.check(enc.state, action)
    except EngineError:
        return False
    return True


def _odd_actions(state: DieStepState, actor: str) -> Iterator[Action]:
    """Actions no listing offers: at allies and oneself, with options, unknown names."""
    for cid in (*state.combatants, "nobody", None):
        for verb in ("attack", "strike", "grab", "opportunity", "mount"):
            yield Action(actor, verb, cid)
    for region in (*state.regions, "nowhere", None):
        for verb in ("move", "run", "crawl", "drag"):
            yield Action(actor, verb, region)
        yield Action(actor, "run", region, (("via", next(iter(state.regions))),))
    plain = ("end", "take", "pass", "block", "parry", "dodge", "escape", "hold", "release")
    for verb in (*plain, "down", "crush", "throw", "draw", "prone", "stand", "dismount"):
        yield Action(actor, verb)
        yield Action(actor, verb, next(iter(state.combatants)))
        yield Action(actor, verb, None, (("x", "1"),))
    yield Action(actor, "attack", next(iter(state.combatants)), (("nonlethal", "maybe"),))
    yield Action(actor, "spell", next(iter(state.combatants)))
    yield Action(actor, "heal", actor, (("hp", "1"),))


def _assert_same(enc: Encounter[Any]) -> int:
    """Compare every answer at ``enc``'s position; how many questions were asked."""
    rules, state = enc.ruleset, enc.state
    asked = 0
    verb_sets: list[frozenset[str] | None] = [None, DefaultPolicy.verbs_together]
    verb_sets += [frozenset({v}) for v in sorted(VERBS)]
    for actor in (*state.combatants, GM):
        candidates = [a for a in rules.candidates(state, actor) if a.actor == actor]
        accepted = [a for a in candidates if _full(enc, a)]
        for verbs in verb_sets:
            checking = rules.checking(state)  # afresh: what it keeps is of one listing
            wanted = [a for a in accepted if verbs is None or a.verb in verbs]
            assert list(checking.legal(actor, verbs)) == wanted, (actor, verbs)
            odd = [a for a in wanted if len(str(a)) % 2]
            assert list(checking.legal_where(actor, verbs, lambda a: len(str(a)) % 2)) == odd
            asked += 2
        # whether there is any: asked first, and after a listing (what it kept)
        assert rules.checking(state).any_legal(actor) == bool(accepted), actor
        assert checking.any_legal(actor) == bool(accepted), actor
        checking = rules.checking(state)  # one for every question, as a policy asks them
        for action in (*candidates, *_odd_actions(state, actor)):
            assert checking.is_legal(action) == _full(enc, action), action
            asked += 1
        legal = Legal(enc, actor, probes=("end",))
        for verb in ("end", "take", "pass", "escape", "draw", "stand"):
            assert legal.plain(verb) == _full(enc, Action(actor, verb)), (actor, verb)
        assert bool(legal) == bool(accepted), actor
        # the policy's verbs listed together: those with no legal action are listed too
        together = Legal(enc, actor, DefaultPolicy.verbs_together, ("end",))
        together.verb("take")
        for verb in sorted(DefaultPolicy.verbs_together):
            assert together.verb(verb) == [a for a in accepted if a.verb == verb], verb
        for action in candidates:  # listed: those of the verbs together only
            wanted_listed = action.verb in together.together and action in accepted
            assert together.listed(action) == wanted_listed, action
        assert bool(together) == bool(accepted), actor
        for action in candidates:  # the others checked one by one
            assert (together.one(action) is not None) == _full(enc, action), action
        asked += 4
    return asked


@pytest.mark.rule("D-ACT-1")
@pytest.mark.rule("D-OA-1")
@pytest.mark.parametrize("name", ["charge", "grapple"])
def test_the_quick_answers_are_the_full_checks(name: str) -> None:
    asked = sum(_assert_same(enc) for seed in range(4) for enc in _positions(name, seed))
    assert asked > 1000


@pytest.mark.rule("D-DIE-1")
def test_a_die_step_roll_draws_what_the_generic_roll_draws() -> None:
    for sides in (2, 3, 6, 20, 60):
        for advantage in (-1, 0, 1):
            die = DieStep(sides, advantage)
            quick, plain = random.Random(sides), random.Random(sides)
            for _ in range(50):
                assert die.roll(quick) == Mechanic.roll(die, plain)
            assert quick.random() == plain.random()  # the same draws, no more


class _NoEnding(DieStepRules):
    """A house rule: a turn is never ended by its actor (refused by its own check)."""

    def check(self, state: DieStepState, action: Action) -> None:
        if action.verb == "end":
            raise IllegalAction("D-ACT-1", "no ending here")
        super().check(state, action)


@pytest.mark.rule("D-ACT-1")
def test_a_subclass_with_a_check_of_its_own_is_listed_by_it() -> None:
    _, setup, _ = encounterfile.load(EXAMPLES / "charge.yaml")
    plain = Encounter(_start("charge").ruleset, setup, RandomDice(0))
    house = Encounter(_NoEnding(), setup, RandomDice(0))
    for enc in (plain, house):
        while enc.to_move == GM:
            enc.push(next(iter(enc.legal_actions(GM))))
    actor = plain.to_move
    assert actor is not None and actor == house.to_move
    assert Action(actor, "end") in list(plain.legal_actions(actor))
    listed = list(house.legal_actions(actor))
    assert listed and Action(actor, "end") not in listed
    assert not Legal(house, actor, (), ("end",)).plain("end")
