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
from dataclasses import replace
from fractions import Fraction
from typing import NoReturn

from rich.console import Console
from rich.table import Table

from fracas.cli.app import fail
from fracas.table.odds.base import AttackOdds, best_choice, spread

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


def _choose(lines: list[AttackOdds]) -> list[AttackOdds]:
    if len(lines) < 2:
        return lines
    best = best_choice(lines)
    return [replace(x, best=x is best) for x in lines]


# -- tempo ------------------------------------------------------------------------------

TEMPO_USAGE = (
    "fracas odds tempo attack pool+N [vs REACTION pool+M | vs pass]... --defence N "
    "[--armour N] [--damage DICE] [--action NAME]"
)


def tempo(words: Sequence[str]) -> list[AttackOdds]:
    from fracas.dice import PrismaticCheck
    from fracas.rules.tempo.tables import TempoTables
    from fracas.table.odds.tempo import exchange

    p = _Words("fracas odds tempo attack", TEMPO_USAGE)
    p.add_argument("--defence", type=int, required=True)
    p.add_argument("--armour", type=int, default=0)
    p.add_argument("--damage", default="d6")
    p.add_argument("--action", default="Melee Attack")
    p.add_argument("--attacker-defence", type=int)
    p.add_argument("--attacker-armour", type=int, default=0)
    args = p.parse_args(list(words))
    tables = TempoTables.load()
    action = tables.by_verb(args.action.lower().replace(" ", "-")) or args.action
    if action not in tables.actions:
        raise ValueError(f"no action {args.action!r} (one of {', '.join(tables.actions)})")
    groups = _groups(args.words)
    if len(groups[0]) != 1:
        raise ValueError(f"expected the attack's check first, e.g. pool+2 ({TEMPO_USAGE})")
    own = PrismaticCheck.parse(groups[0][0])
    named = {
        "Combat Defence": args.defence,
        "Combat Defence (Armoured)": args.defence + args.armour,
    }
    theirs = (
        {}
        if args.attacker_defence is None
        else {
            "Combat Defence": args.attacker_defence,
            "Combat Defence (Armoured)": args.attacker_defence + args.attacker_armour,
        }
    )
    rows = tables.actions[action].outcomes
    lines: list[AttackOdds] = []
    for group in groups[1:] or [["pass"]]:
        verb = group[0].lower()
        if verb == "pass":
            if len(group) != 1:
                raise ValueError(f"'vs pass' takes no check ({TEMPO_USAGE})")
            line, against = exchange(own.modifier, rows, named), "let go"
        else:
            reaction = tables.by_verb(verb)
            if reaction is None or tables.actions[reaction].kind != "reactive":
                known = [tables.verb(n) for n, s in tables.actions.items() if s.kind == "reactive"]
                raise ValueError(f"{group[0]!r} is no reaction (one of {', '.join(known)})")
            if len(group) != 2:
                raise ValueError(f"expected the check after 'vs {verb}', e.g. pool+1")
            check = PrismaticCheck.parse(group[1])
            their_rows = tables.actions[reaction].outcomes
            line = exchange(own.modifier, rows, named, check.modifier, their_rows, theirs)
            against = f"{reaction} {check.notation()}"
        note = f"hits back {_pct(line.hit_back)}" if line.hit_back else None
        lines.append(
            AttackOdds(
                action,
                own.notation(),
                against,
                (),
                line.lands,
                line.damage(args.damage, args.armour),
                note,
                defence=verb,
            )
        )
    return _choose(lines)


# -- diestep ----------------------------------------------------------------------------

DIESTEP_USAGE = "fracas odds diestep attack d8 [vs [block|parry|dodge|take] d6 adv]... [--grab]"


def diestep(words: Sequence[str]) -> list[AttackOdds]:
    from fracas.dice.diestep import DieStep
    from fracas.table.odds.diestep import meet

    p = _Words("fracas odds diestep attack", DIESTEP_USAGE)
    p.add_argument("--grab", action="store_true")
    args = p.parse_args(list(words))
    groups = _groups(args.words)
    if len(groups) < 2 or not groups[0]:
        raise ValueError(f"expected 'd8 vs d6' ({DIESTEP_USAGE})")
    attack = DieStep.parse(" ".join(groups[0]))
    lines = []
    for group in groups[1:]:
        name = group[0].lower() if group and group[0].isalpha() else "take"
        rest = group[1:] if group and group[0].isalpha() else group
        if not rest:
            raise ValueError(f"expected the defence's die after 'vs {name}' ({DIESTEP_USAGE})")
        defence = DieStep.parse(" ".join(rest))
        line = meet(attack, defence)
        note = None
        if args.grab:
            full = sum((q for n, q in line.successes.items() if n >= 2), Fraction(0))
            note = f"a hold: partial {_pct(line.successes.get(1, Fraction(0)))}, full {_pct(full)}"
        lines.append(
            AttackOdds(
                "attack",
                attack.notation(),
                f"{name} {defence.notation()}",
                (),
                line.hit,
                line.damage(args.grab),
                note,
                defence=name,
            )
        )
    return _choose(lines)


# -- sides and heimr-classic ------------------------------------------------------------------

SIDES_USAGE = "fracas odds sides attack 2d6<=N --damage DICE [--protection N] [--pierce N]"


def sides(words: Sequence[str]) -> list[AttackOdds]:
    from fracas.dice import parse
    from fracas.dice.sides import RollUnder
    from fracas.rules.sides.attacks import damage_after_protection

    p = _Words("fracas odds sides attack", SIDES_USAGE)
    p.add_argument("--damage", required=True)
    p.add_argument("--protection", type=int, default=0)
    p.add_argument("--pierce", type=int, default=0)
    args = p.parse_args(list(words))
    if len(args.words) != 1:
        raise ValueError(f"expected one roll such as 2d6<=8 ({SIDES_USAGE})")
    roll = RollUnder.parse(args.words[0])
    hit = roll.pmf().get(1, Fraction(0))
    dealt: dict[int, Fraction] = {}
    for rolled, q in parse("standard", args.damage).pmf().items():
        d = damage_after_protection(rolled, args.protection, args.pierce)
        dealt[d] = dealt.get(d, Fraction(0)) + hit * q
    against = f"Protection {args.protection}" + (f" ({args.pierce} pierced)" if args.pierce else "")
    return [AttackOdds("attack", roll.notation(), against, (), hit, spread(dealt, 1 - hit))]


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
    attack, need = ClassicRoll.parse(groups[0][0]), int(groups[1][0])
    dodges = ClassicRoll.parse(args.dodge).pmf() if args.dodge else None
    hit = Fraction(0)
    for result, q in attack.pmf().items():
        if result >= need:  # HC-CS-1; then the dodge must be strictly higher (HC-DODGE-1)
            kept = (
                Fraction(1)
                if dodges is None
                else sum((d for v, d in dodges.items() if v <= result), Fraction(0))
            )
            hit += q * kept
    against = f"defence {need}" + (f", dodge {args.dodge}" if args.dodge else "")
    damage = spread({args.damage: hit}, 1 - hit)
    return [AttackOdds("attack", f"{attack.notation()}>={need}", against, (), hit, damage)]


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
