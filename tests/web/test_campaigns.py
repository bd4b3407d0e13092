"""The campaign pages: campaigns made, imported and exported; a character form generated
from the ruleset's sheet model with errors next to their fields; entries and their undo;
a sheet as of a date; an encounter concluded from the GM's table page."""

from __future__ import annotations

import html
import re

import pytest
from tests.web.webtools import EXAMPLES, Web, csrf_of, rows, text_of

from fracas.ledger import Ledger, LedgerError
from fracas.web.campaign_forms import carry_form, read_carry
from fracas.yamlfile import parse_yaml

DUEL = {"combatants": [{"character": "ylva", "square": "B2"}, {"character": "astrid"}]}


@pytest.fixture
def web(db_url: str) -> Web:
    web = Web(db_url)
    page = web.gm.get("/gm/campaigns")
    assert page.status_code == 200
    web.csrf = csrf_of(page.text)
    return web


ATTRIBUTES = {"str": "1", "dex": "0", "sta": "1", "int": "0", "soc": "0", "emp": "0"}


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
    for field in ("name", "side", "attributes.0.key", "hit_points", "willpower", "abilities.0.key"):
        assert f'name="{field}"' in form
    assert 'data-add-row="rows-abilities"' in form  # a row each, added on the page
    fields = {
        "new": "1",
        "key": "sigrid",
        "name": "Sigrid",
        "side": "north",
        **rows(
            "attributes", {"str": "1", "dex": "0", "sta": "1", "int": "0", "soc": "0", "emp": "0"}
        ),
        "hit_points": "0",
        "willpower": "three",
    }
    status, page = web.post("/gm/c/saga/character", **fields)
    assert status == 400
    assert error(page, "willpower") == "a whole number, not three"
    status, page = web.post("/gm/c/saga/character", **{**fields, "willpower": "3"})
    assert status == 400
    assert error(page, "hit_points") == "at least 1"
    assert 'value="Sigrid"' in page  # what was typed is kept
    status, page = web.post(
        "/gm/c/saga/character",
        **{
            **{k: v for k, v in fields.items() if not k.startswith("attributes.")},
            **rows("attributes", {"str": "1"}),
            "willpower": "3",
            "hit_points": "4",
        },
    )
    assert status == 400 and "missing dex" in error(page, "attributes")
    status, page = web.post(
        "/gm/c/saga/character", **{**fields, "attributes.3.value": "x", "willpower": "3"}
    )
    assert error(page, "attributes") == "int: a whole number, not 'x'"
    assert 'name="attributes.3.value" value="x"' in page  # the row typed stays
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
    status, page = web.post("/gm/c/saga/entry/award", xp="-5", characters="sigrid", group="g")
    assert status == 400 and "not '-5'" in error(page, "award-xp")
    award = page.split('id="award-form"')[1].split("</form>")[0]
    assert 'value="-5"' in award and 'value="sigrid"' in award and 'value="g"' in award
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
    fields = {
        "new": "1",
        "key": "b",
        "name": "Brynja",
        "side": "n",
        **rows("statistics", {"CS": "11"}),
    }
    status, page = web.post("/gm/c/hvita/character", **fields)
    assert status == 400 and "combat_skill 11 is above 10 at creation" in error(page, "form")
    statistics = {"CS": "10", "A": "5", "K": "4", "C": "3", "W": "3"}
    status, page = web.post("/gm/c/hvita/character", **{**fields, **rows("statistics", statistics)})
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
    status, page = web.post("/gm/t/duel-1/conclude", award="gm", xp_ylva="2", carry="on")
    assert status == 400 and "the fight is not over yet" in error(page, "conclude-conclude")
    assert 'name="xp_ylva" size="4" value="2"' in page  # what was typed stays
    assert ledger.encounter("duel-1") == ("ford", None)
    status, _ = web.post(
        "/gm/t/duel-1/conclude", award="gm", xp_ylva="2", carry="on", unfinished="on"
    )
    assert status == 303
    assert "Concluded in the books" in web.page("duel-1")
    status, page = web.act("astrid end", "duel-1")  # no longer played
    assert status == 409 and "no longer played" in text_of(page)
    assert ledger.sheet("ford", "ylva")["xp"] == 2
    following = ledger.start_encounter("ford", "duel-2", DUEL)
    assert following.encounter.state.combatants["ylva"].hp == 1
    status, _ = web.post("/gm/t/duel-1/conclude", award="encounter", unfinished="on")
    assert status == 400


def carry_error(page: str, field: str) -> str:
    return error(page, f"carry-{field}")


@pytest.mark.rule("H-CHAR-5", "H-HP-1", "H-FAT-3")
def test_what_a_character_carries_set_through_its_form_then_played(web: Web) -> None:
    ledger = Ledger(web.store)
    ledger.import_file("ford", EXAMPLES / "heimr" / "campaign.yaml")
    page = web.gm.get("/gm/c/ford/character/ylva").text
    form = page[
        page.index('id="carry-form"') : page.index("</form>", page.index('id="carry-form"'))
    ]
    for field in ("hit_points", "fatigue", "dead"):
        assert f'name="{field}"' in form
    assert 'name="wound"' not in form and 'name="hp"' not in form  # Heimr's fields only
    status, page = web.post("/gm/c/ford/character/ylva/carry", hit_points="2", fatigue="5")
    assert status == 200
    assert "ylva carries hit points 2, fatigue 5 into the next encounter" in page  # the log
    assert ledger.standing("ford").carried["ylva"] == {"hit_points": 2, "fatigue": 5}
    shown = web.gm.get("/gm/c/ford/character/ylva").text
    assert 'name="hit_points" value="2"' in shown and 'name="fatigue" value="5"' in shown
    assert "error" not in shown.split('id="carry-form"')[1]  # nothing refused, no error shown
    table = ledger.start_encounter("ford", "duel-1", DUEL, seed=1)
    ylva = table.encounter.state.combatants["ylva"]
    assert (ylva.hp, ylva.fatigue) == (2, 5)
    astrid = table.encounter.state.combatants["astrid"]
    assert astrid.hp == ledger.sheet("ford", "astrid")["hit_points"]  # carried nothing


def test_a_bad_carried_value_is_refused_beside_its_field(web: Web) -> None:
    ledger = Ledger(web.store)
    ledger.import_file("ford", EXAMPLES / "heimr" / "campaign.yaml")
    before = len(ledger.entries("ford"))
    status, page = web.post(
        "/gm/c/ford/character/ylva/carry", hit_points="two", fatigue="5", dead="maybe"
    )
    assert status == 400
    assert carry_error(page, "hit_points") == "hit_points: a whole number, not 'two'"
    assert carry_error(page, "dead") == "dead: true or false, not 'maybe'"
    assert 'id="error-carry-fatigue"' not in page
    assert 'name="hit_points" value="two"' in page and 'name="fatigue" value="5"' in page
    assert len(ledger.entries("ford")) == before and "ylva" not in ledger.standing("ford").carried
    status, page = web.post("/gm/c/ford/character/ylva/carry", fatigue="1.5")
    assert status == 400 and "a whole number" in carry_error(page, "fatigue")
    assert (
        web.gm.post("/gm/c/ford/character/ylva/carry", data={"csrf": "forged"}).status_code == 403
    )
    assert web.post("/gm/c/ford/character/nobody/carry", hit_points="1")[0] == 404
    assert len(ledger.entries("ford")) == before


def test_a_carry_undone_cleared_and_a_dead_character_kept_out(web: Web) -> None:
    ledger = Ledger(web.store)
    ledger.import_file("ford", EXAMPLES / "heimr" / "campaign.yaml")
    web.post("/gm/c/ford/character/ylva/carry", hit_points="-1")
    assert ledger.standing("ford").carried["ylva"] == {"hit_points": -1}
    status, page = web.post("/gm/c/ford/undo")
    assert status == 200 and "undo: ylva carries" in page
    assert "ylva" not in ledger.standing("ford").carried
    web.post("/gm/c/ford/redo")
    assert ledger.standing("ford").carried["ylva"] == {"hit_points": -1}
    status, page = web.post("/gm/c/ford/character/ylva/carry", hit_points="3", clear="1")
    assert status == 200 and "ylva carries nothing into the next encounter" in page
    assert "ylva" not in ledger.standing("ford").carried
    web.post("/gm/c/ford/character/astrid/carry", dead="true")
    with pytest.raises(LedgerError, match="astrid is dead"):
        ledger.start_encounter("ford", "duel-1", DUEL)


@pytest.mark.rule("D-WOUND-1")
def test_the_carry_form_has_each_ruleset_s_fields(web: Web) -> None:
    web.post("/gm/campaigns/new", name="hvita", ruleset="heimr-classic")
    ledger = Ledger(web.store)
    sheet = {"name": "Brynja", "side": "n", "statistics": {"CS": 7, "A": 5, "K": 4, "C": 3, "W": 3}}
    ledger.record("hvita", "create", "b", {"sheet": sheet})
    page = web.gm.get("/gm/c/hvita/character/b").text
    assert 'name="conditions"' in page and 'name="fatigue"' not in page
    web.post("/gm/c/hvita/character/b/carry", hit_points="3", conditions="prone, blinded")
    assert ledger.standing("hvita").carried["b"] == {
        "hit_points": 3,
        "conditions": ["prone", "blinded"],
    }
    diestep = carry_form("diestep", {"hp": 3, "wound": "badly"})
    assert [(f.name, f.value) for f in diestep] == [("hp", "3"), ("wound", "badly"), ("dead", "")]
    assert read_carry("diestep", {"wound": "grazed"})[1] == {
        "carry.wound": "wound: badly or mortal, not 'grazed'"
    }
    assert [f.name for f in carry_form("tempo", None)] == ["hp", "dead"]
    assert [f.name for f in carry_form("sides", None)] == ["dead"]


@pytest.mark.rule("H-XP-1")
def test_the_conclude_form_gives_its_mistakes_beside_their_fields(web: Web) -> None:
    ledger = Ledger(web.store)
    ledger.import_file("ford", EXAMPLES / "heimr" / "campaign.yaml")
    ledger.start_encounter("ford", "duel-1", DUEL, seed=1)
    page = web.page("duel-1")
    assert 'name="group"' in page and 'value="divide"' in page
    web.csrf = csrf_of(page)
    status, page = web.post(
        "/gm/t/duel-1/conclude", award="gm", xp_ylva="two", xp_astrid="3", unfinished="on"
    )
    assert status == 400
    assert error(page, "conclude-xp_ylva") == "ylva: a whole number, not 'two'"
    assert 'name="xp_ylva" size="4" value="two"' in page
    assert 'name="xp_astrid" size="4" value="3"' in page
    assert 'value="gm" checked' in page
    divided = {"award": "divide", "xp": "9", "group": "party", "carry": "on", "unfinished": "on"}
    status, page = web.post("/gm/t/duel-1/conclude", **divided, characters="ylva nobody")
    assert status == 400 and "no character 'nobody'" in error(page, "conclude-characters")
    assert 'name="characters" size="30" value="ylva nobody"' in page
    status, page = web.post("/gm/t/duel-1/conclude", **{**divided, "group": ""}, characters="ylva")
    assert status == 400 and "name the group" in error(page, "conclude-group")
    status, page = web.post("/gm/t/duel-1/conclude", **{**divided, "xp": "lots"}, characters="y")
    assert status == 400 and "xp: a whole number" in error(page, "conclude-xp")
    assert [e.kind for e in ledger.entries("ford")] == []
    status, _ = web.post("/gm/t/duel-1/conclude", **divided, characters="ylva astrid")
    assert status == 303
    assert ledger.sheet("ford", "ylva")["xp"] == 4 and ledger.standing("ford").leftovers == {
        "party": 1
    }
    status, page = web.post("/gm/t/duel-1/conclude", award="encounter", unfinished="on")
    assert status == 400 and "already concluded" in error(page, "conclude-conclude")
