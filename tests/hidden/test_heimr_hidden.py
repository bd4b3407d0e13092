"""Heimr: the sides unaware of a hidden character see nothing of it, and cannot name it
in what they do (H-POS-4, H-GUARD-4). Built as in tests/heimr/test_hiding.py: Ylva
(north, B2) acts first and hides in the shrubbery; the others follow in setup order."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fracas.engine import view
from fracas.engine.views import offered

from battlefield_builders import State, begun, person, refused

SHRUBS = {"squares": {sq: {"concealment": ["Shrubbery"]} for sq in ("B2", "B3")}}


def hidden_ylva(*others: dict[str, Any], **squares: str) -> State:
    """Ylva hides: Survival C0P3, [4] -> CR 7; the others stand in C2 unless told."""
    people = [person("ylva", "north", hp=10), *others]
    where = {p["name"]: "C2" for p in others} | squares
    enc = begun(people, [6, 4, 3, 2][: len(people)], squares=where, battlefield=SHRUBS)
    enc.dice.add([4])
    enc.push("ylva hide")
    return enc


def latest(enc: State, side: str) -> str:
    return json.dumps(view(enc, side)["log"][-1])


@pytest.mark.rule("H-POS-4")
def test_a_hidden_character_ends_its_turn_unseen_by_those_unaware_of_it() -> None:
    enc = hidden_ylva(person("hrolf", "south", hp=10))
    enc.push("ylva end")
    assert "ylva ends the turn" in latest(enc, "north")
    assert "ylva" not in latest(enc, "south")
    assert "ylva" not in json.dumps(view(enc, "south")["state"])


@pytest.mark.rule("H-POS-4")
def test_an_ally_guarding_a_hidden_character_does_not_give_it_away() -> None:
    enc = hidden_ylva(person("astrid", "north", hp=10), person("hrolf", "south", hp=10))
    enc.push("ylva end")
    enc.push("astrid guard ylva")
    assert "astrid guards ylva" in latest(enc, "north")
    assert "ylva" not in latest(enc, "south")


@pytest.mark.rule("H-POS-4", "H-INIT-3")
def test_one_cannot_delay_after_someone_one_does_not_know_is_there() -> None:
    enc = hidden_ylva(person("hrolf", "south", hp=10))
    enc.push("ylva end")
    assert enc.to_move == "hrolf"
    assert refused(enc, "hrolf delay after=ylva") == "H-INIT-3"
    assert not [a for a in offered(enc, "south") if "ylva" in str(a)]


@pytest.mark.rule("H-GUARD-4")
def test_a_guard_cannot_stop_one_hidden_from_it_so_there_is_no_outmanoeuvring_it() -> None:
    enc = hidden_ylva(person("hrolf", "south", hp=10), hrolf="B2")
    enc.push("ylva end")
    enc.push("hrolf guard B2")
    enc.push("hrolf end")
    assert enc.to_move == "ylva"
    assert refused(enc, "ylva outmanoeuvre hrolf") == "H-GUARD-4"
