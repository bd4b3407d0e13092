"""The quick paths of heimr-classic, diestep, sides and tempo give what the slow ones do:
the lazy observation is the observation, and the legal actions listed for some verbs
(or an actor) are those the protocol's plain listing gives, asked one at a time or of
one ``Ruleset.checking``, at every step of a walk through each example."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy
import pytest

from fracas.engine import Action, Encounter, RandomDice, Ruleset, capabilities, view
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = [
    "classic/broken-oar",
    "classic/ford",
    "diestep/charge",
    "diestep/grapple",
    "sides/ambush",
    "tempo/binds",
    "tempo/feint",
]


def materialized(value: Any) -> Any:
    """A lazy mapping (and all inside it) as plain dicts and lists."""
    if isinstance(value, Mapping):
        return {key: materialized(value[key]) for key in value}
    if isinstance(value, list):
        return [materialized(v) for v in value]
    return value


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_quick_paths_answer_as_the_plain_ones(name: str) -> None:
    walk(name, random.Random(3), steps=60)


@pytest.mark.parametrize("name", [n for n in EXAMPLES if n.startswith(("classic/", "diestep/"))])
def test_the_quick_paths_answer_as_the_plain_ones_in_a_fight_as_played(name: str) -> None:
    """The same along a fight as the default policies play it (turns whose AP are partly
    spent, posts half declared): random play seldom gets there."""
    walk(name, random.Random(5), steps=80, played=True)


def walk(name: str, rng: random.Random, steps: int, played: bool = False) -> None:
    ruleset, setup, _ = encounterfile.load(ROOT / "examples" / f"{name}.yaml")
    encounter = Encounter(ruleset, setup, RandomDice(3))
    sides = (None, *ruleset.sides(encounter.state))
    verbs = ruleset.verb_names(encounter.state)
    chooser = capabilities.policies(ruleset).named()["default"]()
    gm = capabilities.policies(ruleset).gm()
    choices = numpy.random.default_rng(5)
    for step in range(steps):
        state = encounter.state
        for side in sides:
            lazy = ruleset.observe_lazily(state, side)
            assert materialized(lazy) == ruleset.observe(state, side)
            for cid, seen in lazy["combatants"].items():  # field by field, as policies read
                assert seen.get("side") == ruleset.observe(state, side)["combatants"][cid]["side"]
        actor = encounter.to_move
        if actor is None or encounter.is_over():
            break
        # The plain listing: every candidate of the actor that the rules' check accepts.
        plain = [
            a
            for a in ruleset.candidates(state, actor)
            if a.actor == actor and Ruleset.is_legal(ruleset, state, a)
        ]
        assert list(Ruleset.legal(ruleset, state, actor)) == plain
        assert list(ruleset.legal(state, actor)) == plain
        for verb in verbs:
            wanted = [a for a in plain if a.verb == verb]
            assert list(ruleset.legal(state, actor, {verb})) == wanted
        pair = set(verbs[::3])
        assert list(ruleset.legal(state, actor, pair)) == [a for a in plain if a.verb in pair]
        some = [a for a in plain if len(str(a)) % 2 == 0]
        assert list(ruleset.legal_where(state, actor, None, lambda a: len(str(a)) % 2 == 0)) == some
        checks = ruleset.checking(state)  # one state's questions, asked of one object
        for verb in verbs[step % 2 :: 2]:
            assert list(checks.legal(actor, {verb})) == [a for a in plain if a.verb == verb]
        assert list(checks.legal(actor)) == plain
        assert [a for a in plain if checks.is_legal(a)] == plain
        if step % 3 == 0:  # single actions, as a policy asks them (anyone's, any verb)
            asked = [*ruleset.candidates(state, None)]
            asked += [
                Action(who, verb)
                for who in ("gm", *encounter.ruleset.combatant_ids(state))
                for verb in verbs
            ]
            for action in asked:
                assert ruleset.is_legal(state, action) == Ruleset.is_legal(
                    ruleset, state, action
                ), action
        if not plain:
            break
        if played:
            side = ruleset.observe(state, None)["combatants"].get(actor, {}).get("side")
            policy = chooser if side is not None or gm is None else gm
            action = policy.choose(view(encounter, side), plain, choices)
        else:
            action = rng.choice(plain)
        encounter.push(action)
