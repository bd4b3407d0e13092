"""Outside combat: a free graph of named locations (H-GRID-2)."""

from __future__ import annotations

import pytest

from fracas.engine import EngineError, IllegalAction

from heimr_builders import encounter, sheet

VILLAGE = {
    "locations": {
        "the inn": ["the square"],
        "the square": ["the smithy", "the gate", "the well"],
        "the smithy": [],
        "the gate": [],
        "the well": [],
    },
    "borders": [{"between": ["the square", "the gate"], "preset": "Regular gate"}],
}


@pytest.mark.rule("H-GRID-2")
def test_outside_combat_a_location_borders_any_number_of_others() -> None:
    people = [sheet("ylva", "north", sta=3), sheet("brannoc", "south", sta=3)]
    enc = encounter(
        people,
        faces=[6, 1],
        battlefield=VILLAGE,
        squares={"ylva": "the inn", "brannoc": "the well"},
        stances={"ylva": "none", "brannoc": "none"},
    )
    field = enc.state.battlefield
    # The square borders four locations: more than a combat square's four sides allow.
    assert field.neighbours("the square") == ["the gate", "the inn", "the smithy", "the well"]
    assert field.neighbours("the smithy") == ["the square"]  # borders go both ways
    assert field.distance("the inn", "the well") == 2
    enc.push("gm begin")
    enc.push("ylva move 'The Square'")  # names are matched without regard to case
    assert enc.state.combatants["ylva"].square == "the square"
    enc.push("ylva end")
    enc.push("brannoc end")
    with pytest.raises(IllegalAction) as err:  # the gate is shut: break it first
        enc.push("ylva move 'the gate'")
    assert err.value.rule == "H-GRID-3"
    enc.push("ylva move 'the smithy'")
    assert enc.state.combatants["ylva"].square == "the smithy"


def test_a_location_map_names_what_is_wrong() -> None:
    people = [sheet("ylva", "north")]
    with pytest.raises(EngineError, match="unknown location 'the mill'"):
        encounter(
            people,
            battlefield={"locations": {"the inn": ["the mill"]}},
            squares={"ylva": "the inn"},
        )
    with pytest.raises(EngineError, match="ylva stands in B2, off the map of locations"):
        encounter(people, battlefield={"locations": {"the inn": []}})
