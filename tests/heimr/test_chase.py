"""The chase (H-CHASE-1), with scripted dice worked out by hand.

Every runner here rolls Agility, dex 0 untrained: C1P0, a d6 and one d10, the higher
of the two is the result (no potential). Base fatigue is 4 - sta (H-FAT-3): sta 3
gives 1 (never fails, never tires), sta -1 gives 5. Each chase turn the target rolls
first, then the chaser: faces ``[target d6, target d10, chaser d6, chaser d10]``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
import yaml
from typer.testing import CliRunner

from fracas.engine import IllegalAction, RandomDice, ScriptedDice
from fracas.rules.heimr.chase import Chase, Runner, chase_ability, pace
from fracas.rules.heimr.cli_chase import chase_command
from fracas.rules.heimr.state import Combatant

from heimr_builders import encounter, sheet

pytestmark = pytest.mark.rule("H-CHASE-1")


def runners(hrolf_sta: int = 3, ylva_sta: int = 3) -> tuple[Combatant, Combatant]:
    """Hrolf (the chaser) and Ylva (the target), as combatants of an encounter."""
    hrolf = sheet("hrolf", "raiders", sta=hrolf_sta)
    ylva = sheet("ylva", "shieldwall", sta=ylva_sta)
    state = encounter([hrolf, ylva]).state
    return state.combatants["hrolf"], state.combatants["ylva"]


def chase(gap: int = 1, hrolf_sta: int = 3, ylva_sta: int = 3, escape: int | None = None) -> Chase:
    hrolf, ylva = runners(hrolf_sta, ylva_sta)
    return Chase(
        Runner.of(hrolf, "Agility"),
        Runner.of(ylva, "agility"),
        gap,
        escape,
    )


def test_three_above_closes_a_square_three_below_loses_one() -> None:
    c = chase(gap=2)
    dice = ScriptedDice(
        [2, 5, 3, 9]  # Ylva 5, Hrolf 9: 4 above, one square closer
        + [4, 6, 5, 8]  # 6 and 8: 2 apart, nobody gains
        + [6, 9, 1, 6]  # 9 and 6: Hrolf 3 below, Ylva gains a square
        + [3, 7, 2, 10]  # 7 and 10: exactly 3 above closes
    )
    gaps = [c.step(dice).gap for _ in range(4)]
    assert gaps == [1, 1, 2, 1]
    assert not c.over and dice.remaining() == 0
    assert "hrolf closes in; 1 square between them" in c.turns[0].events[-1].text
    assert "neither gains" in c.turns[1].events[-1].text
    assert "ylva gains a square; 2 squares between them" in c.turns[2].events[-1].text


def test_passing_the_target_lets_the_chaser_act_instead() -> None:
    c = chase(gap=1)
    # 4 against 8: Hrolf draws level (gap 0); then 4 against 7: he would pass her.
    turns = c.run(ScriptedDice([3, 4, 2, 8] + [3, 4, 2, 7]))
    assert [t.gap for t in turns] == [0, 0]
    assert c.outcome == "act" and turns[-1].outcome == "act"
    assert turns[-1].events[-1].kind == "chase-end"
    assert "hrolf may act against ylva instead" in turns[-1].events[-1].text


def test_the_target_pulls_away_from_level() -> None:
    c = chase(gap=0)
    c.step(ScriptedDice([3, 9, 2, 6]))  # Ylva 9, Hrolf 6: she gains a square back
    assert c.gap == 1 and not c.over


def test_a_chaser_failing_the_fatigue_check_lets_the_target_escape() -> None:
    c = chase(gap=3, hrolf_sta=-1)  # Hrolf's fatigue 5
    # Ylva 6 passes; Hrolf's 4 and 3: highest 4 is below 5, he cannot go on.
    turn = c.step(ScriptedDice([2, 6, 4, 3]))
    assert c.outcome == "escaped" and turn.gap == 3
    assert turn.rolls[-1][1].failed_outright
    assert "hrolf fails the fatigue check and cannot go on: ylva escapes" in turn.events[-1].text
    assert c.chaser.who.fatigue == 6  # and the d6 4 < 5 tired him (H-FAT-2)


def test_a_target_failing_the_fatigue_check_is_caught_before_the_chaser_rolls() -> None:
    c = chase(gap=2, ylva_sta=-1)  # Ylva's fatigue 5
    dice = ScriptedDice([3, 2, 6, 6])  # her highest 3 is below 5
    turn = c.step(dice)
    assert c.outcome == "caught" and c.gap == 0
    assert [who for who, _ in turn.rolls] == ["ylva"]
    assert dice.remaining() == 2  # Hrolf never rolled
    assert "hrolf reaches ylva" in turn.events[-1].text


def test_fatigue_rises_on_every_low_d6_and_never_falls() -> None:
    c = chase(gap=1, hrolf_sta=0, ylva_sta=0)  # both at fatigue 4
    c.chaser.who.fatigue_raised = True  # a combat turn's cap does not hold in a chase
    dice = ScriptedDice(
        [1, 9, 2, 9]  # both d6 below 4: both tire to 5; 9 against 9
        + [6, 8, 5, 9]  # 6 is not below 5; 5 is not below 5: no change
        + [2, 7, 3, 8]  # both tire again, to 6; 7 against 8
    )
    seen = []
    for _ in range(3):
        c.step(dice)
        seen.append((c.chaser.who.fatigue, c.target.who.fatigue))
    assert seen == [(5, 5), (5, 5), (6, 6)]
    assert not c.over


def test_the_gap_reaching_the_edge_lets_the_target_escape() -> None:
    c = chase(gap=2, escape=3)
    turn = c.step(ScriptedDice([2, 9, 3, 5]))  # Ylva 9, Hrolf 5: 3 squares, out of reach
    assert c.outcome == "escaped" and turn.gap == 3
    assert "ylva is 3 squares away, out of reach" in turn.events[-1].text


def test_every_roll_is_logged_and_a_chase_replays_from_its_faces() -> None:
    first = chase(gap=1, hrolf_sta=0, ylva_sta=1)
    dice = RandomDice(7)
    first.run(dice)
    faces = [f for d in dice.drawn for f in d.faces]
    logged = [f for t in first.turns for e in t.events if e.kind == "roll" for f in e.data["faces"]]
    assert logged == faces
    again = chase(gap=1, hrolf_sta=0, ylva_sta=1)
    again.run(ScriptedDice(faces))
    assert again.to_dict() == first.to_dict()
    assert first.over


def test_dice_running_out_leave_the_turn_unplayed() -> None:
    c = chase(gap=1, hrolf_sta=0, ylva_sta=0)
    dice = ScriptedDice([1, 9])  # Ylva tires, then the dice run out before Hrolf's roll
    with pytest.raises(ValueError, match="run out"):
        c.step(dice)
    assert c.target.who.fatigue == 4 and c.turns == [] and dice.remaining() == 2


def test_a_chase_refuses_mental_rolls_and_bad_gaps() -> None:
    hrolf, ylva = runners()
    with pytest.raises(IllegalAction, match="not based on a physical attribute"):
        chase_ability(hrolf, "Perception")
    with pytest.raises(IllegalAction, match="unknown ability or attribute 'Flying'"):
        chase_ability(hrolf, "Flying")
    assert chase_ability(ylva, "STA", consistency=2)[1].consistency == 2  # an attribute roll
    with pytest.raises(IllegalAction, match="below 0"):
        chase(gap=-1)
    with pytest.raises(IllegalAction, match="cannot chase itself"):
        label, ability = chase_ability(hrolf, "Agility")
        Chase(Runner(hrolf, ability, label), Runner(hrolf, ability, label))
    over = chase(ylva_sta=-1)
    over.step(ScriptedDice([1, 1]))
    with pytest.raises(IllegalAction, match="the chase is over"):
        over.step(ScriptedDice([6, 6, 6, 6]))


def test_a_terrain_decision_changes_the_roll() -> None:
    c = chase(gap=1)
    c.terrain("str")
    turn = c.step(ScriptedDice([4, 5]))  # C0: the d6 alone, 4 and 5
    assert [check.consistency for _, check in turn.rolls] == [0, 0]


def test_pace_is_the_rule_alone() -> None:
    assert pace(11, 8, 3) == (2, None)
    assert pace(10, 8, 3) == (3, None)
    assert pace(8, 11, 3) == (4, None)
    assert pace(11, 8, 0) == (0, "act")


# -- the command ------------------------------------------------------------------------


def app() -> typer.Typer:
    cli = typer.Typer()
    cli.command("chase")(chase_command)
    cli.command("other")(lambda: None)  # two commands, so 'chase' is a subcommand
    return cli


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.yaml"
    characters = {
        "hrolf": sheet("Hrolf", "raiders", sta=0),
        "ylva": sheet("Ylva", "shieldwall", sta=3),
    }
    path.write_text(yaml.safe_dump({"characters": characters}), encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app(), ["chase", *args])
    return result.exit_code, result.stdout, result.stderr


def test_the_command_plays_a_chase_from_listed_dice(campaign: Path) -> None:
    base = [str(campaign), "--chaser", "hrolf", "--target", "ylva", "--ability", "Agility"]
    # Ylva 5 against Hrolf 9 (his d6 3 < 4 tires him); then 4 against 8: level, would pass.
    code, out, err = run(*base, "--dice", "2,5,3,9,3,4,6,8")
    assert code == 0, err
    assert "Hrolf (Agility C1P0, fatigue 4) chases Ylva (Agility C1P0, fatigue 1)" in out
    assert "Turn 2" in out and "Hrolf closes in; 0 squares between them" in out
    assert out.rstrip().splitlines()[-2] == (
        "Hrolf draws level and may act against Ylva instead of passing"
    )
    assert "Fatigue: Hrolf 5 (base 4), Ylva 1 (base 1)" in out
    code, out, _ = run(*base, "--dice", "2,5,3,9,3,4,6,8", "--gap", "2", "--json")
    record = json.loads(out)
    assert record["outcome"] is None and record["gap"] == 0  # level, not yet passing
    assert record["faces"] == [2, 5, 3, 9, 3, 4, 6, 8]


def test_the_command_reads_placements_from_an_encounter(campaign: Path) -> None:
    fight = campaign.parent / "fight.yaml"
    fight.write_text(
        "ruleset: heimr\ncampaign: campaign.yaml\n"
        "combatants:\n  - {character: hrolf, square: A1}\n"
        "  - {character: ylva, square: B1, fatigue: 6}\n",
        encoding="utf-8",
    )
    args = ["--chaser", "hrolf", "--target", "ylva", "--ability", "agility"]
    code, out, err = run(str(fight), *args, "--dice", "3,5")  # 5 is below her fatigue 6
    assert code == 0, err
    assert "caught: Hrolf reaches Ylva" in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--ability", "Perception"], "Perception is not based on a physical attribute"),
        (["--ability", "Agility", "--target", "brannoc"], "unknown character 'brannoc'"),
        (["--ability", "Agility", "--gap", "-1"], "cannot be below 0"),
        (["--ability", "Agility", "--dice", "2,x"], "every face must be a whole number"),
        (["--ability", "Agility", "--dice", "2,5"], "the script has run out of dice"),
    ],
)
def test_bad_input_exits_2_with_one_message(campaign: Path, extra: list[str], message: str) -> None:
    args = [str(campaign), "--chaser", "hrolf", "--target", "ylva", *extra]
    if "--target" in extra:
        args[3:5] = []
    code, _, err = run(*args)
    assert code == 2
    assert err.startswith("fracas: ") and message in err
    assert len(err.strip().splitlines()) == 1
