"""Bad paths, encodings and saves at the command line and the prompt: one line, exit 2,
and nothing played is lost."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from fracas.cli import app
from fracas.table import encounterfile
from fracas.table.store import Store
from fracas.table.table import Table
from fracas.tracker import Tracker

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
runner = CliRunner()


def play(*args: str | Path, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["play", *map(str, args)], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_a_save_to_a_missing_folder_keeps_the_game_in_its_table(tmp_path: Path) -> None:
    duel = EXAMPLES / "heimr" / "duel"
    for target in (tmp_path / "no-such-folder" / "x.json", tmp_path):
        code, _, err = play(
            f"{duel}.yaml", "--script", f"{duel}.script", "--save", target, "--table", "d"
        )
        assert code == 2
        line = one_line(err)
        assert "nothing is lost" in line and "table d" in line
        assert Table.resume(Store.open(), "d").is_over()
        Store.open().delete("d")


def test_a_script_that_is_not_utf8_is_named_with_its_line(tmp_path: Path) -> None:
    script = tmp_path / "bad.script"
    script.write_bytes(b"gm begin\nylva end \xff\xfe\n")
    code, _, err = play(EXAMPLES / "heimr" / "duel.yaml", "--script", script)
    assert code == 2 and "line 2: the script is not UTF-8 text" in one_line(err)


def test_a_seed_of_five_thousand_digits_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "seed.script"
    script.write_text("# seed: " + "9" * 5000 + "\ngm begin\n", encoding="utf-8")
    code, _, err = play(EXAMPLES / "heimr" / "duel.yaml", "--script", script)
    assert code == 2 and "the seed has 5000 digits" in one_line(err)


def test_a_long_action_line_is_refused_with_a_short_excerpt(tmp_path: Path) -> None:
    script = tmp_path / "long.script"
    script.write_text("gm begin\nylva attack " + "x" * 400_000 + "\n", encoding="utf-8")
    code, _, err = play(EXAMPLES / "heimr" / "duel.yaml", "--script", script)
    line = one_line(err)
    assert code == 2 and len(line) < 400


def test_a_malformed_save_at_the_prompt_is_one_message_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr" / "duel.yaml")
    table = Table.start(Store.open("sqlite://"), "t", ruleset, setup, title, seed=1)
    t = Tracker(table, Console(width=80, height=24))
    t.handle("gm begin")
    for text in ("{", "[1]", '{"_v": true, "log": {}}', "\u00ff"):
        bad = tmp_path / "bad.json"
        bad.write_text(text, encoding="latin-1")
        t.handle(f"load {bad}")
        assert "\n" not in t.message and t.message, text
        assert t.table is table and table.head == 1


def test_end_of_input_at_a_faces_prompt_still_writes_the_save(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    code, _, err = play(
        EXAMPLES / "heimr" / "duel.yaml", "--physical-dice", "--save", save, stdin="gm begin\n"
    )
    assert code == 0, err
    assert json.loads(save.read_text(encoding="utf-8"))["log"] == []


def test_a_side_that_does_not_exist_is_refused_with_the_sides() -> None:
    code, _, err = play(EXAMPLES / "heimr" / "ambush.yaml", "--side", "raider")
    assert code == 2
    assert "no side called 'raider': the sides are raiders, shieldwall" in one_line(err)
