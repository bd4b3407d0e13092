"""The ledger's and the posted round's boundaries (issue 22): an award to several
characters in each ruleset with books, a willpower restore landing exactly on the top of
10, and spending exactly what is left, in the books and in a posted round."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import IllegalAction
from fracas.ledger import Ledger, LedgerError
from fracas.table.store import Store

from classic_builders import encounter, sheet

SIGRID = {
    "name": "Sigrid",
    "side": "shieldwall",
    "hit_points": 4,
    "willpower": 3,
    "attributes": {"str": 1, "dex": 0, "sta": 1, "int": 0, "soc": 0, "emp": 0},
}


def brynja(name: str) -> dict[str, Any]:
    return {"name": name, "side": "north", "statistics": {}, "background": "x"}


@pytest.fixture
def ledger() -> Ledger:
    return Ledger(Store.open("sqlite://"))


@pytest.mark.rule("HC-XP-1")
def test_a_classic_award_gives_each_character_the_full_award(ledger: Ledger) -> None:
    ledger.create("hvita", "heimr-classic")
    for who in ("a", "b", "c"):
        ledger.record("hvita", "create", who, {"sheet": brynja(who.upper())})
    ledger.record("hvita", "award", None, {"xp": 25, "group": "north", "characters": ["a", "b"]})
    assert [ledger.sheet("hvita", w).get("xp", 0) for w in ("a", "b", "c")] == [25, 25, 0]


@pytest.mark.rule("H-XP-1")
def test_a_heimr_award_is_divided_among_those_present(ledger: Ledger) -> None:
    people = {w: {**SIGRID, "name": w.title()} for w in ("a", "b", "c")}
    ledger.create("saga", "heimr", {"characters": people})
    ledger.record("saga", "award", None, {"xp": 25, "group": "g", "characters": ["a", "b"]})
    # 25 among two: 12 each, 1 kept for the group.
    assert [ledger.sheet("saga", w).get("xp", 0) for w in ("a", "b", "c")] == [12, 12, 0]


@pytest.mark.parametrize("ruleset", ["sides", "tempo", "diestep"])
def test_the_other_rulesets_award_no_xp_and_say_so(ledger: Ledger, ruleset: str) -> None:
    ledger.create("c", ruleset)
    with pytest.raises(LedgerError, match="is for heimr and heimr-classic campaigns"):
        ledger.record("c", "award", None, {"xp": 10, "group": "g", "characters": ["x"]})


@pytest.mark.rule("HC-WP-1")
def test_willpower_restored_exactly_to_ten_and_spent_exactly_to_nothing(ledger: Ledger) -> None:
    ledger.create("hvita", "heimr-classic")
    ledger.record("hvita", "create", "b", {"sheet": brynja("B")})
    ledger.record("hvita", "spend", "b", {"what": "willpower", "amount": 3})
    ledger.record("hvita", "restore", "b", {"what": "willpower", "amount": 3})  # 7 + 3 = 10
    assert ledger.sheet("hvita", "b")["willpower"] == 10
    with pytest.raises(LedgerError, match="at most 10"):
        ledger.record("hvita", "restore", "b", {"what": "willpower", "amount": 1})
    ledger.record("hvita", "spend", "b", {"what": "willpower", "amount": 10})  # all of it
    assert ledger.sheet("hvita", "b")["willpower"] == 0
    with pytest.raises(LedgerError, match="has 0 willpower, not 1"):
        ledger.record("hvita", "spend", "b", {"what": "willpower", "amount": 1})


@pytest.mark.rule("HC-WP-1")
def test_a_post_spends_exactly_the_willpower_left() -> None:
    ylva = sheet("ylva", "north", weapons={"Sword": "one-handed"}, main="Sword", willpower=3)
    orc = sheet("orc", "orcs", npc=True, weapons={"Axe": "one-handed"}, main="Axe")
    enc = encounter([ylva, orc])
    enc.push("gm open")
    enc.push("ylva attack orc willpower=2")
    enc.push("ylva willpower spend=1 roll=dodge")  # 2 + 1: exactly the 3 she has
    with pytest.raises(IllegalAction, match=r"willpower left|willpower to spend"):
        enc.push("ylva willpower spend=1 roll=initiative")
    enc2 = encounter([ylva, orc])
    enc2.push("gm open")
    enc2.push("ylva attack orc willpower=3")  # all of it in one roll
    with pytest.raises(IllegalAction, match="willpower"):
        enc2.push("ylva willpower spend=1 roll=dodge")
