"""A table another screen or process changed catches up incrementally: it applies only the
new actions, takes back the undone ones, and replays the whole log only when the change
reaches far below its head; either way it ends exactly as a fresh resume (state, log, and
the dice that come next)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.engine import Encounter, view
from fracas.table import encounterfile
from fracas.table.store import LOOK_BACK, Store
from fracas.table.table import Table

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples" / "heimr" / "duel.yaml"


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every whole replay (:meth:`Encounter.load`) counted, with the entries it replays."""
    counted: list[int] = []
    real = Encounter.load.__func__  # type: ignore[attr-defined]

    def counting(cls: Any, data: Any, *args: Any, **kwargs: Any) -> Any:
        counted.append(len(data["log"]))
        return real(cls, data, *args, **kwargs)

    monkeypatch.setattr(Encounter, "load", classmethod(counting))
    return counted


def moves() -> Iterator[str]:
    """Cheap legal actions for the duel, forever: turns ended (each rolls a parry) and notes."""
    n = 0
    while True:
        n += 1
        yield "gm note text='a breath'" if n % 5 == 0 else "end"


def two_screens(tmp_path: Path, actions: int = 30) -> tuple[Table, Table, Iterator[str]]:
    """One table seen by two processes (two stores on one file), ``actions`` in."""
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    ruleset, setup, title = encounterfile.load(DUEL)
    ours = Table.start(Store.open(url), "duel", ruleset, setup, title, seed=3)
    ours.push("gm begin")
    play = moves()
    for _ in range(actions - 1):
        ours.push(next(play))
    theirs = Table.resume(Store.open(url, migrate=False), "duel")
    return ours, theirs, play


def same_as_fresh(table: Table) -> None:
    """``table`` is what a fresh resume gives: state, log, dice, and the next roll."""
    fresh = Table.resume(table.store, table.name)
    assert table.version == fresh.version
    assert table.export() == fresh.export()  # the log and the dice's state
    assert table.stored() == fresh.stored() == table.store.count_actions(table.id)
    assert view(table.encounter, None, 0) == view(fresh.encounter, None, 0)
    mover = fresh.encounter.to_move
    assert mover == table.encounter.to_move
    if mover is not None:
        # The same action rolls the same faces on both (neither is committed).
        ours, theirs = table.encounter.copy(), fresh.encounter.copy()
        assert ours.push(f"{mover} end") == theirs.push(f"{mover} end")
        assert ours.log[-1].rolls == theirs.log[-1].rolls


def test_a_table_behind_applies_only_the_new_actions(tmp_path: Path, loads: list[int]) -> None:
    ours, theirs, play = two_screens(tmp_path)
    loads.clear()  # the other screen's resume
    for _ in range(7):
        theirs.push(next(play))
    ours.sync()
    assert loads == []
    assert ours.head == 37
    same_as_fresh(ours)
    ours.push(next(play))  # and it plays on from there
    theirs.sync()
    assert loads == [37]  # the check's own fresh resume, nothing else
    same_as_fresh(theirs)


def test_an_undo_elsewhere_is_taken_back_without_a_replay(tmp_path: Path, loads: list[int]) -> None:
    ours, theirs, _ = two_screens(tmp_path)
    loads.clear()  # the other screen's resume
    for _ in range(3):
        theirs.undo()
    ours.sync()
    assert (loads, ours.head) == ([], 27)
    same_as_fresh(ours)
    theirs.sync()
    theirs.redo()
    ours.sync()
    assert (loads, ours.head) == ([27], 28)
    same_as_fresh(ours)


def test_undone_then_played_differently_elsewhere_pops_and_applies(
    tmp_path: Path, loads: list[int]
) -> None:
    ours, theirs, play = two_screens(tmp_path)
    loads.clear()  # the other screen's resume
    for _ in range(4):
        theirs.undo()
    theirs.push("gm note text='otherwise'")  # replaces the row at ply 27 and those above
    theirs.push(next(play))
    ours.sync()
    assert loads == []
    assert [str(e.action) for e in ours.encounter.log[26:]] == [
        "gm note text=otherwise",
        str(theirs.encounter.log[-1].action),
    ]
    same_as_fresh(ours)


def test_a_table_ahead_of_the_store_pops_back(tmp_path: Path, loads: list[int]) -> None:
    ours, theirs, _ = two_screens(tmp_path)
    loads.clear()  # the other screen's resume
    theirs.undo()
    theirs.undo()
    theirs.redo()
    ours.sync()
    assert (loads, ours.head) == ([], 29)
    same_as_fresh(ours)


def test_a_change_far_below_the_head_replays_the_whole_log(
    tmp_path: Path, loads: list[int]
) -> None:
    ours, theirs, play = two_screens(tmp_path, actions=LOOK_BACK + 20)
    loads.clear()  # the other screen's resume
    for _ in range(LOOK_BACK + 5):
        ours.undo()
    for _ in range(LOOK_BACK + 10):
        ours.push(next(play))  # every row near the other screen's head is replaced
    theirs.sync()
    assert loads == [theirs.head] == [LOOK_BACK + 25]
    same_as_fresh(theirs)
    loads.clear()
    for _ in range(LOOK_BACK - 5):
        ours.undo()
    ours.push("gm note text='long ago'")
    theirs.sync()  # it takes back 58 entries: what it holds below is still stored
    assert (loads, theirs.head) == ([], 31)
    same_as_fresh(theirs)
    loads.clear()
    for _ in range(LOOK_BACK + 6):
        ours.push(next(play))
    theirs.sync()
    assert (loads, theirs.head) == ([], LOOK_BACK + 37)
    for _ in range(LOOK_BACK + 6):
        ours.undo()
    theirs.sync()  # taking back that many entries costs more than a replay
    assert loads == [31]
    same_as_fresh(theirs)


def test_the_dice_go_on_from_the_stored_state(tmp_path: Path, loads: list[int]) -> None:
    ours, theirs, play = two_screens(tmp_path)
    loads.clear()  # the other screen's resume
    theirs.push(next(play))
    theirs.push(next(play))  # rolls: the stored dice moved on
    ours.sync()
    events = ours.push("end")
    theirs.sync()
    assert loads == []
    assert theirs.encounter.log[-1].events == events
    same_as_fresh(ours)


def test_a_table_another_screen_changes_in_the_same_process(loads: list[int]) -> None:
    store = Store.open("sqlite://")
    ruleset, setup, title = encounterfile.load(DUEL)
    one = Table.start(store, "duel", ruleset, setup, title, seed=5)
    one.push("gm begin")
    other = Table.resume(store, "duel")
    other.push("end")
    one.push("end")  # syncs first: it acts after the other screen's action
    first, second = (str(e.action) for e in one.encounter.log[1:])
    assert first == str(other.encounter.log[-1].action)
    assert {first.split()[0], second.split()[0]} == {"ylva", "astrid"}
    assert loads == [1]  # the other screen's resume only


@pytest.mark.parametrize("side", [None, "raiders", "shieldwall"])
def test_a_screen_builds_only_the_log_entries_its_last_lines_come_from(
    side: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fracas.table.table as table_module

    ruleset, setup, title = encounterfile.load(DUEL)
    table = Table.start(Store.open("sqlite://"), "duel", ruleset, setup, title, seed=2)
    table.push("gm begin")
    sides = table.sides()
    assert side is None or side in sides
    for n in range(60):
        table.push("end")
        table.push(f"gm note text='for {sides[n % 2]} only' to={sides[n % 2]}")
    whole = table.screen(side, log_tail=0).log
    built: list[int] = []
    real = table_module.side_entry

    def counting(events: Any, who: str | None) -> Any:
        built.append(1)
        return real(events, who)

    monkeypatch.setattr(table_module, "side_entry", counting)
    for tail in (1, 5, 12):
        built.clear()
        assert table.screen(side, log_tail=tail).log == whole[-tail:]
        assert len(built) <= table_module.LOOK_BACK_LINES * tail
    assert not any("only" in line for line in whole if side and side not in line)


def test_the_count_of_stored_actions_follows_undo_redo_and_push(tmp_path: Path) -> None:
    """What Redo may bring back: undone rows stay stored until an action replaces them."""
    ours, theirs, play = two_screens(tmp_path, actions=5)
    ours.undo()
    ours.undo()
    assert (ours.head, ours.stored()) == (3, 5)
    ours.redo()
    assert (ours.head, ours.stored()) == (4, 5)
    theirs.sync()
    assert (theirs.head, theirs.stored()) == (4, 5)
    theirs.push(next(play))  # drops the row undone above
    ours.sync()
    assert (ours.head, ours.stored()) == (5, 5) == (theirs.head, theirs.stored())
    same_as_fresh(ours)
