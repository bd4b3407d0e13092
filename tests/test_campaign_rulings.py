"""The disputed rulings a campaign may set the other way (docs/decisions.md, "Disputed
rulings"): each setting played."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Encounter, ScriptedDice
from fracas.rules import find

from classic_builders import encounter as classic_encounter
from classic_builders import play, sheet, texts
from heimr_builders import setup as heimr_setup
from heimr_builders import sheet as heimr_sheet


def armoured(**campaign: Any) -> Any:
    """Ylva (dodge 5, light and medium armour, Armourstacking: +3) against the orc's two
    attacks: initiative 1 and 20; attack d20 11 (17, a potential hit), her dodge 15 (18,
    dodged); attack 12 (18, a potential hit), and a second dodge 19 (22) if she may."""
    ylva = sheet("ylva", "north", armour=["light", "medium"], skills=["Armourstacking"])
    orc = sheet("orc", "orcs", npc=True, weapons={"Axe": "one-handed"}, main="Axe")
    return classic_encounter([ylva, orc], faces=[1, 20, 11, 15, 12, 19], **campaign)


@pytest.mark.rule("HC-DODGE-1", "HC-ACT-1")
@pytest.mark.parametrize("one_a_round", [True, False])
def test_one_dodge_a_round_or_every_potential_hit(one_a_round: bool) -> None:
    enc = armoured(**({} if one_a_round else {"one_dodge_a_round": False}))
    play(enc, "gm open", "ylva done", "orc attack ylva", "orc attack ylva", "orc done")
    play(enc, "gm close")
    out = texts(enc)
    assert len([t for t in out if t.startswith("Ylva's dodge")]) == (1 if one_a_round else 2)
    assert ("Ylva has dodged once this round already: a hit" in out) is one_a_round
    assert enc.state.combatants["ylva"].hp == (3 if one_a_round else 5)


@pytest.mark.rule("H-FAT-1", "H-FAT-2", "H-INIT-1")
@pytest.mark.parametrize("physical", [False, True])
def test_initiative_raises_fatigue_only_where_the_campaign_says(physical: bool) -> None:
    # Ylva (dex 1, fatigue 5) rolls initiative [2, 9]: a d6 of 2, below her fatigue.
    people = [heimr_sheet("ylva", "n", dex=1), heimr_sheet("hrolf", "s")]
    data = heimr_setup(people, place={"ylva": {"fatigue": 5}})
    if physical:
        data["campaign"]["tables"] = {"fatigue": {"initiative": True}}
    enc = Encounter(find("heimr"), data, ScriptedDice([2, 9, 1] + [3] * 30))
    enc.push("gm begin")
    assert enc.state.combatants["ylva"].fatigue == (6 if physical else 5)
    # Hrolf (sta 0: base fatigue 4) rolls a d6 of 1, below his fatigue too.
    assert enc.state.combatants["hrolf"].fatigue == (5 if physical else 4)
