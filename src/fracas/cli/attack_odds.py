"""``fracas odds tempo|diestep|sides|heimr-classic attack``: the exact odds of one attack
from its numbers, the lines the game master's page shows before the attack (each line
there carries the command that gives it here).

    fracas odds tempo attack pool+2 --defence 3 --armour 1 --damage d6+2
    fracas odds tempo attack pool+2 vs parry pool+2 vs evade pool+1 vs pass --defence 3
    fracas odds diestep attack d10 adv vs block d8 adv vs dodge d8 vs take d6
    fracas odds diestep attack d6 vs d4 --grab
    fracas odds sides attack 2d6<=8 --damage 1d6 --protection 1 --pierce 0
    fracas odds heimr-classic attack d20+7 vs 18 --dodge d20+2 --damage 2

Each ``vs`` is one defence the defender may choose; the best for the defender (the
least expected damage, then the least chance to be hit) is marked. Tempo: the check's
modifier (``pool+N``, T-DICE-1), the target's Combat Defence and armour (T-RES-2), the
reaction's name and check (T-ACT-2; ``pass``: none), ``--action`` the attack's outcome
table (Melee Attack; Press...), ``--attacker-defence`` and ``--attacker-armour`` for a
Counter-Attack's hit back. Diestep: the dice as the rules roll them (D-DIE-1, D-ATK-2);
damage is a point a success (D-DMG-1), a grab holds instead (D-GRAB-1).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import NoReturn

from rich.console import Console
from rich.table import Table

from fracas.cli.app import fail
from fracas.table.odds import numbers
from fracas.table.odds.base import AttackOdds

__all__ = ["RULESETS", "odds_command"]


class _Words(argparse.ArgumentParser):
    def __init__(self, prog: str, usage: str) -> None:
        super().__init__(prog=prog, add_help=False)
        self.usage_text = usage
        self.add_argument("words", nargs="*")

    def error(self, message: str) -> NoReturn:
        raise ValueError(f"{message} ({self.usage_text})")


def _groups(words: Sequence[str]) -> list[list[str]]:
    """The words split at each ``vs``: the attack first, then one group a defence."""
    out: list[list[str]] = [[]]
    for w in words:
        if w.lower() == "vs":
            out.append([])
        else:
            out[-1].append(w)
    return out


# -- tempo ------------------------------------------------------------------------------

TEMPO_USAGE = (
    "fracas odds tempo attack pool+N [vs REACTION pool+M | vs pass]... --defence N "
    "[--armour N] [--damage DICE] [--action NAME]"
)


def tempo(words: Sequence[str]) -> list[AttackOdds]:
    from fracas.dice import PrismaticCheck

    p = _Words("fracas odds tempo attack", TEMPO_USAGE)
    p.add_argument("--defence", type=int, required=True)
    p.add_argument("--armour", type=int, default=0)
    p.add_argument("--damage", default="d6")
    p.add_argument("--action", default="Melee Attack")
    p.add_argument("--attacker-defence", type=int)
    p.add_argument("--attacker-armour", type=int, default=0)
    args = p.parse_args(list(words))
    groups = _groups(args.words)
    if len(groups[0]) != 1:
        raise ValueError(f"expected the attack's check first, e.g. pool+2 ({TEMPO_USAGE})")
    answers: list[tuple[str, PrismaticCheck | None]] = []
    for group in groups[1:] or [["pass"]]:
        if len(group) > 2:
            raise ValueError(f"expected 'vs REACTION pool+M' or 'vs pass' ({TEMPO_USAGE})")
        check = PrismaticCheck.parse(group[1]) if len(group) == 2 else None
        answers.append((group[0].lower() if group else "", check))
    return numbers.tempo_lines(
        PrismaticCheck.parse(groups[0][0]),
        answers,
        args.defence,
        args.armour,
        args.damage,
        args.action,
        args.attacker_defence,
        args.attacker_armour,
    )


# -- diestep ----------------------------------------------------------------------------

DIESTEP_USAGE = "fracas odds diestep attack d8 [vs [block|parry|dodge|take] d6 adv]... [--grab]"


def diestep(words: Sequence[str]) -> list[AttackOdds]:
    from fracas.dice.diestep import DieStep

    p = _Words("fracas odds diestep attack", DIESTEP_USAGE)
    p.add_argument("--grab", action="store_true")
    args = p.parse_args(list(words))
    groups = _groups(args.words)
    if len(groups) < 2 or not groups[0]:
        raise ValueError(f"expected 'd8 vs d6' ({DIESTEP_USAGE})")
    defences = []
    for group in groups[1:]:
        named = bool(group) and group[0].isalpha()
        name, rest = (group[0].lower(), group[1:]) if named else ("take", group)
        if not rest:
            raise ValueError(f"expected the defence's die after 'vs {name}' ({DIESTEP_USAGE})")
        defences.append((name, DieStep.parse(" ".join(rest))))
    return numbers.diestep_lines(DieStep.parse(" ".join(groups[0])), defences, args.grab)


# -- sides and heimr-classic ------------------------------------------------------------------

SIDES_USAGE = "fracas odds sides attack 2d6<=N --damage DICE [--protection N] [--pierce N]"


def sides(words: Sequence[str]) -> list[AttackOdds]:
    from fracas.dice.sides import RollUnder

    p = _Words("fracas odds sides attack", SIDES_USAGE)
    p.add_argument("--damage", required=True)
    p.add_argument("--protection", type=int, default=0)
    p.add_argument("--pierce", type=int, default=0)
    args = p.parse_args(list(words))
    if len(args.words) != 1:
        raise ValueError(f"expected one roll such as 2d6<=8 ({SIDES_USAGE})")
    roll = RollUnder.parse(args.words[0])
    return [numbers.sides_line(roll, args.damage, args.protection, args.pierce)]


CLASSIC_USAGE = "fracas odds heimr-classic attack d20+N vs DEFENCE [--dodge d20+M] [--damage N]"


def classic(words: Sequence[str]) -> list[AttackOdds]:
    from fracas.dice.classic import ClassicRoll

    p = _Words("fracas odds heimr-classic attack", CLASSIC_USAGE)
    p.add_argument("--dodge")
    p.add_argument("--damage", type=int, default=1)
    args = p.parse_args(list(words))
    groups = _groups(args.words)
    if len(groups) != 2 or len(groups[0]) != 1 or len(groups[1]) != 1:
        raise ValueError(f"expected 'd20+7 vs 18' ({CLASSIC_USAGE})")
    if not groups[1][0].lstrip("-").isdigit():
        raise ValueError(f"the defence is a number, not {groups[1][0]!r} ({CLASSIC_USAGE})")
    dodge = ClassicRoll.parse(args.dodge) if args.dodge else None
    attack = ClassicRoll.parse(groups[0][0])
    return [numbers.classic_line(attack, int(groups[1][0]), dodge, args.damage)]


RULESETS: dict[str, Callable[[Sequence[str]], list[AttackOdds]]] = {
    "tempo": tempo,
    "diestep": diestep,
    "sides": sides,
    "heimr-classic": classic,
}


# -- output -----------------------------------------------------------------------------


def _pct(p: Fraction) -> str:
    return f"{100 * float(p):.1f}%"


def _exact(p: Fraction) -> dict[str, object]:
    return {"exact": str(p), "float": float(p)}


def record(system: str, lines: Sequence[AttackOdds]) -> dict[str, object]:
    """JSON-ready: each line's hit chance and damage as exact fractions and floats."""
    return {
        "system": system,
        "attack": lines[0].challenge,
        "lines": [
            {
                "defence": x.defence,
                "against": x.against,
                "hit": _exact(x.hit),
                "damage": {str(d): _exact(p) for d, p in x.damage},
                "expected_damage": _exact(x.expected_damage),
                "best": x.best,
                "note": x.note,
            }
            for x in lines
        ],
    }


def show(system: str, lines: Sequence[AttackOdds], as_json: bool) -> None:
    if as_json:
        print(json.dumps(record(system, lines)))
        return
    console = Console(highlight=False)
    table = Table(title=f"{lines[0].challenge} ({system}): exact odds of the attack")
    for column in ("against", "hit", "exact", "damage", "expected"):
        table.add_column(column, justify="left" if column in ("against", "damage") else "right")
    for x in lines:
        damage = ", ".join(f"{d}: {_pct(p)}" for d, p in x.damage)
        name = x.against
        exact = str(x.hit) if len(str(x.hit)) <= 25 else "(see --json)"
        table.add_row(name, _pct(x.hit), exact, damage, f"{float(x.expected_damage):.3f}")
    console.print(table)
    for x in lines:
        if x.best:
            console.print(f"Best for the defender: {x.against} (the least expected damage).")
    for x in lines:
        if x.note:
            console.print(f"{x.against}: {x.note}")


def odds_command(system: str, words: Sequence[str], as_json: bool) -> None:
    """``fracas odds SYSTEM attack ...``: bad words end with one message and status 2."""
    work = RULESETS.get(system)
    if work is None:
        fail(f"no attack odds for {system!r}: one of heimr, {', '.join(RULESETS)}")
    try:
        lines = work(words)
    except ValueError as err:
        fail(" ".join(str(err).split()))
    show(system, lines, as_json)
