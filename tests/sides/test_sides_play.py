"""The examples played to the end, saves that replay, and bad input refused with a rule."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from fracas.cli import app
from fracas.engine import Action, Encounter, EngineError, IllegalAction, RandomDice
from fracas.rules import find
from fracas.rules.sides.verbs import VERBS
from fracas.table import encounterfile

from sides_builders import darna, orc, setup

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = ROOT / "examples" / "sides"
runner = CliRunner()


def play(*args: str | Path) -> tuple[int, str]:
    result = runner.invoke(app, ["play", *map(str, args)], env={"COLUMNS": "200"})
    return result.exit_code, result.output


@pytest.mark.rule("S-ATK-1", "S-DMG-1")
def test_the_mace_example_plays_the_seeds_numbers_to_the_end() -> None:
    code, out = play(EXAMPLES / "mace.yaml", "--script", EXAMPLES / "mace.script")
    assert code == 0, out
    assert "Strength 10 - Evasion 1 = 9; rolls 1+6 = 7: a hit" in out
    assert "damage 3 - Protection 1 = 2" in out
    assert "The encounter is over" in out


@pytest.mark.rule("S-DMG-1", "S-OPT-1")
def test_the_metal_example_plays_the_seeds_numbers_to_the_end() -> None:
    code, out = play(EXAMPLES / "metal.yaml", "--script", EXAMPLES / "metal.script")
    assert code == 0, out
    assert "damage 4 - Protection 3 (2 pierced) = 3" in out
    assert "long weapon in a confined space 2 = 7" in out
    assert "The encounter is over" in out


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.script")))
def test_every_example_plays_to_the_end_and_its_save_replays(name: str, tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    code, out = play(
        EXAMPLES / f"{name}.yaml", "--script", EXAMPLES / f"{name}.script", "--save", save
    )
    assert code == 0, out
    assert "The encounter is over" in out
    data = json.loads(save.read_text(encoding="utf-8"))
    again = Encounter.load(data, find("sides"))
    ruleset, _, _ = encounterfile.load(EXAMPLES / f"{name}.yaml")
    assert again.state == Encounter.load(json.loads(json.dumps(data)), ruleset).state
    assert again.is_over()


def test_an_action_out_of_its_phase_stops_the_script_with_its_rule(tmp_path: Path) -> None:
    script = tmp_path / "s.script"
    script.write_text("# seed: 42\ngm begin\nparty act\norc charge darna\n", encoding="utf-8")
    code, out = play(EXAMPLES / "mace.yaml", "--script", script)
    assert code == 2
    assert "line 4" in out and "S-ROUND-2" in out
    assert "Traceback" not in out


def test_undo_returns_to_the_exact_state() -> None:
    enc = Encounter(find("sides"), setup(darna(), orc(at=25)), RandomDice(3))
    enc.push("gm begin")
    before = enc.state.clone()
    winner = enc.state.winner
    enc.push(f"{winner} act")
    enc.pop()
    assert enc.state == before


@pytest.mark.rule("S-ROUND-2")
def test_unknown_verbs_and_actors_are_refused_with_a_rule() -> None:
    enc = Encounter(find("sides"), setup(darna(), orc(at=25)), RandomDice(3))
    for text in ("gm fly", "nobody move orc", "darna begin", "orc act"):
        with pytest.raises(IllegalAction):
            enc.push(text)


ACTORS = ["gm", "party", "orcs", "darna", "orc", "archer", "nobody"]
TARGETS = [None, "darna", "orc", "archer", "party", "nobody"]
OPTIONS = [
    ("by", "5"),
    ("by", "-3"),
    ("by", "abc"),
    ("by", "1e308"),
    ("to", "nan"),
    ("to", "inf"),
    ("to", "12"),
    ("dir", "away"),
    ("dir", "up"),
    ("called", "hands"),
    ("called", "knee"),
    ("called_difficulty", "x"),
    ("called_difficulty", "2"),
    ("difficulty", "-1"),
    ("difficulty", "1"),
    ("bonus", "z"),
    ("damage", "1d0"),
    ("damage", "abc"),
    ("damage", "1d6"),
    ("test", "Luck"),
    ("test", "Agility"),
    ("points", "-2"),
    ("points", "3"),
    ("weapon", "Bow"),
    ("weapon", "Shortbow"),
    ("spell", "Sleep"),
]
actions = st.builds(
    lambda actor, verb, target, opts: Action(
        actor, verb, target, tuple(sorted(dict(opts).items()))
    ),
    st.sampled_from(ACTORS),
    st.sampled_from([*sorted(VERBS), "fly"]),
    st.sampled_from(TARGETS),
    st.lists(st.sampled_from(OPTIONS), max_size=3),
)


@given(st.integers(0, 1000), st.lists(actions, min_size=1, max_size=60))
def test_any_action_is_played_or_refused_with_a_rule(seed: int, script: list[Action]) -> None:
    archer = orc(name="Archer", at=70, weapons=["Shortbow", "Dagger"])
    people = (
        darna(
            at=10, off_hand="Dagger", attributes={"Strength": 10, "Agility": 8, "Intelligence": 9}
        ),
        orc(at=25),
        archer,
    )
    enc = Encounter(find("sides"), setup(*people), RandomDice(seed))
    for action in script:
        if enc.is_over():
            break
        legal = enc.is_legal(action)
        try:
            enc.push(action)
        except IllegalAction as err:
            assert err.rule.startswith("S-"), err
            assert not legal
        except EngineError as err:  # pragma: no cover - a failure's message
            raise AssertionError(f"{action}: {err!r} is not an IllegalAction") from None
        else:
            assert legal
        # Whoever is asked to move has something legal to do.
        if not enc.is_over():
            mover = enc.to_move
            assert mover is not None
            assert any(True for _ in enc.legal_actions(mover)) or mover == "gm", mover


@given(st.integers(0, 10_000))
def test_random_legal_play_keeps_the_state_sound(seed: int) -> None:
    # Random legal actions (with a referee's damage now and then) until the end.
    rng = random.Random(seed)
    archer = orc(name="Archer", at=70, weapons=["Shortbow", "Dagger"])
    people = (darna(at=10, off_hand="Dagger"), darna(name="Brok", at=0), orc(at=25), archer)
    enc = Encounter(find("sides"), setup(*people), RandomDice(seed))
    for _ in range(300):
        if enc.is_over():
            break
        mover = enc.to_move
        assert mover is not None
        options = list(enc.legal_actions(mover))
        assert options, (mover, enc.state.phase)
        enc.push(rng.choice(options))
        for c in enc.state.combatants.values():
            assert 0 <= c.health <= c.stats.max_health
            assert c.dead == (c.health == 0)
    assert enc.state.round >= 1
