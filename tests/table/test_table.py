"""The table service: actions committed as pushed, resumed exactly, undone and redone,
exported for the game master or one side, and a stalled fight told."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fracas.rules.heimr.ruleset import HeimrRules
from fracas.table import encounterfile
from fracas.table.outcome import STALL_ROUNDS
from fracas.table.scripts import Script
from fracas.table.store import Store
from fracas.table.table import Table, TableError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def start(store: Store, example: str, name: str = "t") -> tuple[Table, Script]:
    ruleset, setup, title = encounterfile.load(EXAMPLES / f"{example}.yaml")
    script = Script.read(EXAMPLES / f"{example}.script")
    return Table.start(store, name, ruleset, setup, title, seed=script.seed), script


@pytest.mark.parametrize("example", ["heimr/ambush", "classic/ford", "sides/ambush", "tempo/feint"])
def test_a_resumed_table_plays_on_exactly_as_an_uninterrupted_one(example: str) -> None:
    whole, script = start(Store.open("sqlite://"), example)
    script.play(whole)
    store = Store.open("sqlite://")
    half, _ = start(store, example)
    for _, line in script.lines[: len(script.lines) // 2]:
        half.push(line)
    resumed = Table.resume(store, "t")
    script.play(resumed, resume=True)
    assert resumed.export() == whole.export()


def test_undo_and_redo_move_the_stored_head_and_redo_rolls_the_same_dice() -> None:
    store = Store.open("sqlite://")
    table, script = start(store, "heimr/duel")
    for _, line in script.lines[:4]:
        table.push(line)
    before = table.export()
    undone = table.undo()
    assert str(undone) == script.lines[3][1]
    assert Table.resume(store, "t").head == 3
    table.redo()
    assert table.export()["log"] == before["log"]
    assert Table.resume(store, "t").export()["log"] == before["log"]
    with pytest.raises(TableError, match="nothing to redo"):
        table.redo()


def test_a_new_action_after_an_undo_drops_the_undone_one() -> None:
    store = Store.open("sqlite://")
    table, _ = start(store, "heimr/duel")
    table.push("gm begin")
    table.undo()
    table.push("gm begin")
    assert [a.action for a in store.actions(table.id)] == ["gm begin"]


def test_another_screen_s_action_is_seen_before_pushing() -> None:
    store = Store.open("sqlite://")
    gm, _ = start(store, "heimr/duel")
    other = Table.resume(store, "t")
    other.push("gm begin")
    actor = other.encounter.to_move
    gm.push(f"{actor} end")  # syncs first: begins are not lost, nor doubled
    assert [a.action for a in store.actions(gm.id)] == ["gm begin", f"{actor} end"]


def test_export_and_import_round_trip(tmp_path: Path) -> None:
    store = Store.open("sqlite://")
    table, script = start(store, "heimr/duel")
    script.play(table)
    copy = Table.import_save(store, "copy", json.loads(table.dumps()))
    assert copy.export()["log"] == table.export()["log"]
    assert copy.head == table.head


def test_a_side_s_export_is_its_view_only_and_cannot_be_imported() -> None:
    store = Store.open("sqlite://")
    table, script = start(store, "heimr/ambush")
    script.play(table)
    side = table.export("raiders")
    assert side["side"] == "raiders" and "log" not in side and "setup" not in side
    with pytest.raises(ValueError, match="one side's view"):
        Table.import_save(store, "x", side)


def test_an_unknown_side_is_refused_with_the_list_of_sides() -> None:
    table, _ = start(Store.open("sqlite://"), "heimr/ambush")
    with pytest.raises(
        TableError, match="no side called 'raider': the sides are raiders, shieldwall"
    ):
        table.screen("raider")
    with pytest.raises(TableError, match="no side called"):
        table.export("raider")


def test_a_side_cannot_act_for_another_side() -> None:
    table, _ = start(Store.open("sqlite://"), "heimr/duel")
    table.push("gm begin")
    actor = table.encounter.to_move
    other = "raiders" if table._owner(str(actor)) == "shieldwall" else "shieldwall"
    with pytest.raises(TableError, match="cannot act for"):
        table.push(f"{actor} end", side=other)
    assert table.screen(other).offered == ()


def test_a_fight_where_nobody_is_harmed_is_told_stalled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HeimrRules, "harm", lambda self, state: ("nobody hurt",))
    table, _ = start(Store.open("sqlite://"), "heimr/duel")
    table.push("gm begin")
    while table.encounter.state.round <= STALL_ROUNDS:
        assert table.outcome() is None
        table.push(f"{table.encounter.to_move} end")
    assert "has stalled" in str(table.outcome())
    assert "has stalled" in table.screen("raiders").status
