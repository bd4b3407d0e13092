"""The ruleset registry: rulesets are found by id; an unknown id names the known ones."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import pytest

from fracas import rules
from fracas.engine import Action, DiceSource, EngineError, Event, Ruleset


def test_find_returns_the_heimr_ruleset_by_its_id() -> None:
    heimr = rules.find("heimr")
    assert isinstance(heimr, Ruleset)
    assert heimr.id == "heimr"
    assert heimr.name == "Heimr Tabletop RPG Core"
    assert "heimr" in rules.ids()


def test_an_unknown_ruleset_id_is_refused_with_the_known_ids() -> None:
    with pytest.raises(EngineError) as err:
        rules.find("dnd5e")
    assert str(err.value) == f"unknown ruleset 'dnd5e': known are {', '.join(rules.ids())}"
    assert "heimr" in str(err.value)


class _Nothing:
    """The state of a ruleset in which nothing ever happens."""

    def clone(self) -> _Nothing:
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Nothing)

    __hash__ = object.__hash__


class QuietRules(Ruleset[_Nothing]):
    id: ClassVar[str] = "quiet"
    name: ClassVar[str] = "Nothing happens"

    def start(self, setup: Mapping[str, Any]) -> _Nothing:
        return _Nothing()

    def candidates(self, state: _Nothing, actor: str | None) -> Iterator[Action]:
        return iter(())

    def check(self, state: _Nothing, action: Action) -> None:
        return None

    def apply(self, state: _Nothing, action: Action, dice: DiceSource) -> list[Event]:
        return []

    def to_move(self, state: _Nothing) -> str | None:
        return None

    def observe(self, state: _Nothing, side: str | None) -> dict[str, Any]:
        return {}


def test_a_registered_ruleset_is_found_by_its_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "_REGISTRY", dict(rules._REGISTRY))
    assert rules.register(QuietRules) is QuietRules
    assert isinstance(rules.find("quiet"), QuietRules)
    assert "quiet" in rules.ids()
    assert rules.ids() == sorted(rules.ids())
