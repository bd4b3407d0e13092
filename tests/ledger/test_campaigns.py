"""The ledger's campaigns: created, imported from the terminal's files, exported back."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.ledger import Ledger, LedgerError
from fracas.rules import find
from fracas.table.store import Store
from fracas.yamlfile import CampaignError, parse_yaml

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def ledger() -> Ledger:
    return Ledger(Store.open("sqlite://"))


@pytest.mark.parametrize(
    ("folder", "ruleset"),
    [
        ("heimr", "heimr"),
        ("classic", "heimr-classic"),
        ("sides", "sides"),
        ("tempo", "tempo"),
        ("diestep", "diestep"),
    ],
)
def test_import_finds_the_ruleset_and_export_reads_back(
    ledger: Ledger, folder: str, ruleset: str
) -> None:
    path = EXAMPLES / folder / "campaign.yaml"
    assert ledger.import_file(folder, path) == ruleset
    assert [(c.name, c.ruleset) for c in ledger.campaigns()] == [(folder, ruleset)]
    text = ledger.export(folder)
    again = parse_yaml(text, "export.yaml")
    find(ruleset).check_campaign(again)  # the terminal reads it back
    original = parse_yaml(path.read_text(encoding="utf-8"), str(path)).data
    assert sorted(again.data["characters"]) == sorted(original["characters"])
    assert ledger.document(folder)["characters"] == again.data["characters"]


def test_import_errors_name_file_line_and_field(ledger: Ledger, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "characters:\n  ylva:\n    name: Ylva\n    side: a\n    hit_points: 0\n"
        "    willpower: 3\n    attributes: {str: 1, dex: 1, sta: 1, int: 0, soc: 0, emp: 0}\n",
        encoding="utf-8",
    )
    with pytest.raises(CampaignError) as err:
        ledger.import_file("bad", bad, ruleset="heimr")
    assert f"{bad}, line 5, characters.ylva.hit_points" in str(err.value)
    assert ledger.campaigns() == []


def test_create_checks_the_document_and_the_name(ledger: Ledger) -> None:
    ledger.create("ford", "heimr", {"title": "The ford"})
    assert ledger.info("ford").title == "The ford"
    with pytest.raises(LedgerError, match="already a campaign"):
        ledger.create("ford", "heimr")
    with pytest.raises(LedgerError, match="not a campaign name"):
        ledger.create("a b", "heimr")
    with pytest.raises(LedgerError, match="unknown ruleset"):
        ledger.create("x", "chess")
    with pytest.raises(CampaignError, match="weapons"):
        ledger.create("y", "heimr", {"weapons": {"Club": {"range": "melee"}}})


def test_replace_survives_the_store_and_the_export(ledger: Ledger, tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(
        "tables:\n  movement_limits: !replace\n    Ford: 2\n  attribute_progress:\n    0: 5\n",
        encoding="utf-8",
    )
    ledger.import_file("c", path, ruleset="heimr")
    text = ledger.export("c")
    assert "!replace" in text
    tables = parse_yaml(text, "x").data["tables"]
    assert tables["movement_limits"] == {"Ford": 2}
    assert tables["attribute_progress"] == {0: 5}  # a number as a key stays a number
    assert ledger.rules("c").campaign.tables.attribute_progress[0] == 5
