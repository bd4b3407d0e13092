"""Encounters feed the ledger: a table started from a campaign and concluded changes the
sheets the next encounter starts from."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.ledger import Ledger, LedgerError
from fracas.table.store import Store
from fracas.table.table import Table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = {"combatants": [{"character": "ylva", "square": "B2"}, {"character": "astrid"}]}


@pytest.fixture
def ledger() -> Ledger:
    ledger = Ledger(Store.open("sqlite://"))
    ledger.import_file("ford", EXAMPLES / "heimr" / "campaign.yaml")
    return ledger


def play(table: Table, count: int) -> None:
    script = (EXAMPLES / "heimr" / "duel.script").read_text(encoding="utf-8").splitlines()
    for line in [s for s in script if s and not s.startswith("#")][:count]:
        table.push(line)


@pytest.mark.rule("H-XP-1", "H-FAT-3")
def test_a_concluded_encounter_changes_the_next_ones_start(ledger: Ledger) -> None:
    table = ledger.start_encounter("ford", "duel-1", DUEL, seed=1)
    play(table, 9)  # seed 1: Ylva is down to 1 HP of 4, fatigue 5; Astrid unhurt, fatigue 3
    table.push("gm award shieldwall xp=7")  # one present: 7 each, nothing left over
    xp_before = ledger.sheet("ford", "ylva").get("xp", 0)
    entry = ledger.conclude("duel-1")
    assert entry.payload["xp"] == {"ylva": 7}
    assert entry.payload["carry"] == {
        "ylva": {"hit_points": 1, "fatigue": 5},
        "astrid": {"fatigue": 3},  # base fatigue 4 - sta 2 = 2, one more from the fight
    }
    assert ledger.sheet("ford", "ylva")["xp"] == xp_before + 7
    assert ledger.encounter("duel-1") == ("ford", entry.seq)
    with pytest.raises(LedgerError, match="already concluded"):
        ledger.conclude("duel-1")
    following = ledger.start_encounter("ford", "duel-2", DUEL, seed=2)
    state = following.encounter.state
    assert (state.combatants["ylva"].hp, state.combatants["ylva"].fatigue) == (1, 5)
    assert state.combatants["astrid"].fatigue == 3
    # The encounter's own numbers win over what was carried.
    fresh = {"combatants": [{"character": "ylva", "hit_points": 4}, {"character": "astrid"}]}
    assert (
        ledger.start_encounter("ford", "duel-3", fresh).encounter.state.combatants["ylva"].hp == 4
    )
    # Undoing the conclusion undoes all of it, and the table may be concluded again.
    ledger.undo("ford")
    assert ledger.standing("ford").carried == {}
    assert ledger.encounter("duel-1") == ("ford", None)
    again = ledger.conclude("duel-1", award={"ylva": 3}, carry=False)
    assert again.payload["carry"] == {}
    assert ledger.sheet("ford", "ylva")["xp"] == xp_before + 3


@pytest.mark.rule("H-XP-1")
def test_the_gms_award_is_divided_with_the_groups_leftovers(ledger: Ledger) -> None:
    ledger.start_encounter("ford", "duel-1", DUEL, seed=1)
    award = {"xp": 5, "group": "ford", "characters": ["ylva", "astrid"]}
    ledger.conclude("duel-1", award=award, carry=True)  # 5 / 2 = 2 each, 1 left over
    assert ledger.standing("ford").leftovers == {"ford": 1}
    ledger.start_encounter("ford", "duel-2", DUEL, seed=1)
    ledger.conclude("duel-2", award={**award, "xp": 3})  # (3 + 1) / 2 = 2 each, 0 left
    assert ledger.standing("ford").leftovers == {"ford": 0}
    assert ledger.sheet("ford", "astrid")["xp"] == 4


def test_an_encounter_is_checked_before_it_starts(ledger: Ledger) -> None:
    with pytest.raises(LedgerError, match=r"combatants\[0\].character: unknown character 'ulf'"):
        ledger.start_encounter("ford", "t", {"combatants": [{"character": "ulf"}]})
    with pytest.raises(LedgerError, match="not heimr-classic"):
        ledger.start_encounter("ford", "t", {"ruleset": "heimr-classic", **DUEL})
    with pytest.raises(LedgerError, match="was not started from a campaign"):
        Table.start(ledger.store, "loose", *_duel_file())
        ledger.conclude("loose")
    ledger.record("ford", "carry", "astrid", {"condition": {"dead": True}})
    with pytest.raises(LedgerError, match="astrid is dead"):
        ledger.start_encounter("ford", "t", DUEL)
    ledger.undo("ford")
    ledger.start_encounter("ford", "t", DUEL)


def _duel_file() -> tuple[object, dict[str, object], str]:
    from fracas.table import encounterfile

    return encounterfile.load(EXAMPLES / "heimr" / "duel.yaml")


def test_a_table_the_books_cannot_link_is_taken_back(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    def gone(*_: object) -> None:
        raise LedgerError("the campaign was deleted meanwhile")

    monkeypatch.setattr(Ledger, "_row", gone)
    with pytest.raises(LedgerError, match="deleted meanwhile"):
        ledger.start_encounter("ford", "duel-1", DUEL, seed=1)
    assert [t.name for t in ledger.store.tables()] == []


def test_a_table_and_its_campaign_link_are_one_transaction(ledger: Ledger) -> None:
    """A process killed between making the table and linking it cannot leave a table
    outside the books: both are written by the one commit."""
    from sqlalchemy import event

    statements: list[str] = []

    def seen(conn: object, cursor: object, text: str, *_: object) -> None:
        statements.append(text.split()[0].upper())

    event.listen(ledger.store.engine, "before_cursor_execute", seen)
    commits: list[int] = []
    event.listen(ledger.store.engine, "commit", lambda conn: commits.append(len(statements)))
    try:
        ledger.start_encounter("ford", "duel-2", DUEL, seed=1)
    finally:
        event.remove(ledger.store.engine, "before_cursor_execute", seen)
    # No commit falls between the INSERT of the table and that of its link; one follows.
    first, last = [i for i, s in enumerate(statements) if s == "INSERT"]
    assert not [c for c in commits if first < c <= last]
    assert [c for c in commits if c > last]
    assert ledger.encounter("duel-2") == ("ford", None)
