"""The campaign pages: campaigns made, imported and exported; a character form generated
from the ruleset's sheet model with errors next to their fields; entries and their undo;
a sheet as of a date; an encounter concluded from the GM's table page."""

from __future__ import annotations

import html
import re

import pytest
from tests.web.webtools import EXAMPLES, Web, csrf_of

from fracas.ledger import Ledger
from fracas.yamlfile import parse_yaml

DUEL = {"combatants": [{"character": "ylva", "square": "B2"}, {"character": "astrid"}]}


@pytest.fixture
def web(db_url: str) -> Web:
    web = Web(db_url)
    page = web.gm.get("/gm/campaigns")
    assert page.status_code == 200
    web.csrf = csrf_of(page.text)
    return web


def error(page: str, field: str) -> str:
    found = re.search(rf'id="error-{field}">([^<]*)<', page)
    assert found, f"no error next to {field}"
    return html.unescape(found.group(1))


def upload(web: Web, text: str, name: str = "", ruleset: str = "") -> tuple[int, str]:
    response = web.gm.post(
        "/gm/campaigns/import",
        data={"csrf": web.csrf, "name": name, "ruleset": ruleset},
        files={"file": ("ford.yaml", text.encode(), "application/yaml")},
        follow_redirects=False,
    )
    return response.status_code, response.text


def test_campaigns_made_imported_and_exported(web: Web) -> None:
    status, _ = web.post("/gm/campaigns/new", name="saga", ruleset="heimr", title="The saga")
    assert status == 303
    status, page = web.post("/gm/campaigns/new", name="saga", ruleset="heimr")
    assert status == 400 and "already a campaign" in error(page, "name")
    text = (EXAMPLES / "heimr" / "campaign.yaml").read_text(encoding="utf-8")
    status, _ = upload(web, text, name="ford")
    assert status == 303
    listing = web.gm.get("/gm/campaigns").text
    assert "/gm/c/saga" in listing and "/gm/c/ford" in listing
    exported = web.gm.get("/gm/c/ford/export.yaml")
    assert exported.status_code == 200
    assert sorted(parse_yaml(exported.text, "x").data["characters"]) == [
        "astrid",
        "eirik",
        "hrolf",
        "ylva",
    ]
    broken = text.replace("hit_points: 4", "hit_points: -4", 1)
    status, page = upload(web, broken, name="broken", ruleset="heimr")
    assert status == 400
    assert re.search(r"ford.yaml, line \d+, characters.ylva.hit_points", page)
    assert web.gm.get("/gm/c/broken").status_code == 404
    status, page = upload(web, "\xff", name="bad")
    assert status == 400


def test_the_character_schema_of_each_ruleset(web: Web) -> None:
    schema = web.gm.get("/gm/schema/character-heimr-classic.json").json()
    assert {"name", "side"} <= set(schema["required"])
    assert "dm_permission" in schema["properties"]
    assert web.gm.get("/gm/schema/character-chess.json").status_code == 404
    assert web.client().get("/gm/schema/character-heimr.json").status_code == 403


@pytest.mark.rule("H-XP-1", "H-XP-2")
def test_a_character_made_through_the_form_then_awarded_and_trained(web: Web) -> None:
    web.post("/gm/campaigns/new", name="saga", ruleset="heimr")
    form = web.gm.get("/gm/c/saga/character").text
    for field in ("name", "side", "attributes", "hit_points", "willpower", "abilities"):
        assert f'name="{field}"' in form
    fields = {
        "new": "1",
        "key": "sigrid",
        "name": "Sigrid",
        "side": "north",
        "attributes": "{str: 1, dex: 0, sta: 1, int: 0, soc: 0, emp: 0}",
        "hit_points": "0",
        "willpower": "three",
    }
    status, page = web.post("/gm/c/saga/character", **fields)
    assert status == 400
    assert error(page, "willpower") == "a whole number, not three"
    status, page = web.post("/gm/c/saga/character", **{**fields, "willpower": "3"})
    assert status == 400
    assert error(page, "hit_points") == "Input should be greater than or equal to 1"
    assert 'value="Sigrid"' in page  # what was typed is kept
    status, page = web.post(
        "/gm/c/saga/character",
        **{**fields, "willpower": "3", "hit_points": "4", "attributes": "{str: 1}"},
    )
    assert status == 400 and "missing dex" in error(page, "attributes")
    status, page = web.post(
        "/gm/c/saga/character", **{**fields, "willpower": "3", "hit_points": "4"}
    )
    assert status == 200 and "sheet written" in page
    status, page = web.post("/gm/c/saga/entry/award", xp="12", characters="sigrid", group="g")
    assert status == 200 and "12 XP to g: 12 each to sigrid, 0 left over" in page
    agility = {"character": "sigrid", "ability": "Agility"}
    status, page = web.post("/gm/c/saga/entry/train", **agility, track="potential")
    assert status == 200 and "trains Agility potential for 5 XP" in page
    status, page = web.post("/gm/c/saga/entry/train", **agility, track="speed")
    assert status == 400 and "not 'speed'" in error(page, "train")
    status, page = web.post("/gm/c/saga/entry/award", xp="x", characters="sigrid", group="g")
    assert status == 400 and "a whole number" in error(page, "award-xp")
    ledger = Ledger(web.store)
    assert ledger.sheet("saga", "sigrid")["xp"] == 7
    status, page = web.post("/gm/c/saga/undo")
    assert status == 200 and "undo: sigrid trains Agility" in page
    assert ledger.sheet("saga", "sigrid")["xp"] == 12
    status, page = web.post("/gm/c/saga/redo")
    assert ledger.sheet("saga", "sigrid")["xp"] == 7
    exported = web.gm.get("/gm/c/saga/character/sigrid/export.yaml")
    assert parse_yaml(exported.text, "x").data["characters"]["sigrid"]["xp"] == 7
    sheet = web.gm.get("/gm/c/saga/character/sigrid").text
    assert 'value="7"' in sheet  # xp
    then = web.gm.get("/gm/c/saga/character/sigrid?at=2000-01-01")
    assert then.status_code == 400 and "no character 'sigrid'" in error(then.text, "at")
    bad = web.gm.get("/gm/c/saga?at=yesterday")
    assert "is not a date" in error(bad.text, "at")


@pytest.mark.rule("HC-STAT-1", "HC-XP-1")
def test_a_classic_character_by_points_and_a_raise_with_permission(web: Web) -> None:
    web.post("/gm/campaigns/new", name="hvita", ruleset="heimr-classic")
    fields = {"new": "1", "key": "b", "name": "Brynja", "side": "n", "statistics": "{CS: 11}"}
    status, page = web.post("/gm/c/hvita/character", **fields)
    assert status == 400 and "combat_skill 11 is above 10 at creation" in error(page, "form")
    fields["statistics"] = "{CS: 10, A: 5, K: 4, C: 3, W: 3}"
    status, page = web.post("/gm/c/hvita/character", **fields)
    assert status == 200 and "combat_skill 10 is above 7" in page  # the warning, kept
    web.post("/gm/c/hvita/entry/award", xp="500", characters="b")
    web.post("/gm/c/hvita/entry/raise", character="b", statistic="A")
    status, page = web.post("/gm/c/hvita/entry/raise", character="b", statistic="CS")
    assert status == 400 and "needs a DM's permission" in error(page, "raise")
    web.post("/gm/c/hvita/entry/permit", character="b", granted="yes")
    status, page = web.post("/gm/c/hvita/entry/raise", character="b", statistic="CS")
    assert status == 200 and "raises combat_skill to 11 for 400 XP" in page
    status, page = web.post("/gm/c/hvita/entry/spend", character="b", what="willpower", amount="2")
    assert status == 200 and Ledger(web.store).sheet("hvita", "b")["willpower"] == 8


def test_forms_need_the_csrf_token(web: Web) -> None:
    web.post("/gm/campaigns/new", name="saga", ruleset="heimr")
    assert web.gm.post("/gm/c/saga/undo", data={"csrf": "forged"}).status_code == 403
    assert web.client().get("/gm/c/saga").status_code == 403
    response = web.gm.post("/gm/campaigns/new", data={"name": "x", "ruleset": "heimr"})
    assert response.status_code == 403
    assert [c.name for c in Ledger(web.store).campaigns()] == ["saga"]


def test_an_encounter_concluded_from_the_table_page(web: Web) -> None:
    ledger = Ledger(web.store)
    ledger.import_file("ford", EXAMPLES / "heimr" / "campaign.yaml")
    table = ledger.start_encounter("ford", "duel-1", DUEL, seed=1)
    script = (EXAMPLES / "heimr" / "duel.script").read_text(encoding="utf-8").splitlines()
    for line in [s for s in script if s and not s.startswith("#")][:9]:
        table.push(line)  # seed 1: Ylva down to 1 HP, fatigue 5
    page = web.page("duel-1")
    assert 'id="conclude-form"' in page and "ylva {&#39;hit_points&#39;: 1" in page
    web.csrf = csrf_of(page)
    status, _ = web.post("/gm/t/duel-1/conclude", award="gm", xp_ylva="2", carry="on")
    assert status == 303
    assert "Concluded in the books" in web.page("duel-1")
    assert ledger.sheet("ford", "ylva")["xp"] == 2
    following = ledger.start_encounter("ford", "duel-2", DUEL)
    assert following.encounter.state.combatants["ylva"].hp == 1
    status, _ = web.post("/gm/t/duel-1/conclude", award="encounter")
    assert status == 400
