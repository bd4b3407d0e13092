"""What a game master expects of the tables on the web: import a save (its own title),
archive (its pages, links and live streams close), restore and delete a table, each
asking first; a confirm step before a link is revoked; new links kept on the page until
copied; friendly pages for 403 and 404 (JSON for scripts); a revoked link says so."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tests.web.webtools import Web, csrf_of, error_of, text_of

HTML = {"accept": "text/html,application/xhtml+xml"}


@pytest.fixture
def web(tmp_path: Path) -> Web:
    web = Web(f"sqlite:///{tmp_path / 'tables.db'}")
    web.start("heimr/duel.yaml")
    web.page()
    return web


def test_a_save_imports_under_its_own_title_and_a_refusal_keeps_the_name(web: Web) -> None:
    web.act("ylva attack astrid")
    save = web.gm.get("/gm/t/t/export.json").text
    assert json.loads(save)["title"] == web.store.table("t").title != ""
    upload = {"file": ("download (3).json", save.encode(), "application/json")}
    page = web.gm.post("/gm/import", data={"csrf": web.csrf}, files=upload, follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/gm/t/download--3"
    record = web.store.table("download--3")
    assert record.title == web.store.table("t").title and record.head == web.store.table("t").head
    # A taken name: the form comes back with the name typed and the web's words.
    taken = web.gm.post("/gm/import", data={"csrf": web.csrf, "name": "t"}, files=upload)
    assert taken.status_code == 400
    assert 'value="t"' in taken.text
    assert error_of(taken.text, "import-name") == (
        "there is already a table called 't': choose another name, or open it from the tables"
    )
    assert "--table" not in taken.text
    junk = {"file": ("notes.json", b"{not json", "application/json")}
    refused = web.gm.post("/gm/import", data={"csrf": web.csrf, "name": "x"}, files=junk)
    assert refused.status_code == 400
    assert "not JSON" in (error_of(refused.text, "import-file") or "")
    assert 'value="x"' in refused.text


def test_archive_restore_and_delete_ask_first_and_close_the_table(web: Web) -> None:
    link = web.link("raiders")
    asked = web.post("/gm/t/t/archive")
    assert asked[0] == 200 and "Archive the table t?" in text_of(asked[1])
    assert web.store.table("t").archived is None  # nothing done before the yes
    done = web.post("/gm/t/t/archive", confirmed="yes")
    assert done[0] == 303 and web.store.table("t").archived is not None
    assert "/gm/t/t" not in web.gm.get("/gm/").text
    assert "/gm/t/t/restore" in web.gm.get("/gm/archived").text
    closed = web.gm.get("/gm/t/t", headers=HTML)
    assert closed.status_code == 409 and "archived" in closed.text and 'href="/gm/"' in closed.text
    player = web.client().get(link, headers=HTML)
    assert player.status_code == 403 and "put this table away" in player.text
    assert web.post("/gm/t/t/restore")[0] == 303 and web.store.table("t").archived is None
    assert web.gm.get("/gm/t/t").status_code == 200
    assert web.client().get(link).status_code == 200
    asked = web.post("/gm/t/t/delete")
    assert asked[0] == 200 and "Delete the table t for good?" in text_of(asked[1])
    assert web.post("/gm/t/t/delete", confirmed="yes")[0] == 303
    assert web.store.count_tables() == 0


def test_archiving_closes_the_live_streams(web: Web) -> None:
    closed: list[tuple[int, int]] = []
    web.store.listeners.append(lambda table, version: closed.append((table, version)))
    table_id = web.store.table("t").id
    web.store.archive("t")
    assert closed == [(table_id, -1)]  # DELETED: the hub closes every stream of the table


def test_revoking_asks_first_and_the_revoked_page_says_so(web: Web) -> None:
    link = web.link("raiders")
    seat = web.app.state.seats.of_table(web.store.table("t").id)[0]
    asked = web.post(f"/gm/t/t/seats/{seat.id}", do="revoke")
    assert asked[0] == 200 and f"Revoke player link {seat.id}?" in asked[1]
    assert web.client().get(link).status_code == 200
    assert web.post(f"/gm/t/t/seats/{seat.id}", do="revoke", confirmed="yes")[0] == 303
    page = web.client().get(link, headers=HTML)
    assert page.status_code == 403 and "revoked this link" in page.text
    assert "<h1>" in page.text and "ask them for a new one" in page.text
    script = web.client().get(link + "/screen.json")
    assert script.status_code == 403 and "revoked" in script.json()["detail"]


def test_a_second_link_does_not_lose_the_first(web: Web) -> None:
    first = web.post("/gm/t/t/seats", side="raiders")[1]
    carried = re.search(r'name="fresh" value="([^"]*)"', first)
    assert carried
    second = web.post("/gm/t/t/seats", side="raiders", fresh=text_of(carried.group(1)))[1]
    links = re.findall(r'href="([^"]+)" class="fresh-link"', second)
    assert len(links) == 2 and links[1] in first
    assert second.count('data-copy="') == 2 and 'id="new-link"' in second
    forged = web.post("/gm/t/t/seats", side="raiders", fresh="raiders https://elsewhere/p/x")[1]
    assert "elsewhere" not in forged


def test_refusals_are_pages_for_browsers_and_json_for_scripts(web: Web) -> None:
    missing = web.gm.get("/gm/t/nothing-here", headers=HTML)
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
    assert "Nothing here" in missing.text and 'href="/gm/"' in missing.text
    prep = web.gm.get("/gm/prep/encounters/none/edit", headers=HTML)
    assert prep.status_code == 404 and 'href="/gm/prep/encounters"' in prep.text
    assert web.gm.get("/gm/t/nothing-here/screen.json").json()["detail"]
    fragment = web.gm.get("/gm/t/nothing-here", headers={**HTML, "hx-request": "true"})
    assert fragment.headers["content-type"] == "application/json"
    stranger = web.client().get("/p/not-a-link", headers=HTML)
    assert stranger.status_code == 403 and "opens nothing" in stranger.text
    assert csrf_of(stranger.text) == ""  # no GM form on a player's refusal
