"""The Pitfight plugin (examples/plugins/pitfight), a ruleset distribution of its own that
fracas finds by its entry point, plays everywhere fracas plays, with fracas unchanged:
at the terminal, on the web table (every side's page checked for what it hides), in
``fracas sim`` and ``fracas sweep``, in the books, and with its odds shown."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from tests.web.webtools import Web, text_of
from typer.testing import CliRunner

from fracas import rules
from fracas.cli import app
from fracas.engine import Action, Encounter, RandomDice
from fracas.ledger.entries import LedgerError
from fracas.ledger.ledger import Ledger
from fracas.table import encounterfile
from fracas.table.odds import attack_odds
from fracas.table.scripts import Script
from fracas.table.store import Store
from fracas.table.table import Table

try:
    import pitfight  # noqa: F401  (the plugin, installed by make's dev install)
except ImportError:  # pragma: no cover
    pytest.fail(
        "the Pitfight plugin is not installed: make .venv/.dev-installed "
        "(pip install -e examples/plugins/pitfight)",
        pytrace=False,
    )

ROOT = Path(__file__).resolve().parents[2]
PIT = ROOT / "examples" / "plugins" / "pitfight" / "encounters"
runner = CliRunner()


def fracas(*words: str | Path) -> tuple[int, str]:
    result = runner.invoke(app, [str(w) for w in words])
    return result.exit_code, result.output


def test_fracas_finds_the_plugin_by_its_entry_point() -> None:
    assert "pitfight" in rules.ids()
    assert rules.info("pitfight").source == "fracas-pitfight"
    code, out = fracas("rulesets", "--json")
    assert code == 0, out
    row = next(r for r in json.loads(out) if r["id"] == "pitfight")
    assert row == {
        "id": "pitfight",
        "name": "Pitfight",
        "version": "1.0.0",
        "source": "fracas-pitfight 1.0.0",
    }


@pytest.mark.parametrize("side", [None, "north", "south"])
def test_it_plays_at_the_terminal_to_the_end(side: str | None) -> None:
    extra = ["--side", side] if side else []
    code, out = fracas("play", PIT / "pit.yaml", "--script", PIT / "pit.script", *extra)
    assert code == 0, out
    assert "The encounter is over: won by north." in out
    # P-HIDE-1: Sigrun ends at 5 of 7 hit points, which only north and the GM know.
    assert ("HP 5/7" in out) == (side in (None, "north"))
    assert ("Sigrun takes 2 (5 left)" in out) == (side in (None, "north"))


def _secrets(table: Table, side: str) -> list[str]:
    """What ``side`` may never see (patterns): the hit points of the other sides'
    fighters, now or as a blow left them."""
    found = []
    for f in table.encounter.state.combatants.values():
        if f.side != side:
            found += [rf"(?<!\d){f.hp}/{f.max_hp}\b", rf"{f.name} takes \d+ \(-?\d+ left\)"]
    return found


def test_on_the_web_every_side_sees_its_own_hit_points_and_no_others(tmp_path: Path) -> None:
    played = Script.read(PIT / "pit.script")
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    web.start("plugins/pitfight/encounters/pit.yaml", seed=played.seed)
    table = Table.resume(web.store, "t")
    sides = table.sides()
    assert sorted(sides) == ["north", "south"]
    links = {side: web.link(side) for side in sides}
    players = {side: web.client() for side in sides}
    leaks: list[str] = []
    for number, line in played.lines:
        status, text = web.act(line)
        assert status == 303, f"line {number} ({line}): {text[:300]}"
        table.sync()
        gm = text_of(web.page())
        for f in table.encounter.state.combatants.values():
            assert f"{f.hp}/{f.max_hp}" in gm, f"line {number}: the GM does not see {f.name}"
        for side in sides:
            page = text_of(players[side].get(links[side]).text)
            live = text_of(players[side].get(links[side] + "/live?v=-1").text)
            screen = players[side].get(links[side] + "/screen.json").text
            export = players[side].get(links[side] + "/export.json").text
            mine = [f for f in table.encounter.state.combatants.values() if f.side == side]
            assert all(f"{f.hp}/{f.max_hp}" in page for f in mine), (number, side)
            for secret in _secrets(table, side):
                shown = (("page", page), ("live", live), ("json", screen), ("export", export))
                leaks += [
                    f"line {number}, {side}'s {name}: {secret}"
                    for name, text in shown
                    if re.search(secret, text)
                ]
    assert not leaks, "\n".join(leaks)
    assert table.encounter.is_over()


def test_the_game_master_sees_the_odds_of_a_blow() -> None:
    store = Store.open("sqlite://")
    ruleset, setup, title = encounterfile.load(PIT / "pit.yaml")
    table = Table.start(store, "t", ruleset, setup, title, seed=5)
    odds = attack_odds(table, "ylva hit brannoc")
    assert odds is not None
    assert odds.hit == Fraction(5, 6)  # P-HIT-1: 2d6+2 reaching 7 (Brannoc's guard 0)
    assert dict(odds.damage) == {0: Fraction(1, 6), 1: Fraction(5, 18), 2: Fraction(5, 18),
                                 3: Fraction(5, 18)}  # fmt: skip
    assert attack_odds(table, "ylva brace") is None
    code, out = fracas("odds", "pitfight", "attack", "2", "vs", "0", "--json")
    assert code == 0, out
    assert Fraction(json.loads(out)["lines"][0]["hit"]["exact"]) == odds.hit
    code, out = fracas("odds", "pitfight", "attack", "9", "vs", "0")
    assert code == 2 and "out of bounds" in out


def test_it_simulates_on_worker_processes_and_dask_and_sweeps(tmp_path: Path) -> None:
    records = []
    for name, where in (("pool", ["--workers", "2"]), ("dask", ["--dask", "local:2"])):
        out = tmp_path / f"{name}.json"
        code, text = fracas(
            "sim", PIT / "pit.yaml", "--runs", "60", "--seed", "3", *where, "--json", out
        )
        assert code == 0, text
        records.append(json.loads(out.read_text()))
    record = records[0]
    assert record["ruleset"] == "pitfight" and record["runs"] == 60
    wins = record["summary"]["sides"]
    assert wins["north"]["wins"] + wins["south"]["wins"] + record["summary"]["draws"] == 60
    assert records[1]["summary"] == record["summary"]  # the same runs, wherever played
    code, text = fracas(
        "sweep", PIT / "pit.yaml", "--vary", "brannoc.attack=0..2", "--runs", "20",
        "--seed", "3", "--out", tmp_path / "sweep",
    )  # fmt: skip
    assert code == 0, text
    lines = (tmp_path / "sweep" / "sweep.csv").read_text().splitlines()
    assert lines[0].startswith("brannoc.attack,north_win_rate")
    assert len(lines) == 4


def test_the_books_carry_hit_points_and_death_into_the_next_fight() -> None:
    ledger = Ledger(Store.open("sqlite://"))
    ledger.import_file("pit", PIT / "campaign.yaml", ruleset="pitfight")
    played = Script.read(PIT / "pit.script")
    fighters = {"combatants": [{"character": c} for c in ("ylva", "brannoc", "sigrun")]}
    table = ledger.start_encounter("pit", "first", fighters, seed=played.seed)
    for _, line in played.lines:
        table.push(line)
    ledger.conclude("first")
    carried = ledger.standing("pit").carried
    assert carried == {"sigrun": {"hp": 5}, "brannoc": {"dead": True}}
    with pytest.raises(LedgerError, match="brannoc is dead"):
        ledger.start_encounter("pit", "second", fighters)
    again = {"combatants": [{"character": "sigrun"}, {"character": "ylva", "side": "south"}]}
    second = ledger.start_encounter("pit", "second", again, seed=1)
    assert second.encounter.state.combatants["sigrun"].hp == 5
    with pytest.raises(LedgerError, match="hp"):  # P-SHEET-1's bounds, from its sheet model
        ledger.record("pit", "character", "ulf", {"sheet": {"name": "Ulf", "side": "x", "hp": 99}})


def test_a_save_of_the_plugin_replays_and_says_its_version() -> None:
    ruleset, setup, _ = encounterfile.load(PIT / "pit.yaml")
    encounter = Encounter(ruleset, setup, RandomDice(5))
    encounter.push(Action.parse("ylva hit brannoc"))
    save = encounter.save()
    assert save["ruleset"] == "pitfight" and save["ruleset_version"] == "1.0.0"
    assert Encounter.load(save, rules.find("pitfight")).save() == save
