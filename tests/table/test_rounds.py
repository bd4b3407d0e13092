"""Rounds declared by post (HC-ROUND-1, HC-ROUND-2): each side posts through its link,
the posts stay out of the log until the round closes, and closing resolves the round
exactly as the same declarations typed at the table do."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from fracas.table import encounterfile
from fracas.table.rounds import RoundError, Rounds, results
from fracas.table.scripts import Script
from fracas.table.store import Store
from fracas.table.table import Table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FORD = EXAMPLES / "classic" / "ford.yaml"
#: Ford's round 1 as each side posts it (the script's lines, without the 'done's).
NORTH = "ylva attack wolf else=brannoc\nylva attack brannoc\nasa draw arrow\nasa attack wolf"
RAIDERS = "# Brannoc lists no alternative\nbrannoc attack wolf\n\nbrannoc attack ylva"
WOLVES = "wolf attack brannoc\nwolf attack brannoc\nwolf done"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def ford(store: Store | None = None, name: str = "ford") -> Table:
    ruleset, setup, title = encounterfile.load(FORD)
    seed = Script.read(FORD.with_suffix(".script")).seed
    return Table.start(store or Store.open("sqlite://"), name, ruleset, setup, title, seed=seed)


def scripted_round_1() -> list[dict[str, Any]]:
    """The log of ford's round 1 played from its script at the table."""
    table = ford()
    script = Script.read(FORD.with_suffix(".script"))
    lines = [line for _, line in script.lines]
    for line in lines[: lines.index("gm close") + 1]:
        table.push(line)
    return [entry.to_dict() for entry in table.encounter.log]


def log_of(table: Table) -> list[dict[str, Any]]:
    return [entry.to_dict() for entry in table.encounter.log]


@pytest.mark.rule("HC-ROUND-1", "HC-ROUND-2")
def test_closing_resolves_the_posts_exactly_as_the_script_s_round_does() -> None:
    table = ford()
    rounds = Rounds(table.store)
    assert rounds.open(table).round == 1  # 'gm open' is pushed: the fight had not opened
    for side, text in (("wolves", WOLVES), ("raiders", RAIDERS), ("north", NORTH)):
        rounds.post(table, side, text)
    head = table.head
    assert head == 1  # the posts are not in the log
    pushed = rounds.close(table)
    assert pushed[-1] == "gm close"
    assert log_of(table) == scripted_round_1()
    texts = [e.text for entry in table.encounter.log for e in entry.events]
    assert "wolf is gone: brannoc turns on ylva at random" in texts
    assert "wolf is gone: ylva does the alternative, ylva attack brannoc" in texts
    following = rounds.current(table)  # round 2 opens for posts as round 1 closes
    assert following is not None and following.round == 2 and following.posts == ()
    # Every action the close pushed is in the store: the table resumes to the same log.
    assert log_of(Table.resume(table.store, "ford")) == log_of(table)


@pytest.mark.rule("HC-ROUND-1")
def test_a_side_s_second_post_replaces_its_first_and_the_posts_stay_out_of_the_log() -> None:
    table = ford()
    rounds = Rounds(table.store)
    rounds.open(table)
    rounds.post(table, "raiders", "brannoc attack ylva")
    rounds.post(table, "raiders", RAIDERS)
    found = rounds.current(table)
    assert found is not None
    assert found.posted() == ["raiders"]
    post = found.post_of("raiders")
    assert post is not None and post.text == RAIDERS.strip()
    assert "brannoc attack" not in table.dumps(None)  # the save holds no post
    assert table.version == Table.resume(table.store, "ford").version


@pytest.mark.rule("HC-ROUND-1")
@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("wolf attack brannoc\nwolf fly", "line 2: 'fly' is not an action"),
        ("wolf attack brannoc\n\nbrannoc attack ylva", "line 3: wolves cannot act for brannoc"),
        ("wolf attack nobody", "line 1: no combatant called 'nobody'"),
        ("wolf attack brannoc\ngm close", "line 2: 'gm' is neither someone here nor an action"),
        ("wolf attack brannoc\nwolf move Nowhere", "line 2: no position called 'Nowhere'"),
        ("# nothing\n\n", "the post is empty"),
        ("wolf attack brannoc\n" * 101, "the post has 101 lines; at most 100"),
        ("x" * 10_001, "at most 10,000"),
    ],
)
def test_a_bad_post_is_refused_naming_the_line_and_the_earlier_post_stays(
    text: str, error: str
) -> None:
    table = ford()
    rounds = Rounds(table.store)
    rounds.open(table)
    rounds.post(table, "wolves", WOLVES)
    with pytest.raises(RoundError, match=error.replace("(", r"\(")):
        rounds.post(table, "wolves", text)
    found = rounds.current(table)
    assert found is not None
    post = found.post_of("wolves")
    assert post is not None and post.text == WOLVES


@pytest.mark.rule("HC-ROUND-1")
def test_after_the_deadline_anyone_closes_and_who_did_not_post_defends() -> None:
    clock = Clock()
    table = ford()
    rounds = Rounds(table.store, clock)
    rounds.open(table, deadline=clock.now + timedelta(hours=24))
    rounds.post(table, "north", NORTH)
    assert not rounds.close_if_due(table)
    clock.now += timedelta(hours=24)
    with pytest.raises(RoundError, match="deadline has passed"):
        rounds.post(table, "raiders", RAIDERS)
    assert rounds.close_if_due(table)
    typed = [str(entry.action) for entry in table.encounter.log]
    assert typed[-5:] == [
        "brannoc tactic defensive",
        "brannoc done",
        "wolf tactic defensive",
        "wolf done",
        "gm close",
    ]
    texts = [e.text for entry in table.encounter.log for e in entry.events]
    assert "Brannoc the Red fights defensive" in texts
    assert not rounds.close_if_due(table)  # closed once


@pytest.mark.rule("HC-ROUND-1")
def test_the_next_round_opens_for_posts_as_one_closes_with_its_defaults_and_deadline() -> None:
    clock = Clock()
    table = ford()
    rounds = Rounds(table.store, clock)
    defaults = {"wolves": "wolf attack brannoc", "raiders": "brannoc attack ylva"}
    rounds.open(table, deadline=clock.now + timedelta(hours=24), defaults=defaults)
    rounds.post(table, "north", NORTH)
    clock.now += timedelta(hours=25)
    assert rounds.close_if_due(table)
    following = rounds.current(table)
    assert following is not None and following.round == 2 and not following.due(clock.now)
    assert following.deadline == clock.now + timedelta(hours=24)  # as long as round 1's
    # The wolf is out of the fight: its side's default no longer checks, and is dropped.
    assert following.defaults == {"raiders": "brannoc attack ylva"}
    rounds.post(table, "north", "ylva attack brannoc")  # round 2 takes posts
    assert rounds.close(table, then_open=False)[-1] == "gm close"
    assert rounds.current(table) is None


@pytest.mark.rule("HC-ROUND-1")
def test_the_game_master_s_default_for_a_side_is_checked_when_the_round_opens() -> None:
    table = ford()
    rounds = Rounds(table.store)
    with pytest.raises(RoundError, match="the default for wolves, line 1: wolves cannot act"):
        rounds.open(table, defaults={"wolves": "brannoc attack ylva"})
    assert table.head == 0 and rounds.current(table) is None  # nothing changed
    rounds.open(table, defaults={"wolves": "wolf attack ylva", "raiders": "defend"})
    rounds.post(table, "north", NORTH)
    rounds.close(table)
    typed = [str(entry.action) for entry in table.encounter.log]
    assert typed[-5:] == [
        "brannoc tactic defensive",
        "brannoc done",
        "wolf attack ylva",
        "wolf done",
        "gm close",
    ]


@pytest.mark.rule("HC-ROUND-1")
def test_undo_after_a_close_takes_back_the_close_and_redo_puts_it_back() -> None:
    table = ford()
    rounds = Rounds(table.store)
    rounds.open(table)
    for side, text in (("north", NORTH), ("raiders", RAIDERS), ("wolves", WOLVES)):
        rounds.post(table, side, text)
    rounds.close(table)
    closed = log_of(table)
    assert str(table.undo()) == "gm close"
    assert table.encounter.state.round == 1
    assert table.encounter.state.posted == ["ylva", "asa", "brannoc", "wolf"]
    assert rounds.current(table) is None  # the posted round stays closed
    assert str(table.redo()) == "gm close"
    assert log_of(table) == closed


@pytest.mark.rule("HC-ROUND-1")
def test_a_close_cut_short_goes_on_where_it_stopped() -> None:
    store = Store.open("sqlite://")
    table = ford(store)
    rounds = Rounds(store)
    rounds.open(table)
    for side, text in (("north", NORTH), ("raiders", RAIDERS), ("wolves", WOLVES)):
        rounds.post(table, side, text)
    real, calls = table.push, []

    def dies_at_the_fifth(action: Any, side: str | None = None) -> Any:
        calls.append(action)
        if len(calls) == 5:
            raise KeyboardInterrupt  # the process dies here
        return real(action, side)

    table.push = dies_at_the_fifth  # type: ignore[method-assign]
    with pytest.raises(KeyboardInterrupt):
        rounds.close(table)
    again = Table.resume(store, "ford")
    assert again.head == 5 and rounds.current(again) is not None
    rounds.close(again)
    assert log_of(again) == scripted_round_1()


@pytest.mark.rule("HC-ROUND-1")
def test_a_line_the_table_refuses_at_the_close_is_left_out_and_its_side_told() -> None:
    table = ford()
    rounds = Rounds(table.store)
    rounds.open(table)
    rounds.post(table, "north", NORTH)
    table.push("ylva done")  # the game master finished Ylva's post at the table meanwhile
    rounds.close(table)
    typed = [str(entry.action) for entry in table.encounter.log]
    assert "ylva attack brannoc" not in typed
    notes = [e for entry in table.encounter.log for e in entry.events if e.kind == "note"]
    assert notes and all(n.seen_by == frozenset({"north"}) for n in notes)
    assert "line 1 of the post (ylva attack wolf else=brannoc) was refused" in notes[0].text


def test_a_round_closed_at_the_table_is_no_longer_open_for_posts() -> None:
    table = ford()
    rounds = Rounds(table.store)
    rounds.open(table)
    with pytest.raises(RoundError, match="open for posts already"):
        rounds.open(table)
    table.push("gm close")
    assert rounds.current(table) is None
    with pytest.raises(RoundError, match="no round is open for posts"):
        rounds.post(table, "north", NORTH)
    assert rounds.open(table).round == 2


def test_only_rulesets_with_declared_rounds_play_by_post() -> None:
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr" / "duel.yaml")
    table = Table.start(Store.open("sqlite://"), "duel", ruleset, setup, title, seed=1)
    with pytest.raises(RoundError, match="has no declared rounds to post: only heimr-classic"):
        Rounds(table.store).open(table)


@pytest.mark.rule("HC-ROUND-2")
@pytest.mark.parametrize(("fmt", "suffix"), [("markdown", "md"), ("bbcode", "bbcode")])
def test_the_posted_round_s_forum_post_matches_its_golden_file(fmt: str, suffix: str) -> None:
    table = ford()
    rounds = Rounds(table.store)
    rounds.open(table)
    for side, text in (("north", NORTH), ("raiders", RAIDERS), ("wolves", WOLVES)):
        rounds.post(table, side, text)
    rounds.close(table)
    golden = Path(__file__).with_name("posts") / f"ford-posted-round-1.{suffix}"
    assert results(table, fmt) == golden.read_text(encoding="utf-8").removesuffix("\n")


def test_a_post_that_comes_while_the_round_closes_is_counted_or_refused() -> None:
    table = ford()
    rounds = Rounds(table.store)
    rounds.open(table)
    rounds.post(table, "north", NORTH)
    plan = rounds._plan
    late: list[str] = []

    def a_post_comes_in(table_: Table, found: Any) -> list[list[str]]:
        if not late:  # while the first closing list is worked out, the raiders post
            late.append("raiders")
            rounds.post(table, "raiders", RAIDERS)
        return plan(table_, found)

    rounds._plan = a_post_comes_in  # type: ignore[method-assign]
    rounds.close(table)
    typed = [str(entry.action) for entry in table.encounter.log]
    assert "brannoc attack ylva" in typed and "brannoc tactic defensive" not in typed

    other = ford(name="ford2")
    rounds = Rounds(other.store)
    rounds.open(other)
    found = rounds.current(other)
    assert found is not None
    rounds._claim(other, found)  # a close has begun
    with pytest.raises(RoundError, match="the round is closing: this post came too late"):
        rounds.post(other, "north", NORTH)


@pytest.mark.rule("HC-ROUND-1")
def test_fracas_round_opens_posts_shows_and_closes_from_the_terminal(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from fracas.cli import app

    db = f"sqlite:///{tmp_path / 'tables.db'}"
    ford(Store.open(db))
    runner = CliRunner()

    def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
        done = runner.invoke(app, ["round", *args, "--db", db], input=stdin)
        return done.exit_code, done.output

    assert run("open", "ford", "--default", "wolves=wolf attack ylva") == (
        0,
        "round 1 of ford is open for posts\n",
    )
    code, out = run("post", "ford", "north", "-", stdin=NORTH + "\nasa fly\n")
    assert code == 2 and "fracas: line 5: 'fly' is not an action" in out
    post = tmp_path / "raiders.txt"
    post.write_text(RAIDERS, encoding="utf-8")
    assert run("post", "ford", "raiders", str(post)) == (
        0,
        "the post of raiders for ford is stored\n",
    )
    code, out = run("status", "ford")
    assert code == 0 and "  north: not posted yet\n" in out and "    brannoc attack ylva\n" in out
    code, out = run("close", "ford")
    assert code == 0
    assert out.splitlines()[-4:] == ["brannoc done", "wolf attack ylva", "wolf done", "gm close"]
    code, out = run("status", "ford")  # the next round opened as this one closed
    assert code == 0 and out.startswith("round 2 is open for posts\n")
