"""The turn sequence of one action (T-ROUND-2): declare, react, counter-tempo, resolve.

1. The actor declares a proactive action and pays its AP. A feint is declared as the
   Melee Attack it looks like; the truth is an event only the feinter's side sees.
2. The reaction window: the target (any opponent, for an untargeted action) may
   declare a reaction that answers it, paying its AP, or let it go (``pass``). The
   window closes by itself when nobody can answer.
3. The counter-tempo window: after a reaction, the actor may replace the action with
   a counter-tempo action that answers it (T-ACT-3, or the feint's Counter-Attack
   after a Parry), paying only the difference when it costs more, or keep it.
4. Resolve: each side rolls (T-DICE-1) and reads its own table with the other's result
   subtracted (T-RES-1), against the opponent's thresholds (T-RES-2). A ``cancel``
   outcome makes the other action fail without effect; the rest apply, actor first.
"""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event
from fracas.rules.tempo import outcomes, turns
from fracas.rules.tempo.checks import outcome, result_of
from fracas.rules.tempo.legality import (
    affordable_replacements,
    cost,
    counter_window,
    distance_of,
    movement_of,
    reaction_bonus,
    reactions,
    replacement_options,
    shown,
    target_of,
    weapon,
    weapon_for,
)
from fracas.rules.tempo.state import Declared, Exchange, TempoState


def declare(
    state: TempoState, action: Action, name: str, dice: DiceSource, events: list[Event]
) -> None:
    """Step 1: declare the proactive action ``name`` and pay for it."""
    who = state.combatants[action.actor]
    chosen = weapon_for(state, who, name, action.option("with"))
    target = target_of(state, who, name, action.target)
    used = weapon(state, chosen)
    bonus = used.aimed if name == "Ranged Attack" and used and who.aimed == chosen else 0
    who.aimed = None  # aimed accuracy is for the action right after the Aim
    paid = cost(state, name, chosen)
    who.ap -= paid
    to, away = movement_of(state, who, name, action.option("to"), action.option("from"))
    declared = Declared(who.id, name, chosen, bonus, to, away)
    ex = Exchange(declared, target, paid, distance_of(state, name, action.option("distance")))
    state.exchange = ex
    looks = shown(state, declared)
    on = f" on {state.combatants[target].name}" if target else ""
    made = f" with the {chosen}" if chosen else ""
    aimed = f" (aimed, {bonus:+d})" if bonus else ""
    way = "".join(
        f" {word} {state.combatants[cid].name}"
        for word, cid in (("toward", to), ("away from", away))
        if cid is not None
    )
    data = {
        "who": who.id,
        "action": looks,
        "target": target,
        "weapon": chosen,
        "ap": paid,
        "ap_left": who.ap,
    }
    if to is not None or away is not None:
        data.update(to=to, away=away)
    events.append(
        Event(
            "declare",
            f"{who.name} declares {looks}{way}{on}{made}{aimed}: {paid} AP ({who.ap} left)",
            data,
        )
    )
    if looks != name:
        events.append(
            Event(
                "secret",
                f"(secretly, {who.name}'s {looks} is a {name})",
                {"who": who.id, "action": name, "declared_as": looks},
                frozenset({who.side}),
            )
        )
    _advance(state, dice, events)


def react(
    state: TempoState, action: Action, name: str, dice: DiceSource, events: list[Event]
) -> None:
    """Step 2: an opponent answers with the reaction ``name`` and pays for it."""
    ex = _open(state)
    who = state.combatants[action.actor]
    chosen = weapon_for(state, who, name, action.option("with"))
    paid = cost(state, name, chosen)
    who.ap -= paid
    bonus = reaction_bonus(state.tables.actions[name], shown(state, ex.proactive))
    ex.reaction = Declared(who.id, name, chosen, bonus)
    made = f" with the {chosen}" if chosen else ""
    extra = f" ({bonus:+d})" if bonus else ""
    events.append(
        Event(
            "react",
            f"{who.name} answers with {name}{made}{extra}: {paid} AP ({who.ap} left)",
            {"who": who.id, "action": name, "weapon": chosen, "ap": paid, "ap_left": who.ap},
        )
    )
    _advance(state, dice, events)


def let_go(state: TempoState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    """``pass``: an opponent lets the action go, or the actor keeps it unreplaced."""
    ex = _open(state)
    who = state.combatants[action.actor]
    if ex.phase == "react":
        ex.passed.append(who.id)
        looks = shown(state, ex.proactive)
        events.append(Event("pass", f"{who.name} lets the {looks} go", {"who": who.id}))
        _advance(state, dice, events)
    else:
        events.append(Event("pass", f"{who.name} keeps the action", {"who": who.id}))
        resolve(state, dice, events)


def replace(
    state: TempoState, action: Action, name: str, dice: DiceSource, events: list[Event]
) -> None:
    """Step 3: replace the proactive action; pay the difference if it costs more."""
    ex = _open(state)
    who = state.combatants[action.actor]
    chosen = weapon_for(state, who, name, action.option("with"))
    extra = max(0, cost(state, name, chosen) - ex.paid)
    who.ap -= extra
    ex.paid += extra
    assert ex.reaction is not None, "checked: a reaction opened the window"
    bonus = replacement_options(state, ex.proactive.action, ex.reaction.action)[name]
    _reveal(state, ex, events)
    ex.replacement = Declared(who.id, name, chosen, bonus)
    made = f" with the {chosen}" if chosen else ""
    plus = f" ({bonus:+d})" if bonus else ""
    events.append(
        Event(
            "counter-tempo",
            f"{who.name} replaces the {ex.proactive.action} with {name}{made}{plus}: "
            f"{extra} AP more, {ex.paid} in all ({who.ap} left)",
            {
                "who": who.id,
                "action": name,
                "replaces": ex.proactive.action,
                "weapon": chosen,
                "ap": extra,
                "paid": ex.paid,
                "ap_left": who.ap,
            },
        )
    )
    resolve(state, dice, events)


def _open(state: TempoState) -> Exchange:
    ex = state.exchange
    assert ex is not None, "checked: an exchange is open"
    return ex


def _advance(state: TempoState, dice: DiceSource, events: list[Event]) -> None:
    """Close a window nobody can use: no reactor left (:func:`.legality.reactors`), or
    nothing to replace with."""
    ex = _open(state)
    if ex.reaction is None:
        if not any(reactions(state, ex, state.combatants[cid]) for cid in state.order):
            resolve(state, dice, events)
        return
    if not counter_window(state, ex):
        resolve(state, dice, events)
        return
    ex.phase = "counter"
    actor = state.combatants[ex.proactive.who]
    options = list(affordable_replacements(state, ex))
    offer = f"replace it with {', '.join(options)} or " if options else ""
    events.append(
        Event(
            "window",
            f"Counter-tempo: {actor.name} may {offer}keep the {ex.proactive.action} (pass)",
            {"who": actor.id, "options": options},
            frozenset({actor.side}),
        )
    )


def _reveal(state: TempoState, ex: Exchange, events: list[Event]) -> None:
    looks = shown(state, ex.proactive)
    if looks != ex.proactive.action:
        who = state.combatants[ex.proactive.who]
        events.append(
            Event(
                "reveal",
                f"{who.name}'s {looks} was a {ex.proactive.action}",
                {"who": who.id, "action": ex.proactive.action, "declared_as": looks},
            )
        )


def resolve(state: TempoState, dice: DiceSource, events: list[Event]) -> None:
    """Step 4: roll, subtract, read both tables, cancel, apply; then the turn goes on."""
    ex = _open(state)
    state.exchange = None
    if ex.replacement is None:
        _reveal(state, ex, events)
    mine = ex.replacement or ex.proactive  # a replaced action no longer resolves
    actor = state.combatants[mine.who]
    own = result_of(state, mine, dice, events)
    if ex.reaction is None:
        target = state.combatants[ex.target] if ex.target else None
        row = outcome(state, mine, own, None, target, events)
        outcomes.apply_row(state, actor, target, mine, row, dice, events)
    else:
        reactor = state.combatants[ex.reaction.who]
        other = result_of(state, ex.reaction, dice, events)
        row = outcome(state, mine, own, other, reactor, events)
        answer = outcome(state, ex.reaction, other, own, actor, events)
        # T-MOVE-1: the mover is hit when the reaction's row deals damage and stands.
        hit = "cancel" not in row.effects and any(e.startswith("damage") for e in answer.effects)
        for declared, who, against, its, theirs in (
            (mine, actor, reactor, row, answer),
            (ex.reaction, reactor, actor, answer, row),
        ):
            if "cancel" in theirs.effects:
                events.append(
                    Event(
                        "cancelled",
                        f"{who.name}'s {declared.action} fails without effect",
                        {"who": who.id, "action": declared.action},
                    )
                )
            else:
                struck = reactor.id if hit and who is actor else None
                outcomes.apply_row(state, who, against, declared, its, dice, events, struck)
    turns.after_exchange(state, actor, events)
