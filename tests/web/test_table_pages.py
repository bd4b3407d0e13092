"""The GM's and a player's table pages, as HTML: combatants who share a name told apart
everywhere, actions in words with their odds, the players' odds only where the game
master turns them on and then read from that side's view alone, and the slips of the
pages fixed (issue 20)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from tests.web.webtools import Web

from fracas.table.presenter import Row, TableView, present


def _words(page: str) -> list[str]:
    """The offered buttons' text, tags dropped."""
    found = re.findall(
        r'<button type="submit" name="action"[^>]*class="do"[^>]*>(.*?)</button>', page, re.S
    )
    return [html.unescape(re.sub(r"<[^>]+>", "", b)).strip() for b in found]


def test_two_combatants_of_one_name_are_told_apart_in_rows_tokens_log_and_buttons(
    tmp_path: Path,
) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    web.start("heimr/field.yaml", seed=3)
    for line in ("gm begin", "archer2 attack ylva", "archer2 end"):
        assert web.act(line)[0] == 303
    page = web.page()
    names = re.findall(r'<td class="name">([^<]*)</td>', page)
    assert {"Eirik Longshot (eirik)", "Eirik Longshot (archer2)"} <= set(names)
    tokens = re.findall(r'<text [^>]*class="plabel">([^<]*)</text>', page)
    assert sorted(tokens) == ["E1", "E2", "Yl"]
    assert "<title>Eirik Longshot (archer2)" in page
    assert "(archer2) Eirik Longshot attacks Ylva Shieldbreaker" in html.unescape(page)
    words = _words(page)
    assert "Delay after Eirik Longshot (eirik)" in words
    assert all(re.findall(r"Eirik Longshot(?! \()", w) == [] for w in words)
    # The Action box's example is one of this table's own actions.
    assert 'placeholder="e.g. ylva end"' in page and "astrid" not in page.lower()


def test_actions_read_as_words_with_the_odds_on_the_game_master_s_page(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    web.start("heimr/duel.yaml", seed=1)
    assert web.act("gm begin")[0] == 303
    words = _words(web.page())
    attack = next(w for w in words if w.startswith("Attack Astrid"))
    assert re.fullmatch(r"Attack Astrid Ironside · \d+% to hit · \d+\.\d damage expected", attack)
    assert "End" in words and "Guard B1-B2" in words


def test_players_see_odds_only_when_turned_on_and_never_from_hidden_numbers(
    tmp_path: Path,
) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    web.start("heimr/duel.yaml", seed=1)
    link = web.link("shieldwall", may_act=True)
    player = web.client()
    assert web.act("gm begin")[0] == 303
    assert "to hit" not in player.get(link).text
    assert web.post("/gm/t/t/player-odds", shown="on")[0] == 303
    before = player.get(link).text
    assert re.search(r"Attack Astrid Ironside <span[^>]*>· \d+% to hit", before)
    gm_before = web.page()
    # Astrid's hidden numbers (hit points, fatigue, willpower) change: the player's page
    # (its odds among the rest) does not move by a byte; the game master's does.
    with web.app.state.tables.hold("t") as table:
        astrid = table.encounter.state.combatants["astrid"]
        astrid.hp, astrid.fatigue, astrid.willpower = 1, astrid.fatigue + 5, 0
    assert player.get(link).text == before
    assert web.page() != gm_before
    # Turned off again, the player's page shows none.
    assert web.post("/gm/t/t/player-odds", shown="off")[0] == 303
    assert "to hit" not in player.get(link).text


def _view(**state: object) -> TableView:
    base = {"round": 1, "current": "ylva", "order": ["ylva", "asa"]}
    base.update(state)
    people = {
        "ylva": {"name": "Ylva", "side": "north"},
        "asa": {"name": "Asa", "side": "raiders"},
    }
    return TableView(
        title="t", ruleset="r", side=None,
        view={"to_move": "ylva", "over": False, "log": [], "state": {**base, "combatants": people}},
        offered=(), typed=(), outcome=None, note=None,
    )  # fmt: skip


def test_a_round_every_side_declares_at_once_names_no_single_one_to_act() -> None:
    assert present(_view()).status == "Ylva to act"
    status = present(_view(declared={"ylva": "attack asa"})).status
    assert status == "Every side declares at once: waiting for Asa"


def test_an_effect_two_injuries_give_is_listed_once() -> None:
    details = [{"name": "Drop", "number": 0, "turns": None, "injury": True}] * 2
    tv = _view()
    tv.view["state"]["combatants"]["ylva"].update(  # type: ignore[index]
        effects=["Drop", "Drop"], effect_details=details
    )
    row: Row = present(tv).rows[0]
    assert row.effects == ("Drop 0 (while injured)",)


@pytest.mark.rule("S-ROUND-1")
def test_a_side_s_name_takes_no_singular_verb(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    web.start("sides/mace.yaml", seed=1)
    assert web.act("gm begin")[0] == 303
    text = html.unescape(web.page())
    assert " chooses to act" not in text and "won by " in text
