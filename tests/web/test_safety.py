"""The web's guards: secrets in links, the GM's cookie and CSRF token, a form's version
(a double click applies once), clear messages for malformed forms, never a 500."""

from __future__ import annotations

import pytest
from tests.web.webtools import Web, error_of, roll_asked, version_of, waiting_text

from fracas.table.seats import Seats
from fracas.table.table import Table


@pytest.fixture
def web(db_url: str) -> Web:
    web = Web(db_url)
    web.start("heimr/duel.yaml")
    return web


def test_pages_without_a_valid_token_are_forbidden(web: Web) -> None:
    stranger = web.client()
    for path in ("/gm/", "/gm/t/t", "/gm/t/t/live?v=0", "/gm/t/t/screen.json"):
        assert stranger.get(path).status_code == 403, path
    assert stranger.post("/gm/t/t/act", data={"action": "gm begin"}).status_code == 403
    assert stranger.get("/gm/login?token=guess").status_code == 403
    for token in ("nothing", "x" * 43, "x" * 5000):
        assert stranger.get(f"/p/{token}").status_code == 403
        assert stranger.post(f"/p/{token}/act", data={"action": "ylva end"}).status_code == 403
    assert web.store.table("t").version == 0


def test_a_player_link_opens_its_side_only_and_never_a_gm_page(web: Web) -> None:
    link = web.link("raiders")
    token = link.removeprefix("/p/")
    assert len(token) >= 43  # 32 random bytes
    player = web.client()
    page = player.get(link)
    assert page.status_code == 200
    assert "side raiders" in page.text
    assert player.get("/gm/t/t").status_code == 403
    assert player.get(f"/gm/login?token={token}").status_code == 403
    # The store keeps only a hash of the token.
    with web.store.engine.connect() as connection:
        dumped = "\n".join(
            str(row) for row in connection.exec_driver_sql("SELECT * FROM fracas_seats")
        )
    assert token not in dumped


def test_a_revoked_link_opens_nothing(web: Web) -> None:
    link = web.link("raiders")
    seat = Seats(web.store).of_table(web.store.table("t").id)[0]
    assert f"link {seat.id}" in web.page()
    status, _ = web.post(f"/gm/t/t/seats/{seat.id}", do="revoke", confirmed="yes")
    assert status == 303
    assert web.client().get(link).status_code == 403
    assert f"link {seat.id}" not in web.page()


def test_gm_forms_need_the_csrf_token_and_this_site_as_origin(web: Web) -> None:
    fields = {"action": "gm begin", "version": "0"}
    assert web.gm.post("/gm/t/t/act", data=fields).status_code == 403
    assert web.gm.post("/gm/t/t/act", data={**fields, "csrf": "forged"}).status_code == 403
    web.page()
    foreign = web.gm.post(
        "/gm/t/t/act",
        data={**fields, "csrf": web.csrf},
        headers={"Origin": "https://evil.example"},
        follow_redirects=False,
    )
    assert foreign.status_code == 403
    assert web.store.table("t").version == 0
    status, _ = web.act("gm begin")
    assert status == 303


def test_a_double_submitted_form_applies_once(web: Web) -> None:
    drawn_at = version_of(web.page())
    assert web.act("gm begin", version=drawn_at)[0] == 303
    status, page = web.act("gm begin", version=drawn_at)
    assert status == 409
    assert "already applied" in (error_of(page, "action") or "")
    assert web.store.table("t").head == 1
    page = web.page()
    assert web.act("ylva attack astrid", version=version_of(page))[0] == 303
    assert web.act("ylva attack astrid", version=version_of(page))[0] == 409
    assert web.store.table("t").head == 2


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"action": "gm begin"}, "no version"),
        ({"action": "gm begin", "version": "x"}, "no version"),
        ({"action": "gm begin", "version": "9" * 40}, "no version"),
        ({"action": "", "version": "0"}, "type an action"),
        ({"action": "ylva", "version": "0"}, "cannot read"),
        ({"action": "ylva 'open", "version": "0"}, "cannot read"),
        ({"action": "astrid attack ylva", "version": "0"}, ""),
        ({"action": "x" * 10_000, "version": "0"}, ""),
    ],
)
def test_a_malformed_form_gets_a_message_next_to_the_field(
    web: Web, fields: dict[str, str], message: str
) -> None:
    status, page = web.post("/gm/t/t/act", **fields)
    assert status == 400
    error = error_of(page, "action")
    assert error is not None and message in error
    assert web.store.table("t").version == 0


def test_unknown_routes_and_tables_are_not_server_errors(web: Web) -> None:
    assert web.gm.get("/gm/t/nothing").status_code == 404
    assert web.gm.get("/gm/t/t/live?v=abc").status_code == 400
    assert web.gm.get("/gm/t/t?at=abc").status_code == 400
    assert web.gm.get("/gm/t/t?at=999").status_code == 200
    assert web.post("/gm/t/t/seats", side="nobody")[0] == 400
    assert web.post("/gm/t/t/seats/1", do="what")[0] == 400
    assert web.post("/gm/t/t/undo", version="0")[0] == 400  # nothing to undo


def test_a_player_acts_for_its_own_side_on_its_turn_when_allowed(web: Web) -> None:
    watcher = web.link("shieldwall")
    actor = web.link("shieldwall", may_act=True)
    other = web.link("raiders", may_act=True)
    web.act("gm begin")
    player = web.client()
    assert (
        player.post(f"{watcher}/act", data={"action": "ylva end", "version": "1"}).status_code
        == 403
    )
    page = player.get(other).text
    assert "ylva end" not in page  # not offered to the raiders
    refused = player.post(f"{other}/act", data={"action": "ylva end", "version": "1"})
    assert refused.status_code == 400
    assert "cannot act for ylva" in (error_of(refused.text, "action") or "")
    page = player.get(actor).text
    assert 'value="ylva end"' in page
    done = player.post(
        f"{actor}/act",
        data={"action": "ylva attack astrid", "version": str(version_of(page))},
        follow_redirects=False,
    )
    assert done.status_code == 303 and done.headers["location"] == actor
    assert web.store.table("t").head == 2


def test_undo_redo_and_the_timeline(web: Web) -> None:
    for line in ("gm begin", "ylva attack astrid", "ylva end"):
        assert web.act(line)[0] == 303
    version = str(web.store.table("t").version)
    assert web.post("/gm/t/t/undo", version=version)[0] == 200
    assert web.post("/gm/t/t/undo", version=version)[0] == 409  # a double click
    assert web.store.table("t").head == 2
    version = str(web.store.table("t").version)
    assert web.post("/gm/t/t/redo", version=version)[0] == 200
    assert web.store.table("t").head == 3
    earlier = web.gm.get("/gm/t/t?at=1").text
    assert "Looking back at action 1 of 3" in earlier
    assert 'name="action"' not in earlier  # read-only
    assert "ylva end" not in earlier.split('id="log"')[1]
    assert web.store.table("t").head == 3


def test_the_live_fragment_is_sent_only_when_the_version_moved(web: Web) -> None:
    link = web.link("raiders")
    player = web.client()
    assert player.get(f"{link}/live?v=0").status_code == 204
    assert web.gm.get("/gm/t/t/live?v=0").status_code == 204
    web.act("gm begin")
    fresh = player.get(f"{link}/live?v=0")
    assert fresh.status_code == 200
    assert fresh.text.startswith('<main id="live"')
    assert version_of(fresh.text) == 1


def test_physical_dice_are_asked_by_form_until_possible(web: Web) -> None:
    web.act("gm begin")
    assert web.post("/gm/t/t/dice", mode="typed")[0] == 303
    table = Table.resume(web.store, "t")
    status, page = web.post("/gm/t/t/act", action="ylva attack astrid", version=str(table.version))
    assert status == 200
    asked = roll_asked(page)
    assert asked is not None
    assert web.store.table("t").head == 1  # held, not pushed
    status, page = web.post("/gm/t/t/roll", pending=asked[0], faces="99 99 99")
    assert status == 200 and error_of(page, "faces")  # impossible faces: asked again
    for _ in range(10):  # every roll of the attack, each with the lowest faces (the GM
        asked = roll_asked(page)  # may type any side's)
        if asked is None:
            break
        status, page = web.post(
            "/gm/t/t/roll", pending=asked[0], faces=" ".join(["1"] * len(asked[2]))
        )
    assert status == 303
    table.sync()
    assert table.head == 2
    rolled = [f for roll in table.encounter.log[-1].rolls for f in roll.faces]
    assert rolled and set(rolled) == {1}


def test_a_player_types_in_its_own_dice(web: Web) -> None:
    link = web.link("shieldwall", may_act=True)
    web.act("gm begin")
    assert web.post("/gm/t/t/dice", mode="typed")[0] == 303
    player = web.client()
    fields = {"action": "ylva attack astrid", "version": "1"}
    page = player.post(f"{link}/act", data=fields).text
    asked = roll_asked(page)
    assert asked is not None and asked[1].startswith("Ylva Shieldbreaker attacks")
    answer = player.post(f"{link}/roll", data={"pending": asked[0], "faces": "5 9 9 9"})
    # Astrid's dodge is the raiders' (no page open): the game master types it.
    assert roll_asked(answer.text) is None
    assert waiting_text(answer.text) == "Waiting for another side's dice."
    gm = roll_asked(web.page())
    assert gm is not None and gm[1].startswith("Astrid Ironside's")
    assert web.post("/gm/t/t/roll", pending=gm[0], faces=" ".join(["1"] * len(gm[2])))[0] == 303
    assert web.store.table("t").head == 2


def test_the_gm_saves_and_a_side_exports_only_its_view(web: Web) -> None:
    web.act("gm begin")
    web.act("ylva attack astrid")
    save = web.gm.get("/gm/t/t/export.json")
    assert save.status_code == 200 and "attachment" in save.headers["content-disposition"]
    again = Table.import_save(web.store, "again", save.json())
    assert again.head == 2
    link = web.link("raiders")
    assert web.client().get("/gm/t/t/export.json").status_code == 403
    view = web.client().get(f"{link}/export.json").json()
    assert view["side"] == "raiders" and "log" not in view


def test_the_encounter_schema_and_too_many_answers(web: Web) -> None:
    schema = web.gm.get("/gm/schema/encounter.json").json()
    assert "ruleset" in schema["properties"]
    assert web.client().get("/gm/schema/encounter.json").status_code == 403
    status, _ = web.post("/gm/t/t/act", action="gm begin", version="0", answers=["1"] * 501)
    assert status == 400
    assert web.store.table("t").version == 0
