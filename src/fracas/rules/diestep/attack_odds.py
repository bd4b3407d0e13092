"""diestep: an attack is the attacker's die against the defender's, and equal or more
succeeds, double is two successes... (D-ATK-2); each success is a point of damage
(D-DMG-1), or a hold for a grab (D-GRAB-1: one success partial, two or more full).

The defender chooses its defence at resolution (D-DEF-2): block, parry or dodge when
the rules open a defence window, or take the passive defence alone (D-ATK-1). The odds
show one line for each, and mark the defender's best (docs/decisions.md, "The
defender's best defence"). The dice are not worked out here: the attack is declared on
a throwaway copy of the encounter and each answer pushed on a copy of that, with dice
that record what the rules roll (:class:`~fracas.table.odds.base.Probe`): the
attacker's die and the defence's, with every rank, advantage and disadvantage the rules
give them. Their meeting is :meth:`fracas.dice.Opposed.successes_pmf`, what
``fracas odds diestep attack`` prints for the same dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from fracas.dice import Opposed
from fracas.dice.diestep import DieStep
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
    "ATTACKS",
    "DefenceLine",
    "attack_odds",
    "diestep_lines",
    "diestep_odds",
    "meet",
    "odds_lines",
]

#: D-GRAB-1: a grab's successes that make a full hold (one is a partial hold).
FULL_HOLD = 2

#: The verbs that attack one target (D-ATK-1, D-UNARMED-1, D-GRAB-1, D-OA-1).
ATTACKS = ("attack", "opportunity", "strike", "grab", "spell", "crush", "throw")


class DefenceLine:
    """One defence's numbers: the successes of ``attack`` against ``defence``.

    >>> line = meet(DieStep(8), DieStep(6))
    >>> line.hit, line.successes[2]
    (Fraction(11, 16), Fraction(7, 48))
    """

    def __init__(self, attack: DieStep, defence: DieStep) -> None:
        self.attack = attack
        self.defence = defence
        self.successes = Opposed(attack, defence, True).successes_pmf()
        self.hit = 1 - self.successes.get(0, Fraction(0))

    def holds(self) -> tuple[tuple[str, Fraction], ...]:
        """A grab's outcome (D-GRAB-1): one success a partial hold, two or more a full one.

        A d4 against a d4: 10 of the 16 pairs are at least equal, and 4 of those at least
        double, (2, 1), (3, 1), (4, 1) and (4, 2): full holds.

        >>> [(k, str(p)) for k, p in meet(DieStep(4), DieStep(4)).holds()]
        [('partial hold', '3/8'), ('full hold', '1/4')]
        """
        full = sum((q for n, q in self.successes.items() if n >= FULL_HOLD), Fraction(0))
        partial = sum((q for n, q in self.successes.items() if 0 < n < FULL_HOLD), Fraction(0))
        return (("partial hold", partial), ("full hold", full))

    def hold_note(self) -> str:
        """The holds in words."""
        (_, partial), (_, full) = self.holds()
        return f"a hold: partial {_pct(partial)}, full {_pct(full)}"

    def damage(self, holds: bool) -> tuple[tuple[int, Fraction], ...]:
        """D-DMG-1: a point of damage a success; a grab (``holds``) deals none."""
        if holds:
            return ((0, Fraction(1)),)
        return spread({n: p for n, p in self.successes.items() if n}, 1 - self.hit)


def meet(attack: DieStep, defence: DieStep) -> DefenceLine:
    return DefenceLine(attack, defence)


def diestep_odds(encounter: Any, action: Action) -> AttackOdds | NoOdds | None:
    from fracas.rules.diestep.state import DefenceWindow, OpportunityWindow

    if action.verb not in ATTACKS:
        return None
    probe = Probe()
    trial = encounter.copy(stack=False, dice=probe, playout=True)
    try:
        trial.push(action)
    except EngineError:
        return None  # an attack the rules refuse: no odds to show
    state = trial.state
    window = state.windows[-1] if state.windows else None
    if isinstance(window, OpportunityWindow) and window.provoker == action.actor:
        names = ", ".join(state.who(c).name for c in window.waiting)
        return NoOdds(
            str(action), f"opportunity attacks ({names}) come first: odds once they are answered"
        )
    if isinstance(window, DefenceWindow) and window.attack.attacker == action.actor:
        from fracas.rules.diestep import combat

        attack = window.attack
        answers = [*combat.defences(state, attack).items(), ("take", attack.target)]
        lines = [
            _answered(trial, action, attack.kind, how, by, state.who(by).name)
            for how, by in answers
        ]
        best = best_choice(lines)
        marked = tuple(replace(line, best=line is best) for line in lines)
        return replace(marked[lines.index(best)], choices=marked)
    rolled = _dice(probe.asked)
    if len(rolled) < 2:
        return None
    tid = action.target or encounter.state.who(action.actor).holding
    name = state.who(tid).name if tid else "the target"
    against = f"{name}'s passive defence"
    return _line(action, action.verb == "grab", rolled[0], rolled[1], against, "take")


def _answered(trial: Any, action: Action, kind: str, how: str, by: str, name: str) -> AttackOdds:
    probe = Probe()
    answer = trial.copy(stack=False, dice=probe, playout=True)
    answer.push(Action(by, how))
    rolled = _dice(probe.asked)
    what = {"take": "passive defence"}.get(how, how)
    line = _line(action, kind == "grab", rolled[0], rolled[1], f"{name}'s {what}", how)
    return replace(line, defence=how)


def _dice(asked: Sequence[tuple[Any, str]]) -> list[DieStep]:
    return [m for m, _ in asked if isinstance(m, DieStep)]


def _line(
    action: Action, holds: bool, attack: DieStep, defence: DieStep, against: str, how: str
) -> AttackOdds:
    line = meet(attack, defence)
    note = line.hold_note() if holds else None
    return AttackOdds(
        str(action),
        attack.notation(),
        f"{against} {defence.notation()}",
        (),
        line.hit,
        line.damage(holds),
        note,
        command=f"fracas odds diestep attack {attack.notation()} vs {how} {defence.notation()}"
        + (" --grab" if holds else ""),
        figures=line.holds() if holds else (),
    )


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


# -- from the numbers alone (fracas odds diestep attack) ------------------------


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


DIESTEP_USAGE = "fracas odds diestep attack d8 [vs [block|parry|dodge|take] d6 adv]... [--grab]"


def odds_lines(words: Sequence[str]) -> list[AttackOdds]:
    from fracas.dice.diestep import DieStep

    p = Words("fracas odds diestep attack", DIESTEP_USAGE)
    p.add_argument("--grab", action="store_true")
    args = p.parse_args(list(words))
    groups = vs_groups(args.words)
    if len(groups) < 2 or not groups[0]:
        raise ValueError(f"expected 'd8 vs d6' ({DIESTEP_USAGE})")
    defences = []
    for group in groups[1:]:
        named = bool(group) and group[0].isalpha()
        name, rest = (group[0].lower(), group[1:]) if named else ("take", group)
        if not rest:
            raise ValueError(f"expected the defence's die after 'vs {name}' ({DIESTEP_USAGE})")
        defences.append((name, DieStep.parse(" ".join(rest))))
    return diestep_lines(DieStep.parse(" ".join(groups[0])), defences, args.grab)


def attack_odds(encounter: Encounter[Any], action: Action) -> AttackOdds | NoOdds | None:
    """The odds capability (:class:`fracas.engine.capabilities.Odds`)."""
    return diestep_odds(encounter, action)
