"""``fracas odds heimr attack``: the exact odds of one Heimr attack against a held defence.

    fracas odds heimr attack C3P3 vs parry C2P2 --fatigue 1 --defender-fatigue 2 \\
        --repeated 0 --damage 2
    fracas odds heimr attack C2P8 vs block C3P6 --repeated 1 --damage 3 --json
    fracas odds heimr attack examples/heimr/duel.yaml ylva astrid
    fracas odds heimr attack examples/heimr/duel.yaml astrid ylva --aim torso
    fracas odds heimr attack C3P6 vs held 15 --fatigue 3 --damage 2


The challenges are the rolls' C and P with every bonus in (the weapon's or shield's
potential); ``--penalty`` and ``--defender-penalty`` lower consistency (prone, an ongoing
action: 2 each), ``--repeated`` counts the dodges or blocks used since the defender's last
turn (H-DEF-3), ``--aim`` aims at a body part (H-ATK-5). ``vs held N`` is a defence
already rolled, the number N (``--defence-failed``: it failed outright, so any attack
not failing on fatigue hits). From an encounter file the
attacker's first weapon meets the defence the defender pre-rolls, with their fatigue.
The numbers come from :func:`fracas.rules.heimr.odds.attack_odds`.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import NoReturn, cast

from rich.console import Console
from rich.table import Table

from fracas.cli.app import fail  # an interface module of the ruleset: see .commands
from fracas.dice import HeimrChallenge
from fracas.rules.heimr.combat import AIM_PENALTY
from fracas.rules.heimr.odds import BODY_PARTS, AttackOdds, Side, attack_between, attack_odds
from fracas.rules.heimr.setup import build
from fracas.rules.heimr.state import DEFENCES, Defence
from fracas.table.encounterfile import load

USAGE = (
    "fracas odds heimr attack C3P3 vs [dodge|block|parry|none] C2P2 [options], "
    "fracas odds heimr attack C3P3 vs held 12 [options], or "
    "fracas odds heimr attack FILE.yaml ATTACKER DEFENDER [options]"
)


class _Words(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ValueError(f"{message} ({USAGE})")


def _parser() -> _Words:
    p = _Words(prog="fracas odds heimr attack", add_help=False)
    p.add_argument("words", nargs="*")
    p.add_argument("--fatigue", type=int)
    p.add_argument("--defender-fatigue", type=int)
    p.add_argument("--penalty", type=int, default=0)
    p.add_argument("--defender-penalty", type=int, default=0)
    p.add_argument("--repeated", type=int, default=0)
    p.add_argument("--aim")
    p.add_argument("--damage", type=int)
    p.add_argument("--defence", choices=[*DEFENCES, "none"])
    p.add_argument("--defence-failed", action="store_true")
    return p


def compute(words: Sequence[str]) -> AttackOdds:
    """The odds the words ask for; ``ValueError`` says what is wrong with them."""
    args = _parser().parse_args(list(words))
    w: list[str] = args.words
    if w and (Path(w[0]).suffix in (".yaml", ".yml") or Path(w[0]).is_file()):
        if len(w) != 3:
            raise ValueError(f"an encounter file, the attacker and the defender ({USAGE})")
        ruleset, setup, _ = load(w[0])
        if ruleset.id != "heimr":
            raise ValueError(f"{w[0]} is a {ruleset.id} encounter, not heimr")
        return attack_between(
            build(setup),
            w[1],
            w[2],
            defence=args.defence,
            fatigue=args.fatigue,
            defender_fatigue=args.defender_fatigue,
            penalty=args.penalty,
            defender_penalty=args.defender_penalty,
            repeated=args.repeated,
            aim=args.aim,
            damage=args.damage,
        )
    if len(w) < 3 or w[1].lower() != "vs":
        raise ValueError(f"expected 'C3P3 vs parry C2P2' ({USAGE})")
    named = (*DEFENCES, "none", "held")
    kind, rest = (w[2].lower(), w[3:]) if w[2].lower() in named else ("dodge", w[2:])
    attack = HeimrChallenge.parse(w[0])
    fatigue = 1 if args.fatigue is None else args.fatigue
    attacker = Side(attack.consistency, attack.potential, fatigue, args.penalty)
    if kind == "held":
        if len(rest) != 1 or not rest[0].lstrip("-").isdigit():
            raise ValueError(f"expected the defence's result after 'vs held', e.g. 12 ({USAGE})")
        return held_odds(
            attacker,
            int(rest[0]),
            args.defence_failed,
            1 if args.damage is None else args.damage,
            args.aim,
        )
    defender: Side | None = None
    if kind == "none":
        if rest:
            raise ValueError(f"'vs none' takes no defence roll, not {' '.join(rest)!r}")
    else:
        if len(rest) != 1:
            raise ValueError(f"expected one defence roll after 'vs {kind}' ({USAGE})")
        roll = HeimrChallenge.parse(rest[0])
        defender_fatigue = 1 if args.defender_fatigue is None else args.defender_fatigue
        defender = Side(roll.consistency, roll.potential, defender_fatigue, args.defender_penalty)
    return attack_odds(
        attacker,
        defender,
        1 if args.damage is None else args.damage,
        cast(Defence, "dodge" if kind == "none" else kind),
        args.repeated,
        args.aim,
    )


def held_odds(
    attacker: Side, defence: int, failed: bool, damage: int, aim: str | None
) -> AttackOdds:
    """The odds of an attack against a defence already rolled: higher than ``defence``
    hits (any result, if it ``failed`` outright), unless the attack fails outright on
    fatigue (H-ATK-4, H-FAT-1); equal or one below is a brawl's touch (H-ATK-8)."""
    if damage < 0:
        raise ValueError(f"damage cannot be negative ({damage})")
    if aim is not None and aim not in set(BODY_PARTS.values()):
        raise ValueError(f"aim at one of {', '.join(sorted(set(BODY_PARTS.values())))}")
    attack = attacker.challenge(AIM_PENALTY if aim else 0)
    totals = dict.fromkeys(("fails", "hit", "touch", "miss"), Fraction(0))
    parts: dict[str, Fraction] = {}
    tires = Fraction(0)
    for (raw, d6), p in attack.joint().items():
        tires += p if d6 < attacker.fatigue else 0
        margin = raw + attack.potential - defence
        what = (
            "fails"
            if raw < attacker.fatigue
            else "hit"
            if failed or margin > 0
            else "touch"
            if margin >= -1
            else "miss"
        )
        totals[what] += p
        if what == "hit":
            part = aim or BODY_PARTS[d6]
            parts[part] = parts.get(part, Fraction(0)) + p
    hit = totals["hit"]
    return AttackOdds(
        attack=attack,
        defence=None,
        hit=hit,
        touch=totals["touch"],
        miss=totals["miss"],
        fails=totals["fails"],
        damage=dict(sorted(({0: 1 - hit, damage: hit} if damage else {0: Fraction(1)}).items())),
        parts=dict(sorted(parts.items())),
        attacker_tires=tires,
        defender_tires=Fraction(0),
        expected_damage=damage * hit,
    )


def _pct(p: Fraction) -> str:
    return f"{100 * float(p):.2f}%"


def _frac(p: Fraction) -> str:
    text = str(p)
    return text if len(text) <= 25 else "(see --json)"


def show(odds: AttackOdds, as_json: bool, held: str | None = None) -> None:
    if as_json:
        record = odds.to_dict()
        if held is not None:
            record["held"] = held
        print(json.dumps(record))
        return
    console = Console(highlight=False)
    against = "no defence" if odds.defence is None else odds.defence.notation()
    against = f"a defence held at {held}" if held is not None else against
    table = Table(title=f"{odds.attack.notation()} against {against}")
    table.add_column("outcome")
    table.add_column("chance", justify="right")
    table.add_column("exact", justify="right")
    rows: list[tuple[str, Fraction]] = [
        ("hit (H-ATK-4)", odds.hit),
        ("touch: equal or one below (a brawl's H-ATK-8; a weapon misses)", odds.touch),
        ("miss", odds.miss),
        ("fails outright on fatigue (H-FAT-1)", odds.fails),
    ]
    rows += [(f"  hits the {part} (H-ATK-5)", p) for part, p in odds.parts.items()]
    rows += [(f"damage {d}", p) for d, p in odds.damage.items()]
    rows += [
        ("attacker's fatigue rises (H-FAT-2)", odds.attacker_tires),
        ("defender's fatigue rises (H-FAT-2)", odds.defender_tires),
    ]
    for name, p in rows:
        table.add_row(name, _pct(p), _frac(p))
    console.print(table)
    mean = odds.expected_damage
    console.print(f"expected damage per turn: {float(mean):.4f} ({_frac(mean)})")


def odds_command(words: Sequence[str], as_json: bool) -> None:
    """``fracas odds heimr attack ...``: bad words end with one message and status 2."""
    try:
        result = compute(words)
    except (ValueError, OSError) as err:
        fail(str(err))
    w = [x.lower() for x in words]
    at = w.index("held") if "held" in w[2:3] else None
    show(result, as_json, words[at + 1] if at is not None and at + 1 < len(words) else None)
