"""Recovery over time (D-REC-1), worked by hand from seed 004: the wounded whole after
about an hour of rest, the badly wounded awake in about an hour (five to ten minutes
with help) and whole after a week (a hero) or a month; no MP used or recovered while
knocked out or badly wounded. In the encounter's clock (``gm wait``) and in the books
between encounters (``fracas campaign rest``)."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.engine import Encounter
from fracas.ledger import Ledger, LedgerError
from fracas.rules.diestep.state import DieStepState
from fracas.table.store import Store

from diestep_builders import fight, roll, sheet, who


def knocked_out(survival: int, **orc: Any) -> Encounter[DieStepState]:
    """Ana's ATT 6 against the orc's DEF 3: its 2 HP gone (and its MP); then its roll."""
    enc = fight(
        [
            sheet("ana", "heroes", att=8, defence=6, ref=8, weapon="sword"),
            sheet("orc", "orcs", defence=6, ref=6, hp=2, mp=3, **orc),
        ],
        faces=[7, 2],
    )
    roll(enc, 6, 3)
    enc.push("ana attack orc")
    enc.push("orc take")
    roll(enc, survival)
    enc.push("gm survival")
    return enc


@pytest.mark.rule("D-REC-1", "D-KO-1")
def test_the_wounded_recover_full_hp_and_mp_after_an_hour_of_rest() -> None:
    enc = knocked_out(4)  # wakes after five minutes with 1 HP
    enc.push("gm wait minutes=5")
    orc = who(enc, "orc")
    assert (orc.hp, orc.mp, orc.knocked_out) == (1, 0, False)  # nothing back while out
    enc.push("gm wait minutes=59")
    assert (who(enc, "orc").hp, who(enc, "orc").mp) == (1, 0)  # 59 minutes awake
    enc.push("gm wait minutes=1")
    assert (who(enc, "orc").hp, who(enc, "orc").mp) == (2, 3)  # about an hour
    assert any(e.kind == "recover" for e in enc.log[-1].events)


@pytest.mark.rule("D-REC-1", "D-WOUND-1")
def test_the_badly_wounded_wake_in_an_hour_and_recover_neither_hp_nor_mp() -> None:
    enc = knocked_out(3)
    enc.push("gm wait minutes=59")
    assert who(enc, "orc").knocked_out
    enc.push("gm wait minutes=1")
    orc = who(enc, "orc")
    assert (orc.knocked_out, orc.wound, orc.hp, orc.mp) == (False, "badly", 1, 0)
    enc.push("gm wait minutes=600")
    assert (who(enc, "orc").hp, who(enc, "orc").mp) == (1, 0)  # a week of rest, or magic


@pytest.mark.rule("D-REC-1", "D-WOUND-1")
def test_with_help_the_badly_wounded_wake_within_ten_minutes() -> None:
    enc = knocked_out(3)
    enc.push("ana aid orc")  # no roll for the badly wounded: woken soon
    enc.push("gm wait minutes=10")
    assert not who(enc, "orc").knocked_out


def books(url: str) -> Ledger:
    ledger = Ledger(Store.open(url))
    ledger.create("road", "diestep", None, "")
    for key, hero in (("rook", True), ("grub", False)):
        sheet_data = {"name": key.title(), "side": "a", "hit_points": 6, "hero": hero}
        ledger.record("road", "character", key, {"sheet": sheet_data})
    return ledger


@pytest.mark.rule("D-REC-1")
def test_rest_between_encounters_in_the_books(tmp_path: Any) -> None:
    ledger = books(f"sqlite:///{tmp_path / 'b.db'}")
    ledger.record("road", "carry", "rook", {"condition": {"hp": 2}})
    ledger.record("road", "rest", "rook", {"minutes": 30})
    assert ledger.standing("road").carried["rook"] == {"hp": 2}
    entry = ledger.record("road", "rest", "rook", {"minutes": 60})
    assert "rook" not in ledger.standing("road").carried and "full HP" in entry.payload["line"]
    badly = {"hp": 1, "wound": "badly"}
    ledger.record("road", "carry", "rook", {"condition": badly})
    ledger.record("road", "carry", "grub", {"condition": badly})
    ledger.record("road", "rest", "rook", {"minutes": 6 * 24 * 60})
    assert ledger.standing("road").carried["rook"] == badly  # six days: not yet
    ledger.record("road", "rest", "rook", {"minutes": 7 * 24 * 60})
    ledger.record("road", "rest", "grub", {"minutes": 7 * 24 * 60})
    carried = ledger.standing("road").carried
    assert "rook" not in carried and carried["grub"] == badly  # a hero in a week, not Grub
    ledger.record("road", "rest", "grub", {"minutes": 30 * 24 * 60})
    assert "grub" not in ledger.standing("road").carried  # a month-plus
    ledger.record("road", "carry", "grub", {"condition": {"hp": 0, "wound": "mortal"}})
    with pytest.raises(LedgerError, match="only first aid or magic"):
        ledger.record("road", "rest", "grub", {"minutes": 60})


@pytest.mark.rule("D-REC-1")
def test_rest_at_the_terminal(tmp_path: Any) -> None:
    books(f"sqlite:///{tmp_path / 'b.db'}")
    runner = CliRunner()
    db = ["--db", f"sqlite:///{tmp_path / 'b.db'}"]
    base = ["campaign"]
    result = runner.invoke(app, [*base, "carry", "road", "rook", "hp=1", "wound=badly", *db])
    assert result.exit_code == 0, result.stdout
    result = runner.invoke(app, [*base, "rest", "road", "rook", "--days", "3", *db])
    assert result.exit_code == 0 and "still badly wounded (7 days of rest heal it)" in result.stdout
    result = runner.invoke(app, [*base, "rest", "road", "rook", *db])
    assert result.exit_code == 2 and "say how long" in result.stdout + result.stderr
    result = runner.invoke(app, [*base, "rest", "road", "rook", "--days", "7", *db])
    assert "healed of the bad wound" in result.stdout
