"""Declared rounds: declarations resolved at once, with fallbacks for vanished targets."""

from __future__ import annotations

import pytest

from fracas.engine import Action, IllegalAction, ScriptedDice
from fracas.engine.declared import Declaration, DeclaredRound, choose, in_order
from fracas.engine.events import Event

A = Action.parse


def test_a_present_target_is_attacked_as_declared() -> None:
    events: list[Event] = []
    d = Declaration(A("ylva attack orc1"), (A("ylva attack orc2"),))
    assert choose(d, lambda t: True, lambda a: [], ScriptedDice(), events) == A("ylva attack orc1")
    assert events == []


def test_a_vanished_target_falls_back_to_the_first_alternative_still_there() -> None:
    events: list[Event] = []
    gone = {"orc1", "orc2"}
    d = Declaration(A("ylva attack orc1"), (A("ylva attack orc2"), A("ylva attack orc3")))
    chosen = choose(d, lambda t: t not in gone, lambda a: ["orc4"], ScriptedDice(), events)
    assert chosen == A("ylva attack orc3")
    assert "alternative" in events[0].text


def test_without_alternatives_a_random_other_target_is_rolled() -> None:
    events: list[Event] = []
    dice = ScriptedDice([2])  # a d3 over [orc2, orc3, orc4] picks the second
    d = Declaration(A("ylva attack orc1 part=torso"))
    chosen = choose(d, lambda t: t != "orc1", lambda a: ["orc2", "orc3", "orc4"], dice, events)
    assert chosen == A("ylva attack orc3 part=torso")
    assert dice.drawn[0].notation == "d3"
    assert "at random" in events[0].text


def test_with_nobody_left_the_action_comes_to_nothing() -> None:
    events: list[Event] = []
    d = Declaration(A("ylva attack orc1"))
    assert choose(d, lambda t: False, lambda a: ["orc2"], ScriptedDice(), events) is None
    assert "comes to nothing" in events[0].text


def test_declarations_resolve_in_the_given_order_and_a_closed_round_refuses_more() -> None:
    r = DeclaredRound()
    for text in ["b attack x", "a attack y", "c attack z", "a move out"]:
        r.declare(Declaration(A(text)))
    assert [str(d.action) for d in in_order(r, ["c", "a", "b"])] == [
        "c attack z",
        "a attack y",
        "a move out",
        "b attack x",
    ]
    assert r.retract("a") == 2 and r.actors() == ["b", "c"]
    copy = r.clone()
    r.open = False
    with pytest.raises(IllegalAction, match="closed"):
        r.declare(Declaration(A("b attack x")))
    copy.declare(Declaration(A("b attack x")))  # the clone is independent
