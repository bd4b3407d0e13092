"""The chance to hit the GM's page shows before an attack is the one ``fracas odds``
gives for the same challenge against the same defence."""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from tests.web.webtools import EXAMPLES, Web
from typer.testing import CliRunner

from fracas.cli import app
from fracas.table.odds import attack_odds
from fracas.table.scripts import Script
from fracas.table.table import Table


def cli_chance(challenge: str, defence: int) -> Fraction:
    result = CliRunner().invoke(app, ["odds", "heimr", challenge, "--json"])
    assert result.exit_code == 0, result.output
    exact = json.loads(result.output)["exact"]
    return sum((Fraction(p) for r, p in exact.items() if int(r) > defence), Fraction(0))


@pytest.mark.rule("H-ATK-4")
@pytest.mark.parametrize(
    ("example", "plies"), [("heimr/duel", 1), ("heimr/duel", 5), ("heimr/duel", 9)]
)
def test_the_shown_chance_to_hit_is_fracas_odds(tmp_path: Path, example: str, plies: int) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    script = Script.read(EXAMPLES / f"{example}.script")
    web.start(f"{example}.yaml", seed=script.seed)
    for _, line in script.lines[:plies]:
        assert web.act(line)[0] == 303
    table = Table.resume(web.store, "t")
    page = web.page()
    rows = re.findall(
        r'<tr data-action="([^"]+)"><td>[^<]*</td><td>(C-?\d+P-?\d+)[^<]*? against [^<]*? (\d+)'
        r'</td>\s*<td class="hit">([\d.]+)% to hit</td>',
        page,
    )
    attacks = [a for a in table.offered(None) if attack_odds(table, str(a)) is not None]
    assert rows, "no odds on the GM's page"
    assert len(rows) == len(attacks)
    for action, challenge, defence, shown in rows:
        odds = attack_odds(table, action)
        assert odds is not None and odds.challenge == challenge
        expected = cli_chance(challenge, int(defence))
        assert odds.hit == expected
        assert shown == f"{float(expected) * 100:.1f}"
    assert 'id="odds"' not in web.client().get(web.link(table.sides()[0])).text


@pytest.mark.rule("S-ATK-1")
def test_the_shown_sides_chance_to_hit_is_fracas_odds(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    script = Script.read(EXAMPLES / "sides/mace.script")
    web.start("sides/mace.yaml", seed=script.seed)
    checked = 0
    for _, line in script.lines:
        page = html.unescape(web.page())
        table = Table.resume(web.store, "t")
        for action, challenge, shown in re.findall(
            r'<tr data-action="([^"]+)"><td>[^<]*</td><td>(2d6<=-?\d+) against [^<]*</td>\s*'
            r'<td class="hit">([\d.]+)% to hit</td>',
            page,
        ):
            result = CliRunner().invoke(app, ["odds", "sides", challenge, "--json"])
            expected = Fraction(json.loads(result.output)["exact"].get("1", "0"))
            odds = attack_odds(table, action)
            assert odds is not None and odds.hit == expected
            assert shown == f"{float(expected) * 100:.1f}"
            checked += 1
        assert web.act(line)[0] == 303
    assert checked


def exact(system: str, expression: str) -> dict[int, Fraction]:
    result = CliRunner().invoke(app, ["odds", system, expression, "--json"])
    assert result.exit_code == 0, result.output
    return {int(k): Fraction(v) for k, v in json.loads(result.output)["exact"].items()}


@pytest.mark.rule("HC-DODGE-1")
def test_the_shown_classic_chance_to_hit_is_fracas_odds(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    script = Script.read(EXAMPLES / "classic/ford.script")
    web.start("classic/ford.yaml", seed=script.seed)
    checked = 0
    for _, line in script.lines:
        page = html.unescape(web.page())
        table = Table.resume(web.store, "t")
        for action, roll, need, dodge, shown in re.findall(
            r'<tr data-action="([^"]+)"><td>[^<]*</td><td>(d20[+-]\d+)>=(\d+)[^<]*? against '
            r"defence \d+(?:, [^<]*?'s dodge (d20[+-]\d+))?</td>\s*"
            r'<td class="hit">([\d.]+)% to hit</td>',
            page,
        ):
            attack = exact("heimr-classic", roll)
            if dodge:
                dodges = exact("heimr-classic", dodge)
                expected = sum(
                    (p * sum((q for d, q in dodges.items() if d <= a), Fraction(0)))
                    for a, p in attack.items()
                    if a >= int(need)
                )
            else:
                expected = exact("heimr-classic", f"{roll}>={need}").get(1, Fraction(0))
            assert sum((p for a, p in attack.items() if a >= int(need)), Fraction(0)) == exact(
                "heimr-classic", f"{roll}>={need}"
            ).get(1, Fraction(0))
            odds = attack_odds(table, action)
            assert odds is not None and odds.hit == expected
            assert shown == f"{float(expected) * 100:.1f}"
            checked += 1
        assert web.act(line)[0] == 303
    assert checked
