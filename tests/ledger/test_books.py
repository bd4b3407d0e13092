"""The Done-when list of the campaign's books, with hand-worked numbers: each entry
undone and redone, and sheets as they stood on earlier dates."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from fracas.ledger import Ledger, LedgerError
from fracas.table.store import Store

DAY = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


def day(n: int) -> datetime:
    return DAY + timedelta(days=n)


SIGRID = {
    "name": "Sigrid",
    "side": "shieldwall",
    "hit_points": 4,
    "willpower": 3,
    "attributes": {"str": 1, "dex": 0, "sta": 1, "int": 0, "soc": 0, "emp": 0},
}


@pytest.fixture
def ledger() -> Ledger:
    return Ledger(Store.open("sqlite://"))


@pytest.fixture
def heimr(ledger: Ledger) -> Ledger:
    ledger.create("saga", "heimr", {"characters": {"sigrid": SIGRID}})
    return ledger


def undone_and_redone(ledger: Ledger, campaign: str, character: str) -> None:
    """Undo the last entry (the sheet goes back), redo it (the sheet comes back)."""
    after = ledger.sheet(campaign, character)
    entries = [e for e in ledger.entries(campaign) if e.active]
    before = ledger.sheet(campaign, character, at=entries[-2].effective)
    assert before != after
    ledger.undo(campaign)
    assert ledger.sheet(campaign, character) == before
    ledger.redo(campaign)
    assert ledger.sheet(campaign, character) == after


@pytest.mark.rule("H-XP-2", "H-XP-3")
def test_training_costs_and_an_attribute_raised_by_progress(heimr: Ledger) -> None:
    heimr.record("saga", "award", None, {"xp": 60, "group": "g", "characters": ["sigrid"]}, day(0))
    costs = []
    steps = [
        ("Agility", "consistency"),  # 1st point: 5 XP, dex progress 1
        ("Agility", "consistency"),  # 2nd: 10, progress 2
        ("Agility", "consistency"),  # 3rd: 15, progress 3
        ("Agility", "potential"),  # potential is counted apart: its 1st point is 5, progress 4
        ("Agility", "potential"),  # 2nd: 10, progress 5
    ]
    for n, (ability, track) in enumerate(steps, start=1):
        entry = heimr.record(
            "saga", "train", "sigrid", {"ability": ability, "track": track}, day(n)
        )
        costs.append(entry.payload["cost"])
        assert entry.payload["attribute_raised"] is False
    assert costs == [5, 10, 15, 5, 10]
    sheet = heimr.sheet("saga", "sigrid")
    assert sheet["xp"] == 60 - 45
    assert sheet["attribute_progress"] == {"dex": 5}
    assert sheet["abilities"]["Agility"] == {"trained_consistency": 3, "trained_potential": 2}
    # The 6th point on a dex ability reaches the 6 progress dex 1 needs: dex 0 -> 1, progress 0.
    raised = heimr.record("saga", "train", "sigrid", {"ability": "Archery", "track": "consistency"})
    assert (raised.payload["cost"], raised.payload["attribute_raised"]) == (5, True)
    sheet = heimr.sheet("saga", "sigrid")
    assert sheet["attributes"]["dex"] == 1
    assert sheet["attribute_progress"] == {"dex": 0}
    assert sheet["xp"] == 10
    undone_and_redone(heimr, "saga", "sigrid")
    # 10 XP left: Agility consistency 4 costs 25.
    with pytest.raises(LedgerError, match="has 10 XP; Agility consistency 4 costs 25"):
        heimr.record("saga", "train", "sigrid", {"ability": "Agility", "track": "consistency"})
    assert len(heimr.entries("saga")) == 7  # a refused entry is not recorded


@pytest.mark.rule("H-XP-1")
def test_leftovers_per_group_over_three_awards(heimr: Ledger) -> None:
    extra = {**SIGRID, "name": "Ulf"}
    heimr.record("saga", "character", "ulf", {"sheet": extra})
    heimr.record("saga", "character", "bera", {"sheet": {**SIGRID, "name": "Bera"}})
    band = ["sigrid", "ulf", "bera"]
    shares = []
    for xp in (10, 7, 5):
        entry = heimr.record("saga", "award", None, {"xp": xp, "group": "band", "characters": band})
        shares.append((entry.payload["each"], entry.payload["remainder"]))
    # 10 / 3 = 3 rest 1; (7 + 1) / 3 = 2 rest 2; (5 + 2) / 3 = 2 rest 1
    assert shares == [(3, 1), (2, 2), (2, 1)]
    assert heimr.sheet("saga", "ulf")["xp"] == 3 + 2 + 2
    # Another group keeps its own leftovers: 5 / 2 = 2 rest 1, not (5 + 1) / 2.
    pair = heimr.record("saga", "award", None, {"xp": 5, "group": "pair", "characters": band[:2]})
    assert (pair.payload["each"], pair.payload["remainder"]) == (2, 1)
    assert heimr.standing("saga").leftovers == {"band": 1, "pair": 1}
    heimr.undo("saga")
    heimr.undo("saga")  # the third award of the band: back to 2 left over
    assert heimr.standing("saga").leftovers == {"band": 2}
    assert heimr.sheet("saga", "bera")["xp"] == 5
    heimr.redo("saga")
    assert heimr.standing("saga").leftovers == {"band": 1}
    assert heimr.sheet("saga", "bera")["xp"] == 7
    # A new entry after an undo drops the undone one (the award to the pair).
    heimr.record("saga", "award", None, {"xp": 4, "group": "band", "characters": band})
    assert heimr.standing("saga").leftovers == {"band": 2}  # (4 + 1) / 3 = 1 rest 2
    with pytest.raises(LedgerError, match="nothing to redo"):
        heimr.redo("saga")


def classic_sheet(**statistics: int) -> dict[str, Any]:
    return {"name": "Brynja", "side": "north", "statistics": statistics}


@pytest.mark.rule("HC-STAT-1", "HC-STAT-2", "HC-SOC-1")
def test_classic_creation_with_35_points(ledger: Ledger) -> None:
    ledger.create("hvita", "heimr-classic")
    # 9 + 4 + 5 + 5 + 5 + 4 + 3 = 35; combat skill 9 needs agility 2 + (9 - 7) = 4.
    sheet = classic_sheet(CS=9, A=4, D=5, I=5, K=5, C=4, W=3)
    # Knowledge 5: Asgard lowered by 2 raises Arcane by 1.
    sheet["knowledge_categories"] = {"Asgard": 3, "Arcane": 6}
    entry = ledger.record("hvita", "create", "brynja", {"sheet": sheet})
    assert entry.payload["warnings"] == [
        "Brynja: combat_skill 9 is above 7: note in the background how (HC-STAT-1)",
        "Brynja: wealth 3 is below 4: note in the background how (HC-STAT-1)",
    ]
    assert ledger.sheet("hvita", "brynja")["statistics"]["CS"] == 9
    refused = {
        "above 10 at creation": classic_sheet(CS=11, A=6, D=4, I=4, K=4, C=3, W=3),
        "spend 36 of 35": classic_sheet(CS=6, A=6, D=6, I=6, K=6, C=3, W=3),
        "needs agility 4 or more, not 3": classic_sheet(CS=9, A=3, D=5, I=5, K=5, C=5, W=3),
    }
    for message, bad in refused.items():
        with pytest.raises(LedgerError, match=message):
            ledger.record("hvita", "create", "other", {"sheet": bad})
    lopsided = {**classic_sheet(), "knowledge_categories": {"Asgard": 3, "Arcane": 7}}
    with pytest.raises(LedgerError, match=r"raised by 2 and lowered by 2: each 1 up takes 2 down"):
        ledger.record("hvita", "create", "other", {"sheet": lopsided})
    with pytest.raises(LedgerError, match="already a character"):
        ledger.record("hvita", "create", "brynja", {"sheet": sheet})
    assert len(ledger.entries("hvita")) == 1
    ledger.undo("hvita")
    assert ledger.standing("hvita").characters == {}
    ledger.redo("hvita")
    assert ledger.sheet("hvita", "brynja")["knowledge_categories"] == {"Asgard": 3, "Arcane": 6}


@pytest.mark.rule("HC-XP-1", "HC-STAT-2")
def test_classic_raise_needs_the_dms_permission(ledger: Ledger) -> None:
    ledger.create("hvita", "heimr-classic")
    # 10 + 5 + 5 + 5 + 4 + 3 + 3 = 35; combat skill 10 needs agility 2 + 3 = 5.
    sheet = {**classic_sheet(CS=10, A=5, D=5, I=5, K=4, C=3, W=3), "background": "Born to it."}
    assert ledger.record("hvita", "create", "brynja", {"sheet": sheet}).payload["warnings"] == []
    ledger.record("hvita", "award", None, {"xp": 500, "characters": ["brynja"]})
    # Combat skill 11 would need agility 6 (HC-STAT-2): agility 5 -> 6 first, for 100 XP.
    with pytest.raises(LedgerError, match="combat_skill 11 needs agility 6"):
        ledger.record("hvita", "raise", "brynja", {"statistic": "CS"})
    assert ledger.record("hvita", "raise", "brynja", {"statistic": "A"}).payload["cost"] == 100
    with pytest.raises(LedgerError, match="needs a DM's permission"):
        ledger.record("hvita", "raise", "brynja", {"statistic": "CS"})
    ledger.record("hvita", "permit", "brynja")
    raised = ledger.record("hvita", "raise", "brynja", {"statistic": "CS"})
    assert (raised.payload["cost"], raised.payload["to"]) == (400, 11)  # 10 -> 11: 400 XP
    assert ledger.sheet("hvita", "brynja")["raised"] == {"agility": 1, "combat_skill": 1}
    # 500 XP, 100 + 400 spent: nothing left for knowledge 4 -> 5 (100 more: 600).
    with pytest.raises(LedgerError, match="cost 600 XP, more than 500"):
        ledger.record("hvita", "raise", "brynja", {"statistic": "K"})
    undone_and_redone(ledger, "hvita", "brynja")
    ledger.undo("hvita")  # the raise
    ledger.undo("hvita")  # the permission: the raise to 11 is refused again
    assert ledger.sheet("hvita", "brynja")["raised"] == {"agility": 1}
    with pytest.raises(LedgerError, match="needs a DM's permission"):
        ledger.record("hvita", "raise", "brynja", {"statistic": "CS"})
    ledger.redo("hvita")
    ledger.redo("hvita")
    assert ledger.sheet("hvita", "brynja")["raised"] == {"agility": 1, "combat_skill": 1}
    # Withdrawing the permission is refused while a statistic stands at 11.
    with pytest.raises(LedgerError, match="needs a DM's permission"):
        ledger.record("hvita", "permit", "brynja", {"granted": False})


@pytest.mark.rule("HC-WP-1")
def test_willpower_and_hero_points_between_fights(ledger: Ledger) -> None:
    ledger.create("hvita", "heimr-classic")
    ledger.record("hvita", "create", "b", {"sheet": {**classic_sheet(), "background": "x"}})
    ledger.record("hvita", "spend", "b", {"what": "willpower", "amount": 3})
    assert ledger.sheet("hvita", "b")["willpower"] == 7
    with pytest.raises(LedgerError, match="at most 10"):
        ledger.record("hvita", "restore", "b", {"what": "willpower", "amount": 4})
    ledger.record("hvita", "restore", "b", {"what": "hero_points", "amount": 2})
    ledger.record("hvita", "spend", "b", {"what": "hero_points", "amount": 1})
    assert ledger.sheet("hvita", "b")["hero_points"] == 1
    with pytest.raises(LedgerError, match="has 1 hero points, not 2"):
        ledger.record("hvita", "spend", "b", {"what": "hero_points", "amount": 2})
    undone_and_redone(ledger, "hvita", "b")


def test_a_sheet_at_an_earlier_date_is_the_sheet_as_it_was_then(heimr: Ledger) -> None:
    seen = {}
    heimr.record("saga", "award", None, {"xp": 30, "group": "g", "characters": ["sigrid"]}, day(1))
    seen[day(1)] = heimr.sheet("saga", "sigrid")
    heimr.record("saga", "train", "sigrid", {"ability": "Brawl", "track": "potential"}, day(3))
    seen[day(3)] = heimr.sheet("saga", "sigrid")
    heimr.record("saga", "train", "sigrid", {"ability": "Brawl", "track": "potential"}, day(5))
    seen[day(5)] = heimr.sheet("saga", "sigrid")
    assert heimr.sheet("saga", "sigrid", at=day(0)) == SIGRID
    for when, sheet in seen.items():
        assert heimr.sheet("saga", "sigrid", at=when) == sheet
        assert heimr.sheet("saga", "sigrid", at=when + timedelta(days=1)) == sheet
    assert heimr.document("saga", at=day(3))["characters"]["sigrid"] == seen[day(3)]
    assert seen[day(5)]["xp"] == 30 - 5 - 10
    with pytest.raises(LedgerError, match="before the last entry"):
        heimr.record(
            "saga", "award", None, {"xp": 1, "group": "g", "characters": ["sigrid"]}, day(4)
        )


def test_character_edits_are_checked_field_by_field(heimr: Ledger) -> None:
    bad = {**SIGRID, "hit_points": 0, "willpower": "x"}
    with pytest.raises(LedgerError) as err:
        heimr.record("saga", "character", "sigrid", {"sheet": bad})
    fields = dict(err.value.problems)
    assert fields[("hit_points",)] == "Input should be greater than or equal to 1"
    assert fields[("willpower",)] == "Input should be a valid integer"
    unknown = {**SIGRID, "attributes": {**SIGRID["attributes"], "luck": 2}}
    with pytest.raises(LedgerError) as err:
        heimr.record("saga", "character", "sigrid", {"sheet": unknown})
    assert "unknown attribute 'luck'" in dict(err.value.problems)[("attributes", "luck")]
    with pytest.raises(LedgerError, match="for heimr-classic campaigns"):
        heimr.record("saga", "raise", "sigrid", {"statistic": "CS"})
    with pytest.raises(LedgerError, match="no character 'astrid'"):
        heimr.record("saga", "train", "astrid", {"ability": "Brawl", "track": "potential"})
