"""The chance to hit the GM's page shows before an attack is the one ``fracas odds`` gives
for the same numbers, in every ruleset: each line of odds carries its command (the hit
cell's title), which the tests run and compare, exactly, with what the page shows; and
the numbers in it are checked against the plain dice commands and the rules' own rolls.
"""

from __future__ import annotations

import functools
import html
import json
import re
import shlex
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from tests.web.webtools import EXAMPLES, Web
from typer.testing import CliRunner

from fracas.cli import app
from fracas.engine import Action
from fracas.table.odds import AttackOdds, NoOdds, attack_odds, odds_or_why
from fracas.table.scripts import Script
from fracas.table.table import Table

ROW = re.compile(
    r'<tr data-action="(?P<action>[^"]+)"(?: data-defence="(?P<defence>[^"]+)")?'
    r'(?: class="best")?><td>[^<]*(?:<span class="small">[^<]*</span>)?</td>'
    r"<td>(?P<challenge>[^<]*?)(?: \((?P<mods>[^<]*)\))? against (?P<against>[^<]*)</td>\s*"
    r'<td class="hit"(?: title="(?P<command>[^"]*)")?>(?P<shown>[\d.]+)% to hit</td>'
)
NO_ODDS = re.compile(r'<tr data-action="([^"]+)" class="no-odds"><td>[^<]*</td><td [^>]*>([^<]*)<')


@dataclass
class Row:
    action: str
    defence: str | None
    challenge: str
    against: str
    command: str | None
    shown: str


def rows(page: str) -> list[Row]:
    return [
        Row(
            html.unescape(m["action"]),
            m["defence"],
            html.unescape(m["challenge"]),
            html.unescape(m["against"]),
            html.unescape(m["command"]) if m["command"] else None,
            m["shown"],
        )
        for m in ROW.finditer(page)
    ]


def run(words: list[str]) -> dict[str, object]:
    return json.loads(_run(tuple(words)))  # type: ignore[no-any-return]


@functools.cache
def _run(words: tuple[str, ...]) -> str:
    """The command's JSON (the same numbers come back page after page)."""
    result = CliRunner().invoke(app, [*words, "--json"])
    assert result.exit_code == 0, result.output
    return result.output


def command_hit(command: str, defence: str | None) -> Fraction:
    """The hit chance ``fracas odds ... attack`` prints for the line of ``defence``."""
    words = shlex.split(command)
    assert words[:2] == ["fracas", "odds"] and words[3] == "attack", command
    record = run(words[1:])
    if "lines" not in record:  # heimr: one attack against one defence
        return Fraction(record["hit"]["exact"])
    lines = record["lines"]
    assert isinstance(lines, list)
    chosen = [x for x in lines if defence is None or x["defence"] == defence]
    assert len(chosen) == 1, (command, defence)
    return Fraction(chosen[0]["hit"]["exact"])


def line_of(table: Table, row: Row) -> AttackOdds:
    odds = attack_odds(table, row.action)
    assert odds is not None, row
    found = [x for x in odds.lines if x.defence == row.defence]
    assert len(found) == 1
    return found[0]


def check_page(web: Web, table: Table) -> list[Row]:
    """Every line of odds on the GM's page is what its command prints, and each offered
    attack has its lines (one a defence) or says why not."""
    page = web.page()
    shown = rows(page)
    for row in shown:
        line = line_of(table, row)
        assert row.command is not None and row.command == line.command
        expected = command_hit(row.command, row.defence)
        assert line.hit == expected, row
        assert row.shown == f"{float(expected) * 100:.1f}"
        assert row.challenge == line.challenge
    offered = [odds_or_why(table, str(a)) for a in table.offered(None)]
    lines = sum(len(o.lines) for o in offered if isinstance(o, AttackOdds))
    assert len(shown) == lines
    assert len(NO_ODDS.findall(page)) == sum(isinstance(o, NoOdds) for o in offered)
    return shown


def walk(tmp_path: Path, example: str) -> list[tuple[Table, list[Row]]]:
    """The example's script on the web, every page's odds checked; the tables and rows."""
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    script = Script.read(EXAMPLES / f"{example}.script")
    web.start(f"{example}.yaml", seed=script.seed)
    seen = []
    for _, line in [*script.lines, (0, None)]:
        table = Table.resume(web.store, "t")
        seen.append((table, check_page(web, table)))
        if line is not None:
            assert web.act(line)[0] == 303
    player = web.client().get(web.link(Table.resume(web.store, "t").sides()[0])).text
    assert 'id="odds"' not in player
    return seen


def cli_chance(challenge: str, defence: int) -> Fraction:
    exact = run(["odds", "heimr", challenge])["exact"]
    assert isinstance(exact, dict)
    return sum((Fraction(p) for r, p in exact.items() if int(r) > defence), Fraction(0))


@pytest.mark.rule("H-ATK-4")
def test_the_shown_heimr_chance_to_hit_is_fracas_odds(tmp_path: Path) -> None:
    checked = 0
    for _table, shown in walk(tmp_path, "heimr/duel"):
        for row in shown:
            held = re.fullmatch(r".*'s \w+ (\d+)", row.against)
            if held is None:
                assert "cannot defend" in row.against or "does not" in row.against
                continue
            # A held defence: the plain roll's odds of beating it agree (fatigue aside).
            assert f"{float(cli_chance(row.challenge, int(held[1]))) * 100:.1f}" == row.shown
            checked += 1
    assert checked


@pytest.mark.rule("H-DEF-2", "H-MOD-1", "H-ATK-4")
@pytest.mark.parametrize("example", ["heimr/castle-wall", "heimr/field"])
def test_shots_at_a_parrying_target_and_from_blind_spots_have_exact_odds(
    tmp_path: Path, example: str
) -> None:
    rolled = 0
    for table, shown in walk(tmp_path, example):
        for row in shown:
            if "rolled at the attack" not in row.against:
                continue
            rolled += 1
            # The defence the odds roll is the one the rules roll when the attack is made.
            trial = table.encounter.copy(stack=False)
            events = trial.push(Action.parse(row.action))
            defence = re.match(r"(.*)'s (\w+) (C-?\d+P-?\d+)", row.against)
            assert defence
            said = [e.text for e in events if e.kind == "roll" and "'s " + defence[2] in e.text]
            assert said and f": {defence[3]}" in said[0], (row, said)
    assert rolled


@pytest.mark.rule("T-DICE-1", "T-RES-1", "T-RES-2", "T-ACT-2")
@pytest.mark.parametrize("example", ["tempo/binds", "tempo/feint"])
def test_the_shown_tempo_chance_to_hit_is_fracas_odds(tmp_path: Path, example: str) -> None:
    reactions = set()
    for table, shown in walk(tmp_path, example):
        for row in shown:
            reactions.add(row.defence)
            line = line_of(table, row)
            # The checks are the rules': the attacker's rating and the pool (T-DICE-1).
            attacker = table.encounter.state.combatants[Action.parse(row.action).actor]
            assert row.challenge == f"pool{attacker.skills.get('melee', 0):+d}" or (
                "ranged" in row.action or "unarmed" in row.action
            )
            if row.defence == "pass":  # unopposed: the pool's own odds of the threshold
                cd = int(re.search(r"Combat Defence (-?\d+)", row.against)[1])
                pmf = run(["odds", "tempo", row.challenge])
                tail = Fraction(pmf["tail_mass"])
                exact = pmf["exact"]
                assert isinstance(exact, dict)
                reach = sum((Fraction(p) for v, p in exact.items() if int(v) >= cd), Fraction(0))
                assert reach <= line.hit <= reach + tail
    assert {"pass", "parry"} <= reactions
    assert len(reactions) >= 3


@pytest.mark.rule("D-ATK-2", "D-DEF-2", "D-DMG-1", "D-OA-1")
@pytest.mark.parametrize("example", ["diestep/charge", "diestep/grapple"])
def test_the_shown_diestep_chance_to_hit_is_fracas_odds(tmp_path: Path, example: str) -> None:
    kinds = set()
    for table, shown in walk(tmp_path, example):
        by_action: dict[str, list[Row]] = {}
        for row in shown:
            by_action.setdefault(row.action, []).append(row)
            kinds.add(row.defence)
            die = re.search(r"(d\d+(?: adv| dis)?)$", row.against)
            assert die, row
            opposed = run(["odds", "diestep", f"{row.challenge} vs {die[1]}"])
            successes = opposed["successes"]
            assert isinstance(successes, dict)
            assert line_of(table, row).hit == 1 - Fraction(successes.get("0", "0"))
        for action, lines in by_action.items():
            odds = attack_odds(table, action)
            assert odds is not None
            if not odds.choices:  # no defence window: the passive defence alone
                assert [r.defence for r in lines] == [None]
                continue
            assert odds.best
            assert {r.defence for r in lines} == {x.defence for x in odds.lines}
            assert sum(x.best for x in odds.lines) == 1
            best = min(odds.lines, key=lambda x: (x.expected_damage, x.hit))
            assert odds.expected_damage == best.expected_damage
    assert "take" in kinds and len(kinds) >= 3


@pytest.mark.rule("D-DEF-2", "D-ATK-2")
@pytest.mark.parametrize("example", ["diestep/charge", "diestep/grapple"])
def test_the_diestep_dice_are_the_ones_the_rules_roll(tmp_path: Path, example: str) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    script = Script.read(EXAMPLES / f"{example}.script")
    table = web.start(f"{example}.yaml", seed=script.seed)
    lines = [line for _, line in script.lines]
    compared, at = 0, 0
    while at < len(lines):
        line, answer = lines[at], (lines[at + 1] if at + 1 < len(lines) else "")
        odds = attack_odds(table, line)
        events = table.push(line, None)
        at += 1
        how = answer.split()[-1] if answer else ""
        if odds is None or not odds.choices or how not in {x.defence for x in odds.lines}:
            continue
        events += table.push(answer, None)
        at += 1
        dice = [e.data["die"] for e in events if e.kind == "roll"]
        chosen = next(x for x in odds.lines if x.defence == how)
        die = re.search(r"(d\d+(?: adv| dis)?)$", chosen.against)
        assert die and dice[:2] == [chosen.challenge, die[1]], (line, answer, dice)
        compared += 1
    assert compared


@pytest.mark.rule("S-ATK-1", "S-ATK-2")
@pytest.mark.parametrize("example", ["sides/mace", "sides/ambush"])
def test_the_shown_sides_chance_to_hit_is_fracas_odds(tmp_path: Path, example: str) -> None:
    checked = 0
    for table, shown in walk(tmp_path, example):
        for row in shown:
            plain = run(["odds", "sides", row.challenge])["exact"]
            assert isinstance(plain, dict)
            assert line_of(table, row).hit == Fraction(plain.get("1", "0"))
            checked += 1
    assert checked


@pytest.mark.rule("HC-DODGE-1", "HC-CS-1")
@pytest.mark.parametrize("example", ["classic/ford", "classic/broken-oar"])
def test_the_shown_classic_chance_to_hit_is_fracas_odds(tmp_path: Path, example: str) -> None:
    checked = 0
    for table, shown in walk(tmp_path, example):
        for row in shown:
            roll, need = re.fullmatch(r"(d20[+-]\d+)>=(-?\d+)", row.challenge).groups()
            dodge = re.search(r"'s dodge (d20[+-]\d+)", row.against)
            attack = {
                int(k): Fraction(v)
                for k, v in run(["odds", "heimr-classic", roll])["exact"].items()
            }
            if dodge:
                dodges = run(["odds", "heimr-classic", dodge[1]])["exact"]
                assert isinstance(dodges, dict)
                expected = sum(
                    (
                        p
                        * sum((Fraction(q) for d, q in dodges.items() if int(d) <= a), Fraction(0))
                        for a, p in attack.items()
                        if a >= int(need)
                    ),
                    Fraction(0),
                )
            else:
                expected = sum((p for a, p in attack.items() if a >= int(need)), Fraction(0))
            assert line_of(table, row).hit == expected
            checked += 1
    assert checked


@pytest.mark.rule("D-OA-1")
def test_an_attack_without_odds_says_why(tmp_path: Path) -> None:
    web = Web(f"sqlite:///{tmp_path / 'web.db'}")
    script = Script.read(EXAMPLES / "diestep/grapple.script")
    web.start("diestep/grapple.yaml", seed=script.seed)
    web.act(script.lines[0][1])
    page = html.unescape(web.page())
    why = dict(NO_ODDS.findall(page))
    assert why, "no 'no odds' line"
    assert all("opportunity attacks" in text for text in why.values())
