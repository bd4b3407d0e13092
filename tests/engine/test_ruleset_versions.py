"""Rulesets come from entry points with their version; saves and tables record it, and
one made with another major version, or with a ruleset not installed, says so in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import update
from typer.testing import CliRunner

from fracas import rules
from fracas.cli import app
from fracas.engine import Encounter, RandomDice, SaveError
from fracas.table import encounterfile
from fracas.table.store import Store, StoreError, TableRow
from fracas.table.table import Table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_built_in_rulesets_come_from_fracas_s_entry_points() -> None:
    for rid in ("heimr", "heimr-classic", "sides", "tempo", "diestep"):
        where = rules.info(rid)
        assert where.source == "fracas"
        assert rules.find(rid).version == where.source_version


def test_fracas_rulesets_lists_id_name_version_and_source() -> None:
    result = CliRunner().invoke(app, ["rulesets", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["id"]: row for row in json.loads(result.output)}
    assert rows["heimr"]["name"] == "Heimr Tabletop RPG Core"
    assert rows["tempo"]["source"].startswith("fracas ")


def _duel() -> Encounter:  # type: ignore[type-arg]
    ruleset, setup, _ = encounterfile.load(EXAMPLES / "heimr" / "duel.yaml")
    return Encounter(ruleset, setup, RandomDice(1))


def test_a_save_records_its_rules_version_and_another_major_is_refused_in_one_line() -> None:
    save = _duel().save()
    assert save["ruleset_version"] == rules.find("heimr").version
    Encounter.load(save, rules.find("heimr"))  # the same version loads
    save["ruleset_version"] = "999.0.0"
    with pytest.raises(SaveError) as err:
        Encounter.load(save, rules.find("heimr"))
    assert "\n" not in str(err.value)
    assert "made with heimr '999.0.0'" in str(err.value)


def test_a_save_without_a_version_loads_as_before() -> None:
    save = _duel().save()
    del save["ruleset_version"]
    Encounter.load(save, rules.find("heimr"))


def _table(store: Store) -> None:
    ruleset, setup, title = encounterfile.load(EXAMPLES / "heimr" / "duel.yaml")
    Table.start(store, "t", ruleset, setup, title, seed=1)


def test_a_table_records_its_rules_version() -> None:
    store = Store.open("sqlite://")
    _table(store)
    assert store.table("t").ruleset_version == rules.find("heimr").version
    Table.resume(store, "t")


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"ruleset_version": "999.1"}, "made with heimr 999.1"),
        ({"ruleset": "no-such-rules"}, "unknown ruleset 'no-such-rules'"),
    ],
)
def test_a_table_whose_rules_changed_or_went_says_so_in_one_line(
    change: dict[str, str], says: str
) -> None:
    store = Store.open("sqlite://")
    _table(store)
    with store.session() as s:
        s.execute(update(TableRow).values(**change))
    with pytest.raises(StoreError) as err:
        Table.resume(store, "t")
    assert says in str(err.value)
    assert "\n" not in str(err.value) and "does not replay" not in str(err.value)


def test_a_store_made_before_the_versions_opens_and_plays_on(tmp_path: Path) -> None:
    """A store at revision 0006 (no rules' version kept) is upgraded as it opens; its
    tables resume and play on, their version unknown (and so not checked)."""
    from importlib import resources

    import sqlalchemy
    from alembic import command
    from alembic.config import Config

    url = f"sqlite:///{tmp_path / 'old.db'}"
    config = Config()
    config.set_main_option("script_location", str(resources.files("fracas.table") / "alembic"))
    with Store.open(url).engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0006")
    _, setup, _ = encounterfile.load(EXAMPLES / "heimr" / "duel.yaml")
    with sqlalchemy.create_engine(url).begin() as connection:
        connection.execute(
            sqlalchemy.text(
                "INSERT INTO fracas_tables (name, title, ruleset, setup, head, version, created,"
                " changed, dice_mode) VALUES ('old', 'Old', 'heimr', :setup, 0, 0,"
                " '2026-11-01', '2026-11-01', 'rolled')"
            ),
            {"setup": json.dumps(setup)},
        )
    store = Store.open(url)
    table = Table.resume(store, "old")
    table.push("gm begin")
    assert store.table("old").head == 1
    assert store.table("old").ruleset_version is None
