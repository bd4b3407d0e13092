"""The quick paths of heimr-classic, diestep, sides and tempo give what the slow ones do:
the lazy observation is the observation, and the legal actions listed for some verbs
(or an actor) are those the protocol's plain listing gives, at every step of a walk
through each example."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from fracas.engine import Encounter, RandomDice, Ruleset
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
    ruleset, setup, _ = encounterfile.load(ROOT / "examples" / f"{name}.yaml")
    encounter = Encounter(ruleset, setup, RandomDice(3))
    rng = random.Random(3)
    sides = (None, *ruleset.sides(encounter.state))
    verbs = ruleset.verb_names(encounter.state)
    for _ in range(60):
        state = encounter.state
        for side in sides:
            lazy = ruleset.observe_lazily(state, side)
            assert materialized(lazy) == ruleset.observe(state, side)
            for cid, seen in lazy["combatants"].items():  # field by field, as policies read
                assert seen.get("side") == ruleset.observe(state, side)["combatants"][cid]["side"]
        actor = encounter.to_move
        if actor is None or encounter.is_over():
            break
        plain = list(Ruleset.legal(ruleset, state, actor))
        assert list(ruleset.legal(state, actor)) == plain
        for verb in verbs:
            wanted = [a for a in plain if a.verb == verb]
            assert list(ruleset.legal(state, actor, {verb})) == wanted
        pair = set(verbs[::3])
        assert list(ruleset.legal(state, actor, pair)) == [a for a in plain if a.verb in pair]
        if not plain:
            break
        encounter.push(rng.choice(plain))
