"""Ending the turn, attacks, brawls, holds and defences (H-ATK-*, H-DEF-*)."""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.rules.heimr import combat, effects, guards, hiding, terrain, turns
from fracas.rules.heimr.state import DEFENCES, HeimrState
from fracas.rules.heimr.verbs.registry import (
    checks,
    number,
    verb,
    who,
)

# -- a combatant's turn ------------------------------------------------------------------


@verb("end", "free", "H-INIT-2", "end your turn")
def _end(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    turns.end_turn(state, dice, events)


@checks("attack")
def _check_attack(state: HeimrState, action: Action) -> None:
    combat.check_weapon_attack(state, who(state, action.actor), who(state, action.target))
    if effects.bound(who(state, action.actor), "hands"):
        raise IllegalAction("H-EFF-7", f"{action.actor}'s hands are bound")
    part = action.option("part")
    if part is not None and part not in state.tables.injury_effects:
        raise IllegalAction("H-ATK-5", f"aim at one of {', '.join(state.tables.injury_effects)}")
    if action.option("defence") not in (None, "none", "dodge", "block"):
        raise IllegalAction("H-DEF-4", "defence= is none, dodge or block")


@verb("attack", "standard", "H-ATK-2", "weapon attack: <target> [part=] [hit=N] [defence=none]")
def _attack(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    attacker, target = who(state, action.actor), who(state, action.target)
    if not action.options:  # the common attack: no option to read
        combat.weapon_attack(state, attacker, target, dice, events)
        return
    combat.weapon_attack(
        state,
        attacker,
        target,
        dice,
        events,
        part=action.option("part"),
        hit_effect=number(action, "hit"),
        defence=action.option("defence"),
        line=action.option("line"),
    )


@checks("brawl")
def _check_brawl(state: HeimrState, action: Action) -> None:
    attacker, target = who(state, action.actor), who(state, action.target)
    if attacker.square != target.square:
        raise IllegalAction("H-ATK-1", f"{target.name} is not in {attacker.name}'s square")
    terrain.check_reach(attacker, target)
    hiding.check_attack(attacker, target)  # H-POS-4
    effect = action.option("effect", "hit")
    if effect not in ("hit", "bind"):
        raise IllegalAction("H-ATK-8", "a brawl attack is effect=hit or effect=bind")
    if effect == "bind" and not attacker.free_hand():
        raise IllegalAction("H-ATK-8", f"{attacker.name} needs a free hand to grab")
    if effect == "bind" and effects.bound(attacker, "hands"):
        raise IllegalAction("H-EFF-7", f"{attacker.name}'s hands are bound")
    cluster = state.cluster_of(attacker.id)
    if attacker.has("Stumble") and (cluster is None or target.id not in cluster):
        raise IllegalAction(
            "H-EFF-4", f"{attacker.name} is stumbling: melee only against its combat cluster"
        )


@verb("brawl", "standard", "H-ATK-8", "punch or grab: <target> effect=hit|bind")
def _brawl(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    combat.brawl(
        state,
        who(state, action.actor),
        who(state, action.target),
        action.option("effect", "hit") or "hit",
        dice,
        events,
        action.option("defence"),
    )


@verb("release", "reaction", "H-ATK-10", "let go of the character you hold, at any time")
def _release(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    effects.release_hold(state, who(state, action.actor), "releases the hold", events)


@checks("release")
def _check_release(state: HeimrState, action: Action) -> None:
    if who(state, action.actor).holding is None:
        raise IllegalAction("H-ATK-10", f"{action.actor} holds nobody")


@checks("defend")
def _check_defend(state: HeimrState, action: Action) -> None:
    if action.target not in DEFENCES and action.target != "none":
        raise IllegalAction("H-DEF-1", "defend dodge, block, parry or none")
    c = who(state, action.actor)
    if action.target == "block" and c.shield is None:
        raise IllegalAction("H-DEF-1", f"{c.name} has no shield to block with")
    if action.target == "parry" and not any(w.melee for w in c.weapons()):
        raise IllegalAction("H-DEF-1", f"{c.name} wields no melee weapon to parry with")
    # H-EFF-7: an arm bound ("attached to whatever it touches") cannot block or parry.
    if action.target == "block" and not effects.arm_free(c, c.shield):
        raise IllegalAction("H-EFF-7", f"{c.name}'s other arm is bound: no blocking")
    if action.target == "parry" and not any(
        w.melee and effects.arm_free(c, w) for w in c.weapons()
    ):
        raise IllegalAction("H-EFF-7", f"{c.name}'s weapon arm is bound: no parrying")


@verb("defend", "free", "H-DEF-2", "the kind of defence to pre-roll at the end of the turn")
def _defend(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    c.stance = action.target  # type: ignore[assignment]
    events.append(
        Event(
            "stance",
            f"{c.name} will pre-roll {action.target}",
            {"who": c.id},
            detail=frozenset({c.side}),  # the stance is the own side's until rolled
        )
    )


@verb("dodge", "standard", "H-ACT-3", "ready a dodge: +2 potential to the next dodge of a shot")
def _dodge(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    c.ready_dodge = True
    events.append(Event("dodge", f"{c.name} readies a dodge", {"who": c.id}))


@checks("guard")
def _check_guard(state: HeimrState, action: Action) -> None:
    guards.guard_spec(state, who(state, action.actor), action.target or "")


@verb("guard", "free", "H-GUARD-1", "guard a person, a square or a border (B1-B2)")
def _guard(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    c.guarding = guards.guard_spec(state, c, action.target or "")
    what = c.guarding.split(":", 1)[1]
    events.append(Event("guard", f"{c.name} guards {what}", {"who": c.id, "guards": what}))


@checks("outmanoeuvre")
def _check_outmanoeuvre(state: HeimrState, action: Action) -> None:
    c, guard = who(state, action.actor), who(state, action.target)
    if guard.guarding is None or guard.side == c.side:
        raise IllegalAction("H-GUARD-4", f"{guard.name} guards nothing against {c.name}")
    if guard.square != c.square and not guard.guarding.startswith("square:"):
        raise IllegalAction("H-GUARD-4", f"{guard.name} is not in {c.name}'s square")
    if hiding.hidden_from(guard, c.side) == hiding.UNAWARE:
        raise IllegalAction("H-GUARD-4", f"{c.name} sees no one called {action.target!r}")
    if hiding.hidden_from(c, guard.side) is not None:
        raise IllegalAction(
            "H-GUARD-4", f"{c.name} is hidden from {guard.name}, who cannot stop what it cannot see"
        )


@verb("outmanoeuvre", "free", "H-GUARD-4", "get past a guard: it attacks, you dodge at -1")
def _outmanoeuvre(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c, guard = who(state, action.actor), who(state, action.target)
    if combat.outmanoeuvre(state, c, guard, dice, events):
        c.passed_guards.append(guard.id)
