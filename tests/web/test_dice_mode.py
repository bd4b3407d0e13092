"""The dice mode (rolled by fracas, or typed in from physical dice) is the table's, kept in
the store: another app over the same store, and ``fracas play --table``, see it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.web.webtools import EXAMPLES, Web
from typer.testing import CliRunner

from fracas.cli import app
from fracas.table.scripts import Script
from fracas.table.store import Store, StoreError


def two_apps(tmp_path: Path) -> tuple[Web, Web, list[str]]:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    a = Web(url)
    script = Script.read(EXAMPLES / "heimr/duel.script")
    a.start("heimr/duel.yaml", seed=script.seed)
    return a, Web(url), [line for _, line in script.lines]


def mode(web: Web) -> str:
    found = re.search(r"Dice: ([a-z ]+)", web.page())
    assert found
    return found.group(1).strip()


def test_another_app_over_the_store_sees_the_mode(tmp_path: Path) -> None:
    a, b, _ = two_apps(tmp_path)
    assert mode(a) == mode(b) == "rolled by fracas"
    assert a.post("/gm/t/t/dice", mode="typed")[0] == 303
    assert mode(b) == "typed in" and mode(a) == "typed in"
    assert b.post("/gm/t/t/dice", mode="rolled")[0] == 303
    assert mode(a) == "rolled by fracas"


def test_the_other_app_asks_for_faces_once_the_mode_is_typed(tmp_path: Path) -> None:
    a, b, lines = two_apps(tmp_path)
    assert a.act(lines[0])[0] == 303  # gm begin: rolled by fracas
    head = b.store.table("t").head
    assert a.post("/gm/t/t/dice", mode="typed")[0] == 303
    status, page = b.act(lines[1])
    # Typed in: b asks for the faces instead of rolling, and nothing is played yet.
    assert status == 200 and 'id="faces-form"' in page
    assert b.store.table("t").head == head
    assert b.post("/gm/t/t/dice", mode="rolled")[0] == 303
    assert a.act(lines[1])[0] == 303
    assert a.store.table("t").head == head + 1


def test_an_action_goes_in_the_mode_the_table_has_when_it_arrives(tmp_path: Path) -> None:
    a, b, lines = two_apps(tmp_path)
    assert a.act(lines[0])[0] == 303
    version = a.store.table("t").version
    page = b.page()  # drawn while the dice are rolled
    assert a.post("/gm/t/t/dice", mode="typed")[0] == 303
    assert a.store.table("t").version == version  # the version counts the plays only
    status, asked = b.act(lines[1], version=version)
    assert status == 200 and 'id="faces-form"' in asked
    assert 'id="faces-form"' not in page


def test_the_store_refuses_another_mode() -> None:
    store = Store.open("sqlite://")
    table = store.create("t", "heimr", {"combatants": []})
    assert store.dice_mode(table) == "rolled"
    with pytest.raises(StoreError, match="rolled or typed"):
        store.set_dice_mode(table, "loaded")
    with pytest.raises(StoreError, match="no longer exists"):
        store.set_dice_mode(table + 1, "typed")
    store.set_dice_mode(table, "typed")
    assert store.table("t").dice_mode == "typed"


def test_fracas_play_on_the_table_sees_the_mode(tmp_path: Path) -> None:
    a, _, lines = two_apps(tmp_path)
    url = f"sqlite:///{tmp_path / 'web.db'}"
    assert a.post("/gm/t/t/dice", mode="typed")[0] == 303
    result = CliRunner().invoke(app, ["play", "--table", "t", "--db", url], input=f"{lines[0]}\n")
    assert result.exit_code == 0, result.output
    # The terminal asked for the faces; the end of input there takes the action back.
    assert "faces" in result.output.lower()
    assert a.store.table("t").head == 0
    assert a.post("/gm/t/t/dice", mode="rolled")[0] == 303
    result = CliRunner().invoke(app, ["play", "--table", "t", "--db", url], input=f"{lines[0]}\n")
    assert result.exit_code == 0, result.output
    assert a.store.table("t").head == 1
