"""The preparation pages through the app, on SQLite and PostgreSQL: the battlefield
editor (each mistake next to its field, nothing stored), the free maps, import and
export, the schemas, and an encounter built from a campaign and started."""

from __future__ import annotations

import re

import pytest
import yaml
from tests.web.webtools import EXAMPLES, Web, csrf_of, error_of, text_of

from fracas.ledger import Ledger
from fracas.library import Library
from fracas.library.kinds import KINDS, schema


def _web(db_url: str) -> Web:
    web = Web(db_url)
    web.csrf = csrf_of(web.gm.get("/gm/prep/battlefields").text)
    return web


def _version(page: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', page)
    assert found, "no version in the form"
    return found.group(1)


def _make(web: Web, name: str = "hall", ruleset: str = "heimr") -> str:
    status, _ = web.post("/gm/prep/battlefields", name=name, ruleset=ruleset)
    assert status == 303
    return web.gm.get(f"/gm/prep/battlefields/{name}").text


@pytest.mark.rule("H-GRID-2", "H-GRID-3", "H-GRID-5")
def test_the_grid_editor_answers_each_mistake_next_to_its_field(db_url: str) -> None:
    web = _web(db_url)
    page = _make(web)
    assert 'id="sq-C3"' in page and 'id="edge-B2-C2"' in page
    panel = web.gm.get("/gm/prep/battlefields/hall?square=B2").text
    assert "Stone merlon" in panel and "Torch" in panel  # the choices come from the tables
    version = _version(page)
    status, page = web.post(
        "/gm/prep/battlefields/hall/square", square="B2", height="-1", version=version
    )
    assert status == 400
    assert error_of(page, "height") == "at least 0"
    status, page = web.post(
        "/gm/prep/battlefields/hall/border", a="A1", b="C1", preset="Single door", version=version
    )
    assert status == 400
    assert error_of(page, "between") == "A1 and C1 are not bordering squares (H-GRID-2)"
    status, page = web.post(
        "/gm/prep/battlefields/hall/border", a="A1", b="A2", preset="Singel door", version=version
    )
    assert status == 400
    assert "did you mean 'Single door'?" in (error_of(page, "preset") or "")
    assert web.store and Library(web.store).battlefield("hall").version == 0  # nothing stored
    status, _ = web.post(
        "/gm/prep/battlefields/hall/square",
        square="B2",
        height="2",
        name="mound",
        terrain="difficult",
        concealment=["Shrubbery"],
        version=version,
    )
    assert status == 303
    status, _ = web.post(
        "/gm/prep/battlefields/hall/border",
        a="B2",
        b="B3",
        preset="Regular door",
        version=str(int(version) + 1),
    )
    assert status == 303
    # A form drawn before those changes is refused, and says why.
    status, page = web.post(
        "/gm/prep/battlefields/hall/square", square="A1", height="1", version=version
    )
    assert status == 409 and "changed meanwhile" in text_of(page)
    exported = yaml.safe_load(web.gm.get("/gm/prep/battlefields/hall.yaml").text)
    assert exported == {
        "ruleset": "heimr",
        "battlefield": {
            "columns": 3,
            "rows": 3,
            "squares": {
                "B2": {
                    "name": "mound",
                    "height": 2,
                    "terrain": "difficult",
                    "concealment": ["Shrubbery"],
                }
            },
            "borders": [{"between": ["B2", "B3"], "preset": "Regular door"}],
        },
    }
    page = web.gm.get("/gm/prep/battlefields/hall").text
    assert "B2 ▲2 ░1" in page


def test_resizing_leaves_out_what_falls_off_the_grid(db_url: str) -> None:
    web = _web(db_url)
    version = _version(_make(web))
    web.post("/gm/prep/battlefields/hall/settings", columns="5", rows="4", version=version)
    web.post("/gm/prep/battlefields/hall/square", square="E4", height="1", version="1")
    status, page = web.post(
        "/gm/prep/battlefields/hall/settings", columns="2", rows="3", version="2"
    )
    assert status == 400 and "at least 3" in (error_of(page, "columns") or "")
    status, _ = web.post(
        "/gm/prep/battlefields/hall/settings", columns="3", rows="3", title="Hall", version="2"
    )
    assert status == 303
    field = Library(web.store).battlefield("hall")
    assert field.document == {"battlefield": {"columns": 3, "rows": 3, "squares": {}}} or (
        field.document == {"battlefield": {"columns": 3, "rows": 3}}
    )
    assert field.title == "Hall"


@pytest.mark.rule("HC-MOVE-1")
def test_the_positions_editor_of_a_free_map(db_url: str) -> None:
    web = _web(db_url)
    page = _make(web, "ford", "heimr-classic")
    assert 'id="add-place"' in page
    web.post("/gm/prep/battlefields/ford/place", name="North bank", version="0")
    status, page = web.post(
        "/gm/prep/battlefields/ford/place",
        name="Ford",
        borders=["North bank"],
        **{"modifiers.dodge": "-1", "modifiers.attack": "x"},
        version="1",
    )
    assert status == 400 and "a whole number" in (error_of(page, "modifiers") or "")
    status, _ = web.post(
        "/gm/prep/battlefields/ford/place",
        name="Ford",
        borders=["North bank"],
        **{"modifiers.dodge": "-1"},
        version="1",
    )
    assert status == 303
    status, page = web.post("/gm/prep/battlefields/ford/place", name="Ford", version="2")
    assert status == 400 and "already a position called 'Ford'" in text_of(page)
    exported = yaml.safe_load(web.gm.get("/gm/prep/battlefields/ford.yaml").text)
    assert exported["positions"] == {
        "North bank": {},
        "Ford": {"borders": ["North bank"], "modifiers": {"dodge": -1}},
    }
    page = web.gm.get("/gm/prep/battlefields/ford?place=Ford").text
    assert re.search(r'value="North bank" checked', page)


def test_import_reports_file_line_and_field_and_export_reads_back(db_url: str) -> None:
    web = _web(db_url)
    bad = b"ruleset: heimr\nbattlefield:\n  borders:\n    - {between: [A1, B2], preset: Window}\n"
    response = web.gm.post(
        "/gm/prep/battlefields/import",
        data={"csrf": web.csrf},
        files={"file": ("bad.yaml", bad, "application/yaml")},
    )
    assert response.status_code == 400
    assert error_of(response.text, "file") == (
        "bad.yaml, line 4, battlefield.borders[0].between: "
        "A1 and B2 are not bordering squares (H-GRID-2)"
    )
    path = EXAMPLES / "heimr" / "castle-wall.yaml"
    response = web.gm.post(
        "/gm/prep/battlefields/import",
        data={"csrf": web.csrf},
        files={"file": (path.name, path.read_bytes(), "application/yaml")},
        follow_redirects=False,
    )
    assert response.status_code == 303
    exported = yaml.safe_load(web.gm.get("/gm/prep/battlefields/castle-wall.yaml").text)
    assert exported["battlefield"] == yaml.safe_load(path.read_text())["battlefield"]
    response = web.gm.post(
        "/gm/prep/battlefields/import",
        data={"csrf": web.csrf},
        files={"file": ("x.yaml", b"\xff\xfe", "application/yaml")},
    )
    assert response.status_code == 400 and "not UTF-8" in (error_of(response.text, "file") or "")


def test_the_schemas_are_served_and_need_the_gm(db_url: str) -> None:
    web = _web(db_url)
    for ruleset in KINDS:
        response = web.gm.get(f"/gm/schema/battlefield-{ruleset}.json")
        assert response.status_code == 200 and response.json() == schema(ruleset)
    assert web.gm.get("/gm/schema/battlefield-tempo.json").status_code == 404
    assert web.client().get("/gm/schema/battlefield-heimr.json").status_code == 403
    assert web.client().get("/gm/prep/battlefields").status_code == 403


def test_forms_without_the_csrf_token_are_refused(db_url: str) -> None:
    web = _web(db_url)
    response = web.gm.post("/gm/prep/battlefields", data={"name": "x", "ruleset": "heimr"})
    assert response.status_code == 403
    assert Library(web.store).battlefields() == []


def test_an_encounter_is_built_with_errors_per_field_and_started(db_url: str) -> None:
    web = _web(db_url)
    Ledger(web.store).import_file("north", EXAMPLES / "heimr" / "campaign.yaml")
    _make(web, "yard")
    page = web.gm.get(
        "/gm/prep/encounters/new?name=clash&ruleset=heimr&campaign=north&battlefield=yard"
    ).text
    assert 'value="ylva"' in page and 'name="c0.stance"' in page
    fields = {
        "name": "clash",
        "ruleset": "heimr",
        "campaign": "north",
        "battlefield": "yard",
        "c0.character": "ylva",
        "c0.square": "Z9",
        "c0.stance": "block",
        "c1.character": "astrid",
        "c1.square": "B2",
        "c1.hit_points": "lots",
        "c2.character": "",
    }
    status, page = web.post("/gm/prep/encounters", **fields)
    assert status == 400
    assert error_of(page, "c0-square") == "Z9 is off the 3x3 grid"
    assert error_of(page, "c1-hit_points") == "a whole number"  # in words, not the validator's
    assert Library(web.store).encounters() == []
    fields.update({"c0.square": "B2", "c1.hit_points": "9"})
    status, _ = web.post("/gm/prep/encounters", **fields)
    assert status == 303
    page = web.gm.get("/gm/prep/encounters/clash").text
    assert 'id="start"' in page
    placed = page.split('id="placed"')[1].split("</svg>")[0]  # who stands where, drawn
    assert "<title>ylva</title>" in placed and "<title>astrid</title>" in placed
    exported = yaml.safe_load(web.gm.get("/gm/prep/encounters/clash.yaml").text)
    assert exported["combatants"] == [
        {"character": "ylva", "square": "B2", "stance": "block"},
        {"character": "astrid", "square": "B2", "hit_points": 9},
    ]
    status, _ = web.post("/gm/prep/encounters/clash/start", table="clash-1")
    assert status == 303
    status, page = web.post("/gm/prep/encounters/clash/start", table="clash-1")
    assert status == 400 and error_of(page, "table") == (
        "there is already a table called 'clash-1': choose another name, or open it from the tables"
    )
    assert 'value="clash-1"' in page.split('id="start-form"')[1]  # the name typed stays
    table = web.page("clash-1")
    assert "Ylva" in table


def test_regions_and_a_line_are_edited_too(db_url: str) -> None:
    web = _web(db_url)
    _make(web, "chapel", "diestep")
    web.post("/gm/prep/battlefields/chapel/place", name="yard", version="0")
    status, _ = web.post(
        "/gm/prep/battlefields/chapel/place",
        name="chapel",
        borders=["yard"],
        cramped="on",
        ground="hard",
        version="1",
    )
    assert status == 303
    status, page = web.post(
        "/gm/prep/battlefields/chapel/place", name="crypt", ground="stone", version="2"
    )
    assert status == 400 and "'soft' or 'hard'" in (error_of(page, "ground") or "")
    exported = yaml.safe_load(web.gm.get("/gm/prep/battlefields/chapel.yaml").text)
    assert exported["regions"] == {
        "yard": {},
        "chapel": {"borders": ["yard"], "cramped": True, "ground": "hard"},
    }
    _make(web, "corridor", "sides")
    status, _ = web.post(
        "/gm/prep/battlefields/corridor/settings", units="metres", confined_space="yes", version="0"
    )
    assert status == 303
    exported = yaml.safe_load(web.gm.get("/gm/prep/battlefields/corridor.yaml").text)
    assert exported == {"ruleset": "sides", "units": "metres", "confined_space": True}
