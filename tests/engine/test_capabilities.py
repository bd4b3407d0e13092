"""A ruleset that offers no capability still plays everywhere: each floor asks and falls
back (no odds, random policies, nothing carried, no books, no battlefield, not by post)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import pytest

from fracas import rules
from fracas.engine import Action, DiceSource, Event, Ruleset, capabilities
from fracas.lab import policies as lab_policies
from fracas.lab.policies import baseline
from fracas.library.kinds import KINDS


class _Still:
    def clone(self) -> _Still:
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Still)

    __hash__ = object.__hash__


class BareRules(Ruleset[_Still]):
    """The protocol and nothing else."""

    id: ClassVar[str] = "bare"
    name: ClassVar[str] = "Bare"

    def start(self, setup: Mapping[str, Any]) -> _Still:
        return _Still()

    def candidates(self, state: _Still, actor: str | None) -> Iterator[Action]:
        return iter(())

    def check(self, state: _Still, action: Action) -> None:
        return None

    def apply(self, state: _Still, action: Action, dice: DiceSource) -> list[Event]:
        return []

    def to_move(self, state: _Still) -> str | None:
        return None

    def observe(self, state: _Still, side: str | None) -> dict[str, Any]:
        return {"combatants": {"a": {"side": "north"}}}


@pytest.fixture
def bare(monkeypatch: pytest.MonkeyPatch) -> Ruleset[Any]:
    monkeypatch.setattr(rules, "_REGISTRY", dict(rules._REGISTRY))
    rules.register(BareRules)
    return rules.find("bare")


def test_every_capability_falls_back(bare: Ruleset[Any]) -> None:
    assert capabilities.odds(bare).attack_odds(None, Action.parse("a hit b")) is None  # type: ignore[arg-type]
    assert capabilities.policies(bare).named() == {}
    assert capabilities.policies(bare).gm() is None
    assert capabilities.carry(bare).fields == ()
    assert capabilities.sheets(bare) is None
    assert capabilities.battlefield(bare) is None
    assert capabilities.posts(bare) is None
    assert capabilities.commands(bare) is None
    assert capabilities.stats(bare).standing({"hp": 3})
    seen = bare.observe(_Still(), None)
    assert capabilities.rolls(bare).owner(seen, Action.parse("a hit b"), "a hits") == "north"
    assert capabilities.rolls(bare).owner(seen, Action.parse("a hit b"), "b dodges") is None
    with pytest.raises(Exception, match="unknown capability 'tea'"):
        capabilities.ask(bare, "tea")


def test_a_ruleset_without_policies_plays_the_default_at_random(bare: Ruleset[Any]) -> None:
    assert isinstance(lab_policies.policy("default", "bare"), baseline.RandomPolicy)
    assert isinstance(lab_policies.gm_policy("bare"), baseline.ProceedingGm)
    assert "bare" not in KINDS
