"""Play by post through the web (HC-ROUND-1, HC-ROUND-2): the game master opens a round,
three player links post their sides' declarations, the GM sees who has not posted and
closes it; a link never shows another side's post; a bad post names its line; a post
acknowledged survives the server being killed."""

from __future__ import annotations

import re

import httpx
import pytest
from tests.hidden.secrets import leaks, secrets
from tests.table.test_rounds import NORTH, RAIDERS, WOLVES, scripted_round_1
from tests.web.servers import running
from tests.web.webtools import Web, error_of, text_of, version_of

from fracas.table.rounds import Rounds, live_refusal
from fracas.table.seats import Seats
from fracas.table.store import Store
from fracas.table.table import Table

POSTS = {"north": NORTH, "raiders": RAIDERS, "wolves": WOLVES}


@pytest.fixture
def web(db_url: str) -> Web:
    web = Web(db_url)
    web.start("classic/ford.yaml", seed=14)
    return web


def round_id(page: str) -> str:
    found = re.search(r'name="round" value="(\d+)"', page)
    assert found, "no close form on the GM's page"
    return found.group(1)


def stamp(page: str) -> str:
    found = re.search(r'id="round-status" data-stamp="([^"]*)"', page)
    assert found, "no posted round's status on the page"
    return found.group(1)


def lines_of(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


@pytest.mark.rule("HC-ROUND-1", "HC-ROUND-2")
def test_three_links_post_the_gm_sees_who_has_not_and_the_close_resolves_the_round(
    web: Web,
) -> None:
    links = {side: web.link(side) for side in POSTS}
    assert 'id="open-round"' in web.page()
    status, text = web.post("/gm/t/t/round/open", hours="")
    assert status == 303, text
    players = {side: web.client() for side in POSTS}
    for side in ("north", "wolves"):
        answer = players[side].post(
            links[side] + "/round/post", data={"text": POSTS[side]}, follow_redirects=False
        )
        assert answer.status_code == 303, answer.text[:300]
    page = web.page()
    assert re.search(r'id="posted-raiders">raiders: <b class="waiting">not posted yet', page)
    assert 'id="posted-north">north: posted' in page
    # The status part asked for (no page polls it: the stream sends it): unchanged it
    # answers 204; a new post sends it again.
    seen = stamp(page)
    assert web.gm.get(f"/gm/t/t/round/status?s={seen}").status_code == 204
    answer = players["raiders"].post(
        links["raiders"] + "/round/post", data={"text": RAIDERS}, follow_redirects=False
    )
    assert answer.status_code == 303
    fresh = web.gm.get(f"/gm/t/t/round/status?s={seen}")
    assert fresh.status_code == 200 and 'id="posted-raiders">raiders: posted' in fresh.text
    status, text = web.post("/gm/t/t/round/close", round=round_id(page))
    assert status == 303, text
    table = Table.resume(web.store, "t")
    assert [e.to_dict() for e in table.encounter.log] == scripted_round_1()
    # Asked for after the close, the status sends the page afresh: the round closed.
    polled = players["north"].get(links["north"] + f"/round/status?s={seen}")
    assert polled.headers.get("hx-redirect") == links["north"]
    # The round's results as a forum post, on the GM's page and every link.
    for shown in (web.page(), players["wolves"].get(links["wolves"]).text):
        post = text_of(shown)
        assert "wolf is gone: brannoc turns on ylva at random" in post
        assert "[b]Three at the ford: round 1[/b]" in post
        assert "**Three at the ford: round 1**" in post
        assert 'id="copy-markdown"' in shown and 'id="copy-bbcode"' in shown


@pytest.mark.rule("HC-ROUND-1")
def test_a_link_never_shows_another_side_s_post_while_the_round_is_open(web: Web) -> None:
    links = {side: web.link(side) for side in POSTS}
    players = {side: web.client() for side in POSTS}
    assert web.post("/gm/t/t/round/open")[0] == 303
    posted: list[str] = []
    for side in ("north", "raiders", "wolves"):
        answer = players[side].post(
            links[side] + "/round/post", data={"text": POSTS[side]}, follow_redirects=False
        )
        assert answer.status_code == 303
        posted.append(side)
        table = Table.resume(web.store, "t")
        gm_shown = text_of(web.page()) + web.gm.get("/gm/t/t/screen.json").text
        for looker in POSTS:
            others = [s for s in posted if s != looker]
            hidden = {line for s in others for line in lines_of(POSTS[s])}
            hidden -= set(lines_of(POSTS[looker]))
            for line in hidden:
                assert leaks(line, gm_shown), f"the GM is not shown {line!r}"
            link, client = links[looker], players[looker]
            whole = [
                text_of(client.get(link).text),
                text_of(client.get(link + "/live?v=-1").text),
                text_of(client.get(link + "/round/status?s=").text),
                client.get(link + "/screen.json").text,
                client.get(link + "/export.json").text,
            ]
            told = secrets(table.encounter, looker)
            for shown in whole:
                assert not [s for s in hidden if leaks(s, shown)], (looker, side)
                assert not [s for s in told.never if leaks(s, shown)], (looker, side)
            own = text_of(client.get(link).text)
            if looker in posted:
                assert all(line in own for line in lines_of(POSTS[looker]))


@pytest.mark.rule("HC-ROUND-1")
def test_while_a_round_is_posted_a_link_that_may_act_posts_and_does_not_act(web: Web) -> None:
    """A side's declarations during a posted round are its post: a link allowed to act
    is refused a live action (with its text kept) and nothing is played; the game master
    still acts; once the round is closed, nothing refuses the link."""
    link = web.link("wolves", may_act=True)
    player = web.client()
    assert 'action="/p/' in player.get(link).text  # it may act: its action form
    assert web.post("/gm/t/t/round/open")[0] == 303
    head = web.store.table("t").head
    page = player.get(link).text
    assert f'action="{link}/act"' not in page  # while the round is posted, only its post
    refused = player.post(
        link + "/act", data={"action": "wolf attack brannoc", "version": str(version_of(page))}
    )
    assert refused.status_code == 409
    assert error_of(refused.text, "action") == (
        "round 1 is being played by post: post this side's declarations, resolved when "
        "the game master closes the round (“wolf attack brannoc” was not played)"
    )
    assert 'id="not-now">Round 1 is being played by post' in page
    assert web.store.table("t").head == head
    assert live_refusal(Table.resume(web.store, "t"), None) is None  # the GM still acts
    assert web.post("/gm/t/t/round/close", round=round_id(web.page()))[0] == 303
    assert live_refusal(Table.resume(web.store, "t"), "wolves") is None


@pytest.mark.rule("HC-ROUND-1")
def test_a_bad_post_names_its_line_keeps_the_draft_and_stores_nothing(web: Web) -> None:
    link = web.link("wolves")
    player = web.client()
    assert "No round is open for posts" in player.get(link).text
    refused = player.post(link + "/round/post", data={"text": WOLVES})
    assert refused.status_code == 400
    assert error_of(refused.text, "post") == "no round is open for posts: wait for the game master"
    assert web.post("/gm/t/t/round/open")[0] == 303
    bad = "wolf attack brannoc\nwolf bite asa"
    answer = player.post(link + "/round/post", data={"text": bad})
    assert answer.status_code == 400
    assert error_of(answer.text, "post") == (
        "line 2: 'bite' is not an action of Heimr Tabletop Rulebook: known are add, after, "
        "attack, cast, close, condition, crawl, dodge, done, draw, drop, guard, heal, hero, "
        "lift, move, note, open, pick, power, prone, remove, retract, sheathe, speak, stand, "
        "tactic, taunt, wait, willpower"
    )
    assert bad in text_of(answer.text)  # the draft is back in its textarea
    assert "You have not posted this round yet" in player.get(link).text
    many = player.post(link + "/round/post", data={"text": "wolf done\n" * 300})
    assert many.status_code == 400
    assert error_of(many.text, "post") == "the post has 300 lines; at most 100"
    huge = player.post(link + "/round/post", data={"text": "wolf done  " * 500})
    assert huge.status_code == 400
    assert error_of(huge.text, "post") == "the post is too long: at most 3,999 characters"


def test_the_gm_s_round_forms_need_csrf_and_a_second_close_changes_nothing(web: Web) -> None:
    assert web.gm.post("/gm/t/t/round/open", data={"csrf": "forged"}).status_code == 403
    assert web.client().post("/gm/t/t/round/open").status_code == 403
    status, page = web.post("/gm/t/t/round/open", hours="forever")
    assert status == 400 and error_of(page, "round") == (
        "deadline 'forever': a number of hours, or nothing"
    )
    status, page = web.post("/gm/t/t/round/open", **{"default-wolves": "brannoc attack ylva"})
    assert status == 400
    assert error_of(page, "round") == (
        "the default for wolves, line 1: wolves cannot act for brannoc"
    )
    assert web.post("/gm/t/t/round/open", hours="48")[0] == 303
    page = web.page()
    assert re.search(r"Round 1 is open for posts until \d{4}-\d\d-\d\d \d\d:\d\d UTC", page)
    closing = round_id(page)
    assert web.post("/gm/t/t/round/close", round=closing)[0] == 303
    head = web.store.table("t").head
    status, page = web.post("/gm/t/t/round/close", round=closing)
    assert status == 409 and "already applied" in (error_of(page, "round") or "")
    assert web.store.table("t").head == head
    # Nobody posted: everyone fought defensively (the default declaration).
    typed = [a.action for a in web.store.actions(web.store.table("t").id)]
    assert typed[1:5] == ["ylva tactic defensive", "ylva done", "asa tactic defensive", "asa done"]


def test_a_table_not_played_by_post_has_no_posting(db_url: str) -> None:
    web = Web(db_url)
    web.start("heimr/duel.yaml")
    assert "Play by post" not in web.page()
    assert web.gm.get("/gm/t/t/round/status?s=").status_code == 404
    status, page = web.post("/gm/t/t/round/open")
    assert status == 400
    assert "has no declared rounds to post: only heimr-classic" in (error_of(page, "round") or "")


@pytest.mark.rule("HC-ROUND-1")
def test_a_post_acknowledged_survives_the_server_being_killed(db_url: str) -> None:
    web = Web(db_url)
    web.start("classic/ford.yaml", seed=14)
    assert web.post("/gm/t/t/round/open")[0] == 303
    token = Seats(web.store).open(web.store.table("t").id, "north")
    web.store.engine.dispose()
    with running(db_url) as server:
        player = httpx.Client(base_url=server.url, timeout=30)
        answer = player.post(f"/p/{token}/round/post", data={"text": NORTH})
        assert answer.status_code == 303
        server.kill()  # right after the acknowledgement
    with running(db_url) as again:
        page = httpx.Client(base_url=again.url, timeout=30).get(f"/p/{token}").text
    assert all(line in text_of(page) for line in lines_of(NORTH))
    store = Store.open(db_url)
    found = Rounds(store).current(Table.resume(store, "t"))
    assert found is not None
    post = found.post_of("north")
    assert post is not None and post.text == NORTH
