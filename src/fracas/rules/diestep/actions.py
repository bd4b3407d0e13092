"""The actions of a character's own turn: attacks, grabs, movement, mounts and healing.

Registered in :mod:`.verbs` with their kind (D-ACT-1): attacks, spells, unarmed
strikes and grabs are major actions; ``move``, ``hold``, ``down`` and ``draw`` minor;
``crawl`` and ``drag`` exclusive; ``end``, ``release`` and ``prone`` free.
"""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.rules.diestep import combat, grapple, health, movement, turns
from fracas.rules.diestep.state import Attack, Combatant, DieStepState
from fracas.rules.diestep.tables import DICE
from fracas.rules.diestep.verbs import (
    Kind,
    Provocation,
    checks,
    flag,
    kind_of,
    number,
    provokes,
    verb,
    who,
)


def pair(state: DieStepState, c: Combatant) -> list[Combatant]:
    """A character with its mount or rider: they provoke as one."""
    partner = state.partner(c)
    return [c] if partner is None else [c, partner]


def _aim(state: DieStepState, actor: Combatant, why: str) -> Provocation:
    """D-OA-1: enemies in the region may attack whoever aims a ranged attack."""
    return combat.opportunists(state, pair(state, actor), {actor.region}), True, why


def _foe(state: DieStepState, action: Action, rule: str) -> tuple[Combatant, Combatant]:
    actor, target = who(state, action.actor, rule), who(state, action.target, rule)
    if target.id == actor.id:
        raise IllegalAction(rule, f"{actor.name} cannot attack itself")
    if target.dead:
        raise IllegalAction(rule, f"{target.name} is dead")
    return actor, target


def _reach(actor: Combatant, target: Combatant, rule: str) -> None:
    if actor.region != target.region:
        raise IllegalAction(rule, f"{target.name} is in {target.region}, not {actor.region}")


def _unarmed(actor: Combatant) -> None:
    if actor.mounted_on is not None:
        raise IllegalAction("D-MOUNT-1", f"{actor.name} is mounted: riders make no unarmed attacks")


# -- end ----------------------------------------------------------------------------------


@checks("end")
def _check_end(state: DieStepState, action: Action) -> None:
    if state.turn is not None and action.actor != state.turn.actor:
        raise IllegalAction("D-ACT-1", f"{state.turn.actor} ends the pair's turn")


@verb("end", "free", "D-ACT-1", "end your turn")
def _end(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    turns.end_turn(state, events)


# -- attacks ------------------------------------------------------------------------------


@checks("attack")
def _check_attack(state: DieStepState, action: Action) -> None:
    actor, target = _foe(state, action, "D-ATK-1")
    weapon = actor.weapon
    if weapon is None or not actor.ready:
        raise IllegalAction("D-ATK-1", f"{actor.name} has no weapon ready: draw, or strike unarmed")
    if weapon.melee:
        _reach(actor, target, "D-ATK-1")
    else:
        far = movement.distance(state, actor.region, target.region)
        if far is None or far > weapon.range:
            raise IllegalAction(
                "D-DEF-1", f"{target.name} is beyond the {weapon.name}'s range of {weapon.range}"
            )
    flag(action, "nonlethal", "D-ATK-1")


@provokes("attack")
def _attack_provokes(state: DieStepState, action: Action) -> Provocation | None:
    actor = who(state, action.actor)
    if actor.weapon is None or actor.weapon.melee:
        return None
    return _aim(state, actor, "aims a ranged attack")


@verb("attack", "major", "D-ATK-1", "weapon attack: <target> [nonlethal=yes]")
def _attack(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    actor, target = who(state, action.actor), who(state, action.target)
    weapon = actor.weapon
    assert weapon is not None
    attack = Attack(
        actor.id,
        target.id,
        "weapon",
        "att",
        0,
        "def",
        melee=weapon.melee,
        ranged=not weapon.melee,
        physical=True,
        lethal=not flag(action, "nonlethal", "D-ATK-1"),
        weapon=weapon.name,
        distance=movement.distance(state, actor.region, target.region) or 0,
    )
    combat.declare(state, attack, dice, events)


def _spell(state: DieStepState, action: Action) -> Attack:
    actor, target = _foe(state, action, "D-ATK-1")
    die, defence = action.option("die", "pre"), action.option("defence", "pre")
    for key, value in (("die", die), ("defence", defence)):
        if value not in DICE:
            raise IllegalAction("D-ATK-1", f"{key}= is one of {', '.join(DICE)}")
    assert die is not None and defence is not None
    far = movement.distance(state, actor.region, target.region)
    if far is None:
        raise IllegalAction("D-ATK-1", f"{target.name} cannot be reached from {actor.region}")
    ranged = flag(action, "ranged", "D-ATK-1", far > 0)
    if not ranged:
        _reach(actor, target, "D-ATK-1")
    return Attack(
        actor.id,
        target.id,
        "spell",
        die,
        0,
        defence,
        melee=False,
        ranged=ranged,
        physical=flag(action, "physical", "D-DEF-2", defence == "def"),
        indirect=flag(action, "indirect", "D-DEF-1"),
        lethal=not flag(action, "nonlethal", "D-ATK-1"),
        distance=far,
    )


def _check_mp(state: DieStepState, action: Action) -> int:
    actor = who(state, action.actor)
    cost = number(action, "mp", "D-WOUND-1") if action.option("mp") is not None else 0
    if cost and actor.badly_wounded:
        raise IllegalAction("D-WOUND-1", f"{actor.name} is badly wounded and cannot use MP")
    if cost > actor.mp:
        raise IllegalAction("D-DMG-1", f"{actor.name} has {actor.mp} MP, not {cost}")
    return cost


@checks("spell")
def _check_spell(state: DieStepState, action: Action) -> None:
    _spell(state, action)
    _check_mp(state, action)


@provokes("spell")
def _spell_provokes(state: DieStepState, action: Action) -> Provocation | None:
    attack = _spell(state, action)
    if not (attack.ranged and attack.physical):
        return None
    return _aim(state, who(state, action.actor), "aims a ranged spell")


@verb(
    "spell",
    "major",
    "D-ATK-1",
    "a spell attack: <target> [die=pre] [defence=pre|for|def] [physical=] [ranged=] "
    "[indirect=] [mp=N]",
)
def _cast(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who(state, action.actor).mp -= _check_mp(state, action)
    combat.declare(state, _spell(state, action), dice, events)


@checks("strike", "grab")
def _check_unarmed(state: DieStepState, action: Action) -> None:
    rule = "D-UNARMED-1" if action.verb == "strike" else "D-GRAB-1"
    actor, target = _foe(state, action, rule)
    _reach(actor, target, rule)
    _unarmed(actor)
    if action.verb == "grab":
        if actor.holding is not None:
            raise IllegalAction("D-GRAB-1", f"{actor.name} already holds {actor.holding}")
        if target.held_by is not None:
            raise IllegalAction("D-GRAB-1", f"{target.name} is already held by {target.held_by}")


@provokes("strike", "grab")
def _unarmed_provokes(state: DieStepState, action: Action) -> Provocation | None:
    actor, target = who(state, action.actor), who(state, action.target)
    if target.melee_weapon() is None:
        return None
    waiting = combat.opportunists(state, [actor], {actor.region}, only=target.id)
    return waiting, True, f"goes unarmed at {target.name}'s weapon"


@verb("strike", "major", "D-UNARMED-1", "unarmed strike (STR two ranks down): <target>")
def _strike(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    _unarmed_attack(state, action, "strike", "def", True, dice, events)


@verb("grab", "major", "D-GRAB-1", "grab (STR two ranks down against STR): <target>")
def _grab(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    _unarmed_attack(state, action, "grab", "str", True, dice, events)


def _unarmed_attack(
    state: DieStepState,
    action: Action,
    kind: str,
    defence: str,
    active: bool,
    dice: DiceSource,
    events: list[Event],
) -> None:
    actor = who(state, action.actor)
    target = who(state, action.target or actor.holding)
    attack = Attack(
        actor.id,
        target.id,
        kind,  # type: ignore[arg-type]
        "str",
        state.tables.unarmed_ranks,
        defence,
        melee=True,
        ranged=False,
        physical=True,
        active=active,
        lethal=False,
    )
    combat.declare(state, attack, dice, events)


# -- grabs --------------------------------------------------------------------------------


@checks("hold")
def _check_hold(state: DieStepState, action: Action) -> None:
    grapple.held_target(state, who(state, action.actor))
    if state.turn is not None and (state.turn.grabbed or state.turn.sustained):
        raise IllegalAction("D-GRAB-1", "the grab is already sustained this turn")


@verb("hold", "minor", "D-GRAB-1", "sustain a grab this turn")
def _hold(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    actor = who(state, action.actor)
    if state.turn is not None:
        state.turn.sustained = True
    held = grapple.held_target(state, actor)
    events.append(Event("grab", f"{actor.name} keeps hold of {held.name}", {"who": actor.id}))


@checks("release")
def _check_release(state: DieStepState, action: Action) -> None:
    grapple.held_target(state, who(state, action.actor))


@verb("release", "free", "D-GRAB-1", "let go")
def _release(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    grapple.release(state, who(state, action.actor), events, "by choice")


@checks("down")
def _check_down(state: DieStepState, action: Action) -> None:
    if grapple.held_target(state, who(state, action.actor)).prone:
        raise IllegalAction("D-GRAB-1", "the target is already on the ground")


@verb("down", "minor", "D-GRAB-1", "force the grabbed target to the ground")
def _down(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    actor = who(state, action.actor)
    target = grapple.held_target(state, actor)
    target.prone = True
    events.append(
        Event("prone", f"{actor.name} forces {target.name} to the ground", {"who": target.id})
    )


@checks("crush", "throw")
def _check_full(state: DieStepState, action: Action) -> None:
    grapple.held_target(state, who(state, action.actor), "full")


@verb("crush", "major", "D-GRAB-1", "crush the held target (unarmed, no active defence)")
def _crush(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    _unarmed_attack(state, action, "crush", "def", False, dice, events)


@verb("throw", "major", "D-GRAB-1", "throw the held target down (unarmed, advantaged)")
def _throw(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    _unarmed_attack(state, action, "throw", "def", False, dice, events)


@checks("drag")
def _check_drag(state: DieStepState, action: Action) -> None:
    actor = who(state, action.actor)
    grapple.held_target(state, actor, "full")
    movement.path(state, actor, action.target, None)


@verb("drag", "exclusive", "D-GRAB-1", "force the held target one region: <region>", moving=True)
def _drag(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    actor = who(state, action.actor)
    target = grapple.held_target(state, actor)
    actor.region = target.region = movement.region_name(state, action.target)
    events.append(
        Event(
            "move",
            f"{actor.name} drags {target.name} to {actor.region}",
            {"who": [actor.id, target.id], "to": actor.region},
        )
    )


@checks("escape")
def _check_escape(state: DieStepState, action: Action) -> None:
    actor = who(state, action.actor)
    if actor.held_by is None:
        raise IllegalAction("D-ESCAPE-1", f"{actor.name} is not held")
    turn = state.turn
    if turn is not None and turn.left < state.tables.costs["major"]:
        raise IllegalAction("D-ESCAPE-1", "an escape may cost a major action: not enough AP left")


@verb("escape", "escape", "D-ESCAPE-1", "try to break free (STR against STR two ranks down)")
def _escape(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    actor = who(state, action.actor)
    ap, counts = grapple.escape(state, actor, dice, events)
    turn = state.turn
    if turn is None:
        return
    if ap < 0:
        ap, turn.done = turn.left, True
    turn.spent += ap
    turn.other += ap
    events.append(Event("escape", f"the escape counts as a {counts} action ({ap} AP)", {"ap": ap}))


# -- movement -----------------------------------------------------------------------------


@checks("move", "run", "crawl")
def _check_move(state: DieStepState, action: Action) -> None:
    actor = who(state, action.actor, "D-OA-1")
    movement.check_free_to_move(state, actor, crawling=action.verb == "crawl")
    if action.verb == "crawl" and actor.mounted_on:
        raise IllegalAction("D-PRONE-1", "a rider does not crawl")
    body = movement.mover(state, actor)
    via = action.option("via") if action.verb == "run" else None
    steps = movement.path(state, body, action.target, via)
    most = movement.run_regions(state, actor) if action.verb == "run" else 1
    if len(steps) > most:
        raise IllegalAction("D-MOUNT-1", f"{body.name} moves at most {most} regions that way")


@provokes("move")
def _move_provokes(state: DieStepState, action: Action) -> Provocation | None:
    body = movement.mover(state, who(state, action.actor))
    waiting = combat.opportunists(state, pair(state, body), {body.region})
    return waiting, True, f"moves out of {body.region} with a minor action"


@provokes("run")
def _run_provokes(state: DieStepState, action: Action) -> Provocation | None:
    body = movement.mover(state, who(state, action.actor))
    steps = movement.path(state, body, action.target, action.option("via"))
    waiting = combat.opportunists(state, pair(state, body), set(steps))
    return waiting, False, f"runs into {', '.join(steps)}"


@verb("move", "minor", "D-OA-1", "move to a bordering region", moving=True)
def _move(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    actor = who(state, action.actor)
    movement.go(state, actor, [movement.region_name(state, action.target)], "moves", events)


@verb("run", "major", "D-MOUNT-1", "run two regions (a mount three): <region> [via=]", moving=True)
def _run(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    actor = who(state, action.actor)
    body = movement.mover(state, actor)
    steps = movement.path(state, body, action.target, action.option("via"))
    movement.go(state, actor, steps, "runs", events)


@verb("crawl", "exclusive", "D-PRONE-1", "crawl one region while down", moving=True)
def _crawl(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    actor = who(state, action.actor)
    movement.go(state, actor, [movement.region_name(state, action.target)], "crawls", events)


@checks("prone", "stand")
def _check_posture(state: DieStepState, action: Action) -> None:
    actor = who(state, action.actor, "D-PRONE-1")
    if actor.mounted_on is not None:
        raise IllegalAction("D-PRONE-1", f"{actor.name} is mounted: dismount first")
    if actor.prone == (action.verb == "prone"):
        state_now = "down" if actor.prone else "standing"
        raise IllegalAction("D-PRONE-1", f"{actor.name} is already {state_now}")


@verb("prone", "free", "D-PRONE-1", "drop to the ground")
def _prone(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    actor = who(state, action.actor)
    actor.prone = True
    events.append(Event("prone", f"{actor.name} drops to the ground", {"who": actor.id}))


@verb("stand", "major", "D-PRONE-1", "stand up")
def _stand(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    actor = who(state, action.actor)
    actor.prone = False
    events.append(Event("prone", f"{actor.name} stands up", {"who": actor.id}))


@checks("draw")
def _check_draw(state: DieStepState, action: Action) -> None:
    actor = who(state, action.actor, "D-PRONE-1")
    if actor.ready or (actor.weapon is None and not actor.shield):
        raise IllegalAction("D-PRONE-1", f"{actor.name} has nothing to ready")


@verb("draw", "minor", "D-PRONE-1", "ready weapon and shield")
def _draw(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    actor = who(state, action.actor)
    actor.ready = True
    events.append(Event("draw", f"{actor.name} readies weapon and shield", {"who": actor.id}))


@kind_of("mount", "dismount")
def _mount_kind(state: DieStepState, action: Action) -> Kind:
    return "minor" if who(state, action.actor, "D-MOUNT-1").sheet.riding else "exclusive"


@checks("mount")
def _check_mount(state: DieStepState, action: Action) -> None:
    movement.check_mount(state, who(state, action.actor, "D-MOUNT-1"), action.target)


@verb("mount", "minor", "D-MOUNT-1", "mount: <mount> (exclusive when unskilled)")
def _mount(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    rider = who(state, action.actor)
    movement.mount(state, rider, who(state, action.target), events)


@checks("dismount")
def _check_dismount(state: DieStepState, action: Action) -> None:
    if who(state, action.actor, "D-MOUNT-1").mounted_on is None:
        raise IllegalAction("D-MOUNT-1", f"{action.actor} is not mounted")


@verb("dismount", "minor", "D-MOUNT-1", "dismount (exclusive when unskilled)")
def _dismount(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    movement.dismount(state, who(state, action.actor), events)


# -- healing ------------------------------------------------------------------------------


@checks("heal")
def _check_heal(state: DieStepState, action: Action) -> None:
    target = who(state, action.target, "D-HEAL-1")
    if target.dead:
        raise IllegalAction("D-HEAL-1", f"{target.name} is dead: only powerful rituals could help")
    ritual = flag(action, "ritual", "D-HEAL-1")
    in_combat = state.started and not state.over
    if ritual and in_combat:
        raise IllegalAction("D-HEAL-1", "a healing ritual is not cast in combat")
    if not ritual:
        number(action, "hp", "D-HEAL-1", 1)
    if action.actor != "gm":
        _check_mp(state, action)
        if in_combat:
            _reach(who(state, action.actor), target, "D-HEAL-1")


@verb(
    "heal", "major", "D-HEAL-1", "magical healing: <target> hp=N [ritual=yes] [mp=N]", outside=True
)
def _heal(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    if action.actor != "gm":
        who(state, action.actor).mp -= _check_mp(state, action)
    ritual = flag(action, "ritual", "D-HEAL-1")
    amount = 0 if ritual else number(action, "hp", "D-HEAL-1")
    health.heal(state, who(state, action.target), amount, ritual, dice, events)


@checks("aid")
def _check_aid(state: DieStepState, action: Action) -> None:
    medic, patient = who(state, action.actor, "D-WOUND-1"), who(state, action.target, "D-WOUND-1")
    if medic.out:
        raise IllegalAction("D-WOUND-1", f"{medic.name} is in no state to give first aid")
    if medic.busy_until > state.minutes:
        raise IllegalAction("D-WOUND-1", f"{medic.name} is busy until minute {medic.busy_until}")
    supplies = action.option("supplies", "kit")
    if supplies not in state.tables.first_aid:
        known = ", ".join(state.tables.first_aid)
        raise IllegalAction("D-WOUND-1", f"supplies= is one of {known}")
    if patient.dead:
        raise IllegalAction("D-WOUND-1", f"{patient.name} is dead")
    if health.owes_survival(patient):
        raise IllegalAction("D-KO-1", f"{patient.name}'s survival roll comes first: gm survival")
    if patient.wound == "mortal":
        if patient.aid_tried:
            raise IllegalAction("D-WOUND-1", f"first aid has already been tried on {patient.name}")
    elif not (patient.wound == "badly" and patient.knocked_out):
        raise IllegalAction("D-WOUND-1", f"{patient.name} needs no first aid")


@verb(
    "aid",
    "major",
    "D-WOUND-1",
    "first aid after the encounter: <target> supplies=kit|improvised|none",
    only_outside=True,
)
def _aid(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    medic, patient = who(state, action.actor), who(state, action.target)
    supplies = action.option("supplies", "kit") or "kit"
    health.first_aid(state, medic, patient, supplies, dice, events)
