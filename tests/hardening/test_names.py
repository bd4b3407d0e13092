"""Names are kept in NFKC form, in one script, and no two that look alike (issue 24,
point 2): tables, campaigns, library names, combatants and sides; names already stored
are reported by the store's upgrade, not renamed."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, text

from fracas import names
from fracas.engine import Encounter, EngineError
from fracas.ledger import Ledger, LedgerError
from fracas.rules import find
from fracas.table import encounterfile
from fracas.table.store import MAX_NAME, Store, StoreError, check_name, valid_name
from fracas.table.table import Table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CYRILLIC_A = "\u0430"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(f"sqlite:///{tmp_path / 'names.db'}")


def start(store: Store, name: str) -> Table[Any]:
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr/duel.yaml")
    return Table.start(store, name, ruleset, setup, title, seed=1)


def one_line(err: pytest.ExceptionInfo[BaseException]) -> str:
    message = str(err.value)
    assert "\n" not in message and message, message
    return message


def test_a_table_name_is_kept_in_nfkc_form(store: Store) -> None:
    table = start(store, "ｆｏｒｄ")
    assert table.name == "ford"
    assert [t.name for t in store.tables()] == ["ford"]


def test_a_name_in_one_script_is_fine_in_any_script(store: Store) -> None:
    for name in ("Ильва", "ńame", "ŋorð", "ユルヴァ-2", "Ylva_2"):
        start(store, name)
    assert len(store.tables()) == 5


def test_a_mixed_script_table_name_is_refused(store: Store) -> None:
    with pytest.raises(StoreError) as err:
        start(store, f"ylv{CYRILLIC_A}")
    assert "mixes CYRILLIC and LATIN letters" in one_line(err)
    assert store.tables() == []


def test_a_table_name_that_looks_like_another_is_refused(store: Store) -> None:
    start(store, "ylva")
    with pytest.raises(StoreError) as err:
        start(store, "yIva")  # capital i
    assert "looks the same as the table 'ylva'" in one_line(err)
    with pytest.raises(StoreError):
        store.rename("ylva", f"ylv{CYRILLIC_A}")


def test_a_campaign_name_that_looks_like_another_is_refused(store: Store) -> None:
    ledger = Ledger(store)
    ledger.import_file("north", EXAMPLES / "heimr/campaign.yaml")
    with pytest.raises(LedgerError) as err:
        ledger.import_file("nort\u04bb", EXAMPLES / "heimr/campaign.yaml")  # Cyrillic shha
    assert "campaign" in one_line(err)
    with pytest.raises(LedgerError):
        ledger.import_file("ｎｏｒｔｈ", EXAMPLES / "heimr/campaign.yaml")  # north again: taken
    assert [c.name for c in ledger.campaigns()] == ["north"]


@pytest.mark.parametrize(
    ("first", "second", "says"),
    [
        ("ylva", f"ylv{CYRILLIC_A}", "mixes CYRILLIC and LATIN letters"),
        ("ylva", "yIva", "looks the same as the combatant 'ylva'"),
        ("ylva", "ｙｌｖａ", "normal form (NFKC): write 'ylva'"),
    ],
)
def test_combatant_names_that_look_alike_are_refused(first: str, second: str, says: str) -> None:
    ruleset, setup, _ = encounterfile.load(EXAMPLES / "heimr/duel.yaml")
    setup["combatants"][0]["id"] = first
    setup["combatants"][1]["id"] = second
    with pytest.raises(EngineError) as err:
        Encounter(ruleset, setup)
    assert says in one_line(err)


def test_side_names_that_look_alike_are_refused() -> None:
    ruleset, setup, _ = encounterfile.load(EXAMPLES / "heimr/duel.yaml")
    setup["combatants"][0]["side"] = "raiders"
    setup["combatants"][1]["side"] = f"r{CYRILLIC_A}iders"
    with pytest.raises(EngineError) as err:
        Encounter(ruleset, setup)
    assert "side" in one_line(err)


def test_a_save_with_confusable_combatants_is_refused() -> None:
    ruleset, setup, _ = encounterfile.load(EXAMPLES / "heimr/duel.yaml")
    save = Encounter(ruleset, setup).save()
    save["setup"]["combatants"][1]["id"] = "yIva"
    save["setup"]["combatants"][0]["id"] = "ylva"
    with pytest.raises(ValueError) as err:
        Encounter.load(save, find("heimr"))
    assert "looks the same" in one_line(err)


def test_the_upgrade_reports_stored_names_without_renaming(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from importlib import resources

    url = f"sqlite:///{tmp_path / 'old.db'}"
    config = Config()
    config.set_main_option("script_location", str(resources.files("fracas.table") / "alembic"))
    engine = create_engine(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0008_ruleset_version")
        for i, name in enumerate(["ylva", "yIva", f"ylv{CYRILLIC_A}"], 1):
            connection.execute(
                text(
                    "INSERT INTO fracas_tables (id, name, title, ruleset, setup, head, version, "
                    "created, changed, dice_mode) VALUES (:id, :name, '', 'heimr', :setup, 0, 0, "
                    "'2026-01-01', '2026-01-01', 'rolled')"
                ),
                {"id": i, "name": name, "setup": '{"combatants": [{"id": "a"}, {"id": "а"}]}'},
            )
    engine.dispose()
    with caplog.at_level(logging.WARNING, logger="fracas.store"):
        store = Store.open(url)
    report = caplog.text
    assert "table 'yIva': looks the same as the table 'ylva'" in report
    assert f"table 'ylv{CYRILLIC_A}': it mixes CYRILLIC and LATIN letters" in report
    assert "combatant 2" in report
    assert "none was renamed" in report
    assert sorted(t.name for t in store.tables()) == sorted(["ylva", "yIva", f"ylv{CYRILLIC_A}"])


# -- a short fuzz pass over names (atheris goes further: fuzz/atheris_names.py) ----------


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(st.text(max_size=90), st.lists(st.text(max_size=12), max_size=4))
def test_any_text_is_a_name_or_refused_in_one_line(name: str, others: list[str]) -> None:
    try:
        kept = check_name(name, "table", others)
    except StoreError as err:
        assert "\n" not in str(err)
        return
    assert valid_name(kept) and len(kept) <= MAX_NAME
    assert names.normal(kept) == kept and names.mixed_scripts(kept) is None
    assert names.clash(kept, others) is None


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=20))
def test_a_name_always_clashes_with_its_confusable_twin(name: str) -> None:
    twin = name.replace("a", CYRILLIC_A).replace("l", "I").replace("o", "\u043e")
    if twin != name:
        assert names.skeleton(twin) == names.skeleton(name)


def test_a_campaign_made_under_a_full_width_name_opens_under_either(store: Store) -> None:
    ledger = Ledger(store)
    ledger.create("ｗｅｓｔ", "heimr")
    assert [c.name for c in ledger.campaigns()] == ["west"]
    assert ledger.entries("ｗｅｓｔ") == ledger.entries("west")


def test_character_keys_that_look_alike_are_refused_in_a_campaign(store: Store) -> None:
    import yaml

    data = yaml.safe_load((EXAMPLES / "heimr/campaign.yaml").read_text(encoding="utf-8"))
    key, sheet = next(iter(data["characters"].items()))
    data["characters"][key.replace("a", CYRILLIC_A).replace("o", "\u043e")] = sheet
    with pytest.raises(LedgerError) as err:
        Ledger(store).create("north", "heimr", data)
    assert "character" in one_line(err)
