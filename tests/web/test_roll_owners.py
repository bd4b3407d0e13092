"""Typed dice are asked of the side that owns the roll (issue 24, point 1): a side's page
is asked only for its own combatants' rolls; the others go to their side's page when it
is open (through any server process), else to the game master or to fracas, as the
table is set; the action waits in the store, and a stale answer is refused."""

from __future__ import annotations

import asyncio
import random
import time
from datetime import timedelta
from pathlib import Path

import pytest
from tests.web.test_live_hub import run
from tests.web.webtools import Web, roll_asked, text_of, waiting_text

from fracas.table import rollcall
from fracas.table.scripts import Script
from fracas.table.table import Table
from fracas.web import events
from fracas.web.events import Hub

#: (example, the lines played first, the side that acts, its action, the names its
#: rolls open with, a question of the other side's that the acting side was asked before)
CASES = {
    "sides": (
        "sides/mace",
        ["gm begin", "party act", "darna charge orc", "darna done", "orc done", "orc attack darna"],
        "party",
        "darna attack orc",
        ("Darna", "party"),
        "Orc attacks Darna",
    ),
    "diestep": (
        "diestep/grapple",
        ["gm begin", "aldo end", "rook attack aldo"],
        "pilgrims",
        "aldo parry",
        ("Brother Aldo",),
        "Rook: ATT (weapon)",
    ),
    "heimr": (
        "heimr/night",
        None,  # the script, up to the brawl
        "raiders",
        "hrolf brawl ylva effect=hit",
        ("Hrolf the Bear",),
        "Ylva Shieldbreaker strikes at Hrolf",
    ),
}


def prepare(web: Web, case: str) -> tuple[str, str, tuple[str, ...], str]:
    """The case's table ``t`` played up to its action, with typed dice; the acting side's
    link, its action, its names and the other side's question."""
    example, lines, side, action, names, theirs = CASES[case]
    script = Script.read(Path(__file__).resolve().parents[2] / f"examples/{example}.script")
    table = web.start(f"{example}.yaml", seed=script.seed)
    if lines is None:
        lines = [line for _, line in script.lines]
        lines = lines[: lines.index(action)]
    for line in lines:
        table.push(line)
    link = web.link(side, may_act=True)
    assert web.post("/gm/t/t/dice", mode="typed")[0] == 303
    return link, action, names, theirs


def faces(sizes: list[int], rng: random.Random) -> str:
    return " ".join(str(rng.randint(1, size)) for size in sizes)


def play_out(web: Web, link: str, player_web: Web | None = None) -> tuple[list[str], list[str]]:
    """Answer every roll the action waits for: the side's page its own, the GM the others;
    the questions each answered."""
    rng = random.Random(5)
    low = random.Random(5)
    low.randint = lambda a, b: a  # type: ignore[method-assign]
    player = (player_web or web).client()
    mine: list[str] = []
    gms: list[str] = []
    for _ in range(60):
        asked = roll_asked(player.get(link).text)
        if asked is not None:
            mine.append(asked[1])  # the lowest faces: Darna misses, and the orc strikes
            player.post(f"{link}/roll", data={"pending": asked[0], "faces": faces(asked[2], low)})
            continue
        asked = roll_asked(web.page())
        if asked is None:
            break
        gms.append(asked[1])
        web.post("/gm/t/t/roll", pending=asked[0], faces=faces(asked[2], rng))
    return mine, gms


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_acting_side_is_asked_only_for_its_own_rolls(tmp_path: Path, case: str) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    link, action, names, theirs = prepare(web, case)
    head = web.store.table("t").head
    player = web.client()
    page = player.post(
        f"{link}/act", data={"action": action, "version": str(web.store.table("t").version)}
    ).text
    assert "faces-form" in page or waiting_text(page)
    mine, gms = play_out(web, link)
    assert web.store.table("t").head == head + 1
    assert mine and all(q.startswith(names) for q in mine), mine
    assert any(q.startswith(theirs) for q in gms), gms  # the other side's, typed by the GM
    assert not any(q.startswith(theirs) for q in mine)


def test_the_owners_page_is_asked_and_answers_through_another_process(db_url: str) -> None:
    a, b = Web(db_url), Web(db_url)
    link, action, _, _ = prepare(a, "sides")
    orcs = a.link("orcs", may_act=True)
    table_id = a.store.table("t").id
    rollcall.here(a.store, table_id, "orcs", "a page", 60)  # the orcs' page is open
    head = a.store.table("t").head
    party = a.client()
    assert (
        party.post(
            f"{link}/act", data={"action": action, "version": str(a.store.table("t").version)}
        ).status_code
        == 200
    )
    rng = random.Random(3)
    low = random.Random(3)
    low.randint = lambda a, b: a  # type: ignore[method-assign]
    asked_of_orcs: list[str] = []
    for _ in range(60):
        asked = roll_asked(party.get(link).text)
        if asked is not None:  # the party's own, through process a
            party.post(f"{link}/roll", data={"pending": asked[0], "faces": faces(asked[2], low)})
            continue
        orc_page = b.client().get(orcs).text
        asked = roll_asked(orc_page)
        if asked is None:
            break
        asked_of_orcs.append(asked[1])
        # The orcs answer through process b; a stale token is refused there.
        stale = b.client().post(f"{orcs}/roll", data={"pending": "old", "faces": "1"})
        assert stale.status_code == 409
        b.client().post(f"{orcs}/roll", data={"pending": asked[0], "faces": faces(asked[2], rng)})
    assert any(q.startswith("Orc attacks Darna") for q in asked_of_orcs), asked_of_orcs
    assert a.store.table("t").head == head + 1
    table = Table.resume(a.store, "t")
    assert rollcall.pending(table) is None


def test_a_side_cannot_answer_another_sides_roll(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    link, action, _, _ = prepare(web, "diestep")
    player = web.client()
    page = player.post(
        f"{link}/act", data={"action": action, "version": str(web.store.table("t").version)}
    ).text
    assert waiting_text(page) == "Waiting for another side's dice."
    assert "Rook: ATT" not in text_of(page)  # the question is not shown to the defender
    gm = roll_asked(web.page())
    assert gm is not None and gm[1].startswith("Rook: ATT (weapon)")
    refused = player.post(f"{link}/roll", data={"pending": gm[0], "faces": "8"})
    assert refused.status_code == 403
    assert web.store.table("t").head == 3


def test_with_no_page_open_fracas_rolls_the_other_sides_dice(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    link, action, names, _ = prepare(web, "sides")
    assert web.post("/gm/t/t/rolls", fallback="roll", wait="60")[0] == 303
    head = web.store.table("t").head
    web.client().post(
        f"{link}/act", data={"action": action, "version": str(web.store.table("t").version)}
    )
    mine, gms = play_out(web, link)
    assert gms == []  # the orcs have no page open: fracas rolled theirs
    assert mine and all(q.startswith(names) for q in mine)
    assert web.store.table("t").head == head + 1
    log = "\n".join(Table.resume(web.store, "t").log_lines(None, head))
    assert "Orc attacks Darna" in log


def test_a_side_that_does_not_answer_in_time_is_rolled_for(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    link, action, _, _ = prepare(web, "diestep")
    table_id = web.store.table("t").id
    rollcall.here(web.store, table_id, "bandits", "a page", 60)
    assert web.post("/gm/t/t/rolls", fallback="roll", wait="0")[0] == 303
    head = web.store.table("t").head
    web.client().post(
        f"{link}/act", data={"action": action, "version": str(web.store.table("t").version)}
    )
    # The bandits' page was asked; nobody answers, and the wait (0 s) has passed: the
    # server's timer rolls it (no page need be drawn).
    deadline = time.monotonic() + 20
    while web.store.table("t").head == head and time.monotonic() < deadline:
        time.sleep(0.05)
    assert web.store.table("t").head == head + 1


def test_the_gm_is_asked_when_the_owner_waits_too_long(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    link, action, _, _ = prepare(web, "diestep")
    table_id = web.store.table("t").id
    rollcall.here(web.store, table_id, "bandits", "a page", 60)
    web.client().post(
        f"{link}/act", data={"action": action, "version": str(web.store.table("t").version)}
    )
    table = Table.resume(web.store, "t")
    waiting = rollcall.pending(table)
    assert waiting is not None and waiting.owner == "bandits" and not waiting.away
    later = waiting.asked + timedelta(seconds=61)
    assert rollcall.expire(table, {"bandits"}, later) is None  # the GM types: nothing rolled
    gm = roll_asked(web.page())
    assert gm is not None and gm[1].startswith("Rook: ATT")
    assert web.post("/gm/t/t/roll", pending=gm[0], faces="8")[0] in (200, 303)


def test_a_side_s_open_page_is_known_to_every_process(tmp_path: Path) -> None:
    """The hub notes a side's page that may act in the store while its stream is open,
    and the owner's page is sent the roll asked of it at once."""
    url = f"sqlite:///{tmp_path / 'web.db'}"
    web = Web(url)
    link, action, _, _ = prepare(web, "diestep")
    bandits = web.link("bandits", may_act=True)
    seat = web.app.state.seats.find(bandits.rsplit("/", 1)[1])
    other = Web(url).store  # another process's view of the store
    table_id = other.table("t").id
    hub: Hub = web.app.state.hub

    async def test() -> None:
        key = (table_id, "bandits", True)
        draw = events._side_draw(web.app, "t", "bandits", True)
        version = other.table("t").version
        feed = hub.events(hub.open(key, draw, version, version, f"p/{seat.id}", "a", seat.id))
        first = asyncio.ensure_future(anext(feed))  # the stream opens, and says so
        while "bandits" not in rollcall.present(other, table_id):
            await asyncio.sleep(0.02)  # polling the condition above
        await first

        def act() -> None:
            fields = {"action": action, "version": str(other.table("t").version)}
            web.client().post(f"{link}/act", data=fields)

        await asyncio.to_thread(act)
        while True:
            event = await asyncio.wait_for(anext(feed), 30)
            if event.event == "update" and "faces-form" in str(event.data):
                break
        assert "Rook: ATT (weapon)" in str(event.data)
        await feed.aclose()
        while "bandits" in rollcall.present(other, table_id):
            await asyncio.sleep(0.02)  # polling the condition above

    run(test)
