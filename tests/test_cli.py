"""The ``fracas`` command line: rolls from listed dice, exact odds as JSON, the demo, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app

runner = CliRunner()
FRACAS = Path(sys.executable).parent / "fracas"


def run(*args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``fracas ARGS``."""
    result = runner.invoke(app, list(args), env={"COLUMNS": "100"})
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str) -> dict[str, object]:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    record = json.loads(out)
    assert isinstance(record, dict)
    return record


def fractions(record: object) -> dict[int, Fraction]:
    assert isinstance(record, dict)
    return {int(k): Fraction(v) for k, v in record.items()}


# --- roll ------------------------------------------------------------------------------


@pytest.mark.rule("H-DICE-4")
@pytest.mark.parametrize(
    ("challenge", "faces", "result"),
    [
        ("C3P3", "1,4,9,10", 13),  # 10 + 0 + 3
        ("C5P6", "1,3,5,7,10,10", 17),  # 10 + 1 + 6; the seed prints 18 (erratum)
        ("C0P0", "3", 3),  # the d6 alone
        ("C4P3", "1,1,2,4,6", 9),  # 6 + 0 + 3
        ("C2P-3", "3,10,10", 8),  # 10 + 1 - 3
        ("C-4P-4", "1,1,1,4,9", -5),  # 1 - 2 - 4; the seed prints -2 (erratum)
    ],
)
def test_the_seed_examples_roll_to_the_rules_result(
    challenge: str, faces: str, result: int
) -> None:
    record = run_json("roll", "heimr", challenge, "--dice", faces)
    assert record["result"] == result
    assert record["faces"] == [int(f) for f in faces.split(",")]
    assert record["system"] == "heimr"
    assert record["expression"] == challenge


def test_roll_in_the_terminal_shows_dice_explanation_and_result() -> None:
    code, out, _ = run("roll", "heimr", "C-4P-4", "--dice", "1,1,1,4,9")
    assert code == 0
    assert "the d6: 1" in out and "d10 #4: 9" in out
    assert "lowest 1 - 2 (three 1s) - 4 = -5" in out
    assert "result  -5" in out


def test_a_seed_repeats_a_roll() -> None:
    first = run_json("roll", "standard", "4d6kh3", "--seed", "7")
    assert run_json("roll", "standard", "4d6kh3", "--seed", "7") == first
    assert len(first["faces"]) == 4  # type: ignore[arg-type]


def test_an_opposed_roll_reads_the_first_sides_faces_then_the_seconds() -> None:
    # H-ATK-4: a defence equal to the attack holds.
    tie = run_json("roll", "heimr", "C0P0 vs C0P0", "--dice", "3,3")
    assert tie["result"] == 0 and tie["success"] == 0
    win = run_json("roll", "heimr", "C1P0", "vs", "C0P0", "--dice", "2,9,4")
    assert (win["first"], win["second"], win["result"], win["success"]) == (9, 4, 5, 1)


def test_tempo_reads_eight_faces_per_throw() -> None:
    faces = "1,2,3,4,5,1,2,3,1,2,6,1,1,1,1,1"  # no 6, then Orange shows the first 6
    record = run_json("roll", "tempo", "pool+3", "--dice", faces)
    assert record["result"] == 2 + 8 + 3
    code, out, _ = run("roll", "tempo", "pool+3", "--dice", faces)
    assert code == 0 and "throw 2: Black d6: 1" in out


def test_a_negative_rating_needs_no_quotes() -> None:
    assert run_json("roll", "tempo", "pool", "-1", "--dice", "6,1,1,1,1,1,1,1")["result"] == -1


def test_the_help_is_wrapped_by_the_terminal_not_where_the_source_breaks() -> None:
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "240"})
    assert result.exit_code == 0
    lines = [" ".join(line.split()) for line in result.stdout.splitlines()]
    assert any("runs an encounter turn by turn (type 'help' at its prompt)" in li for li in lines)


def test_every_command_is_listed_on_one_line_when_the_terminal_is_wide() -> None:
    # A command's summary is its docstring's first paragraph, broken where the source is.
    for group in ([], ["campaign"], ["round"]):
        result = runner.invoke(app, [*group, "--help"], env={"COLUMNS": "240"})
        rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
        assert len(rows) > 3
        continued = [row for row in rows if row[1:].startswith(" " * 8)]
        assert not continued, continued


def test_the_console_script_runs() -> None:
    if not FRACAS.exists():
        pytest.skip(f"no console script at {FRACAS}")
    done = subprocess.run(
        [str(FRACAS), "roll", "heimr", "C3P3", "--dice", "1,4,9,10", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"] == 13
    bad = subprocess.run([str(FRACAS), "roll", "heimr", "C3Q2"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr and "C3Q2" in bad.stderr


# --- odds ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("system", "expression"),
    [
        ("heimr", "C3P2"),
        ("heimr", "C-4P-4"),
        ("heimr-classic", "d20+5>=15"),
        ("sides", "9-1"),
        ("diestep", "d8 up 1 adv"),
        ("standard", "4d6kh3"),
    ],
)
def test_odds_sum_to_exactly_one(system: str, expression: str) -> None:
    record = run_json("odds", system, expression)
    exact = fractions(record["exact"])
    assert sum(exact.values()) == 1
    assert record["mean"] == pytest.approx(float(sum(v * p for v, p in exact.items())))
    pmf = record["pmf"]
    assert isinstance(pmf, dict)
    assert pmf.keys() == record["exact"].keys()  # type: ignore[union-attr]


def test_tempo_odds_sum_to_one_with_the_tail_beyond_the_reroll_bound() -> None:
    record = run_json("odds", "tempo", "pool+3")
    assert sum(fractions(record["exact"]).values()) + Fraction(str(record["tail_mass"])) == 1
    assert record["reroll_bound"] == 12
    code, out, _ = run("odds", "tempo", "pool+3")
    assert code == 0 and "Exact up to 12 re-rolls" in out


def test_the_terminal_table_shows_the_chance_of_at_least_each_result() -> None:
    code, out, _ = run("odds", "heimr", "C3P2")
    assert code == 0
    assert "at least" in out
    # C3P2: a 14 needs three 10s (1/1000), a 13 two of them or more (28/1000).
    assert "1/1000   0.10%     0.10%" in out
    assert "2.80%" in out


def test_an_even_heimr_duel_succeeds_five_times_in_twelve() -> None:
    # H-ATK-4: the defence holds on a tie, so P = (1 - 1/6) / 2.
    record = run_json("odds", "heimr", "C0P0 vs C0P0")
    assert record["p_success"] == "5/12"
    assert record["p_tie"] == "1/6"
    assert record["tie_rule"] == "a tie goes to the second side"
    assert sum(fractions(record["margin"]).values()) == 1


def test_vs_as_separate_words_or_one_quoted_expression() -> None:
    assert run_json("odds", "heimr", "C3P2", "vs", "C2P1") == run_json(
        "odds", "heimr", "C3P2 vs C2P1"
    )
    code, out, _ = run("odds", "heimr", "C3P2", "vs", "C2P1")
    assert code == 0 and "483433/720000" in out and "margin" in out


def test_diestep_duels_also_count_successes() -> None:
    record = run_json("odds", "diestep", "d8 vs d6")
    successes = fractions(record["successes"])
    assert sum(successes.values()) == 1
    assert Fraction(str(record["p_success"])) == 1 - successes[0]


def test_plot_writes_a_png(tmp_path: Path) -> None:
    single, duel = tmp_path / "c3p2.png", tmp_path / "duel.png"
    assert run("odds", "heimr", "C3P2", "--plot", str(single))[0] == 0
    code, out, _ = run("odds", "heimr", "C3P2 vs C2P1", "--json", "--plot", str(duel))
    assert code == 0 and json.loads(out)["p_success"] == "483433/720000"
    for path in (single, duel):
        assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


# --- demo ------------------------------------------------------------------------------


def test_the_demo_fits_100_columns_and_flags_the_errata() -> None:
    code, out, _ = run("demo")
    assert code == 0
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 100
    assert out.count("erratum") == 2
    assert "10+1+6 is 17, not 18" in out and "1-2-4 is -5, not -2" in out
    assert "CR 12" in out


# --- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["roll", "dnd", "C3"], "'dnd'"),
        (["odds", "heimr", "C3Q2"], "of 'C3Q2' (at 'Q2')"),
        (["roll", "heimr", "C3P2 vs C2Q1"], "of 'C2Q1' (at 'Q1')"),
        (["roll", "heimr", "C3P3", "--dice", "7,1,1,1"], "the d6) is 7"),
        (["roll", "heimr", "C3P3", "--dice", "1,2"], "expected 4 faces"),
        (["roll", "heimr", "C3P3", "--dice", "1,x"], "'x'"),
        (["roll", "heimr", "C1 vs C1", "--dice", "1,2,3,11"], "second side (C1P0)"),
        (["roll", "tempo", "pool", "--dice", "1,1,1,1,1,1,1,1"], "no 6"),
        (["odds", "heimr", "C101P0"], "consistency 101"),
        (["roll", "heimr", "C101P0"], "consistency 101"),
        (["odds", "sides", "9", "vs", "8"], "sides rules have no opposed rolls"),
        (["odds", "diestep", "d7"], "d7 is not on the ladder"),
        (["odds", "standard", "100d1000"], "too large"),
        (["odds", "heimr", "C3P2", "--plot", "/no/such/folder/x.png"], "/no/such/folder"),
    ],
)
def test_bad_input_exits_2_with_one_message_naming_the_bad_part(
    args: list[str], named: str
) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.startswith("fracas: ") and err.count("fracas: ") == 1
    assert named in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "args",
    [["roll"], ["roll", "heimr"], ["roll", "heimr", "C3", "--seed", "x"], ["demo", "--x"]],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_help_leads_with_the_tracker_and_version_is_printed() -> None:
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    out = result.output
    assert out.index("play") < out.index("roll") < out.index("chase")
    for command in ("play", "tables", "export", "import", "roll", "odds", "demo", "chase"):
        assert command in out
    assert "seed" not in out.lower()
    version = runner.invoke(app, ["--version"])
    assert version.exit_code == 0 and version.output.startswith("fracas ")


# --- hostile input (issue 13): one line on stderr, exit 2, never minutes --------------------

BIG = str(10**309)  # past the largest float
HUGE = "1" + "0" * 5000  # past Python's 4,300-digit limit on reading integers


def one_line_refusal(*args: str) -> str:
    code, out, err = run(*args)
    assert code == 2, (args, out, err)
    assert out == ""
    assert err.startswith("fracas: ") and err.endswith("\n") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["odds", "tempo", f"pool+{BIG}"], "a number of 310 digits is too long"),
        (["odds", "standard", f"d20+{BIG}"], "a number of 310 digits is too long"),
        (["odds", "heimr-classic", f"+{BIG}"], "a number of 310 digits is too long"),
        (["roll", "tempo", f"pool+{BIG}"], "at position 5"),
        *[(["odds", s, f"d20+{HUGE}"], "characters is beyond the limit") for s in ("standard",)],
        (["roll", "heimr", f"C3P{HUGE}"], "characters is beyond the limit"),
        (["odds", "heimr", f"C{'9' * 50}"], "a number of 50 digits"),
        (["odds", "sides", "9-1000001"], "beyond the limit of ±1,000,000"),
        (["odds", "standard", "5d1000 vs 5d1000"], "--sample N"),
        (["odds", "standard", "3d1000kh3"], "--sample N"),
        (["odds", "standard", "100d1000", "--json"], "too large for exact odds"),
        (["odds", "standard", "100d1000", "--sample", "1000000"], "take at most 55,555 rolls"),
        (["odds", "heimr", "C3P2", "--sample", "0"], "1 to 1,000,000 rolls"),
        (["odds", "heimr"], "expected an expression after 'heimr'"),
        (["roll"], "Missing argument '[SYSTEM] EXPR'"),
        (["roll", "heimr", "C3", "--seed", "x"], "'--seed'"),
        (["odds", "heimr", "C3", "--sample", "many"], "'--sample'"),
        (["odds", "heimr", "C3Q2"], "at position 3 of 'C3Q2'"),
        (["roll", "dnd\nx", "C3"], "unknown dice system 'dnd\\nx'"),
        (["roll", "heimr", "C1", "--dice", "1," + "9" * 50], "item 2 has 50 digits"),
        (["roll", "heimr", "C1", "--dice", "1,x" + "y" * 5000], "is not a whole number"),
    ],
)
def test_hostile_input_is_refused_in_one_line(args: list[str], named: str) -> None:
    assert named in one_line_refusal(*args)


def test_a_refusal_for_cost_names_the_estimate_instead() -> None:
    err = one_line_refusal("odds", "standard", "5d1000", "vs", "5d1000")
    assert "too large for exact odds" in err and "--sample 100000" in err
    record = run_json("odds", "standard", "5d1000 vs 5d1000", "--sample", "2000", "--seed", "1")
    assert record["sample"] == 2000 and record["seed"] == 1
    low, high = record["p_success_interval"]  # type: ignore[misc]
    assert low < 0.5 < high


def test_big_but_fine_expressions_still_get_exact_odds() -> None:
    record = run_json("odds", "standard", "29d1000")
    assert sum(fractions(record["exact"]).values()) == 1
    assert record["mean"] == pytest.approx(29 * 500.5)
    code, out, _ = run("odds", "standard", "29d1000")
    assert code == 0 and "grouped in" in out
    assert len(out.splitlines()) < 60


def test_an_estimate_shows_intervals_and_repeats_with_its_seed() -> None:
    args = ("odds", "heimr", "C3P2", "vs", "C2P1", "--sample", "3000", "--seed", "4")
    record = run_json(*args)
    assert run_json(*args) == record
    low, high = record["p_success_interval"]  # type: ignore[misc]
    assert low < 483433 / 720000 < high
    assert sum(record["counts"].values()) == 3000  # type: ignore[union-attr]
    code, out, _ = run(*args)
    assert code == 0 and "95% interval" in out and "3,000 rolls (seed 4)" in out
    single = run_json("odds", "standard", "4d6kh3", "--sample", "500", "--seed", "2")
    assert "p_success" not in single and len(single["interval"]) == len(single["counts"])  # type: ignore[arg-type]


def test_hostile_input_through_the_console_script() -> None:
    if not FRACAS.exists():
        pytest.skip(f"no console script at {FRACAS}")
    for args in (["odds", "tempo", f"pool+{BIG}"], ["odds", "standard", "5d1000 vs 5d1000"]):
        done = subprocess.run([str(FRACAS), *args], capture_output=True, text=True, check=False)
        assert done.returncode == 2
        assert done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
