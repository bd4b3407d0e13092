"""The terminal tracker at the table: the screen fits 80×24, typing is forgiving but
exact, numbers stay put, and dice typed in from the table can be taken back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from fracas.dice import parse
from fracas.table import encounterfile
from fracas.table.dicemode import AskedDice, RollRequest
from fracas.table.scripts import Script
from fracas.table.store import Store
from fracas.table.table import Table
from fracas.tracker import Leave, Tracker

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def tracker(example: str, side: str | None = None, answers: Iterator[str] | None = None) -> Tracker:
    ruleset, setup, title = encounterfile.load(EXAMPLES / f"{example}.yaml")
    seed = Script.read(EXAMPLES / f"{example}.script").seed
    table = Table.start(Store.open("sqlite://"), "t", ruleset, setup, title, seed=seed)
    console = Console(width=80, height=24, record=True, color_system=None)
    ask = (lambda prompt: next(answers)) if answers is not None else None
    return Tracker(table, console, side, ask)


def shown(t: Tracker) -> list[str]:
    t.console.print(t.render(80, 24))
    return t.console.export_text().rstrip("\n").split("\n")


def test_the_ambush_turn_fits_one_80_by_24_screen() -> None:
    t = tracker("heimr/ambush")
    t.handle("gm begin")
    lines = shown(t)
    assert len(lines) <= 23  # the 24th line is the prompt's
    assert all(len(line) <= 80 for line in lines)
    text = "\n".join(lines)
    people = t.table.encounter.state.combatants.values()
    for person in people:
        assert person.name in text  # no name cut
    offered = t.table.screen(None).offered
    numbers = [n for n, _ in t.numbering.number(t.table.encounter.to_move, offered)]
    for n in numbers:
        assert f"{n} " in text
    assert "round 1" in text and "to act" in text


def test_names_and_verbs_in_any_case_by_prefix_with_the_one_to_act_as_default() -> None:
    t = tracker("heimr/duel")
    t.handle("GM BEGIN")
    first = t.table.encounter.to_move
    assert first is not None
    t.handle("END")  # the one to act ends the turn
    assert t.message == "" and t.table.encounter.to_move != first
    actor = t.table.encounter.to_move
    target = "astrid" if actor == "ylva" else "ylva"
    t.handle(f"{actor.upper()} ATT {target[:2]}")
    assert t.message == ""
    assert str(t.table.encounter.log[-1].action) == f"{actor} attack {target}"


def test_unknown_words_and_people_are_refused_before_the_turn_economy() -> None:
    t = tracker("heimr/duel")
    t.handle("gm begin")
    actor = t.table.encounter.to_move
    assert actor is not None
    t.handle(f"{actor} end now")
    assert "'end' takes no target" in t.message
    target = "astrid" if actor == "ylva" else "ylva"
    t.handle(f"{actor} attack {target}")
    t.handle(f"{actor} attack bob")
    assert "no combatant called 'bob'" in t.message
    t.handle("dance")
    assert "neither someone here nor an action" in t.message


def test_action_numbers_stay_put_within_a_turn() -> None:
    t = tracker("heimr/ambush")
    t.handle("gm begin")
    actor = t.table.encounter.to_move
    before = dict((text, n) for n, text in t.numbering.number(actor, t.table.screen(None).offered))
    t.handle(f"{actor} prone")  # a free action: the turn goes on
    after = t.numbering.number(actor, t.table.screen(None).offered)
    assert after and all(before[text] == n for n, text in after if text in before)


def test_help_and_log_return_to_the_prompt_without_eating_a_command() -> None:
    t = tracker("heimr/duel")
    t.handle("help")
    assert t.pager and "undo / redo" in "\n".join(t.pager)
    t.handle("gm begin")
    assert t.table.head == 1
    t.handle("log")
    assert t.pager and "> gm begin" in t.pager


def test_undo_shows_a_side_nothing_of_what_was_undone() -> None:
    t = tracker("heimr/ambush", side="raiders")
    t.table.push("gm begin")
    t.table.push("eirik hide")
    t.handle("undo")
    assert t.message == "The last action was taken back." and "eirik" not in t.message


def test_quit_leaves_and_loses_nothing() -> None:
    t = tracker("heimr/duel")
    t.handle("gm begin")
    with pytest.raises(Leave):
        t.handle("quit")
    assert Table.resume(t.table.store, "t").head == 1


def test_a_faces_prompt_takes_undo_quit_and_again() -> None:
    answers = iter(["undo"])
    t = tracker("heimr/duel", answers=answers)
    t.handle("dice")
    t.handle("gm begin")  # initiative asks for dice: 'undo' takes the action back
    assert t.table.head == 0 and "taken back" in t.message
    t.table.encounter.dice.ask = lambda request: "quit"  # type: ignore[attr-defined]
    with pytest.raises(Leave):
        t.handle("gm begin")
    assert t.table.head == 0


def test_end_of_input_at_a_faces_prompt_leaves_without_applying() -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    t = tracker("heimr/duel")
    t.ask = closed
    t.handle("dice")
    with pytest.raises(Leave):
        t.handle("gm begin")
    assert t.table.head == 0


def _throws(draw: st.DrawFn) -> list[list[int]]:
    misses = draw(st.lists(st.lists(st.integers(1, 5), min_size=8, max_size=8), max_size=3))
    last = draw(st.lists(st.integers(1, 6), min_size=8, max_size=8).filter(lambda t: 6 in t))
    return [*misses, last]


@given(throws=st.composite(_throws)(), rating=st.integers(-5, 9))
def test_the_tempo_pool_typed_in_throw_by_throw_equals_fracas_roll_dice(
    throws: list[list[int]], rating: int
) -> None:
    mechanic = parse("tempo", f"pool{rating:+d}")
    answers = iter(" ".join(map(str, throw)) for throw in throws)
    asked: list[RollRequest] = []

    def ask(request: RollRequest) -> str:
        asked.append(request)
        return next(answers)

    typed = AskedDice(ask).roll(mechanic, "Sigrun attacks")
    whole = mechanic.evaluate([f for throw in throws for f in throw])
    assert typed.result == whole.result
    assert [r.throw for r in asked] == list(range(1, len(throws) + 1))


def test_again_restarts_a_pool_typed_in() -> None:
    answers = iter(["1 1 1 1 1 1 1 1", "again", "6 1 1 1 1 1 1 1"])
    roll = AskedDice(lambda request: next(answers)).roll(parse("tempo", "pool"), "x")
    assert roll.result == 0


def test_a_row_shows_effects_with_their_numbers_and_turns_left() -> None:
    t = tracker("heimr/duel")
    t.handle("gm begin")
    t.handle("gm effect astrid name=Stumble number=4 from=ylva direction=left")
    assert t.message == ""
    gm = {row.id: row for row in t.table.screen(None).rows}
    effect = next(e for e in gm["astrid"].effects if e.startswith("Stumble"))
    assert effect.startswith("Stumble 4 (") and "left)" in effect
    raiders = {row.id: row for row in t.table.screen("raiders").rows}
    assert any(e.startswith("Stumble 4") for e in raiders["astrid"].effects)
    shieldwall = {row.id: row for row in t.table.screen("shieldwall").rows}
    assert "Stumble" in shieldwall["astrid"].effects  # seen, but not its number


def test_a_readied_action_is_shown_to_its_side_and_offered_when_it_may_go_off() -> None:
    t = tracker("heimr/duel")
    t.handle("gm begin")
    if t.table.encounter.to_move != "ylva":
        t.handle("end")
    t.handle("ylva ready action='attack astrid' trigger='astrid attacks'")
    assert t.message == ""
    own = {row.id: row for row in t.table.screen("shieldwall").rows}
    assert own["ylva"].readied == "ready: attack astrid when astrid attacks"
    other = {row.id: row for row in t.table.screen("raiders").rows}
    assert other["ylva"].readied is None  # the other side does not see what she readied
    t.handle("end")
    t.handle("astrid attack ylva")
    assert "ylva trigger" in t.table.screen(None).offered
    assert "ylva trigger" in t.table.screen("shieldwall").offered
    assert "ylva trigger" not in t.table.screen("raiders").offered
    t.handle("ylva trigger")
    assert t.message == "" and "goes off" in "\n".join(t.table.screen(None).log)


def test_the_end_says_who_won() -> None:
    t = tracker("heimr/duel")
    script = Script.read(EXAMPLES / "heimr" / "duel.script")
    script.play(t.table)
    assert t.table.is_over()
    assert t.table.screen("raiders").status.startswith("The encounter is over: ")
    assert "won by" in t.table.screen(None).status


def test_the_map_is_drawn_on_demand_on_a_small_screen() -> None:
    t = tracker("heimr/ambush")
    t.handle("gm begin")
    without = shown(t)
    t.handle("map")
    t.console = Console(width=80, height=24, record=True, color_system=None)
    with_map = shown(t)
    extra = [line for line in with_map if line not in without]
    assert any("A" in line and "B" in line and "C" in line for line in extra)
