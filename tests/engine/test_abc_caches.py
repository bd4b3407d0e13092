"""The engine's Mapping and Sequence classes are told apart by their type, never by
``isinstance``: compiled, mypyc's native subclass of an ABC answers ``isinstance`` from
its ABC's cache (once ``isinstance([], Sequence)`` is asked, ``isinstance([], Legal)`` is
true). So the helpers that take a list or a :class:`Legal` ask ``type(legal) is Legal``
(``Legal`` is final), and no code asks ``isinstance`` of these classes. Pure and compiled
alike, a plain list is never taken for a ``Legal``, and a ``Legal`` takes its own path."""

from __future__ import annotations

import ast
import types
from collections.abc import Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path

import pytest

from fracas.engine import Action, Encounter, RandomDice
from fracas.engine.legal import Legal, action_of, actor_of, first_of, one_of, verb_of, verb_where
from fracas.engine.ruleset import Parts
from fracas.engine.views import SideView, _SideState
from fracas.lab.playout import LazyView, SideLog
from fracas.rules.diestep.policies import DefaultPolicy, _lister
from fracas.rules.heimr.observing import SeenCombatant, SeenCombatants
from fracas.rules.heimr.ruleset import LazyFieldView
from fracas.table import encounterfile

ROOT = Path(__file__).resolve().parents[2]
#: The classes compiled as native subclasses of ``Mapping`` or ``Sequence``.
NATIVE_ABCS = (
    Legal,
    SideView,
    _SideState,
    SeenCombatant,
    SeenCombatants,
    SideLog,
    Parts,
    LazyView,
    LazyFieldView,
)


@pytest.fixture
def primed() -> Iterator[None]:
    """Every ABC cache the plain values could meet, filled as any program fills it."""
    for value in ([], (), {}, "", range(1), types.MappingProxyType({})):
        isinstance(value, Sequence), isinstance(value, Mapping)
    yield


def test_a_plain_list_is_never_taken_for_a_legal(primed: None) -> None:
    end, move = Action.parse("ylva end"), Action.parse("ylva move C2")
    for legal in ([end, move], (end, move)):
        assert verb_of(legal, "end") == [end]
        assert first_of(legal, "move") is move and first_of(legal, "run") is None
        assert verb_where(legal, "move", lambda a: a.target == "C2") == [move]
        assert actor_of(legal) == "ylva"
        assert one_of(legal, end) is end and one_of(legal, action_of("ylva", "fly")) is None
        listed = _lister(legal)
        assert isinstance(listed, partial) and listed("move") == [move]
        assert not DefaultPolicy._answering(legal, "ylva", listed)  # end is legal
    take = [Action.parse("ylva take"), Action.parse("ylva pass")]
    assert DefaultPolicy._answering(take, "ylva", _lister(take))


def test_a_legal_takes_its_own_path(primed: None) -> None:
    ruleset, setup, _ = encounterfile.load(ROOT / "examples/heimr/duel.yaml")
    encounter = Encounter(ruleset, setup, RandomDice(1), record=False)
    encounter.push(Action.parse("gm begin"))
    actor = encounter.to_move
    assert actor is not None
    legal = Legal(encounter, actor, probes=("end",))
    end = Action(actor, "end")
    assert _lister(legal) == legal.verb  # the Legal's own, not a partial over a list
    assert actor_of(legal) == actor and one_of(legal, end) == end
    assert verb_of(legal, "end") == [end] and first_of(legal, "end") == end
    assert verb_where(legal, "end", lambda a: True) == [end]
    assert not DefaultPolicy._answering(legal, actor, legal.verb)


def _asked_of(node: ast.AST) -> Iterator[str]:
    """The class names ``node`` (an isinstance/issubclass argument, a match pattern) names."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name):
            yield inner.id
        elif isinstance(inner, ast.Attribute):
            yield inner.attr


def test_no_code_asks_isinstance_of_a_native_abc_subclass() -> None:
    assert all(issubclass(cls, Mapping | Sequence) for cls in NATIVE_ABCS)
    names = {cls.__name__ for cls in NATIVE_ABCS}
    asked = []
    for folder in ("src", "tests", "examples", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            if not any(name in text for name in names):
                continue
            for node in ast.walk(ast.parse(text)):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in ("isinstance", "issubclass")
                    and len(node.args) == 2
                ):
                    found = names & set(_asked_of(node.args[1]))
                elif isinstance(node, ast.MatchClass):
                    found = names & set(_asked_of(node.cls))
                else:
                    continue
                asked += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in found]
    assert asked == []
