"""The engine's Mapping and Sequence classes, compiled or not, answer ``isinstance`` on
their own (fracas.engine.abcs): a plain list is never taken for a :class:`Legal` (the
helpers that take either ask ``type(legal) is Legal``, ``Legal`` being final), a
``Legal`` takes its own path, and asking of them leaves the ABCs' answers right."""

from __future__ import annotations

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


class _Registered:
    """Neither a Mapping nor a Sequence by its classes: one only by registration."""


Sequence.register(_Registered)


def test_each_native_abc_subclass_answers_isinstance_on_its_own(primed: None) -> None:
    """Compiled, a native subclass of an ABC shared its ABC's isinstance cache: asked of
    it, a list was not a Sequence any more, and a class registered as a Sequence was a
    Legal (fracas.engine.abcs). Each answers for itself, and the ABCs stay right."""
    assert all(issubclass(cls, Mapping | Sequence) for cls in NATIVE_ABCS)
    for cls in NATIVE_ABCS:
        for value in ([], (), {}, "", range(1), types.MappingProxyType({}), _Registered()):
            assert not isinstance(value, cls), (cls, value)
        assert not issubclass(list, cls) and not issubclass(dict, cls)
    assert isinstance([], Sequence) and isinstance((), Sequence) and isinstance("", Sequence)
    assert isinstance({}, Mapping) and isinstance(types.MappingProxyType({}), Mapping)
    assert isinstance(_Registered(), Sequence) and not isinstance([], Mapping)
