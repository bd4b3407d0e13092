"""``fracas play``: example encounters to the end, scripts, saves, views and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from fracas.cli import app
from fracas.dice import HeimrChallenge
from fracas.table import encounterfile
from fracas.table.dicemode import AskedDice, RollRequest
from fracas.table.store import Store
from fracas.table.table import Table
from fracas.tracker import Tracker

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "heimr"
runner = CliRunner()


def play(*args: str | Path) -> tuple[int, str]:
    result = runner.invoke(app, ["play", *map(str, args)])
    return result.exit_code, result.output


HEIMR_EXAMPLES = [
    "duel",
    "wearing-down",
    "grab",
    "ambush",
    "doorway",
    "castle-wall",
    "night",
    "field",
]


@pytest.mark.parametrize("name", HEIMR_EXAMPLES)
def test_examples_play_to_the_end(name: str) -> None:
    code, out = play(EXAMPLES / f"{name}.yaml", "--script", EXAMPLES / f"{name}.script")
    assert code == 0, out
    assert "The encounter is over" in out


@pytest.mark.parametrize(
    ("name", "texts"),
    [
        ("ambush", ["goes on into the cluster", "luck shot", "hides"]),
        ("doorway", ["stops"]),
        ("castle-wall", ["holds on", "falls down"]),
        ("night", ["concealment"]),
        ("field", ["C-5 blind spot"]),
    ],
)
def test_battlefield_examples_show_the_terrain_rules_at_work(name: str, texts: list[str]) -> None:
    _, out = play(EXAMPLES / f"{name}.yaml", "--script", EXAMPLES / f"{name}.script")
    flat = " ".join(out.split())  # the terminal wraps long lines
    for text in texts:
        assert text in flat, (name, text)


def test_examples_show_their_rules_at_work() -> None:
    _, grab = play(EXAMPLES / "grab.yaml", "--script", EXAMPLES / "grab.script")
    assert "must get past the weapon" in grab and "grabs Ylva" in grab
    _, tired = play(EXAMPLES / "wearing-down.yaml", "--script", EXAMPLES / "wearing-down.script")
    assert "Gunnar Troll-born's attack fails outright" in tired


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def duel_lines(n: int) -> list[str]:
    lines = (EXAMPLES / "duel.script").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")][:n]


def test_an_illegal_action_stops_the_script_with_its_line_and_rule(tmp_path: Path) -> None:
    script = write(tmp_path, "s.txt", "# seed: 1\ngm begin\nastrid attack ylva\n")
    save = tmp_path / "save.json"
    code, out = play(EXAMPLES / "duel.yaml", "--script", script, "--save", save)
    assert code == 2
    assert "line 3" in out and "H-INIT-2" in out and "not Astrid" in out
    assert "Traceback" not in out
    # Nothing played before the bad line is lost: the save holds it.
    data = json.loads(save.read_text(encoding="utf-8"))
    assert [e["action"] for e in data["log"]] == ["gm begin"]


def test_a_save_continues_where_it_stopped(tmp_path: Path) -> None:
    first = write(tmp_path, "a.txt", "# seed: 1\n" + "\n".join(duel_lines(4)) + "\n")
    save = tmp_path / "half.json"
    code, out = play(EXAMPLES / "duel.yaml", "--script", first, "--save", save)
    assert code == 0, out
    rest = write(tmp_path, "b.txt", "\n".join(duel_lines(1000)[4:]) + "\n")
    whole = tmp_path / "whole.json"
    code, out = play(save, "--script", rest, "--save", whole)
    assert code == 0, out
    assert "The encounter is over" in out
    # The same seed and actions played in one go give the same log.
    again = tmp_path / "again.json"
    play(EXAMPLES / "duel.yaml", "--script", EXAMPLES / "duel.script", "--save", again)
    assert json.loads(whole.read_text())["log"] == json.loads(again.read_text())["log"]


def test_a_side_does_not_see_what_is_hidden_from_it(tmp_path: Path) -> None:
    script = write(tmp_path, "s.txt", "# seed: 1\ngm begin\nylva observe B2\n")
    _, gm = play(EXAMPLES / "duel.yaml", "--script", script)
    _, own = play(EXAMPLES / "duel.yaml", "--script", script, "--side", "shieldwall")
    _, other = play(EXAMPLES / "duel.yaml", "--script", script, "--side", "raiders")
    assert "observes B2" in gm and "observes B2" in own
    assert "observes B2" not in other
    assert "HP" in own  # the table shows hit points of one's own side only
    assert "4/4" in own and "5/5" not in own  # Ylva's hit points, not Astrid's
    assert "5/5" in other and "4/4" not in other


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("ruleset: heimr\ncombatants:\n  - {character: ylva\n", "line"),
        (
            "ruleset: heimr\ncampaign: campaign.yaml\ncombatants:\n  - {character: nobody}\n",
            "nobody",
        ),
        (
            "ruleset: chess\ncampaign: campaign.yaml\ncombatants:\n  - {character: ylva}\n",
            "unknown ruleset",
        ),
        (
            "ruleset: heimr\ncampaign: campaign.yaml\ncombatants:\n"
            "  - {character: ylva, square: Q9}\n",
            "off the 3x3 grid",
        ),
    ],
)
def test_malformed_encounter_files_get_one_clear_message(text: str, words: str) -> None:
    path = EXAMPLES / "_test_bad.yaml"
    try:
        path.write_text(text, encoding="utf-8")
        code, out = play(path, "--script", EXAMPLES / "duel.script")
    finally:
        path.unlink()
    assert code == 2
    assert words in out
    assert "Traceback" not in out


@pytest.mark.rule("H-GRID-2", "H-GRID-3", "H-GRID-1")
@pytest.mark.parametrize(
    ("battlefield", "words"),
    [
        (
            "borders: [{between: [A1, B2], preset: Single door}]",
            "line 9, battlefield.borders[0].between: A1 and B2 are not bordering squares",
        ),
        (
            "borders: [{between: [A1, A2], preset: Secret door}]",
            "line 9, battlefield.borders[0].preset: unknown preset 'Secret door'",
        ),
        ("squares: {F9: {name: nowhere}}", "line 9, battlefield.squares.F9: off the 3x3 grid"),
    ],
)
def test_malformed_battlefields_get_one_clear_message(
    tmp_path: Path, battlefield: str, words: str
) -> None:
    text = (EXAMPLES / "duel.yaml").read_text(encoding="utf-8")
    text = text.replace("campaign: campaign.yaml", f"campaign: {EXAMPLES / 'campaign.yaml'}")
    path = write(tmp_path, "e.yaml", text + f"battlefield: {{{battlefield}}}\n")
    code, out = play(path, "--script", EXAMPLES / "duel.script")
    assert code == 2
    assert words in " ".join(out.split())
    assert "Traceback" not in out


def test_a_character_placed_off_the_grid_is_named(tmp_path: Path) -> None:
    text = (EXAMPLES / "duel.yaml").read_text(encoding="utf-8")
    text = text.replace("campaign: campaign.yaml", f"campaign: {EXAMPLES / 'campaign.yaml'}")
    text = text.replace("{character: astrid, square: B2}", "{character: astrid, square: E7}")
    code, out = play(write(tmp_path, "e.yaml", text), "--script", EXAMPLES / "duel.script")
    assert code == 2
    assert "line 8, combatants[1].square: E7 is off the 3x3 grid" in out
    assert "Traceback" not in out


def test_an_unknown_ability_in_the_campaign_names_file_line_and_field(tmp_path: Path) -> None:
    camp = (EXAMPLES / "campaign.yaml").read_text(encoding="utf-8")
    write(
        tmp_path,
        "campaign.yaml",
        camp.replace(
            "Agility: {trained_consistency: 2}  # 15 XP", "Agilty: {trained_consistency: 2}", 1
        ),
    )
    enc = write(tmp_path, "e.yaml", (EXAMPLES / "duel.yaml").read_text(encoding="utf-8"))
    code, out = play(enc, "--script", EXAMPLES / "duel.script")
    assert code == 2
    assert "campaign.yaml, line" in out and "Agilty" in out
    assert "Traceback" not in out


def tracker() -> Tracker:
    ruleset, setup, title = encounterfile.load(EXAMPLES / "duel.yaml")
    table = Table.start(Store.open("sqlite://"), "duel", ruleset, setup, title, seed=1)
    return Tracker(table, Console(width=120, height=40))


def test_the_tracker_numbers_legal_actions_and_undoes() -> None:
    t = tracker()
    assert t.table.screen(None).offered == ("gm begin",)
    t.render()
    t.handle("1")
    assert t.table.encounter.state.started
    t.handle("ylva attack nobody")
    assert "no combatant called 'nobody'" in t.message
    t.handle("undo")
    assert not t.table.encounter.state.started and t.message == "undone: gm begin"
    t.handle("undo")
    assert "nothing to undo" in t.message


def test_physical_dice_are_asked_again_until_possible() -> None:
    answers = iter(["7, 3", "x", "4, 10"])
    asked: list[RollRequest] = []

    def ask(request: RollRequest) -> str:
        asked.append(request)
        return next(answers)

    roll = AskedDice(ask).roll(HeimrChallenge(1, 2), "Ylva attacks")
    assert roll.result == 12
    assert asked[0].problem is None
    assert "is 7, but a d6 shows 1 to 6" in str(asked[1].problem)
    assert "not a list of faces" in str(asked[2].problem)
