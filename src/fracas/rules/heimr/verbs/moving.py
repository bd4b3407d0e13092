"""Positions and movement: prone, stand, move, run, charge, crawl (H-ACT-3..6, H-POS-1)."""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.rules.heimr import combat, effects, guards, hiding, terrain
from fracas.rules.heimr.state import Combatant, HeimrState
from fracas.rules.heimr.terrain import How
from fracas.rules.heimr.verbs.registry import (
    checks,
    verb,
    who,
)


@verb("prone", "free", "H-POS-1", "drop prone")
def _prone(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    c.prone = True
    events.append(Event("position", f"{c.name} drops prone", {"who": c.id}))


@checks("prone")
def _check_prone(state: HeimrState, action: Action) -> None:
    if who(state, action.actor).prone:
        raise IllegalAction("H-POS-1", f"{action.actor} is already prone")


@verb("stand", "standard", "H-EFF-3", "stand up (a standard action: docs/decisions.md)")
def _stand(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    c.prone = False
    events.append(Event("position", f"{c.name} stands up", {"who": c.id}))


@checks("stand")
def _check_stand(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if not c.prone:
        raise IllegalAction("H-POS-1", f"{c.name} is not prone")
    if c.has("Fall"):
        raise IllegalAction(
            "H-EFF-3", f"{c.name} has fallen and cannot stand until the Fall passes"
        )


@checks("move", "run")
def _check_move(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if c.prone:
        raise IllegalAction("H-POS-1", f"{c.name} is prone: crawl, or stand up first")
    if effects.bound(c, "feet", "leg", "body"):
        raise IllegalAction("H-EFF-7", f"{c.name} is bound and cannot walk")
    if action.target in (None, "out"):
        if state.cluster_of(c.id) is None:
            raise IllegalAction("H-ATK-1", f"{c.name} is in no combat cluster")
        return
    how: How = "run" if action.verb == "run" else "move"
    stumble_check(c, adjacent_square(state, c, action.target, how))


def stumble_check(c: Combatant, square: str) -> None:
    direction = effects.barred(c, square)
    if direction is not None:
        raise IllegalAction(
            "H-EFF-4", f"{c.name} is stumbling and cannot move {direction}, where it came from"
        )


def adjacent_square(state: HeimrState, c: Combatant, square: str, how: How = "move") -> str:
    """The bordering square ``square`` if ``c`` may go there now (H-GRID-2..5)."""
    sq = state.battlefield.place(square)
    terrain.check_cross(state, c, sq, how)
    return sq


@verb("move", "standard", "H-ACT-3", "move to a bordering square, or out of the cluster")
def _move(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    if action.target in (None, "out"):
        effects.leave_cluster(state, c, events)
        return
    if terrain.cross(state, c, state.battlefield.place(action.target), dice, events):
        events.append(
            Event(
                "move",
                f"{c.name} moves to {c.square}",
                {"who": c.id, "square": c.square},
                seen_by=hiding.seen_by(state, c),  # not by the sides it stays hidden from
            )
        )


@verb("run", "ongoing", "H-ACT-5", "run to a bordering square")
def _run(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    left = c.square
    _move(state, action, dice, events)
    if c.square == left:
        return
    c.ran_from = left
    # H-ACT-5: running after one who ran away from here starts a chase.
    for other in state.combatants.values():
        if other.side != c.side and other.ran_from == left and other.square == c.square:
            events.append(
                Event(
                    "chase",
                    f"{c.name} runs after {other.name}: a chase begins; the game master runs "
                    f"it with gm chase {c.id} target={other.id} ability=<ability>",
                    {"chaser": c.id, "target": other.id},
                )
            )


@checks("charge")
def _check_charge(state: HeimrState, action: Action) -> None:
    c, target = who(state, action.actor), who(state, action.target)
    if c.prone:
        raise IllegalAction("H-POS-1", f"{c.name} is prone and cannot charge")
    if c.has("Stumble"):
        raise IllegalAction(
            "H-EFF-4", f"{c.name} is stumbling: melee only against its combat cluster"
        )
    if effects.bound(c, "feet", "leg", "body"):
        raise IllegalAction("H-EFF-7", f"{c.name} is bound and cannot walk")
    if target.square == c.square:
        raise IllegalAction("H-ACT-4", f"{target.name} is in {c.name}'s square: attack instead")
    hiding.check_attack(c, target)  # H-POS-4: not at one it does not know is there
    adjacent_square(state, c, target.square, "charge")
    terrain.check_reach(c, target, terrain.ground(state, target.square))
    if target.ran_from == c.square:
        raise IllegalAction(
            "H-ACT-5",
            f"{target.name} ran from {c.square} and cannot be "
            "charged from there until its next turn",
        )
    brawl_effect = action.option("brawl")
    if brawl_effect is None and not any(w.melee for w in c.weapons()):
        raise IllegalAction("H-ACT-4", f"{c.name} has no melee weapon: charge with brawl=hit")


@verb("charge", "ongoing", "H-ACT-4", "move into a bordering square and attack: [brawl=hit|bind]")
def _charge(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c, target = who(state, action.actor), who(state, action.target)
    # H-GUARD-3: a guard on the far side of the border meets the charge's attack.
    blocker = guards.charge_guard(state, c, target.square)
    if not terrain.cross(state, c, target.square, dice, events, charging=True):
        return
    events.append(
        Event("move", f"{c.name} charges into {c.square}", {"who": c.id, "square": c.square})
    )
    if blocker is not None:
        events.append(
            Event(
                "guard",
                f"{blocker.name} meets the charge: the attack goes to {blocker.name}",
                {"who": blocker.id, "for": target.id},
            )
        )
        guards.end_guard(blocker, "it intercepted one opponent", events)
        target = blocker
    brawl_effect = action.option("brawl")
    if brawl_effect is not None:
        combat.brawl(
            state, c, target, brawl_effect, dice, events, action.option("defence"), charging=True
        )
    else:
        combat.weapon_attack(
            state, c, target, dice, events, melee_only=True, defence=action.option("defence")
        )


@checks("crawl")
def _check_crawl(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if not c.prone:
        raise IllegalAction("H-ACT-6", f"{c.name} crawls only when prone")
    assert state.turn is not None
    if c.square != state.turn.square_at_start:
        raise IllegalAction(
            "H-ACT-6", f"{c.name} has not been in this square since the start of the turn"
        )
    if effects.bound(c, "body", "leg"):
        raise IllegalAction(
            "H-EFF-7",
            f"{c.name}'s {'leg' if effects.bound(c, 'leg') else 'body'} is bound: "
            "no moving from its position",
        )
    stumble_check(c, adjacent_square(state, c, action.target or "", "crawl"))


@verb("crawl", "upcoming", "H-ACT-6", "crawl to a bordering square (done next turn)")
def _crawl(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    c.upcoming = f"crawl {state.battlefield.place(action.target or '')}"
    events.append(Event("upcoming", f"{c.name} starts crawling to {action.target}", {"who": c.id}))


@checks("climb")
def _check_climb(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if action.target not in ("up", "down"):
        raise IllegalAction("H-ACT-3", "climb up or climb down [toward=<square>]")
    if effects.bound(c, "leg", "body", "hands") or len(effects.bound_arms(c)) == 2:
        raise IllegalAction("H-EFF-7", f"{c.name} is bound and cannot climb")
    if c.prone:
        raise IllegalAction("H-POS-1", f"{c.name} is prone: stand up first")
    toward = action.option("toward")
    terrain.climb_target(
        state, c, action.target == "up", state.battlefield.place(toward) if toward else None
    )


@verb("climb", "ongoing", "H-GRID-5", "climb one height: up|down [toward=<square>]")
def _climb(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    toward = action.option("toward")
    terrain.climb(
        state,
        c,
        action.target == "up",
        state.battlefield.place(toward) if toward else None,
        dice,
        events,
    )


@checks("jump")
def _check_jump(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if c.height <= terrain.ground(state, terrain.landing(state, c)):
        raise IllegalAction("H-ACT-3", f"{c.name} stands on the ground: nothing to jump down")
    if effects.bound(c, "leg", "body"):
        raise IllegalAction("H-EFF-7", f"{c.name} is bound and cannot jump down")


@verb("jump", "free", "H-ACT-3", "jump down to the ground of your square")
def _jump(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    terrain.fall(state, c, c.height, dice, events, jumping=True)
