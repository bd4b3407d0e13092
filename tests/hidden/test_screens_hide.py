"""Every example played to its end through the table, once per side: at every step the
whole of what that side is shown (the terminal's screen, drawn wide enough that nothing is
cut, and the presenter's screen with the whole log) holds no secret, while the game
master's shows them all. The same presenter feeds every interface, so this is the test
of what a player's screen may hold."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from tests.hidden.secrets import leaks, secrets

from fracas.table import encounterfile
from fracas.table.presenter import log_text
from fracas.table.scripts import Script
from fracas.table.store import Store
from fracas.table.table import Table
from fracas.tracker import Tracker

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*/*.script"))
WIDE = 400  # wide and tall enough that the terminal shows every line whole


def drawn(tracker: Tracker) -> str:
    console = Console(width=WIDE, height=200, record=True, color_system=None)
    console.print(tracker.render(WIDE, 200))
    return console.export_text()


def present_part(fields: dict[str, Any]) -> str:
    """The screen (its fields) but its log and its header: the present, where even an older
    name must not show (the header holds the title the game master gave, such as "The
    feint")."""
    return json.dumps(
        {k: v for k, v in fields.items() if k not in ("log", "header")}, ensure_ascii=False
    )


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_screen_of_a_side_shows_a_secret_and_the_gm_s_shows_them(script: Path) -> None:
    ruleset, setup, title = encounterfile.load(script.with_suffix(".yaml"))
    played = Script.read(script)
    table = Table.start(Store.open("sqlite://"), "t", ruleset, setup, title, seed=played.seed)
    sides = table.sides()
    trackers = {side: Tracker(table, Console(), side) for side in sides}
    gm = Tracker(table, Console(), None)
    found: list[str] = []
    for number, line in played.lines:
        table.push(line)
        gm_text = drawn(gm) + "\n".join(log_text(table.table_view(None)))
        gm_text += json.dumps(
            dataclasses.asdict(table.screen(None, log_tail=0)), ensure_ascii=False
        )
        for side in sides:
            told = secrets(table.encounter, side)
            for secret in told.gm_shows:
                assert leaks(secret, gm_text), f"line {number}: the GM is not shown {secret!r}"
            fields = dataclasses.asdict(table.screen(side, log_tail=0))
            whole = drawn(trackers[side]) + json.dumps(fields, ensure_ascii=False)
            whole += json.dumps(table.export(side), ensure_ascii=False)
            now = present_part(fields)
            found += [
                f"line {number} ({line}), {side}: {s!r}" for s in told.never if leaks(s, whole)
            ]
            found += [
                f"line {number} ({line}), {side} now: {s!r}" for s in told.now if leaks(s, now)
            ]
    assert not found, "\n".join(dict.fromkeys(found))
