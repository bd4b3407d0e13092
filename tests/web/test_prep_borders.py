"""The battlefield editor's borders, on SQLite and PostgreSQL: a Heimr border's own
movement limit, crossing challenge and toughness, and how many enemies one guard of a
heimr-classic border holds back; each read back from the export and in play."""

from __future__ import annotations

import re

import pytest
import yaml
from tests.web.webtools import EXAMPLES, Web, csrf_of, error_of

from fracas.ledger import Ledger
from fracas.library import Library
from fracas.library.kinds import battlefield_file_model, schema
from fracas.table.table import Table


def _web(db_url: str) -> Web:
    web = Web(db_url)
    web.csrf = csrf_of(web.gm.get("/gm/prep/battlefields").text)
    return web


def _make(web: Web, name: str, ruleset: str) -> None:
    status, _ = web.post("/gm/prep/battlefields", name=name, ruleset=ruleset)
    assert status == 303


def _value(page: str, field: str) -> str:
    found = re.search(rf'<input name="{re.escape(field)}"[^>]* value="([^"]*)"', page)
    assert found, f"no {field} input"
    return found.group(1)


def _export(web: Web, name: str) -> dict[str, object]:
    exported = yaml.safe_load(web.gm.get(f"/gm/prep/battlefields/{name}.yaml").text)
    battlefield_file_model(str(exported["ruleset"])).model_validate(exported)
    return dict(exported)


@pytest.mark.rule("H-GRID-3")
def test_a_border_is_given_its_own_limit_challenge_and_toughness(db_url: str) -> None:
    web = _web(db_url)
    _make(web, "yard", "heimr")
    border = "/gm/prep/battlefields/yard/border"
    for field, bad, said in [
        ("limit", "two", "a whole number"),
        ("limit", "0", "at least 1"),
        ("cr", "2.5", "a whole number"),
        ("toughness", "-1", "at least 0"),
    ]:
        status, page = web.post(border, a="B2", b="B3", version="0", **{field: bad})
        assert status == 400
        assert said in (error_of(page, field) or ""), (field, bad)
        assert _value(page, field) == bad  # the mistake stays in its field to be mended
    assert Library(web.store).battlefield("yard").version == 0  # nothing stored
    status, _ = web.post(border, a="B2", b="B3", limit="1", cr="3", toughness="4", version="0")
    assert status == 303
    status, _ = web.post(border, a="A1", b="A2", preset="Window", cr="7", version="1")
    assert status == 303
    exported = _export(web, "yard")
    assert exported["battlefield"] == {
        "columns": 3,
        "rows": 3,
        "borders": [
            {"between": ["B2", "B3"], "limit": 1, "cr": 3, "toughness": 4},
            {"between": ["A1", "A2"], "preset": "Window", "cr": 7},
        ],
    }
    border_schema = schema("heimr")["$defs"]["BorderSpec"]["properties"]
    assert {"limit", "cr", "toughness"} <= set(border_schema)
    page = web.gm.get("/gm/prep/battlefields/yard?a=B3&b=B2").text
    assert [_value(page, f) for f in ("limit", "cr", "toughness")] == ["1", "3", "4"]
    page = web.gm.get("/gm/prep/battlefields/yard?a=A1&b=A2").text
    assert [_value(page, f) for f in ("limit", "cr", "toughness")] == ["", "7", ""]
    assert re.search(r"<option selected>Window</option>", page)
    # Emptied, a field is no longer set; the border stays while anything is.
    status, _ = web.post(border, a="B2", b="B3", toughness="4", version="2")
    assert status == 303
    borders = Library(web.store).battlefield("yard").document["battlefield"]["borders"]
    assert borders[0] == {"between": ["B2", "B3"], "toughness": 4}

    Ledger(web.store).import_file("north", EXAMPLES / "heimr" / "campaign.yaml")
    fields = {
        "name": "clash",
        "ruleset": "heimr",
        "campaign": "north",
        "battlefield": "yard",
        "c0.character": "ylva",
        "c0.square": "B2",
        "c1.character": "astrid",
        "c1.square": "B3",
    }
    assert web.post("/gm/prep/encounters", **fields)[0] == 303
    assert web.post("/gm/prep/encounters/clash/start", table="clash-1")[0] == 303
    table = Table.resume(web.store, "clash-1")
    played = table.table_view(None).view["state"]["battlefield"]["borders"]
    wall = next(b for b in played if b["between"] == ["B2", "B3"])
    window = next(b for b in played if b["between"] == ["A1", "A2"])
    assert (wall["toughness"], wall["limit"], wall["cr"]) == (4, None, None)
    assert (window["limit"], window["cr"]) == (1, 7)  # the Window's limit, its own CR


@pytest.mark.rule("HC-MOVE-1", "HC-MOVE-2")
def test_a_guarded_border_blocks_as_many_as_the_place_says(db_url: str) -> None:
    web = _web(db_url)
    _make(web, "ford", "heimr-classic")
    place = "/gm/prep/battlefields/ford/place"
    assert web.post(place, name="North bank", version="0")[0] == 303
    assert web.post(place, name="South bank", version="1")[0] == 303
    page = web.gm.get("/gm/prep/battlefields/ford?place=").text
    assert _value(page, "blocks.North bank") == "1"
    for bad, said in [("0", "at least 1"), ("many", "a whole number")]:
        status, page = web.post(
            place,
            name="Ford",
            borders=["North bank", "South bank"],
            version="2",
            **{"blocks.North bank": "2", "blocks.South bank": bad},
        )
        assert status == 400
        assert said in (error_of(page, "blocks-South bank") or "")
        assert error_of(page, "blocks-North bank") is None
        assert _value(page, "blocks.South bank") == bad
    assert Library(web.store).battlefield("ford").version == 2  # nothing stored
    status, _ = web.post(
        place,
        name="Ford",
        borders=["North bank", "South bank"],
        version="2",
        **{"blocks.North bank": "3", "blocks.South bank": "1"},
    )
    assert status == 303
    exported = _export(web, "ford")
    assert exported["positions"] == {
        "North bank": {},
        "South bank": {},
        "Ford": {"borders": {"North bank": {"blocks": 3}, "South bank": {}}},
    }
    page = web.gm.get("/gm/prep/battlefields/ford?place=Ford").text
    assert "<td>North bank (a guard blocks 3), South bank</td>" in page
    assert _value(page, "blocks.North bank") == "3" and _value(page, "blocks.South bank") == "1"
    page = web.gm.get("/gm/prep/battlefields/ford?place=North%20bank").text
    assert _value(page, "blocks.Ford") == "1"  # a guard on the north bank blocks one
    status, _ = web.post(
        place,
        name="North bank",
        old="North bank",
        borders=["Ford"],
        version="3",
        **{"blocks.Ford": "2"},
    )
    assert status == 303
    status, _ = web.post(
        place,
        name="South bank",
        old="South bank",
        borders=["Ford"],
        version="4",
        **{"blocks.Ford": ""},  # empty: one
    )
    assert status == 303
    assert _export(web, "ford")["positions"] == {
        "North bank": {"borders": {"Ford": {"blocks": 2}}},
        "South bank": {"borders": ["Ford"]},
        "Ford": {"borders": {"North bank": {"blocks": 3}, "South bank": {}}},
    }

    Ledger(web.store).import_file("north", EXAMPLES / "classic" / "campaign.yaml")
    fields = {
        "name": "crossing",
        "ruleset": "heimr-classic",
        "campaign": "north",
        "battlefield": "ford",
        "c0.character": "ylva",
        "c0.position": "Ford",
        "c1.character": "gorm",
        "c1.position": "North bank",
    }
    status, page = web.post("/gm/prep/encounters", **fields)
    assert status == 303, page
    assert web.post("/gm/prep/encounters/crossing/start", table="crossing-1")[0] == 303
    field = Table.resume(web.store, "crossing-1").encounter.state.battlefield
    assert field.capacity("Ford", "North bank") == 3
    assert field.capacity("North bank", "Ford") == 2
    assert field.capacity("Ford", "South bank") == field.capacity("South bank", "Ford") == 1
