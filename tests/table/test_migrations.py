"""The store's schema in one chain: every Alembic revision extends the one before, and a
store made at each earlier revision (0001 … 0006) upgrades to the head and plays on."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, create_engine, insert, select

from fracas.ledger import Ledger
from fracas.library import Library
from fracas.table import encounterfile
from fracas.table.access import GmAccess
from fracas.table.rounds import Rounds
from fracas.table.scripts import Script
from fracas.table.seats import Seats
from fracas.table.store import Store
from fracas.table.table import Table
from fracas.web.demo import demo_campaigns

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: Every revision a release of fracas left stores at, before the GM's access came.
EARLIER = ["0001", "0002", "0003", "0004", "0005", "0006"]


def config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(resources.files("fracas.table") / "alembic"))
    return config


def test_the_revisions_make_one_chain_numbered_in_order() -> None:
    script = ScriptDirectory.from_config(config())
    heads = script.get_heads()
    assert len(heads) == 1, f"more than one head: {heads} (give the newest a down_revision)"
    chain = list(reversed(list(script.walk_revisions("base", heads[0]))))
    for revision in chain:
        assert not isinstance(revision.down_revision, tuple), f"{revision.revision} merges"
        assert len(revision.nextrev) <= 1, f"{revision.revision} branches"
    assert len(chain) == len(list(script.walk_revisions()))  # nothing off the chain
    assert chain[0].down_revision is None
    for number, revision in enumerate(chain, start=1):
        assert revision.revision.startswith(f"{number:04d}"), revision.revision
    assert [r.revision for r in chain[: len(EARLIER)]] == EARLIER


def source(tmp_path: Path) -> tuple[Store, dict[str, str]]:
    """A store at the head with something in every table an earlier release had: tables
    with actions (one at typed dice), a seat, a campaign with its library, a posted round."""
    store = Store.open(f"sqlite:///{tmp_path / 'source.db'}")
    duel = EXAMPLES / "heimr/duel.yaml"
    ruleset, setup, title = encounterfile.load(duel)
    script = Script.read(duel.with_suffix(".script"))
    table = Table.start(store, "duel", ruleset, setup, title, seed=script.seed)
    lines = [line for _, line in script.lines]
    for line in lines[:3]:
        table.push(line)
    store.set_dice_mode(table.id, "typed")
    ford = EXAMPLES / "classic/ford.yaml"
    ruleset, setup, title = encounterfile.load(ford)
    seed = Script.read(ford.with_suffix(".script")).seed
    posted = Table.start(store, "ford", ruleset, setup, title, seed=seed)
    rounds = Rounds(store)
    rounds.open(posted)
    rounds.post(posted, "wolves", "wolf attack brannoc\nwolf attack brannoc\nwolf done")
    seat = Seats(store).open(table.id, "raiders", may_act=True)
    demo_campaigns(store, EXAMPLES)
    return store, {"seat": seat, "next": lines[3]}


def copy_rows(source: Store, target: str) -> dict[str, int]:
    """Copy every row of ``source`` into the tables ``target`` has (its schema at an
    earlier revision), keeping the columns that revision has; the rows copied a table."""
    old, new = MetaData(), MetaData()
    engine = create_engine(target)
    old.reflect(engine)
    new.reflect(source.engine)
    copied = {}
    with source.engine.connect() as reading, engine.begin() as writing:
        for table in old.sorted_tables:
            if table.name == "alembic_version" or table.name not in new.tables:
                continue
            columns = [c.name for c in table.columns if c.name in new.tables[table.name].c]
            rows = reading.execute(select(*(new.tables[table.name].c[c] for c in columns)))
            values: list[dict[str, Any]] = [dict(row._mapping) for row in rows]
            if values:
                writing.execute(insert(table), values)
            copied[table.name] = len(values)
    engine.dispose()
    return copied


@pytest.mark.parametrize("revision", EARLIER)
def test_a_store_made_at_an_earlier_revision_upgrades_and_plays_on(
    tmp_path: Path, revision: str
) -> None:
    made, given = source(tmp_path)
    url = f"sqlite:///{tmp_path / f'at-{revision}.db'}"
    engine = create_engine(url)
    cfg = config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)
    engine.dispose()
    copied = copy_rows(made, url)
    assert copied["fracas_actions"] == 4  # three on the duel, "gm open" on the ford
    if revision >= "0003":
        assert copied["fracas_campaigns"] >= 1
    if revision >= "0004":
        assert copied["fracas_rounds"] == 1 and copied["fracas_round_posts"] == 1
    if revision >= "0005":
        assert copied["fracas_encounters"] >= 1

    store = Store.open(url)  # upgrades to the head
    with store.engine.connect() as connection:
        head = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    assert head == ScriptDirectory.from_config(config()).get_current_head()
    assert {t.name for t in store.tables()} == {"duel", "ford"}
    table = Table.resume(store, "duel")
    assert table.head == 3
    assert table.store.dice_mode(table.id) == ("typed" if revision >= "0006" else "rolled")
    store.set_dice_mode(table.id, "rolled")
    table.push(given["next"])
    assert Table.resume(store, "duel").head == 4
    seat = Seats(store).find(given["seat"])
    assert (seat is not None) == (revision >= "0002")
    if revision >= "0003":
        assert {c.name for c in Ledger(store).campaigns()} == {
            c.name for c in Ledger(made).campaigns()
        }
    if revision >= "0004":
        found = Rounds(store).current(Table.resume(store, "ford"))
        assert found is not None and found.posted() == ["wolves"]
    if revision >= "0005":
        library = Library(store, Ledger(store))
        assert len(library.encounters()) == len(Library(made, Ledger(made)).encounters())
    access = GmAccess(store)
    token = access.first_token()
    assert token is not None and access.sign_in(token) is not None
