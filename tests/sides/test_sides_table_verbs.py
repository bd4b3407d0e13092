"""The game master at a side-initiative table: newcomers join a side (S-ROUND-1), those
who leave, and notes."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import IllegalAction, view

from sides_builders import darna, encounter, orc, started, texts

GRAK = {k: v for k, v in orc(name="Grak").items() if k != "at"}
CAMPAIGN = {"characters": {"grak": GRAK}}


def refused(enc: Any, action: str) -> str:
    with pytest.raises(IllegalAction) as err:
        enc.push(action)
    return str(err.value)


@pytest.mark.rule("S-ROUND-1")
def test_a_newcomer_before_the_first_round_fights_with_its_side() -> None:
    enc = encounter(darna(), orc(), faces=[4, 1], campaign=CAMPAIGN)
    enc.push("gm add grak character=grak at=40")
    assert texts(enc) == ["Grak joins the fight for orcs at 40"]
    enc.push("gm begin")
    enc.push("party react")  # the orcs act: Grak among them
    assert enc.to_move == "orc"
    assert [c.id for c in enc.state.living("orcs")] == ["orc", "grak"]


@pytest.mark.rule("S-ROUND-1")
def test_a_newcomer_mid_round_acts_from_the_next_round() -> None:
    enc = started(darna(), orc(), campaign=CAMPAIGN)  # the party won and acts
    enc.push("gm add grak character=grak at=40")
    assert texts(enc) == ["Grak joins the fight for orcs at 40: it acts from the next round"]
    grak = enc.state.combatants["grak"]
    assert grak.doing.done and grak.doing.declared == "hold"


def test_a_newcomer_is_checked_like_a_combatant_of_the_encounter_file() -> None:
    enc = started(darna(), orc(), campaign=CAMPAIGN)
    assert "did you mean 'grak'?" in refused(enc, "gm add bo character=grk")
    assert "did you mean 'orcs'?" in refused(enc, "gm add bo character=grak side=orks")
    assert "in the fight already" in refused(enc, "gm add orc character=grak")
    assert "in the fight already" in refused(enc, "gm add party character=grak")


def test_one_who_leaves_is_gone_and_may_end_the_fight() -> None:
    enc = started(darna(), orc(), campaign=CAMPAIGN)
    enc.push("gm remove orc")
    assert texts(enc) == ["Orc leaves the fight", "the encounter is over: party stands"]
    assert "orc" not in enc.state.combatants
    assert enc.is_over() and enc.ruleset.winner(enc.state) == "party"


def test_a_note_is_seen_by_everyone_or_by_the_side_it_is_for() -> None:
    enc = encounter(darna(), orc(), faces=[4, 1])
    enc.push("gm note text='Dust on the road.'")
    enc.push("gm note text='The orcs are hungry.' to=orcs")
    for side, expected in (("orcs", 2), ("party", 1)):
        notes = [e for entry in view(enc, side)["log"] for e in entry if e["kind"] == "note"]
        assert len(notes) == expected
