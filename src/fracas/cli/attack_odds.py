"""``fracas odds RULESET attack``: the exact odds of one attack from its numbers, as the
ruleset's ``commands`` capability works them out (its ``odds_lines``, or its own
``odds_command``), the lines the game master's page shows before the attack (each line
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

import json
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table

from fracas.cli.app import fail
from fracas.engine import EngineError
from fracas.engine.capabilities import commands
from fracas.engine.odds import AttackOdds
from fracas.rules import find, ids

__all__ = ["odds_command", "with_odds"]


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


def _commands(system: str) -> Any:
    try:
        return commands(find(system))
    except EngineError:
        return None


def with_odds() -> list[str]:
    """The rulesets installed whose commands work out an attack's odds from numbers."""
    return [
        rid
        for rid in ids()
        if any(hasattr(_commands(rid), n) for n in ("odds_command", "odds_lines"))
    ]


def odds_command(system: str, words: Sequence[str], as_json: bool) -> None:
    """``fracas odds SYSTEM attack ...``, as the ruleset's ``commands`` capability works it
    out: bad words end with one message and status 2."""
    own = _commands(system)
    whole = getattr(own, "odds_command", None)
    if whole is not None:  # the ruleset prints its own odds
        whole(words, as_json)
        return
    work: Callable[[Sequence[str]], list[AttackOdds]] | None = getattr(own, "odds_lines", None)
    if work is None:
        fail(f"no attack odds for {system!r}: one of {', '.join(with_odds())}")
    try:
        lines = work(words)
    except ValueError as err:
        fail(" ".join(str(err).split()))
    show(system, lines, as_json)
