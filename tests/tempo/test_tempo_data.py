"""Open values as data (T-OPEN-1), bad input, saves, and the examples played to the end."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from fracas.cli import app
from fracas.engine import Action, Encounter, EngineError, IllegalAction, RandomDice
from fracas.rules import find

from tempo_builders import duel, encounter, pool, refused, setup, sheet, who

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "tempo"

# -- T-OPEN-1: weapons, defences, damage --------------------------------------------------


@pytest.mark.rule("T-OPEN-1")
def test_the_defaults_fill_what_the_seed_leaves_open() -> None:
    # A sheet naming nothing: 12 HP, Combat and Grapple Defence 0, no armour.
    enc = encounter([sheet("ylva", "north", weapons=["Dagger"]), sheet("astrid", "south")])
    astrid = who(enc, "astrid")
    assert (astrid.hp, astrid.combat_defence, astrid.grapple_defence, astrid.armour) == (
        12,
        0,
        0,
        "none",
    )
    # "By Weapon" costs the weapon's AP: a Dagger attack 2, an Arming sword parry 3.
    enc.push("ylva melee-attack astrid")
    enc.push("astrid parry")
    assert (who(enc, "ylva").ap, who(enc, "astrid").ap) == (10, 9)


@pytest.mark.rule("T-OPEN-1")
def test_a_campaign_overrides_costs_defences_and_damage() -> None:
    # The Arming sword costs 4, but parries with it 2; damage d4; Combat Defence 3.
    # Ylva attacks (4 AP: 8 left) Astrid, who parries (2 AP: 10 left), Ylva keeps it.
    # Attack pool 5 + 2 = 7, Parry pool 2 + 2 = 4: 7 - 4 = 3 reaches Combat Defence 3
    # (and Armoured 3): Critical Hit, d4 face 4 = 4 damage: 12 -> 8.
    campaign: dict[str, Any] = {
        "weapons": {"Arming sword": {"ap": 4, "costs": {"Parry": 2}, "damage": "d4"}},
        "defaults": {"combat_defence": 3},
    }
    enc = encounter(
        [sheet("ylva", "north", melee=2), sheet("astrid", "south", melee=2)],
        pool(5) + pool(2) + [4],
        campaign=campaign,
    )
    enc.push("ylva melee-attack astrid")
    enc.push("astrid parry")
    enc.push("ylva pass")
    assert (who(enc, "ylva").ap, who(enc, "astrid").ap, who(enc, "astrid").hp) == (8, 10, 8)


@pytest.mark.rule("T-OPEN-1")
def test_open_values_are_checked_when_they_load() -> None:
    # A feint must cost what a Melee Attack costs, or its AP would give it away.
    bad: dict[str, Any] = {"weapons": {"Dagger": {"costs": {"Feint": 3}}}}
    with pytest.raises(ValueError, match="Feint must cost what Melee Attack costs"):
        encounter([sheet("ylva", "north"), sheet("astrid", "south")], campaign=bad)
    with pytest.raises(ValueError, match="unknown weapon 'Sabre'"):
        encounter([sheet("ylva", "north", weapons=["Sabre"]), sheet("astrid", "south")])
    with pytest.raises(ValueError, match="not a damage roll"):
        encounter(
            [sheet("ylva", "north"), sheet("astrid", "south")],
            campaign={"unarmed": {"damage": "lots"}},
        )


def test_a_bad_setup_is_an_engine_error() -> None:
    rules = find("tempo")
    good = setup([sheet("ylva", "north"), sheet("astrid", "south")])
    for change, message in [
        ({"status": "Bound"}, "name its opponent"),
        ({"status": "Dazed"}, "unknown status"),
        ({"character": "nobody"}, "unknown character"),
        ({"colour": "red"}, "colour"),
    ]:
        spoiled = {
            **good,
            "combatants": [{**good["combatants"][0], **change}, good["combatants"][1]],
        }
        with pytest.raises(EngineError, match=message):
            rules.start(spoiled)


# -- bad input -------------------------------------------------------------------------------


def test_bad_input_is_refused_with_a_rule_and_a_reason() -> None:
    enc = duel()
    cases = {
        "ylva dance": "T-ACT-1",
        "bjorn move": "T-ROUND-1",
        "ylva move astrid": "T-ACT-1",
        "ylva melee-attack": "T-ACT-1",
        "ylva melee-attack ylva": "T-ACT-1",
        "ylva melee-attack astrid with=Poleaxe": "T-ACT-1",
        "ylva melee-attack astrid colour=red": "T-ACT-1",
        "ylva melee-attack astrid distance=3": "T-ACT-1",
        "ylva ranged-attack astrid": "T-ACT-1",  # no ranged weapon
        "ylva press astrid": "T-STAT-1",
        "ylva pass": "T-ROUND-2",
        "astrid parry": "T-ACT-2",
        "ylva ct-parry": "T-ACT-3",
    }
    for text, rule in cases.items():
        err = refused(enc, text)
        assert err.rule == rule, (text, str(err))
        assert str(err).endswith(f"({rule})")


ACTORS = ["ylva", "astrid", "gm", "nobody"]
TARGETS = [None, "ylva", "astrid", "nobody"]
OPTIONS = [
    (),
    (("with", "Dagger"),),
    (("with", "Short bow"),),
    (("distance", "9"),),
    (("distance", "x"),),
    (("colour", "red"),),
]


@given(
    st.integers(0, 10_000),
    st.lists(
        st.tuples(
            st.sampled_from(ACTORS),
            st.integers(0, 40),
            st.sampled_from(TARGETS),
            st.sampled_from(OPTIONS),
        ),
        max_size=40,
    ),
)
def test_any_action_is_applied_or_refused_as_illegal(seed: int, moves: list[Any]) -> None:
    # Random actions (half of them from the legal list): each either applies or is an
    # IllegalAction; nothing else escapes, and whoever is waited for can always act.
    enc = Encounter(
        find("tempo"),
        setup(
            [
                sheet("ylva", "north", weapons=["Arming sword", "Short bow"], hp=40),
                sheet("astrid", "south", weapons=["Dagger"], hp=40),
            ]
        ),
        RandomDice(seed),
    )
    verbs = [*enc.state.tables.verbs, "pass"]
    rng = random.Random(seed)
    for actor, v, target, options in moves:
        legal = list(enc.legal_actions(enc.to_move)) if enc.to_move else []
        assert enc.is_over() or legal
        if legal and rng.random() < 0.5:
            enc.push(rng.choice(legal))
            continue
        with contextlib.suppress(IllegalAction):
            enc.push(Action(actor, verbs[v % len(verbs)], target, options))


def test_a_game_saves_and_replays_to_the_same_state() -> None:
    enc = Encounter(
        find("tempo"), setup([sheet("ylva", "north"), sheet("astrid", "south")]), RandomDice(5)
    )
    rng = random.Random(5)
    for _ in range(30):
        if enc.is_over():
            break
        enc.push(rng.choice(list(enc.legal_actions(enc.to_move))))
    again = Encounter.load(enc.save(), find("tempo"))
    assert again.state == enc.state
    while enc.log:
        enc.pop()
    assert enc.state == Encounter(enc.ruleset, enc.setup).state


# -- the examples --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "shows"),
    [
        ("binds", "is Bound with"),
        ("feint", "Melee Attack was a Feint"),
    ],
)
def test_the_examples_play_to_the_end(name: str, shows: str) -> None:
    result = CliRunner().invoke(
        app, ["play", str(EXAMPLES / f"{name}.yaml"), "--script", str(EXAMPLES / f"{name}.script")]
    )
    assert result.exit_code == 0, result.output
    assert "The encounter is over" in result.output
    assert shows in " ".join(result.output.split())


def test_a_side_sees_its_own_hit_points_only() -> None:
    enc = duel()
    south = enc.ruleset.observe(enc.state, "south")["combatants"]
    assert "hp" in south["astrid"] and "hp" not in south["ylva"]
    assert south["ylva"]["ap"] == 12 and south["ylva"]["status"] == "On Guard"
    assert "hp" in enc.ruleset.observe(enc.state, None)["combatants"]["ylva"]
