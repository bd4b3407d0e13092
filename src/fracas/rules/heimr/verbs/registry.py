"""The registry of Heimr actions: each verb's type, rule, check and effect.

Each verb has an action type (H-ACT-1): standard, free, ongoing, upcoming; ``reaction``
for what a character does in another's turn; ``gm`` for the game master's calls.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from fracas.engine import Action, IllegalAction
from fracas.engine.verbs import Verb as EngineVerb
from fracas.engine.verbs import Verbs, named
from fracas.rules.heimr.state import Combatant, HeimrState

Kind = Literal["standard", "free", "ongoing", "upcoming", "reaction", "gm", "start", "any"]
# A string: compiled, EngineVerb stays interpreted and cannot be subscripted at run time.
Verb: TypeAlias = "EngineVerb[HeimrState, Kind]"

#: Every Heimr verb; ``verb`` registers what one does, ``checks`` what it needs.
VERBS: Verbs[HeimrState, Kind] = Verbs()
verb = VERBS.verb
checks = VERBS.checks


def who(state: HeimrState, cid: str | None, rule: str = "H-CHAR-5") -> Combatant:
    """The combatant ``cid``, or :class:`IllegalAction` listing who there is."""
    found = state.combatants.get(cid) if cid is not None else None
    return found if found is not None else named(state.combatants, cid, rule)


def number(action: Action, key: str, default: int | None = None) -> int | None:
    text = action.option(key)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise IllegalAction("H-CHAR-5", f"{key}={text!r} should be a whole number") from None


def ability_of(state: HeimrState, c: Combatant, name: str | None) -> str:
    if name is None:
        raise IllegalAction("H-CHAR-3", "name the ability: ability=<name>")
    for known in c.stats.abilities:
        if known.lower() == name.lower():
            return known
    raise IllegalAction(
        "H-CHAR-3", f"unknown ability {name!r}: known are {', '.join(c.stats.abilities)}"
    )


def kind_of(action: Action, state: HeimrState | None = None) -> Kind:
    """The action type (H-ACT-1) of ``action``: its verb's, except that a breather may be
    taken as an upcoming action ("Taking a breather: Ongoing or upcoming", H-ACT-3) and a
    skill's type "depends on the skill you use" (``as=``, else the campaign's ``skills``
    table read from ``state``, standard when not listed; H-SKILL-1)."""
    name = action.verb
    if name == "breather" and action.option("as") == "upcoming":
        return "upcoming"
    if name == "skill":
        if action.option("as") in SKILL_KINDS:
            return SKILL_KINDS[action.option("as") or "standard"]
        if state is not None and action.option("as") is None:
            return SKILL_KINDS[state.tables.skill(action.target or "").kind]
    return VERBS[name].kind


def free_key(action: Action) -> str:
    """What "the same free action" is (H-ACT-1): the verb, or for a skill the skill used
    (two different skills are two actions, docs/decisions.md)."""
    if action.verb == "skill":
        return f"skill {(action.target or '').lower()}"
    return action.verb


SKILL_KINDS: dict[str, Kind] = {
    "standard": "standard",
    "free": "free",
    "ongoing": "ongoing",
    "upcoming": "upcoming",
}
