"""tempo: an attack is a check on the Prismatic Dice Pool (T-DICE-1) read on the
attack's outcome table against the target's Combat Defence (Hit: the weapon's damage
less armour) and Combat Defence (Armoured) (Critical Hit: armour ignored) (T-RES-2).
The target may answer with a reaction (T-ACT-2): then each side subtracts the other's
total and reads its own table (T-RES-1), and a reaction whose row cancels (a parry,
an evasion, a dodge) makes the attack fail without effect; a Counter-Attack cancels
nothing but may hit back.

Exact, with no bound on the re-rolls: the pool's value is the number of dice before
the first 6 in one long sequence, so ``P(pool >= k) = (5/6)**k``, and for two pools
``P(X - Y >= t) = 6/11 (5/6)**t`` (t >= 0). An outcome table is a step function of the
margin, so the margin's chance between two thresholds is all the tables need
(:func:`exchange`, tested against :meth:`fracas.dice.PrismaticCheck.pmf`).

The target chooses its reaction at the window: the odds show one line for each it may
choose, and ``pass`` (letting the attack go), and mark its best (docs/decisions.md).
The checks come from the rules themselves: the attack is declared on a throwaway copy
of the encounter, each answer pushed on a copy of that, and the dice record what the
rules roll (:class:`~fracas.table.odds.base.Probe`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import pairwise
from typing import Any

from fracas.dice import PrismaticCheck, parse
from fracas.engine import Action, Encounter, EngineError
from fracas.engine.odds import (
    AttackOdds,
    NoOdds,
    Probe,
    Words,
    best_choice,
    choose,
    spread,
    vs_groups,
)

__all__ = [
    "TempoLine",
    "at_least",
    "attack_odds",
    "difference_at_least",
    "exchange",
    "odds_lines",
    "tempo_lines",
    "tempo_odds",
]

Q = Fraction(5, 6)
#: The effects of an outcome row that do damage (T-RES-2).
DAMAGE = frozenset({"damage", "damage ignoring armour"})
#: ``P(X - Y >= 0)`` for two pools: 6/11 (a tie has 1/11).
AHEAD = Fraction(6, 11)


def at_least(t: int) -> Fraction:
    """``P(pool >= t)`` for one Prismatic pool (T-DICE-1).

    >>> at_least(0), at_least(2)
    (Fraction(1, 1), Fraction(25, 36))
    """
    return Fraction(1) if t <= 0 else Q**t


def difference_at_least(t: int) -> Fraction:
    """``P(X - Y >= t)`` for two independent pools; a tie has 1/11.

    >>> difference_at_least(0), difference_at_least(0) - difference_at_least(1)
    (Fraction(6, 11), Fraction(1, 11))
    """
    if t >= 0:
        return AHEAD * Q**t
    return 1 - AHEAD * Q ** (1 - t)


@dataclass(frozen=True)
class TempoLine:
    """The chances of one exchange: the attack's hit (damage against armour), critical hit
    (armour ignored), and the reaction's hit back (a Counter-Attack's)."""

    hit: Fraction
    critical: Fraction
    hit_back: Fraction

    @property
    def lands(self) -> Fraction:
        """The attack does damage: a hit or a critical hit not cancelled."""
        return self.hit + self.critical

    def damage(self, dice: str, protection: int) -> tuple[tuple[int, Fraction], ...]:
        """The damage dealt: the weapon's dice less ``protection`` on a hit (at least 0),
        all of it on a critical hit (T-RES-2, T-OPEN-1)."""
        out: dict[int, Fraction] = {}
        for rolled, p in parse("standard", dice).pmf().items():
            for dealt, q in ((max(0, rolled - protection), self.hit), (rolled, self.critical)):
                out[dealt] = out.get(dealt, Fraction(0)) + p * q
        return spread(out, 1 - self.lands)


def _reached(rows: Sequence[Any], margin: int, named: Mapping[str, int]) -> Any:
    from fracas.rules.tempo.checks import read

    return read(rows, margin, named)


def _thresholds(rows: Sequence[Any], named: Mapping[str, int]) -> list[int]:
    found = []
    for row in rows[1:]:
        dt = row.dt if isinstance(row.dt, int) else named.get(row.dt)
        if dt is not None:
            found.append(dt)
    return found


def exchange(
    own: int,
    rows: Sequence[Any],
    named: Mapping[str, int],
    other: int | None = None,
    their_rows: Sequence[Any] = (),
    their_named: Mapping[str, int] | None = None,
) -> TempoLine:
    """The attack (its check's modifier ``own``, its outcome ``rows`` against the target's
    thresholds ``named``) unopposed, or met by a reaction (modifier ``other``, its rows
    read with the opposite margin against the attacker's thresholds ``their_named``)."""
    theirs = their_named or {}
    points = set(_thresholds(rows, named))
    if other is not None:
        points |= {1 - e for e in _thresholds(their_rows, theirs)}
    cuts = sorted(points)

    def above(t: int) -> Fraction:  # P(margin >= t)
        return at_least(t - own) if other is None else difference_at_least(t - own + other)

    hit = critical = back = Fraction(0)
    bounds: list[int | None] = [None, *cuts, None]
    for lo, hi in pairwise(bounds):
        p = (1 if lo is None else above(lo)) - (0 if hi is None else above(hi))
        if not p:
            continue
        margin = lo if lo is not None else (hi - 1 if hi is not None else 0)
        mine = _reached(rows, margin, named)
        answer = _reached(their_rows, -margin, theirs) if other is not None else None
        cancelled = answer is not None and "cancel" in answer.effects
        if not cancelled and "damage ignoring armour" in mine.effects:
            critical += p
        elif not cancelled and "damage" in mine.effects:
            hit += p
        harms = answer is not None and bool(DAMAGE & set(answer.effects))
        if harms and "cancel" not in mine.effects:
            back += p
    return TempoLine(hit, critical, back)


def is_attack(spec: Any) -> bool:
    """A proactive action at an opponent whose table can do damage."""
    damaging = any(DAMAGE & set(r.effects) for r in spec.outcomes)
    return spec.kind == "proactive" and spec.target != "none" and damaging


def tempo_odds(encounter: Any, action: Action) -> AttackOdds | NoOdds | None:
    state = encounter.state
    name = state.tables.by_verb(action.verb)
    if name is None or not is_attack(state.tables.actions[name]):
        return None
    probe = Probe()
    trial = encounter.copy(stack=False, dice=probe, playout=True)
    try:
        trial.push(action)
    except EngineError:
        return None
    ex = trial.state.exchange
    if ex is None or ex.phase != "react" or ex.target is None:
        rolled = _checks(probe.asked)
        if not rolled:
            return None
        target = state.combatants.get(action.target or "")
        return _line(state, action, name, target, rolled[0], None) if target else None
    from fracas.rules.tempo.legality import reactions

    target = trial.state.combatants[ex.target]
    answers = [*reactions(trial.state, ex, target), None]
    lines = []
    for reaction in answers:
        verb = "pass" if reaction is None else trial.state.tables.verb(reaction)
        answered = trial.copy(stack=False, dice=(probe := Probe()), playout=True)
        answered.push(Action(target.id, verb))
        opened = answered.state.exchange
        if opened is not None and opened.phase == "counter":
            answered.push(Action(action.actor, "pass"))  # the attacker keeps its action
        rolled = _checks(probe.asked)
        chosen = (reaction, rolled[1]) if reaction is not None and len(rolled) > 1 else None
        line = _line(trial.state, action, name, target, rolled[0], chosen)
        lines.append(replace(line, defence=verb))
    best = best_choice(lines)
    marked = tuple(replace(line, best=line is best) for line in lines)
    return replace(marked[lines.index(best)], choices=marked)


def _checks(asked: Sequence[tuple[Any, str]]) -> list[PrismaticCheck]:
    return [m for m, _ in asked if isinstance(m, PrismaticCheck)]


def _line(
    state: Any,
    action: Action,
    name: str,
    target: Any,
    own: PrismaticCheck,
    reaction: tuple[str, PrismaticCheck] | None,
) -> AttackOdds:
    from fracas.rules.tempo.checks import thresholds
    from fracas.rules.tempo.legality import weapon, weapon_for

    tables = state.tables
    attacker = state.combatants[action.actor]
    named = thresholds(state, target)
    protection = tables.armour[target.armour].protection
    used = weapon(state, weapon_for(state, attacker, name, action.option("with")))
    dice = used.damage if used is not None else tables.unarmed.damage
    words = [f"fracas odds tempo attack {own.notation()}"]
    if reaction is None:
        line = exchange(own.modifier, tables.actions[name].outcomes, named)
        against = f"{target.name} lets it go"
        words.append("vs pass")
    else:
        answer, check = reaction
        mine = thresholds(state, attacker)
        line = exchange(
            own.modifier,
            tables.actions[name].outcomes,
            named,
            check.modifier,
            tables.actions[answer].outcomes,
            mine,
        )
        against = f"{target.name}'s {answer} {check.notation()}"
        words.append(f"vs {tables.verb(answer)} {check.notation()}")
        mail = tables.armour[attacker.armour].protection
        words.append(f"--attacker-defence {mine['Combat Defence']} --attacker-armour {mail}")
    cd = named["Combat Defence"]
    against += f", Combat Defence {cd} (armour {protection})"
    words.append(f"--defence {cd} --armour {protection} --damage {dice}")
    words.append(f"--action {tables.verb(name)}")
    note = f"damage {dice}"
    if line.hit_back:
        note += f"; {target.name} hits back {float(line.hit_back) * 100:.1f}%"
    return AttackOdds(
        str(action),
        own.notation(),
        against,
        (),
        line.lands,
        line.damage(dice, protection),
        note,
        command=" ".join(words),
        figures=(("hit back", line.hit_back),) if reaction is not None else (),
    )


def _pct(p: Fraction) -> str:
    return f"{100 * float(p):.1f}%"


# -- from the numbers alone (fracas odds tempo attack) ------------------------


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


TEMPO_USAGE = (
    "fracas odds tempo attack pool+N [vs REACTION pool+M | vs pass]... --defence N "
    "[--armour N] [--damage DICE] [--action NAME]"
)


def odds_lines(words: Sequence[str]) -> list[AttackOdds]:
    from fracas.dice import PrismaticCheck

    p = Words("fracas odds tempo attack", TEMPO_USAGE)
    p.add_argument("--defence", type=int, required=True)
    p.add_argument("--armour", type=int, default=0)
    p.add_argument("--damage", default="d6")
    p.add_argument("--action", default="Melee Attack")
    p.add_argument("--attacker-defence", type=int)
    p.add_argument("--attacker-armour", type=int, default=0)
    args = p.parse_args(list(words))
    groups = vs_groups(args.words)
    if len(groups[0]) != 1:
        raise ValueError(f"expected the attack's check first, e.g. pool+2 ({TEMPO_USAGE})")
    answers: list[tuple[str, PrismaticCheck | None]] = []
    for group in groups[1:] or [["pass"]]:
        if len(group) > 2:
            raise ValueError(f"expected 'vs REACTION pool+M' or 'vs pass' ({TEMPO_USAGE})")
        check = PrismaticCheck.parse(group[1]) if len(group) == 2 else None
        answers.append((group[0].lower() if group else "", check))
    return tempo_lines(
        PrismaticCheck.parse(groups[0][0]),
        answers,
        args.defence,
        args.armour,
        args.damage,
        args.action,
        args.attacker_defence,
        args.attacker_armour,
    )


def attack_odds(encounter: Encounter[Any], action: Action) -> AttackOdds | NoOdds | None:
    """The odds capability (:class:`fracas.engine.capabilities.Odds`)."""
    return tempo_odds(encounter, action)
