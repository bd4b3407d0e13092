"""An event whose text is written when first read is, once read, the event written at
once: equal, copied, pickled, replaced and as JSON."""

from __future__ import annotations

import copy
import pickle
from dataclasses import replace

from fracas.engine import Encounter, Event, RandomDice
from fracas.table import encounterfile


def written_later(calls: list[int]) -> Event:
    def render() -> str:
        calls.append(1)
        return "ylva: C2P2, rolls [3, 7, 9]: highest 9 + 2 = 11"

    return Event.deferred("roll", render, {"who": "ylva", "result": 11}, frozenset({"north"}))


def test_a_deferred_text_is_written_once_when_read() -> None:
    calls: list[int] = []
    event = written_later(calls)
    assert calls == []
    now = Event(
        "roll",
        "ylva: C2P2, rolls [3, 7, 9]: highest 9 + 2 = 11",
        {"who": "ylva", "result": 11},
        frozenset({"north"}),
    )
    assert event == now and event.to_dict() == now.to_dict() and repr(event) == repr(now)
    assert event.text == now.text and calls == [1]


def test_a_deferred_event_copies_and_pickles_with_its_words() -> None:
    calls: list[int] = []
    event = written_later(calls)
    for other in (
        pickle.loads(pickle.dumps(written_later(calls))),
        copy.deepcopy(written_later(calls)),
        copy.copy(written_later(calls)),
        replace(written_later(calls), seen_by=frozenset({"north"})),
    ):
        assert other == event
        assert type(other.__dict__["text"]) is str
    assert event.for_side("south") is None and event.for_side("north") is event


def test_a_playouts_roll_events_read_as_a_recorded_encounters() -> None:
    ruleset, setup, _ = encounterfile.load("examples/heimr/duel.yaml")
    recorded = Encounter(ruleset, setup, RandomDice(4))
    playout = recorded.copy(stack=False, dice=RandomDice(4), playout=True)
    rolls = 0
    while not recorded.is_over() and rolls < 30:
        actor = recorded.to_move
        assert actor is not None
        action = next(
            a for a in recorded.legal_actions(actor) if a.verb in ("attack", "end", "begin")
        )
        later = playout.push(action)
        if any(e.kind == "roll" for e in later):  # not written until read
            assert any(type(e.__dict__["text"]) is not str for e in later)
        rolls += sum(e.kind == "roll" for e in later)
        assert [e.to_dict() for e in later] == [e.to_dict() for e in recorded.push(action)]
    assert rolls > 0
