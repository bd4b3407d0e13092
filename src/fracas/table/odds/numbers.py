"""The odds of one attack from its numbers alone, the same lines the game master's page
shows (``fracas odds RULESET attack`` reads the numbers and prints these): a tempo
check against each reaction, a die-step die against each defence, a sides 2d6 roll, a
heimr-classic d20 against a defence and a dodge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from fracas.dice import PrismaticCheck, parse
from fracas.dice.classic import ClassicRoll
from fracas.dice.diestep import DieStep
from fracas.dice.sides import RollUnder
from fracas.table.odds.base import AttackOdds, best_choice, spread
from fracas.table.odds.diestep import meet
from fracas.table.odds.tempo import exchange

__all__ = ["choose", "classic_line", "diestep_lines", "sides_line", "tempo_lines"]


def choose(lines: list[AttackOdds]) -> list[AttackOdds]:
    """The lines with the defender's best marked, when it has a choice."""
    if len(lines) < 2:
        return lines
    best = best_choice(lines)
    return [replace(x, best=x is best) for x in lines]


def _pct(p: Fraction) -> str:
    return f"{100 * float(p):.1f}%"


def tempo_lines(
    own: PrismaticCheck,
    answers: Sequence[tuple[str, PrismaticCheck | None]],
    defence: int,
    armour: int = 0,
    damage: str = "d6",
    action: str = "Melee Attack",
    attacker_defence: int | None = None,
    attacker_armour: int = 0,
) -> list[AttackOdds]:
    """``own`` (the attack's check) against the target's Combat Defence and armour, once
    for each answer: a reaction's verb with its check, or ``pass`` with none (T-RES-1,
    T-RES-2, T-ACT-2). The attacker's defence and armour read a Counter-Attack's hit back.
    The outcome tables are the shipped ones."""
    from fracas.rules.tempo.tables import TempoTables

    tables = TempoTables.load()
    name = tables.by_verb(action.lower().replace(" ", "-")) or action
    if name not in tables.actions:
        raise ValueError(f"no action {action!r} (one of {', '.join(tables.actions)})")
    named = {"Combat Defence": defence, "Combat Defence (Armoured)": defence + armour}
    theirs = (
        {}
        if attacker_defence is None
        else {
            "Combat Defence": attacker_defence,
            "Combat Defence (Armoured)": attacker_defence + attacker_armour,
        }
    )
    rows = tables.actions[name].outcomes
    lines: list[AttackOdds] = []
    for verb, check in answers:
        if verb == "pass":
            if check is not None:
                raise ValueError("'vs pass' takes no check")
            line, against = exchange(own.modifier, rows, named), "let go"
        else:
            reaction = tables.by_verb(verb)
            if reaction is None or tables.actions[reaction].kind != "reactive":
                known = [tables.verb(n) for n, s in tables.actions.items() if s.kind == "reactive"]
                raise ValueError(f"{verb!r} is no reaction (one of {', '.join(known)})")
            if check is None:
                raise ValueError(f"expected the check after 'vs {verb}', e.g. pool+1")
            their_rows = tables.actions[reaction].outcomes
            line = exchange(own.modifier, rows, named, check.modifier, their_rows, theirs)
            against = f"{reaction} {check.notation()}"
        note = f"hits back {_pct(line.hit_back)}" if line.hit_back else None
        lines.append(
            AttackOdds(
                name,
                own.notation(),
                against,
                (),
                line.lands,
                line.damage(damage, armour),
                note,
                defence=verb,
            )
        )
    return choose(lines)


def diestep_lines(
    attack: DieStep, defences: Sequence[tuple[str, DieStep]], grab: bool = False
) -> list[AttackOdds]:
    """``attack`` against each named defence die (D-ATK-2, D-DMG-1; a grab holds, D-GRAB-1)."""
    lines = []
    for name, defence in defences:
        line = meet(attack, defence)
        note = line.hold_note() if grab else None
        lines.append(
            AttackOdds(
                "attack",
                attack.notation(),
                f"{name} {defence.notation()}",
                (),
                line.hit,
                line.damage(grab),
                note,
                defence=name,
            )
        )
    return choose(lines)


def sides_line(roll: RollUnder, damage: str, protection: int = 0, pierce: int = 0) -> AttackOdds:
    """2d6 at or under the number needed (S-ATK-1); on a hit the damage dice less the
    Protection the weapon does not pierce, at least 0 (S-DMG-1)."""
    from fracas.rules.sides.attacks import damage_after_protection

    hit = roll.pmf().get(1, Fraction(0))
    dealt: dict[int, Fraction] = {}
    for rolled, q in parse("standard", damage).pmf().items():
        d = damage_after_protection(rolled, protection, pierce)
        dealt[d] = dealt.get(d, Fraction(0)) + hit * q
    against = f"Protection {protection}" + (f" ({pierce} pierced)" if pierce else "")
    return AttackOdds("attack", roll.notation(), against, (), hit, spread(dealt, 1 - hit))


def classic_line(
    attack: ClassicRoll, need: int, dodge: ClassicRoll | None, damage: int
) -> AttackOdds:
    """At least ``need`` (HC-CS-1), then not dodged: the dodge must be strictly higher, a
    tie hits (HC-DODGE-1)."""
    dodges = dodge.pmf() if dodge is not None else None
    hit = Fraction(0)
    for result, q in attack.pmf().items():
        if result < need:
            continue
        if dodges is None:
            hit += q
        else:
            hit += q * sum((d for v, d in dodges.items() if v <= result), Fraction(0))
    against = f"defence {need}" + (f", dodge {dodge.notation()}" if dodge else "")
    spread_ = spread({damage: hit}, 1 - hit)
    return AttackOdds("attack", f"{attack.notation()}>={need}", against, (), hit, spread_)
