"""The library: battlefields and encounters kept in the store, checked by their ruleset
(every mistake at its path, nothing stored), read from and written as the files the
terminal reads."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from fracas.ledger import Ledger
from fracas.library import Invalid, Library, LibraryError
from fracas.library import edit as edits
from fracas.library.kinds import KINDS, choices
from fracas.table import encounterfile
from fracas.table.store import ConflictError, Store
from fracas.yamlfile import CampaignError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: Every example encounter file whose ruleset has a battlefield.
GROUNDS = sorted(
    p
    for p in EXAMPLES.glob("*/*.yaml")
    if "combatants" in (yaml.safe_load(p.read_text()) or {})
    and yaml.safe_load(p.read_text())["ruleset"] in KINDS
)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(f"sqlite:///{tmp_path / 'library.db'}")


@pytest.fixture
def library(store: Store) -> Library:
    return Library(store, Ledger(store))


@pytest.mark.parametrize("path", GROUNDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_examples_battlefield_imports_and_exports_the_same(
    library: Library, path: Path
) -> None:
    record = library.import_battlefield(path.read_text(), str(path))
    original = yaml.safe_load(path.read_text())
    exported = yaml.safe_load(library.export_battlefield(record.name))
    assert exported["ruleset"] == original["ruleset"]
    for key in KINDS[record.ruleset].keys:
        assert exported.get(key) == original.get(key), key
    assert exported.get("title") == original.get("title")
    # The export is itself a battlefield file the library reads back the same.
    again = library.import_battlefield(library.export_battlefield(record.name), "again.yaml")
    assert again.document == record.document


def test_tempo_has_no_battlefield(library: Library) -> None:
    with pytest.raises(LibraryError, match="no battlefield"):
        library.create_battlefield("bout", "tempo")
    with pytest.raises(CampaignError, match=r"feint.yaml, line \d+, ruleset: .*no battlefield"):
        path = EXAMPLES / "tempo" / "feint.yaml"
        library.import_battlefield(path.read_text(), str(path))


@pytest.mark.rule("H-GRID-2", "H-GRID-3")
def test_a_bad_file_is_refused_by_file_line_and_field(library: Library) -> None:
    text = (
        "ruleset: heimr\n"
        "battlefield:\n"
        "  columns: 3\n"
        "  squares:\n"
        "    B2: {height: -1}\n"
        "  borders:\n"
        "    - {between: [A1, C1], preset: Single door}\n"
        "    - {between: [A1, A2], preset: Singel door}\n"
    )
    with pytest.raises(CampaignError) as caught:
        library.import_battlefield(text, "bad.yaml")
    lines = str(caught.value).splitlines()
    assert lines[0].startswith("bad.yaml, line 5, battlefield.squares.B2.height:")
    assert len(lines) == 1  # pydantic's mistakes first: the rest is not read until they go
    fixed = text.replace("height: -1", "height: 1")
    with pytest.raises(CampaignError) as caught:
        library.import_battlefield(fixed, "bad.yaml")
    assert str(caught.value).splitlines() == [
        "bad.yaml, line 7, battlefield.borders[0].between: A1 and C1 are not bordering squares"
        " (H-GRID-2)",
        "bad.yaml, line 8, battlefield.borders[1].preset: unknown preset 'Singel door' (known: "
        + ", ".join(choices("heimr")["preset"])
        + "); did you mean 'Single door'?",
    ]
    assert library.battlefields() == []


@pytest.mark.rule("H-GRID-1", "H-GRID-3", "H-GRID-5")
def test_edits_are_checked_and_a_refused_one_changes_nothing(library: Library) -> None:
    field = library.create_battlefield("keep", "heimr")
    doc = edits.set_square(field.document, "B2", {"height": 2, "name": "mound"})
    doc = edits.set_border(doc, "A2", "B2", {"preset": "Single door", "closed": True})
    field = library.save_battlefield("keep", doc, field.version)
    assert field.document["battlefield"]["squares"] == {"B2": {"name": "mound", "height": 2}}
    bad = edits.set_border(doc, "A1", "A2", {"preset": "Single door", "closed": True, "cr": "x"})
    with pytest.raises(Invalid) as caught:
        library.save_battlefield("keep", bad, field.version)
    assert [p for p, _ in caught.value.problems] == [("battlefield", "borders", 1, "cr")]
    too_small = edits.resize(doc, 2, 3)[0]
    with pytest.raises(Invalid, match="columns: Input should be greater than or equal to 3"):
        library.save_battlefield("keep", too_small, field.version)
    assert library.battlefield("keep") == field
    # A change made from an older version is refused: the other editor's change stays.
    with pytest.raises(ConflictError):
        library.save_battlefield("keep", edits.resize(doc, 4, 4)[0], field.version - 1)
    assert library.battlefield("keep").version == field.version


@pytest.mark.rule("HC-MOVE-1")
def test_named_places_keep_their_borders_both_ways(library: Library) -> None:
    field = library.create_battlefield("ford", "heimr-classic")
    doc = edits.set_place(field.document, "positions", None, "Bank", [], {})
    doc = edits.set_place(doc, "positions", None, "Ford", ["Bank"], {"modifiers.dodge": -1})
    field = library.save_battlefield("ford", doc, field.version)
    assert field.document == {
        "positions": {"Bank": {}, "Ford": {"borders": ["Bank"], "modifiers": {"dodge": -1}}}
    }
    doc = edits.set_place(field.document, "positions", "Bank", "North bank", ["Ford"], {})
    assert doc["positions"]["Ford"]["borders"] == ["North bank"]
    doc = edits.remove_place(doc, "positions", "North bank")
    assert doc == {"positions": {"Ford": {"modifiers": {"dodge": -1}}}}
    wrong = edits.set_place(doc, "positions", "Ford", "Ford", [], {"modifiers.swim": 2})
    with pytest.raises(Invalid) as caught:
        library.save_battlefield("ford", wrong, field.version)
    assert caught.value.problems[0][0] == ("positions", "Ford")


def test_a_campaign_gives_the_presets(library: Library, store: Store) -> None:
    ledger = Ledger(store)
    ledger.create("north", "heimr", {"tables": {"movement_limits": {"Narrow gap": 1}}})
    doc = {"battlefield": {"borders": [{"between": ["A1", "A2"], "preset": "Narrow gap"}]}}
    with pytest.raises(Invalid, match="unknown preset 'Narrow gap'"):
        library.create_battlefield("gap", "heimr", document=doc)
    field = library.create_battlefield("gap", "heimr", document=doc, campaign="north")
    assert "Narrow gap" in choices("heimr", ledger.document("north"))["preset"]
    assert field.campaign == "north"


def _campaign(store: Store, folder: str) -> str:
    ledger = Ledger(store)
    ledger.import_file(folder, EXAMPLES / folder / "campaign.yaml")
    return folder


def test_an_encounter_is_built_checked_exported_and_started(library: Library, store: Store) -> None:
    campaign = _campaign(store, "heimr")
    path = EXAMPLES / "heimr" / "field.yaml"
    record = library.import_battlefield(path.read_text(), str(path))
    combatants = [{"character": "ylva", "square": "Z9"}, {"character": "nobody"}]
    with pytest.raises(Invalid) as caught:
        library.save_encounter("clash", "heimr", campaign, record.name, {"combatants": combatants})
    paths = [p for p, _ in caught.value.problems]
    assert paths == [("combatants", 0, "square"), ("combatants", 1, "character")]
    assert library.encounters() == []
    combatants = [{"character": "ylva", "square": "B2"}, {"character": "astrid", "square": "B2"}]
    saved = library.save_encounter(
        "clash", "heimr", campaign, record.name, {"combatants": combatants}, "Clash"
    )
    file = yaml.safe_load(library.export_encounter("clash"))
    assert file["campaign"] == "heimr.yaml"
    assert file["battlefield"] == record.document["battlefield"]
    assert file["combatants"] == combatants
    table = library.start("clash", "clash-1", seed=1)
    assert table.sides() and store.table("clash-1").title == "Clash"
    assert Ledger(store).encounter("clash-1") == ("heimr", None)  # linked to its campaign
    assert saved.version == 0
    with pytest.raises(LibraryError, match="used by the encounters clash"):
        library.delete_battlefield(record.name)


@pytest.mark.parametrize(
    "example", ["heimr/doorway", "classic/ford", "diestep/charge", "sides/metal", "tempo/feint"]
)
def test_an_example_encounter_imports_and_plays_as_its_file_does(
    library: Library, store: Store, example: str, tmp_path: Path
) -> None:
    folder, stem = example.split("/")
    ledger = Ledger(store)
    path = EXAMPLES / folder / f"{stem}.yaml"
    merged = tmp_path / "merged.yaml"
    merged.write_text(yaml.safe_dump(encounterfile.load(path)[1]["campaign"], sort_keys=False))
    ledger.import_file("camp", merged)
    record = library.import_encounter(path.read_text(), str(path), "camp")
    assert record.battlefield == (stem if folder != "tempo" else "")
    # The export, beside a campaign file of that name, is what fracas play reads.
    (tmp_path / "camp.yaml").write_text(ledger.export("camp"))
    (tmp_path / "out.yaml").write_text(library.export_encounter(record.name))
    _, setup, _ = encounterfile.load(tmp_path / "out.yaml")
    _, expected, _ = encounterfile.load(path)
    assert {k: v for k, v in setup.items() if k != "campaign"} == {
        k: v for k, v in expected.items() if k != "campaign"
    }


def test_the_rulesets_own_cross_checks_run_on_a_battlefield(library: Library) -> None:
    lost = {"regions": {"hall": {"borders": ["crypt"]}}}
    with pytest.raises(Invalid) as caught:
        library.create_battlefield("hall", "diestep", document=lost)
    assert caught.value.problems[0][0] == ("regions",)
    assert "crypt" in caught.value.problems[0][1]
    knot = {"positions": {"Ford": {"borders": ["Ford"]}}}
    with pytest.raises(Invalid, match="does not border itself"):
        library.create_battlefield("ford", "heimr-classic", document=knot)
    assert library.battlefields() == []
