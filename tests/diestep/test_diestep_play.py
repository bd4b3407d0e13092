"""The die-step examples played to the end, saves that replay, and bad input refused
with a rule (never a crash)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.engine import Action, Encounter, EngineError, RandomDice, view
from fracas.rules import find
from fracas.table import encounterfile

from diestep_builders import fight, setup, sheet

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "diestep"
runner = CliRunner()


@pytest.mark.parametrize("name", ["grapple", "charge"])
def test_examples_play_to_the_end(name: str) -> None:
    result = runner.invoke(
        app, ["play", str(EXAMPLES / f"{name}.yaml"), "--script", str(EXAMPLES / f"{name}.script")]
    )
    assert result.exit_code == 0, result.output
    assert "The encounter is over" in result.output


def test_the_examples_show_their_rules() -> None:
    out = runner.invoke(
        app, ["play", str(EXAMPLES / "grapple.yaml"), "--script", str(EXAMPLES / "grapple.script")]
    ).output
    assert "goes unarmed at Rook's weapon: opportunity attacks from Rook" in out
    assert "has a full hold on Rook" in out and "Rook wakes with 1 HP" in out
    out = runner.invoke(
        app, ["play", str(EXAMPLES / "charge.yaml"), "--script", str(EXAMPLES / "charge.script")]
    ).output
    assert "Ashfoot and Dame Sela run to ford" in out
    assert "mounted one-handed attack: adv" in out


@pytest.mark.parametrize("name", ["grapple", "charge"])
def test_a_save_replays_to_the_same_state(name: str) -> None:
    ruleset, data, _ = encounterfile.load(EXAMPLES / f"{name}.yaml")
    enc = Encounter(ruleset, data, RandomDice(7))
    rng = random.Random(7)
    for _ in range(60):
        if enc.is_over():
            break
        options = list(enc.legal_actions(enc.to_move))
        enc.push(rng.choice(options))
    again = Encounter.load(enc.save(), ruleset)
    assert again.state == enc.state
    assert view(again, "bandits") == view(enc, "bandits")


@pytest.mark.parametrize("seed", range(12))
def test_random_legal_play_never_crashes_and_undoes_exactly(seed: int) -> None:
    """Every offered action is legal; pushing and popping returns the same state."""
    ruleset, data, _ = encounterfile.load(
        EXAMPLES / ("charge.yaml" if seed % 2 else "grapple.yaml")
    )
    enc = Encounter(ruleset, data, RandomDice(seed))
    rng = random.Random(seed)
    for _ in range(80):
        if enc.is_over():
            options = list(enc.legal_actions())
            if not options:
                break
        else:
            options = list(enc.legal_actions(enc.to_move))
        assert options, f"nothing legal for {enc.to_move}"
        before = enc.state.clone()
        choice = rng.choice(options)
        enc.push(choice)
        enc.pop()
        assert enc.state == before
        enc.push(choice)


def test_a_side_does_not_see_the_others_hit_points() -> None:
    enc = fight([sheet("ana", "heroes", ref=8), sheet("orc", "orcs", ref=2)], faces=[7, 2])
    seen = view(enc, "heroes")["state"]["combatants"]
    assert "hp" in seen["ana"] and "hp" not in seen["orc"]
    assert view(enc)["state"]["combatants"]["orc"]["hp"] == 6


BAD = [
    ("ana fly", "D-ACT-1", "unknown action 'fly'"),
    ("zed attack orc", "D-ACT-1", "no combatant called 'zed'"),
    ("ana attack", "D-ATK-1", "no combatant called None"),
    ("ana attack nobody", "D-ATK-1", "no combatant called 'nobody'"),
    ("ana attack ana", "D-ATK-1", "cannot attack itself"),
    ("ana move nowhere", "D-OA-1", "no region called 'nowhere'"),
    ("ana run there via=moon", "D-OA-1", "no region called 'moon'"),
    ("ana spell orc die=luck", "D-ATK-1", "die= is one of"),
    ("ana spell orc mp=lots", "D-WOUND-1", "should be a whole number"),
    ("ana spell orc ranged=maybe", "D-ATK-1", "yes or no"),
    ("gm damage orc", "D-DMG-1", "needs hp=N"),
    ("gm damage orc hp=-2", "D-DMG-1", "at least 1"),
    ("gm begin", "D-ACT-1", "already begun"),
    ("gm wait minutes=5", "D-WOUND-1", "after the encounter"),
    ("gm survival", "D-KO-1", "after the encounter"),
    ("ana begin", "D-ACT-1", "only the game master"),
    ("gm attack orc", "D-ACT-1", "the game master does not attack"),
    ("orc attack ana", "D-ACT-1", "it is Ana's turn"),
    ("ana take", "D-DEF-2", "none is open"),
    ("ana pass", "D-OA-1", "no action has provoked"),
    ("ana hold", "D-GRAB-1", "holds nobody"),
    ("ana escape", "D-ESCAPE-1", "not held"),
    ("ana dismount", "D-MOUNT-1", "not mounted"),
    ("ana mount orc", "D-MOUNT-1", "not a free mount"),
    ("ana stand", "D-PRONE-1", "already standing"),
    ("ana aid orc", "D-WOUND-1", "after the encounter"),
    ("ana heal orc", "D-HEAL-1", "needs hp=N"),
]


@pytest.mark.parametrize(("text", "rule", "message"), BAD)
def test_bad_input_is_refused_with_its_rule(text: str, rule: str, message: str) -> None:
    enc = fight(
        [sheet("ana", "heroes", ref=8, weapon="sword"), sheet("orc", "orcs", ref=2)], faces=[7, 2]
    )
    with pytest.raises(EngineError) as err:
        enc.push(Action.parse(text))
    assert f"({rule})" in str(err.value) and message in str(err.value)
    assert not enc.log[1:]  # nothing changed


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"combatants": []}, "combatants"),
        ({"combatants": [{"character": "nobody"}]}, "unknown character 'nobody'"),
        ({"combatants": [{"character": "ana", "region": "moon"}]}, "unknown region 'moon'"),
        ({"regions": {"here": {"borders": ["moon"]}}}, "unknown region 'moon'"),
        ({"campaign": {"tables": {"ap_per_turn": "three"}}}, "ap_per_turn"),
        (
            {"campaign": {"characters": {"ana": {"name": "A", "side": "s", "dice": {"att": 7}}}}},
            "d7 is not on the ladder",
        ),
        (
            {"campaign": {"characters": {"ana": {"name": "A", "side": "s", "weapon": "laser"}}}},
            "unknown weapon 'laser'",
        ),
        (
            {"combatants": [{"character": "ana", "region": "here", "mounted_on": "ana"}]},
            "cannot ride",
        ),
        (
            {"combatants": [{"character": "ana", "region": "here", "unaware_of": ["ghost"]}]},
            "unaware of 'ghost'",
        ),
    ],
)
def test_a_bad_setup_is_an_engine_error(change: dict[str, object], message: str) -> None:
    data = setup([sheet("ana", "heroes")])
    for key, value in change.items():
        if key == "campaign":
            data["campaign"].update(value)  # type: ignore[call-overload]
        else:
            data[key] = value
    with pytest.raises(EngineError, match=message):
        Encounter(find("diestep"), data)
