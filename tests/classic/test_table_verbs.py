"""The DM at a heimr-classic table: newcomers (HC-INIT-1), those who leave (HC-ROUND-2)
and notes. Statistics not given are 5; the DM closes the round, everyone in the fight
rolls initiative d20 + 5 in setup order, then the posts resolve."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from fracas.engine import Encounter, ScriptedDice, view
from fracas.rules import find

from classic_builders import State, play, refused, setup, sheet, texts

YLVA = sheet("ylva", "north", weapons={"Sword": "one-handed"}, main="Sword")
ORC = sheet("orc", "orcs", npc=True, weapons={"Axe": "one-handed"}, main="Axe")
GOBLIN = sheet("goblin", "orcs", npc=True)
ASA = sheet("asa", "north")


def fight(
    sheets: list[dict[str, Any]], bench: Iterable[str] = (), faces: Iterable[int] = ()
) -> State:
    """Everyone in the campaign; those on the ``bench`` are not placed in the fight."""
    data = setup(sheets)
    data["combatants"] = [p for p in data["combatants"] if p["character"] not in bench]
    return Encounter(find("heimr-classic"), data, ScriptedDice(faces))


@pytest.mark.rule("HC-INIT-1")
def test_a_newcomer_posts_this_round_and_rolls_initiative_at_its_close() -> None:
    # Asa joins in round 1 and posts; at the close Ylva rolls 3, the orc 2, Asa 20.
    enc = fight([YLVA, ORC, ASA], bench=["asa"], faces=[3, 2, 20])
    play(enc, "gm open", "gm add asa character=asa")
    assert "Asa joins the fight for north in the field" in texts(enc)
    play(enc, "ylva done", "orc done", "asa speak text='Here!'", "asa done", "gm close")
    assert enc.state.order == ["asa", "ylva", "orc"]


def test_a_newcomer_is_checked_like_a_combatant_of_the_encounter_file() -> None:
    enc = fight([YLVA, ORC])
    play(enc, "gm open")
    assert "did you mean 'ylva'?" in str(refused(enc, "gm add bo character=ylvva"))
    assert "in the fight already" in str(refused(enc, "gm add orc character=ylva"))
    assert "unknown position 'Moon'" in str(refused(enc, "gm add bo character=ylva position=Moon"))
    play(enc, "gm add bo character=ylva side=north")
    assert enc.state.combatants["bo"].name == "Ylva"


@pytest.mark.rule("HC-ROUND-2")
def test_a_post_aimed_at_one_who_left_turns_to_its_alternative() -> None:
    # Ylva posts an attack on the orc, else on the goblin; the DM removes the orc. At the
    # close Ylva rolls 10 and the goblin 1: her attack turns to the goblin.
    enc = fight([YLVA, ORC, GOBLIN], faces=[10, 1, 10, 1])
    play(enc, "gm open", "ylva attack orc else='attack goblin'", "ylva done", "orc done")
    play(enc, "gm remove orc")
    assert "Orc leaves the fight" in texts(enc)
    assert "orc" not in enc.state.combatants and enc.state.posted == ["ylva"]
    play(enc, "goblin done", "gm close")
    assert "Ylva attacks Goblin with Sword" in texts(enc)
    assert "no character called 'orc'" in str(refused(enc, "gm remove orc"))


def test_a_note_is_seen_by_everyone_or_by_the_side_it_is_for() -> None:
    enc = fight([YLVA, ORC])
    play(enc, "gm open", "gm note text='Rain falls.'", "gm note text='Help is near.' to=north")
    for side, expected in (("north", 2), ("orcs", 1)):
        notes = [e for entry in view(enc, side)["log"] for e in entry if e["kind"] == "note"]
        assert len(notes) == expected
