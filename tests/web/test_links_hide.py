"""Every example played to its end through the GM's web page: at every step, each side's
player link (its page, its live fragment and its screen as JSON) holds no secret of that
side, while the GM's page and JSON show them all (the oracle of tests/hidden/secrets.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tests.hidden.secrets import leaks, secrets
from tests.web.webtools import EXAMPLES, Web, text_of

from fracas.table.scripts import Script
from fracas.table.table import Table

SCRIPTS = sorted(EXAMPLES.glob("*/*.script"))


def present_part(page: str) -> str:
    """The page but its log, its forum post of the last round and its title (the GM's
    name for the encounter): the present, where even a name from before someone hid
    must not show."""
    page = re.sub(r'<div class="line[^"]*"[^>]*>.*?</div>', "", page, flags=re.S)
    page = re.sub(r'<section class="copy-post".*?</section>', "", page, flags=re.S)
    page = re.sub(r"<title>.*?</title>|<h1[^>]*>.*?</h1>", "", page, flags=re.S)
    return page


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_player_links_show_no_secret_and_the_gm_page_shows_them(
    script: Path, tmp_path: Path
) -> None:
    played = Script.read(script)
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    web.start(str(script.with_suffix(".yaml").relative_to(EXAMPLES)), seed=played.seed)
    table = Table.resume(web.store, "t")
    sides = table.sides()
    links = {side: web.link(side) for side in sides}
    players = {side: web.client() for side in sides}
    found: list[str] = []
    for number, line in played.lines:
        status, text = web.act(line)
        assert status == 303, f"line {number} ({line}): {text[:300]}"
        table.sync()
        gm_page = text_of(web.page()) + web.gm.get("/gm/t/t/screen.json").text
        for side in sides:
            told = secrets(table.encounter, side)
            for secret in told.gm_shows:
                assert leaks(secret, gm_page), f"line {number}: the GM is not shown {secret!r}"
            page = players[side].get(links[side])
            live = players[side].get(links[side] + "/live?v=-1")
            data = players[side].get(links[side] + "/screen.json")
            export = players[side].get(links[side] + "/export.json")
            assert export.status_code == 200
            assert page.status_code == live.status_code == data.status_code == 200
            screen = data.json()["screen"]
            whole = json.dumps(screen, ensure_ascii=False)
            screen.pop("log")
            screen.pop("header")
            present = json.dumps(screen, ensure_ascii=False)
            for shown, now in (
                (text_of(page.text), present_part(text_of(page.text))),
                (text_of(live.text), present_part(text_of(live.text))),
                (whole, present),
                (export.text, ""),
            ):
                found += [
                    f"line {number} ({line}), {side}: {s!r}" for s in told.never if leaks(s, shown)
                ]
                found += [
                    f"line {number} ({line}), {side} now: {s!r}" for s in told.now if leaks(s, now)
                ]
    assert not found, "\n".join(dict.fromkeys(found))
