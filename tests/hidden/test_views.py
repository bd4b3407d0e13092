"""What a side is shown: only the sides that exist, no combatant it cannot see, no
declaration or feint of another side before it is carried out, and the actions it may
be offered now."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.hidden.secrets import leaks, secrets

from fracas.engine import Encounter, RandomDice, view
from fracas.engine.views import offered
from fracas.table import encounterfile
from fracas.table.scripts import Script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str, *lines: str) -> Encounter[Any]:
    """The example ``name`` (``heimr/ambush``) with its script's seed, after ``lines``."""
    script = EXAMPLES / f"{name}.script"
    ruleset, setup, _ = encounterfile.load(script.with_suffix(".yaml"))
    enc = Encounter(ruleset, setup, RandomDice(Script.read(script).seed))
    for line in lines:
        enc.push(line)
    return enc


def shown(enc: Encounter[Any], side: str | None) -> str:
    return json.dumps(view(enc, side), ensure_ascii=False)


def test_a_side_that_does_not_exist_is_refused_with_the_sides_there_are() -> None:
    enc = example("heimr/ambush")
    message = "no side called 'raider': the sides are raiders, shieldwall"
    with pytest.raises(ValueError) as err:
        view(enc, "raider")
    assert str(err.value) == message
    with pytest.raises(ValueError, match="no side called 'raider'"):
        offered(enc, "raider")
    assert enc.ruleset.sides(enc.state) == ["shieldwall", "raiders"]


@pytest.mark.rule("H-POS-4")
def test_the_sides_unaware_of_a_hidden_character_are_not_told_whose_turn_it_is() -> None:
    enc = example("heimr/ambush", "gm begin", "eirik hide")
    raiders = view(enc, "raiders")
    assert raiders["to_move"] is None  # someone acts: the raiders only wait
    assert raiders["state"]["current"] is None
    assert "eirik" not in raiders["state"]["order"]
    assert "eirik" not in raiders["state"]["combatants"]
    assert "eirik" not in raiders["state"]["initiative"]
    # The log before he hid names him; nothing since, nor the state.
    assert '"eirik"' not in json.dumps(raiders["state"])
    assert raiders["log"][-1] == []
    assert offered(enc, "raiders") == []
    # His own side and the game master see him, and his actions are offered to them.
    assert view(enc, "shieldwall")["to_move"] == view(enc)["to_move"] == "eirik"
    assert offered(enc, "shieldwall") == offered(enc) == list(enc.legal_actions("eirik"))
    assert any(str(a) == "eirik end" for a in offered(enc, "shieldwall"))


@pytest.mark.rule("H-POS-4")
def test_what_a_hidden_character_does_unseen_stays_unseen_until_it_is_found() -> None:
    enc = example("heimr/ambush", "gm begin", "eirik hide")
    for line in ("eirik end", "ulf end", "ylva end", "gunnar end", "hrolf end", "astrid end"):
        enc.push(line)
        told = secrets(enc, "raiders")
        assert "Eirik Longshot" in told.now
        latest = json.dumps(view(enc, "raiders")["log"][-1], ensure_ascii=False)
        assert not [s for s in told.now | told.never if leaks(s, latest)], line
    # The next round begins with his turn: the game master sees it, the raiders wait.
    assert enc.to_move == "eirik"
    assert view(enc, "raiders")["to_move"] is None
    assert "round 2: Eirik Longshot's turn" in shown(enc, None)
    assert "round 2: Eirik Longshot's turn" not in shown(enc, "raiders")


def test_another_sides_hit_points_lost_read_as_a_wound() -> None:
    enc = example("heimr/ambush")
    script = EXAMPLES / "heimr/ambush.script"
    for _, line in Script.read(script).lines:
        enc.push(line)
    sides = {cid: c.side for cid, c in enc.state.combatants.items()}
    for n, entry in enumerate(enc.log):
        for event in entry.events:
            if event.kind != "damage" or sides[event.data["who"]] != "shieldwall":
                continue
            theirs = view(enc, "raiders")["log"][n]
            ours = view(enc, "shieldwall")["log"][n]
            assert event.text in json.dumps(ours)
            assert event.text not in json.dumps(theirs)
            assert "hp" not in json.dumps([e["data"] for e in theirs])
            name = enc.state.combatants[event.data["who"]].name
            assert any(e["text"].startswith(f"{name} is wounded") for e in theirs)
            return
    pytest.fail("the ambush wounds no one of the shieldwall")


@pytest.mark.rule("HC-ROUND-1")
def test_declarations_are_their_own_sides_until_the_round_closes() -> None:
    enc = example("classic/ford", "gm open", "ylva attack wolf else=brannoc", "ylva done")
    raiders, north = view(enc, "raiders"), view(enc, "north")
    assert raiders["state"]["declared"] == {}
    assert north["state"]["declared"] == {"ylva": ["ylva attack wolf"]}
    assert "attack wolf" not in json.dumps(raiders)
    assert [e["text"] for e in raiders["log"][-1]] == ["Ylva Shieldbreaker posts"]
    assert raiders["state"]["posted"] == ["ylva"]  # that she posted is public
    assert "Ylva Shieldbreaker posts: attack wolf" in json.dumps(north)


@pytest.mark.rule("T-ACT-1")
def test_a_feint_is_nowhere_in_what_the_opponent_is_shown_until_it_is_revealed() -> None:
    enc = example("tempo/feint")
    for line in ("sigrun feint hakon", "hakon parry"):
        enc.push(line)
        south = shown(enc, "south") + json.dumps([str(a) for a in offered(enc, "south")])
        assert "feint" not in south.lower(), line
        assert "Feint" in shown(enc, "north")
        assert "Feint" in shown(enc, None)
    assert [str(a) for a in offered(enc, "north")] == ["sigrun counter-attack", "sigrun pass"]
    assert offered(enc, "south") == []
    enc.push("sigrun counter-attack")
    assert "Sigrun the Quick's Melee Attack was a Feint" in shown(enc, "south")


def test_the_melee_declarations_of_the_other_side_are_not_shown() -> None:
    enc = example("sides/ambush", "gm surprise", "gm begin", "gob charge darna", "gob done")
    enc.push("snik shoot ana")
    enc.push("snik done")
    enc.push("gob attack darna")
    assert "gob attack darna" not in shown(enc, "party")
    assert "Gob declares" not in shown(enc, "party")
    assert "Gob declares" in shown(enc, "goblins")


def test_the_turns_ap_are_shown_to_the_side_whose_turn_it_is() -> None:
    enc = example("diestep/charge")
    script = EXAMPLES / "diestep/charge.script"
    for _, line in Script.read(script).lines:
        enc.push(line)
        current = enc.state.current
        if enc.state.turn is None or current is None:
            continue
        mine = enc.state.combatants[current].side
        for side in enc.ruleset.sides(enc.state):
            ap = view(enc, side)["state"]["ap"]
            assert (ap is not None) == (side == mine)
        return
    pytest.fail("the charge has no turn")


def test_a_save_from_before_events_were_outlined_loads_and_hides_as_now() -> None:
    enc = example("heimr/ambush")
    for _, line in Script.read(EXAMPLES / "heimr/ambush.script").lines:
        enc.push(line)
    data = json.loads(enc.dumps())
    data["_v"] = 1  # saves of that time had no digests
    del data["digests"]
    for entry in data["log"]:
        for event in entry["events"]:
            for key in ("detail", "outline", "outline_data", "seen_by"):
                event.pop(key, None)
    loaded = Encounter.load(data, enc.ruleset)
    for side in (None, "raiders", "shieldwall"):
        assert view(loaded, side) == view(enc, side)


def test_a_side_is_offered_what_its_other_combatants_may_do_now_as_well() -> None:
    # Play by post: every fighter of a side may post while another is waited for.
    enc = example("classic/ford", "gm open")
    assert enc.to_move == "ylva"
    north = offered(enc, "north")
    assert north[: len(list(enc.legal_actions("ylva")))] == list(enc.legal_actions("ylva"))
    assert {a.actor for a in north} == {"ylva", "asa"}
    assert offered(enc, "raiders") == list(enc.legal_actions("brannoc"))
    gm = offered(enc)  # the game master: the one waited for first, then everyone
    assert gm[: len(list(enc.legal_actions("ylva")))] == list(enc.legal_actions("ylva"))
    assert {"ylva", "asa", "brannoc"} <= {a.actor for a in gm}
    # A side whose combatants may do nothing now is offered nothing.
    enc = example("tempo/feint", "sigrun feint hakon")
    assert offered(enc, "north") == []
