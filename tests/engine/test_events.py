"""Events: to and from plain dicts (the save file's form), and who may see them."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle

import pytest

from fracas.engine import Event


def test_an_event_round_trips_through_a_dict_and_json() -> None:
    e = Event("hit", "brannoc loses 2 hit points", {"target": "brannoc", "damage": 2})
    as_dict = e.to_dict()
    assert as_dict == {
        "kind": "hit",
        "text": "brannoc loses 2 hit points",
        "data": {"target": "brannoc", "damage": 2},
    }
    assert Event.from_dict(as_dict) == e
    assert Event.from_dict(json.loads(json.dumps(as_dict))) == e


def test_a_hidden_event_keeps_its_sides_sorted_in_the_dict() -> None:
    e = Event("roll", "ylva observes B2", {"faces": [3, 7]}, seen_by=frozenset({"west", "north"}))
    assert e.to_dict()["seen_by"] == ["north", "west"]
    assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e


def test_an_event_without_data_reads_back_with_empty_data() -> None:
    assert Event.from_dict({"kind": "order", "text": "ylva, brannoc"}) == Event(
        "order", "ylva, brannoc"
    )


def test_the_game_master_sees_every_event_and_a_side_only_its_own_hidden_ones() -> None:
    public = Event("move", "ylva moves to B3")
    hidden = Event("ready", "ylva readies an action", seen_by=frozenset({"north"}))
    assert public.visible_to(None)
    assert public.visible_to("south")
    assert hidden.visible_to(None)
    assert hidden.visible_to("north")
    assert not hidden.visible_to("south")


def test_an_event_seen_by_nobody_is_the_game_masters_alone() -> None:
    secret = Event("plot", "the bridge is rigged", seen_by=frozenset())
    assert secret.visible_to(None)
    assert not secret.visible_to("north")
    assert Event.from_dict(secret.to_dict()) == secret


def test_an_event_reads_its_unset_fields_as_defaults_and_copies_them_in_full() -> None:
    e = Event("move", "ylva moves to B3", {"who": "ylva"})
    assert (e.seen_by, e.detail, e.outline, dict(e.outline_data)) == (None, None, None, {})
    assert e == Event("move", "ylva moves to B3", {"who": "ylva"}, None, None, None, {})
    for again in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e), copy.copy(e)):
        assert again == e and again.to_dict() == e.to_dict()
        assert again.__getstate__() == {**e.__getstate__(), "outline_data": {}}
    assert dataclasses.replace(e, text="ylva runs").to_dict()["text"] == "ylva runs"
    with pytest.raises(TypeError):  # the shared empty outline data cannot be changed
        e.outline_data["who"] = "brannoc"  # type: ignore[index]
    assert dict(Event("end", "x").outline_data) == {}
