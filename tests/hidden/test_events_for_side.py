"""An event seen in full by some sides, in outline by the others (Event.for_side)."""

from __future__ import annotations

import json

from fracas.engine import Event

WOUND = Event(
    "damage",
    "Ylva Shieldbreaker loses 3 hit points (1 left)",
    {"who": "ylva", "amount": 3, "hp": 1},
    detail=frozenset({"shieldwall"}),
    outline="Ylva Shieldbreaker is wounded",
    outline_data={"who": "ylva"},
)


def test_the_game_master_and_the_sides_in_detail_see_the_event_itself() -> None:
    assert WOUND.for_side(None) is WOUND
    assert WOUND.for_side("shieldwall") is WOUND


def test_another_side_reads_the_outline_and_its_data_only() -> None:
    seen = WOUND.for_side("raiders")
    assert seen == Event("damage", "Ylva Shieldbreaker is wounded", {"who": "ylva"})
    assert seen is not None and seen.detail is None and seen.outline is None


def test_without_an_outline_a_side_outside_the_detail_sees_nothing() -> None:
    private = Event("fatigue", "fatigue rises to 4", {"fatigue": 4}, detail=frozenset({"a"}))
    assert private.for_side("b") is None
    assert not private.visible_to("b")
    assert private.for_side("a") is private


def test_seen_by_still_decides_who_sees_the_event_at_all() -> None:
    e = Event(
        "hide",
        "Eirik hides",
        seen_by=frozenset({"a", "b"}),
        detail=frozenset({"a"}),
        outline="someone hides",
    )
    assert e.for_side("c") is None
    assert e.for_side("a") is e
    seen = e.for_side("b")
    assert seen is not None and seen.text == "someone hides"


def test_an_event_without_the_new_fields_keeps_its_dict_as_before() -> None:
    plain = Event("hit", "brannoc loses 2 hit points", {"damage": 2}, seen_by=frozenset({"x"}))
    assert set(plain.to_dict()) == {"kind", "text", "data", "seen_by"}
    assert plain.for_side("x") is plain


def test_detail_and_outline_round_trip_through_json() -> None:
    as_dict = WOUND.to_dict()
    assert as_dict["detail"] == ["shieldwall"]
    assert as_dict["outline"] == "Ylva Shieldbreaker is wounded"
    assert as_dict["outline_data"] == {"who": "ylva"}
    assert Event.from_dict(json.loads(json.dumps(as_dict))) == WOUND
