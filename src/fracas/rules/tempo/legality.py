"""When an action is legal: the turn sequence's windows (T-ROUND-2), statuses (T-STAT-1),
AP, weapons, targets, "response to" (T-ACT-2) and "replacement for" (T-ACT-3).

:func:`check` raises :class:`IllegalAction` with the rule and the reason; the helpers
that say who may react and how the actor may replace its action share its tests, so
what the tracker offers is exactly what :func:`check` lets through. Reactions are
checked against what the proactive action was declared as, so a secret feint is
answered, and refused, as the Melee Attack it looks like.

What the listing asks again and again (which reactions are open, may this be paid for)
it asks of quick predicates that build no refusal (:func:`default_weapon`,
:func:`affordable`, :func:`reactions`, :meth:`TempoTables.offers`); they answer exactly
as the explaining functions do, which ``tests/tempo/test_tempo_quick_legality.py``
holds them to.
"""

from __future__ import annotations

from collections.abc import Mapping

from fracas.engine import Action, IllegalAction
from fracas.rules.tempo.state import Combatant, Declared, Exchange, TempoState
from fracas.rules.tempo.tables import ActionSpec, Weapon

#: The rule that lists each kind of action.
RULE_OF_KIND = {
    "proactive": "T-ACT-1",
    "reactive": "T-ACT-2",
    "counter-tempo": "T-ACT-3",
    "special": "T-STAM-1",
}
PASS = "pass"
OPTIONS = {"with", "distance", "to", "from"}


def shown(state: TempoState, declared: Declared) -> str:
    """What an action looks like to the other side: a feint is declared as a Melee Attack."""
    return state.tables.actions[declared.action].declared_as or declared.action


def opponents(a: Combatant, b: Combatant) -> bool:
    return a.side != b.side


# -- weapons, status and AP ------------------------------------------------------------------


def weapon_for(state: TempoState, who: Combatant, action: str, choice: str | None) -> str | None:
    """The weapon ``who`` makes ``action`` with: ``choice`` (``with=``) or the first that fits.

    ``None`` is no weapon (an unarmed Grapple). Raises when the choice does not fit.
    """
    spec = state.tables.actions[action]
    rule = RULE_OF_KIND[spec.kind]
    weapons = state.tables.weapons
    fitting = (
        who.weapons
        if spec.weapon is None  # any weapon fits (read only below)
        else [w for w in who.weapons if weapons[w].kind == spec.weapon]
    )
    if choice is not None:
        if spec.ap != "weapon" and spec.weapon is None:
            raise IllegalAction(rule, f"{action} is not made with a weapon: leave out with=")
        if choice not in fitting:
            kind = f"{spec.weapon} weapons" if spec.weapon else "weapons"
            listing = ", ".join(fitting) or "none"
            raise IllegalAction(rule, f"{who.name} has no {choice!r} to use ({kind}: {listing})")
        return choice
    if spec.weapon is not None and not fitting:
        raise IllegalAction(rule, f"{action} needs a {spec.weapon} weapon; {who.name} has none")
    if spec.weapon is not None:
        return fitting[0]
    if spec.ap != "weapon":
        return None
    # "By Weapon" with no weapon kind (Grapple): the melee weapon in hand, else unarmed.
    melee = [w for w in fitting if state.tables.weapons[w].kind == "melee"]
    return melee[0] if melee else None


def weapon(state: TempoState, name: str | None) -> Weapon | None:
    return None if name is None else state.tables.weapons[name]


def cost(state: TempoState, action: str, weapon_name: str | None) -> int:
    return state.tables.cost(action, weapon(state, weapon_name))


def default_weapon(state: TempoState, who: Combatant, action: str) -> tuple[bool, str | None]:
    """:func:`weapon_for` with no choice, as ``(fits, weapon)``: ``(False, None)`` where it
    would refuse, without building the refusal (:meth:`TempoTables.default_weapon`)."""
    return state.tables.default_weapon(action, who.weapons)


def affordable(
    state: TempoState,
    who: Combatant,
    spec: ActionSpec,
    action: str,
    weapon_name: str | None,
    paid: int = 0,
) -> bool:
    """Whether :func:`refusal` lets ``who`` take ``action`` (its row ``spec``) now."""
    if who.hp <= 0 or who.status not in spec.statuses:  # down, or a status that forbids it
        return False
    ap = spec.ap
    if ap == "weapon":
        ap = state.tables.cost(action, weapon(state, weapon_name))
    return max(0, ap - paid) <= who.ap


def refusal(
    state: TempoState, who: Combatant, action: str, weapon_name: str | None, paid: int = 0
) -> IllegalAction | None:
    """Why ``who`` may not take ``action`` now (status, AP), or ``None``.

    ``paid`` is what a replaced action already cost: a counter-tempo action pays only
    the difference (T-ROUND-2).
    """
    spec = state.tables.actions[action]
    if who.out:
        return IllegalAction("T-ROUND-1", f"{who.name} is down and out of the fight")
    if who.status not in spec.statuses:
        allowed = ", ".join(spec.statuses)
        return IllegalAction("T-STAT-1", f"{who.name} is {who.status}: {action} needs {allowed}")
    due = max(0, cost(state, action, weapon_name) - paid)
    if due > who.ap:
        more = " more" if paid else ""
        return IllegalAction(
            "T-ROUND-2", f"{action} costs {due} AP{more}; {who.name} has {who.ap} AP"
        )
    return None


# -- the reaction window -----------------------------------------------------------------------


def reaction_bonus(spec: ActionSpec, answering: str) -> int:
    return sum(b.amount for b in spec.bonuses if b.answering == answering)


def reaction_refusal(
    state: TempoState, ex: Exchange, who: Combatant, action: str, weapon_name: str | None
) -> IllegalAction | None:
    """Why ``who`` may not answer the exchange's action with ``action``, or ``None``."""
    spec = state.tables.actions[action]
    declared = shown(state, ex.proactive)
    actor = state.combatants[ex.proactive.who]
    if declared not in spec.response_to:
        answers = ", ".join(spec.response_to)
        return IllegalAction(
            "T-ACT-2", f"{action} answers {answers}; it does not answer a {declared}"
        )
    problem = refusal(state, who, action, weapon_name)
    if problem is not None:
        return problem
    if spec.reach and not threatens(state, ex, who):
        return IllegalAction(
            "T-MOVE-1",
            f"{who.name} does not threaten {actor.name}'s way: only an opponent within "
            f"reach can answer with {action}",
        )
    if spec.beyond_attack_speed:
        used = weapon(state, ex.proactive.weapon)
        speed = used.speed if used is not None and used.speed is not None else 0
        if ex.distance <= speed:
            return IllegalAction(
                "T-ACT-2",
                f"{action} needs more distance than {actor.name}'s attack speed "
                f"({speed} squares); the attack comes from {ex.distance}",
            )
    return None


def window_refusal(state: TempoState, ex: Exchange, who: Combatant) -> IllegalAction | None:
    """Why ``who`` has no say in the reaction window, or ``None``."""
    actor = state.combatants[ex.proactive.who]
    if not opponents(actor, who):
        return IllegalAction("T-ROUND-2", f"only {actor.name}'s opponents may react")
    if ex.target is not None and ex.target != who.id:
        target = state.combatants[ex.target].name
        return IllegalAction(
            "T-ROUND-2",
            f"{actor.name}'s {shown(state, ex.proactive)} is aimed at {target}: "
            f"only {target} may react",
        )
    if who.id in ex.passed:
        return IllegalAction("T-ROUND-2", f"{who.name} has already let this action go")
    return None


def reactions(state: TempoState, ex: Exchange, who: Combatant) -> list[str]:
    """The reactions ``who`` may declare now (with its default weapons): those that
    :func:`window_refusal` and :func:`reaction_refusal` let through, in table order."""
    proactive = ex.proactive
    if (
        state.combatants[proactive.who].side == who.side  # not an opponent
        or (ex.target is not None and ex.target != who.id)
        or who.id in ex.passed
        or who.hp <= 0  # down
    ):
        return []
    declared = shown(state, proactive)
    found = []
    for name, _, spec, cost in state.tables.offers("reactive", who.status, tuple(who.weapons)):
        if declared not in spec.response_to or cost > who.ap:
            continue
        if spec.reach and not threatens(state, ex, who):
            continue
        if spec.beyond_attack_speed:
            used = weapon(state, proactive.weapon)
            if ex.distance <= (used.speed if used is not None and used.speed is not None else 0):
                continue
        found.append(name)
    return found


def reactors(state: TempoState, ex: Exchange) -> list[str]:
    """Who may still react, in initiative order: the target, or any opponent if untargeted."""
    return [cid for cid in state.order if reactions(state, ex, state.combatants[cid])]


# -- the counter-tempo window ------------------------------------------------------------------


def replacement_options(state: TempoState, mine: str, theirs: str) -> Mapping[str, int]:
    """T-ACT-3: what may replace the proactive ``mine`` after the reaction ``theirs``,
    with the bonus (the feint's Counter-Attack after a Parry: +3)."""
    return state.tables.replacement_options(mine, theirs)


def counter_window(state: TempoState, ex: Exchange) -> bool:
    """Whether the counter-tempo window opens: it does when *any* action that looks like
    the declared one could be replaced, so a plain Melee Attack that is parried opens it
    too (its actor passes) and the opponent cannot tell it from a feint."""
    if ex.reaction is None:
        return False
    return state.tables.counter_window(shown(state, ex.proactive), ex.reaction.action)


def affordable_replacements(state: TempoState, ex: Exchange) -> dict[str, int]:
    """The replacement options the actor can take now (status, weapon, AP)."""
    if ex.reaction is None:
        return {}
    actor = state.combatants[ex.proactive.who]
    actions = state.tables.actions
    found = {}
    for name, bonus in replacement_options(state, ex.proactive.action, ex.reaction.action).items():
        fits, chosen = default_weapon(state, actor, name)
        if fits and affordable(state, actor, actions[name], name, chosen, ex.paid):
            found[name] = bonus
    return found


# -- checking an action ------------------------------------------------------------------------


def check(state: TempoState, action: Action) -> None:
    """Raise :class:`IllegalAction` unless ``action`` is legal now."""
    tables = state.tables
    name = PASS if action.verb == PASS else tables.by_verb(action.verb)
    if name is None:
        known = ", ".join(sorted([*tables.verbs, PASS]))
        raise IllegalAction("T-ACT-1", f"unknown action {action.verb!r}: known are {known}")
    who = state.combatants.get(action.actor)
    if who is None:
        known = ", ".join(state.combatants)
        raise IllegalAction("T-ROUND-1", f"no combatant called {action.actor!r} ({known})")
    if state.over:
        raise IllegalAction("T-ROUND-1", "the encounter is over")
    for key, _ in action.options:
        if key not in OPTIONS:
            raise IllegalAction(
                "T-ACT-1", f"unknown option {key!r}: known are with, distance, to, from"
            )
    ex = state.exchange
    if ex is None:
        _check_own_turn(state, action, who, name)
    elif ex.phase == "react":
        _check_reaction(state, ex, action, who, name)
    else:
        _check_counter(state, ex, action, who, name)


def _check_own_turn(state: TempoState, action: Action, who: Combatant, name: str) -> None:
    if name == PASS:
        raise IllegalAction("T-ROUND-2", "there is nothing to let go: no action is declared")
    spec = state.tables.actions[name]
    if spec.kind == "reactive":
        raise IllegalAction(
            "T-ACT-2",
            f"{name} is a reaction: it answers an opponent's proactive action, "
            "and none is declared",
        )
    if spec.kind == "counter-tempo":
        raise IllegalAction(
            "T-ACT-3", f"{name} replaces your proactive action after an opponent reacts to it"
        )
    current = state.combatants[state.current]
    if current is not who:
        raise IllegalAction("T-ROUND-1", f"it is {current.name}'s turn, not {who.name}'s")
    chosen = weapon_for(state, who, name, action.option("with"))
    problem = refusal(state, who, name, chosen)
    if problem is not None:
        raise problem
    target = target_of(state, who, name, action.target)
    distance_of(state, name, action.option("distance"))
    movement_of(state, who, name, action.option("to"), action.option("from"))
    if spec.reach and target is not None and target not in who.reach:
        raise IllegalAction(
            "T-MOVE-1",
            f"{state.combatants[target].name} is not within {who.name}'s reach: "
            f"move to={target} first",
        )


def movement_of(
    state: TempoState, who: Combatant, name: str, to: str | None, away: str | None
) -> tuple[str | None, str | None]:
    """T-MOVE-1: a movement's ``to=`` (an opponent not yet in reach, to close with) and
    ``from=`` (one in reach, to get away from); refused on any other action."""
    if to is None and away is None:
        return None, None
    spec = state.tables.actions[name]
    if not spec.movement:
        raise IllegalAction("T-MOVE-1", f"to= and from= belong to a movement, not a {name}")
    for key, cid in (("to", to), ("from", away)):
        if cid is None:
            continue
        other = state.combatants.get(cid)
        if other is None or not opponents(who, other) or other.out:
            standing = [c.id for c in state.combatants.values() if opponents(who, c) and not c.out]
            raise IllegalAction(
                "T-MOVE-1",
                f"{key}={cid[:40]!r} should be an opponent standing: {', '.join(standing)}",
            )
        if key == "to" and cid in who.reach:
            raise IllegalAction("T-MOVE-1", f"{who.name} is within {other.name}'s reach already")
        if key == "from" and cid not in who.reach:
            raise IllegalAction("T-MOVE-1", f"{who.name} is not within {other.name}'s reach")
    if to is not None and to == away:
        raise IllegalAction("T-MOVE-1", "to= and from= name two different opponents")
    return to, away


def threatens(state: TempoState, ex: Exchange, who: Combatant) -> bool:
    """T-MOVE-1: whether ``who`` threatens the area the exchange's action moves through or
    strikes from: the actor is within its reach, or the movement closes with it."""
    return ex.proactive.who in who.reach or ex.proactive.to == who.id


def target_of(state: TempoState, who: Combatant, name: str, given: str | None) -> str | None:
    """The target of ``who``'s proactive ``name``: checked, or the opponent it is engaged with."""
    spec = state.tables.actions[name]
    rule = RULE_OF_KIND[spec.kind]
    if spec.target == "none":
        if given is not None:
            raise IllegalAction(rule, f"{name} takes no target")
        return None
    if spec.target == "engaged":
        if given is not None and given != who.engaged_with:
            partner = state.combatants[who.engaged_with] if who.engaged_with else None
            raise IllegalAction(
                rule,
                f"{name} is aimed at the opponent {who.name} is {who.status} with "
                f"({partner.name if partner else 'nobody'}), not {given!r}",
            )
        return who.engaged_with
    target = state.combatants.get(given or "")
    if target is None:
        others = ", ".join(c.id for c in state.combatants.values() if opponents(who, c))
        raise IllegalAction(rule, f"{name} needs a target: one of {others}")
    if not opponents(who, target):
        raise IllegalAction(rule, f"{target.name} is on {who.name}'s side")
    if target.out:
        raise IllegalAction(rule, f"{target.name} is down and out of the fight")
    return target.id


def distance_of(state: TempoState, name: str, given: str | None) -> int:
    """A ranged attack's ``distance=N`` in squares (0 when left out): what Dodge reads."""
    if given is None:
        return 0
    if name != "Ranged Attack":
        raise IllegalAction("T-ACT-1", f"distance= belongs to a Ranged Attack, not a {name}")
    if not given.isdigit():
        raise IllegalAction("T-ACT-1", f"distance={given!r} should be a whole number of squares")
    return int(given)


def _check_reaction(
    state: TempoState, ex: Exchange, action: Action, who: Combatant, name: str
) -> None:
    actor = state.combatants[ex.proactive.who]
    waiting = f"{actor.name}'s {shown(state, ex.proactive)} waits for a reaction"
    if name == PASS:
        if who.id not in state.order or not reactions(state, ex, who):  # not among reactors
            raise IllegalAction("T-ROUND-2", f"{waiting}, and {who.name} has none to let go")
        return
    spec = state.tables.actions[name]
    if spec.kind != "reactive":
        names = ", ".join(reactors(state, ex))
        raise IllegalAction(
            RULE_OF_KIND[spec.kind] if spec.kind == "counter-tempo" else "T-ROUND-2",
            f"{waiting} from {names} first ({name} is not a reaction)",
        )
    problem = window_refusal(state, ex, who)
    if problem is not None:
        raise problem
    if action.target is not None and action.target != actor.id:
        raise IllegalAction("T-ACT-2", f"{name} answers {actor.name}, not {action.target!r}")
    chosen = weapon_for(state, who, name, action.option("with"))
    problem = reaction_refusal(state, ex, who, name, chosen)
    if problem is not None:
        raise problem
    if action.option("distance") is not None:
        raise IllegalAction("T-ACT-2", "distance= belongs to a Ranged Attack")
    if action.option("to") is not None or action.option("from") is not None:
        raise IllegalAction("T-MOVE-1", "to= and from= belong to a movement on one's own turn")


def _check_counter(
    state: TempoState, ex: Exchange, action: Action, who: Combatant, name: str
) -> None:
    actor = state.combatants[ex.proactive.who]
    if who is not actor:
        raise IllegalAction(
            "T-ROUND-2", f"the exchange waits for {actor.name}'s counter-tempo answer or pass"
        )
    if name == PASS:
        return
    reaction = ex.reaction
    assert reaction is not None  # the counter window opens only after a reaction
    options = replacement_options(state, ex.proactive.action, reaction.action)
    if name not in options:
        listing = ", ".join(options) or "nothing"
        raise IllegalAction(
            "T-ACT-3",
            f"after a {reaction.action}, {ex.proactive.action} may be replaced "
            f"by {listing}, not by {name}",
        )
    if action.target is not None and action.target != reaction.who:
        raise IllegalAction("T-ACT-3", f"{name} answers the reaction's maker")
    chosen = weapon_for(state, who, name, action.option("with"))
    problem = refusal(state, who, name, chosen, ex.paid)
    if problem is not None:
        raise problem
    if action.option("distance") is not None:
        raise IllegalAction("T-ACT-3", "distance= belongs to a Ranged Attack")
    if action.option("to") is not None or action.option("from") is not None:
        raise IllegalAction("T-MOVE-1", "to= and from= belong to a movement on one's own turn")
