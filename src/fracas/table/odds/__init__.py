"""The odds of an attack before it is committed, for the game master's screen: the
exact chance to hit and the damage it would do, from the dice layer, with the modifiers
that make it, as the table's ruleset works them out (its ``odds`` capability,
:class:`fracas.engine.capabilities.Odds`); a ruleset without one shows none.

Where the defender chooses its defence at resolution (a diestep block, parry, dodge or
passive defence; a tempo reaction) the odds have one line per choice and mark the
defender's best. An attack with no odds to show says why (:class:`NoOdds`).

The odds read the whole state: they are for the game master only. A side is shown odds
only where the game master turns them on for the table, and then only those its
ruleset works out from what that side sees (:func:`side_odds_or_why`).

:func:`choices` gives the actions offered to an audience as words, each attack with its
odds in view, for a page's buttons.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from fracas.engine import Action
from fracas.engine.capabilities import odds, side_odds
from fracas.engine.odds import AttackOdds, NoOdds
from fracas.table.table import Table

__all__ = [
    "AttackOdds",
    "Choice",
    "NoOdds",
    "attack_odds",
    "choices",
    "odds_or_why",
    "side_odds_or_why",
    "summary",
]


def odds_or_why(table: Table, text: str | Action) -> AttackOdds | NoOdds | None:
    """The odds of ``text`` on ``table``; :class:`NoOdds` for an attack whose odds are not
    shown, with why; ``None`` when ``text`` is no attack (or one the rules refuse)."""
    work = odds(table.ruleset)
    try:
        action = text if isinstance(text, Action) else Action.parse(text)
    except ValueError:
        return None
    try:
        return work.attack_odds(table.encounter, action)
    except ValueError:  # an attack the rules would refuse: no odds to show
        return None


def attack_odds(table: Table, text: str) -> AttackOdds | None:
    """The odds of ``text`` (an attack) on ``table``, or ``None`` where there are none."""
    found = odds_or_why(table, text)
    return found if isinstance(found, AttackOdds) else None


def side_odds_or_why(table: Table, side: str, text: str | Action) -> AttackOdds | NoOdds | None:
    """The odds ``side`` may be shown of ``text``: its ruleset's side odds, read from what
    that side sees (``None`` where the ruleset offers none)."""
    work = side_odds(table.ruleset)
    if work is None:
        return None
    try:
        action = text if isinstance(text, Action) else Action.parse(text)
        return work.side_attack_odds(table.encounter, side, action)
    except ValueError:
        return None


@dataclass(frozen=True)
class Choice:
    """One offered action as a page shows it: its notation (what is sent), its actor and
    target ids, its words ("Attack Astrid") and, for an attack, its odds in a few words
    ("27% to hit · 1.1 damage expected") or why there are none."""

    action: str
    actor: str
    verb: str
    target: str | None
    words: str
    odds: str | None = None


def summary(found: AttackOdds | NoOdds) -> str:
    """The odds in a few words: the chance to hit and the damage expected (against the
    defender's best defence where it chooses one), or why there are none.

    >>> from fractions import Fraction as F
    >>> hit = F(271, 1000)
    >>> summary(AttackOdds("a", "C1P1", "b", (), hit, ((0, 1 - hit), (4, hit))))
    '27% to hit · 1.1 damage expected'
    >>> summary(NoOdds("a", "held"))
    'no odds: held'
    """
    if isinstance(found, NoOdds):
        return f"no odds: {found.why}"
    line = next((x for x in found.lines if x.best), found.lines[0])
    hit = float(line.hit) * 100
    shown = "<1%" if 0 < hit < 0.5 else ">99%" if 99.5 <= hit < 100 else f"{hit:.0f}%"
    text = f"{shown} to hit · {float(line.expected_damage):.1f} damage expected"
    return text + (f" (if {line.defence})" if line.defence and len(found.lines) > 1 else "")


def _words(action: Action, named: Mapping[str, str]) -> str:
    """The action in words, combatants by their labels: ``Attack Astrid``, ``Delay after
    Astrid``, ``Move A2``."""
    out = [action.verb.replace("_", " ").capitalize()]
    if action.target is not None:
        out.append(named.get(action.target, action.target))
    for key, value in action.options:
        out.append(f"{key.replace('_', ' ')} {named.get(value, value)}")
    return " ".join(out)


def choices(
    table: Table, side: str | None, offered: Sequence[str], named: Mapping[str, str], shown: bool
) -> list[tuple[str, list[Choice]]]:
    """The ``offered`` actions of ``side`` (``None``: the game master) grouped by verb, in
    the order they come, in words (``named``: the combatants' labels), each attack with
    its odds where ``shown``: the game master's from the whole table, a side's from what
    it sees (:func:`side_odds_or_why`)."""
    groups: dict[str, list[Choice]] = {}
    for text in offered:
        try:
            action = Action.parse(text)
        except ValueError:
            groups.setdefault("other", []).append(Choice(text, "", "other", None, text))
            continue
        found: AttackOdds | NoOdds | None = None
        if shown:
            found = (
                odds_or_why(table, action)
                if side is None
                else side_odds_or_why(table, side, action)
            )
        choice = Choice(
            text,
            action.actor,
            action.verb,
            action.target,
            _words(action, named),
            None if found is None else summary(found),
        )
        groups.setdefault(action.verb, []).append(choice)
    return list(groups.items())
