"""The actions of a Heimr encounter: what each verb needs (check) and does (apply).

Each verb has an action type (H-ACT-1): standard, free, ongoing, upcoming; ``reaction``
for what a character does in another's turn; ``gm`` for the game master's calls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.rules.heimr import combat, effects, health, turns
from fracas.rules.heimr.rolls import challenge, turns_running
from fracas.rules.heimr.sheet import divide_xp
from fracas.rules.heimr.state import DEFENCES, Combatant, HeimrState, Readied

Kind = Literal["standard", "free", "ongoing", "upcoming", "reaction", "gm", "start", "any"]
Check = Callable[[HeimrState, Action], None]
Apply = Callable[[HeimrState, Action, DiceSource, list[Event]], None]


@dataclass(frozen=True)
class Verb:
    kind: Kind
    rule: str
    apply: Apply
    summary: str

    def check(self, state: HeimrState, action: Action) -> None:
        """The verb's own conditions, registered with :func:`checks`."""
        CHECKS.get(action.verb, _no_check)(state, action)


VERBS: dict[str, Verb] = {}
CHECKS: dict[str, Check] = {}


def verb(name: str, kind: Kind, rule: str, summary: str) -> Callable[[Apply], Apply]:
    """Register the function that applies the action ``name``."""

    def register(apply: Apply) -> Apply:
        VERBS[name] = Verb(kind, rule, apply, summary)
        return apply

    return register


def checks(*names: str) -> Callable[[Check], Check]:
    """Register the function that checks the actions ``names`` before they apply."""

    def register(check: Check) -> Check:
        for name in names:
            CHECKS[name] = check
        return check

    return register


def _no_check(state: HeimrState, action: Action) -> None:
    return None


def who(state: HeimrState, cid: str | None, rule: str = "H-CHAR-5") -> Combatant:
    if cid is None or cid not in state.combatants:
        known = ", ".join(state.combatants)
        raise IllegalAction(rule, f"no combatant called {cid!r} (there are {known})")
    return state.combatants[cid]


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


# -- the game master ---------------------------------------------------------------------


@checks("begin")
def _check_begin(state: HeimrState, action: Action) -> None:
    if state.started:
        raise IllegalAction("H-INIT-1", "combat has already begun")


@verb("begin", "gm", "H-INIT-1", "roll initiative and start combat")
def _begin(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    turns.begin(state, dice, events)


@checks("effect")
def _check_effect(state: HeimrState, action: Action) -> None:
    who(state, action.target)
    name = effects.name_of(state, action.option("name") or "")
    if name in ("Resist", "Miss"):
        raise IllegalAction("H-EFF-9", f"{name} is a reaction: give it as reaction={name}")
    number(action, "number")
    if action.option("reaction") is None and name == "Bind":
        effects.bind_part(action.option("part"))
    if action.option("reaction") is None and name == "Stumble":
        target = who(state, action.target)
        effects.stumble_direction(state, target, action.option("from"), action.option("direction"))


@verb("effect", "gm", "H-EFF-1", "call an effect on a character: name= number= part= from=")
def _effect(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    target = who(state, action.target)
    name = effects.name_of(state, action.option("name") or "")
    reaction = action.option("reaction")
    if reaction is not None:
        reaction = effects.name_of(state, reaction)
    effects.receive(
        state,
        target,
        name,
        number(action, "number"),
        events,
        source=action.option("from"),
        part=action.option("part"),
        reaction=reaction,
        direction=action.option("direction"),
        item=action.option("item"),
    )
    hold_on(state, target, dice, events)


def hold_on(state: HeimrState, target: Combatant, dice: DiceSource, events: list[Event]) -> None:
    """H-GRID-7 (with the battlefield): a climber hit by an effect rolls to hold on."""
    return None


@checks("wait")
def _check_wait(state: HeimrState, action: Action) -> None:
    if (number(action, "seconds") or 0) <= 0:
        raise IllegalAction("H-HP-5", "wait seconds=N, with N above 0")


@verb("wait", "gm", "H-HP-5", "let in-game time pass out of combat: seconds=")
def _wait(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    seconds = number(action, "seconds") or 0
    state.clock += seconds
    events.append(Event("clock", f"{seconds} seconds pass", {"clock": state.clock}))
    health.tick(state, events)


@checks("stabilize")
def _check_stabilize(state: HeimrState, action: Action) -> None:
    target = who(state, action.target)
    if not target.injured or target.dead:
        raise IllegalAction("H-HP-4", f"{target.name} is not dying")


@verb("stabilize", "gm", "H-HP-4", "a skill stabilizes an injured character")
def _stabilize(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    health.stabilize(who(state, action.target), events)


@checks("reopen")
def _check_reopen(state: HeimrState, action: Action) -> None:
    target = who(state, action.target)
    if not target.injured or target.dead or not target.stabilized:
        raise IllegalAction("H-HP-4", f"{target.name} has no stabilized injury to reopen")


@verb("reopen", "gm", "H-HP-4", "moving the injured part reopens the injury")
def _reopen(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    health.reopen(state, who(state, action.target), events)


@verb("heal", "gm", "H-HP-3", "restore hit points: hp=")
def _heal(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    target = who(state, action.target)
    health.heal(target, number(action, "hp", target.stats.hit_points) or 0, events)


@checks("challenge")
def _check_challenge(state: HeimrState, action: Action) -> None:
    c = who(state, action.target)
    if action.option("attribute") is None:
        ability_of(state, c, action.option("ability"))
    elif action.option("attribute") not in c.stats.attributes:
        raise IllegalAction("H-CHAR-4", f"unknown attribute {action.option('attribute')!r}")
    if number(action, "cr") is None:
        raise IllegalAction("H-DICE-7", "a challenge needs its requirement: cr=N")


@verb("challenge", "gm", "H-DICE-7", "a CR challenge: ability= or attribute= consistency=, cr=")
def _challenge(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.target)
    cr = number(action, "cr") or 0
    state.pending = None
    passed = roll_challenge(state, c, action, cr, dice, events)
    if not passed:
        state.pending = str(action)


def roll_challenge(
    state: HeimrState, c: Combatant, action: Action, cr: int, dice: DiceSource, events: list[Event]
) -> bool:
    """Roll an ability (H-CHAR-2) or attribute (H-CHAR-4) against a CR (H-DICE-7)."""
    from fracas.rules.heimr.state import Ability

    attribute = action.option("attribute")
    if attribute is not None:
        consistency = number(action, "consistency", 0) or 0
        ability = Ability(consistency, c.stats.attributes[attribute], (attribute,))
        label = attribute
    else:
        label = ability_of(state, c, action.option("ability"))
        ability = c.stats.abilities[label]
    penalty = number(action, "penalty", 0) or 0
    mods = [("situational", -penalty)] if penalty else []
    check = challenge(
        c,
        ability,
        dice,
        f"{c.name} rolls {label} against CR {cr}",
        mods,
        events=events,
        in_combat=turns_running(state),
    )
    passed = not check.failed_outright and check.result >= cr
    events.append(
        Event(
            "challenge",
            f"{c.name} {'passes' if passed else 'fails'} CR {cr}",
            {"who": c.id, "cr": cr, "passed": passed},
        )
    )
    effects.interrupt(c, "dice challenge", events)
    return passed


@checks("reroll")
def _check_reroll(state: HeimrState, action: Action) -> None:
    if state.pending is None or Action.parse(state.pending).target != action.actor:
        raise IllegalAction("H-DICE-7", f"{action.actor} has no failed challenge to re-roll")
    if who(state, action.actor).willpower < 1:
        raise IllegalAction("H-DICE-7", f"{action.actor} has no willpower left to re-roll")


@verb("reroll", "any", "H-DICE-7", "spend 1 willpower to re-roll the failed challenge")
def _reroll(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    assert state.pending is not None
    original = Action.parse(state.pending)
    c = who(state, action.actor)
    c.willpower -= 1
    events.append(
        Event(
            "willpower",
            f"{c.name} spends 1 willpower to re-roll ({c.willpower} left)",
            {"who": c.id, "willpower": c.willpower},
        )
    )
    if roll_challenge(state, c, original, number(original, "cr") or 0, dice, events):
        state.pending = None


@checks("contest")
def _check_contest(state: HeimrState, action: Action) -> None:
    a, b = who(state, action.target), who(state, action.option("against"))
    ability_of(state, a, action.option("ability"))
    ability_of(state, b, action.option("with"))


@verb("contest", "gm", "H-DICE-8", "opposed challenge: <a> ability= against=<b> with=<ability>")
def _contest(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    a, b = who(state, action.target), who(state, action.option("against"))
    contest(
        state,
        a,
        ability_of(state, a, action.option("ability")),
        b,
        ability_of(state, b, action.option("with")),
        dice,
        events,
    )


def contest(
    state: HeimrState,
    a: Combatant,
    ability_a: str,
    b: Combatant,
    ability_b: str,
    dice: DiceSource,
    events: list[Event],
) -> bool:
    """H-DICE-8: both roll and compare; the first must beat the second (a tie holds)."""
    fighting = turns_running(state)
    ra = challenge(
        a,
        a.stats.abilities[ability_a],
        dice,
        f"{a.name} rolls {ability_a}",
        events=events,
        in_combat=fighting,
    )
    rb = challenge(
        b,
        b.stats.abilities[ability_b],
        dice,
        f"{b.name} rolls {ability_b}",
        events=events,
        in_combat=fighting,
    )
    won = not ra.failed_outright and (rb.failed_outright or ra.result > rb.result)
    events.append(
        Event(
            "contest",
            f"{a.name}'s {ability_a} {ra.result} against {b.name}'s "
            f"{ability_b} {rb.result}: "
            f"{a.name if won else b.name} wins",
            {"winner": a.id if won else b.id},
        )
    )
    return won


@verb("award", "gm", "H-XP-1", "encounter XP divided among those present: xp=")
def _award(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    present = [c for c in state.combatants.values() if not c.dead and c.side in _pcs(action)]
    share = divide_xp(number(action, "xp", 0) or 0, len(present), state.xp_remainder)
    state.xp_remainder = share.remainder
    for c in present:
        c.xp += share.each
    events.append(
        Event(
            "xp",
            f"{share.each} XP each to {', '.join(c.name for c in present)}; "
            f"{share.remainder} carried over",
            {"each": share.each, "remainder": share.remainder},
        )
    )


def _pcs(action: Action) -> set[str]:
    side = action.option("side")
    return {side} if side else {action.target} if action.target else set()


@checks("award")
def _check_award(state: HeimrState, action: Action) -> None:
    if number(action, "xp") is None or not (action.option("side") or action.target):
        raise IllegalAction("H-XP-1", "award <side> xp=N")


@verb("skip", "gm", "H-INIT-2", "end the turn of a character that cannot act")
def _skip(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    turns.end_turn(state, dice, events)


@checks("skip")
def _check_skip(state: HeimrState, action: Action) -> None:
    if state.turn is None:
        raise IllegalAction("H-INIT-2", "combat has not begun")


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
    combat.weapon_attack(
        state,
        who(state, action.actor),
        who(state, action.target),
        dice,
        events,
        part=action.option("part"),
        hit_effect=number(action, "hit"),
        defence=action.option("defence"),
    )


@checks("brawl")
def _check_brawl(state: HeimrState, action: Action) -> None:
    attacker, target = who(state, action.actor), who(state, action.target)
    if attacker.square != target.square:
        raise IllegalAction("H-ATK-1", f"{target.name} is not in {attacker.name}'s square")
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
    if action.target not in (*DEFENCES, "none"):
        raise IllegalAction("H-DEF-1", "defend dodge, block, parry or none")
    c = who(state, action.actor)
    if action.target == "block" and c.shield is None:
        raise IllegalAction("H-DEF-1", f"{c.name} has no shield to block with")
    if action.target == "parry" and not any(w.melee for w in c.weapons()):
        raise IllegalAction("H-DEF-1", f"{c.name} wields no melee weapon to parry with")


@verb("defend", "free", "H-DEF-2", "the kind of defence to pre-roll at the end of the turn")
def _defend(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    c.stance = action.target  # type: ignore[assignment]
    events.append(Event("stance", f"{c.name} will pre-roll {action.target}", {"who": c.id}))


@verb("dodge", "standard", "H-ACT-3", "ready a dodge: +2 potential to the next dodge of a shot")
def _dodge(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    c.ready_dodge = True
    events.append(Event("dodge", f"{c.name} readies a dodge", {"who": c.id}))


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
    if effects.bound(c, "feet", "body"):
        raise IllegalAction("H-EFF-7", f"{c.name} is bound and cannot walk")
    if action.target in (None, "out"):
        if state.cluster_of(c.id) is None:
            raise IllegalAction("H-ATK-1", f"{c.name} is in no combat cluster")
        return
    stumble_check(c, adjacent_square(state, c, action.target))


def stumble_check(c: Combatant, square: str) -> None:
    direction = effects.barred(c, square)
    if direction is not None:
        raise IllegalAction(
            "H-EFF-4", f"{c.name} is stumbling and cannot move {direction}, where it came from"
        )


def adjacent_square(state: HeimrState, c: Combatant, square: str) -> str:
    sq = square.upper()
    cols, rows = state.options["columns"], state.options["rows"]
    valid = (
        len(sq) >= 2
        and "A" <= sq[0] < chr(65 + cols)
        and sq[1:].isdigit()
        and 1 <= int(sq[1:]) <= rows
    )
    if not valid:
        raise IllegalAction("H-GRID-1", f"{square} is not a square of the {cols}x{rows} grid")
    if combat.distance(c.square, sq) != 1:
        raise IllegalAction("H-GRID-2", f"{sq} does not border {c.name}'s square {c.square}")
    return sq


@verb("move", "standard", "H-ACT-3", "move to a bordering square, or out of the cluster")
def _move(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    effects.leave_cluster(state, c, events)
    if action.target not in (None, "out"):
        c.square = action.target.upper()
        events.append(
            Event("move", f"{c.name} moves to {c.square}", {"who": c.id, "square": c.square})
        )


@verb("run", "ongoing", "H-ACT-5", "run to a bordering square")
def _run(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    left = c.square
    _move(state, action, dice, events)
    if c.square != left:
        c.ran_from = left


@checks("charge")
def _check_charge(state: HeimrState, action: Action) -> None:
    c, target = who(state, action.actor), who(state, action.target)
    if c.prone:
        raise IllegalAction("H-POS-1", f"{c.name} is prone and cannot charge")
    if c.has("Stumble"):
        raise IllegalAction(
            "H-EFF-4", f"{c.name} is stumbling: melee only against its combat cluster"
        )
    if effects.bound(c, "feet", "body"):
        raise IllegalAction("H-EFF-7", f"{c.name} is bound and cannot walk")
    if target.square == c.square:
        raise IllegalAction("H-ACT-4", f"{target.name} is in {c.name}'s square: attack instead")
    adjacent_square(state, c, target.square)
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
    effects.leave_cluster(state, c, events)
    c.square = target.square
    events.append(
        Event("move", f"{c.name} charges into {c.square}", {"who": c.id, "square": c.square})
    )
    brawl_effect = action.option("brawl")
    if brawl_effect is not None:
        combat.brawl(state, c, target, brawl_effect, dice, events, action.option("defence"))
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
    if effects.bound(c, "body"):
        raise IllegalAction("H-EFF-7", f"{c.name}'s body is bound: no moving from its position")
    stumble_check(c, adjacent_square(state, c, action.target or ""))


@verb("crawl", "upcoming", "H-ACT-6", "crawl to a bordering square (done next turn)")
def _crawl(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    c.upcoming = f"crawl {(action.target or '').upper()}"
    events.append(Event("upcoming", f"{c.name} starts crawling to {action.target}", {"who": c.id}))


@checks("breather")
def _check_breather(state: HeimrState, action: Action) -> None:
    if action.option("as") not in (None, "ongoing", "upcoming"):
        raise IllegalAction("H-ACT-3", "a breather is taken as=ongoing (now) or as=upcoming")


@verb("breather", "ongoing", "H-FAT-3", "take a breather: fatigue -2, not below base [as=upcoming]")
def _breather(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    if kind_of(action) == "upcoming":
        c.upcoming = "breather"
        events.append(Event("upcoming", f"{c.name} starts taking a breather", {"who": c.id}))
        return
    combat.breather(state, c, events)


def kind_of(action: Action) -> Kind:
    """The action type (H-ACT-1) of ``action``: its verb's, except that a breather may be
    taken as an upcoming action ("Taking a breather: Ongoing or upcoming", H-ACT-3) and a
    skill's type "depends on the skill you use" (``as=``, standard by default)."""
    if action.verb == "breather" and action.option("as") == "upcoming":
        return "upcoming"
    if action.verb == "skill" and action.option("as") in SKILL_KINDS:
        return SKILL_KINDS[action.option("as") or "standard"]
    return VERBS[action.verb].kind


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


def skill_cost(c: Combatant, action: Action) -> int:
    """H-EFF-8: the willpower a skill costs: its own (``cost=``, 1 by default,
    docs/decisions.md) and one more while Weakened."""
    return (number(action, "cost", 1) or 0) + (1 if c.has("Weaken") else 0)


@checks("skill")
def _check_skill(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    name = action.target or ""
    if name.lower() not in (s.lower() for s in c.skills):
        known = ", ".join(c.skills) or "none"
        raise IllegalAction("H-ACT-3", f"{c.name} has no skill {name!r} (skills: {known})")
    if action.option("as") not in (None, *SKILL_KINDS):
        raise IllegalAction("H-ACT-1", f"as= is one of {', '.join(SKILL_KINDS)}")
    if c.has("Daze"):
        raise IllegalAction("H-EFF-5", f"{c.name} is dazed and cannot use a skill")
    cost = skill_cost(c, action)
    if c.willpower < cost:
        raise IllegalAction(
            "H-EFF-8" if c.has("Weaken") else "H-ACT-3",
            f"{name} costs {cost} willpower"
            + (" while Weakened" if c.has("Weaken") else "")
            + f"; {c.name} has {c.willpower}",
        )


@verb("skill", "standard", "H-ACT-3", "use a skill: <skill> [cost=N] [as=free|ongoing|...]")
def _skill(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    cost = skill_cost(c, action)
    c.willpower -= cost
    extra = " (1 more while Weakened)" if c.has("Weaken") else ""
    events.append(
        Event(
            "skill",
            f"{c.name} uses {action.target} for {cost} willpower{extra}: {c.willpower} left",
            {"who": c.id, "skill": action.target, "cost": cost, "willpower": c.willpower},
        )
    )
    effects.interrupt(c, "skill", events)  # H-ACT-1: a skill cancels an upcoming action


@checks("cancel")
def _check_cancel(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    assert state.turn is not None
    if c.upcoming is None or state.turn.acted:
        raise IllegalAction(
            "H-ACT-1",
            f"{c.name} has no upcoming action to cancel: that is done at the start of the "
            "turn it would complete in",
        )


@verb("cancel", "start", "H-ACT-1", "cancel your upcoming action at the start of your turn")
def _cancel(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    assert state.turn is not None
    events.append(Event("upcoming", f"{c.name} cancels the upcoming {c.upcoming}", {"who": c.id}))
    c.upcoming = None
    state.turn.standard = False  # the standard action is the character's again


@verb("rest", "start", "H-HP-3", "a short rest of five minutes, out of combat")
def _rest(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    state.clock += 5 * 60
    health.tick(state, events)
    c.hp = c.stats.hit_points
    c.fatigue = combat.base_fatigue(state, c)
    events.append(
        Event(
            "rest",
            f"{c.name} rests five minutes: {c.hp} hit points",
            {"who": c.id, "hp": c.hp, "clock": state.clock},
        )
    )


@checks("rest")
def _check_rest(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if c.hp < 1:
        raise IllegalAction(
            "H-HP-3", f"{c.name} is injured: a short rest needs 1 or more hit points"
        )


@checks("delay")
def _check_delay(state: HeimrState, action: Action) -> None:
    assert state.turn is not None
    if state.turn.acted:
        raise IllegalAction("H-INIT-3", "delay only at the start of your turn")
    anchor = action.option("after") or action.option("before")
    if anchor is None or anchor == action.actor:
        raise IllegalAction("H-INIT-3", "delay after=<character> or before=<character>")
    who(state, anchor)
    after = action.option("after") is not None
    if turns.delayed_order(state.order, action.actor, anchor, after) == state.order:
        raise IllegalAction("H-INIT-3", f"{action.actor} already stands there in the order")


@verb("delay", "start", "H-INIT-3", "move yourself in the order: after= or before=")
def _delay(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    after = action.option("after")
    turns.delay(
        state,
        dice,
        who(state, action.actor),
        after or action.option("before") or "",
        after is not None,
        events,
    )


@checks("ready")
def _check_ready(state: HeimrState, action: Action) -> None:
    text = action.option("action")
    if text is None or action.option("trigger") is None:
        raise IllegalAction("H-INIT-4", "ready action='<action>' trigger='<what triggers it>'")
    readied = Action.parse(f"{action.actor} {text}")
    if readied.verb not in VERBS or VERBS[readied.verb].kind not in ("standard", "ongoing"):
        raise IllegalAction("H-INIT-4", f"{readied.verb!r} is not a combat action to ready")


@verb("ready", "standard", "H-INIT-4", "ready one combat action: action='...' trigger='...'")
def _ready(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    c.readied = Readied(action.option("action") or "", action.option("trigger") or "")
    events.append(
        Event("ready", f"{c.name} readies an action", {"who": c.id}, seen_by=frozenset({c.side}))
    )


@checks("trigger")
def _check_trigger(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if c.readied is None:
        raise IllegalAction("H-INIT-4", f"{c.name} has no readied action")
    if state.current == c.id:
        raise IllegalAction("H-INIT-4", "a readied action happens in another character's turn")
    if action.option("intent") is not None and c.readied.intent_failed:
        raise IllegalAction(
            "H-INIT-5", f"{c.name} has already failed to see this intent: wait for the attack"
        )
    readied = Action.parse(f"{c.id} {c.readied.action}")
    VERBS[readied.verb].check(state, readied)


@verb("trigger", "reaction", "H-INIT-4", "the trigger happened: do the readied action now")
def _trigger(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    assert c.readied is not None and state.turn is not None
    trigger_actor = state.combatants[state.turn.actor]
    readied = Action.parse(f"{c.id} {c.readied.action}")
    # H-INIT-5: on intent, the actor hides it (persuasion) and the readier's insight is a
    # challenge against that roll.
    if action.option("intent") is not None and not turns.sees_intent(
        c, trigger_actor, dice, events
    ):
        c.readied.intent_failed = True
        text = f"{c.name} does not see it coming in time: the readied action comes after"
        events.append(Event("ready", text, {"who": c.id}))
        return
    events.append(
        Event(
            "ready",
            f"{c.readied.trigger}: {c.name}'s readied {readied.verb} goes off",
            {"who": c.id},
        )
    )
    c.readied = None
    VERBS[readied.verb].apply(state, readied, dice, events)
    if VERBS[readied.verb].kind == "ongoing":
        c.ongoing = True  # H-ACT-1: -2 on defence rolls until its next turn
    turns.move_in_order(state, c.id, trigger_actor.id, after=False)


@verb("speak", "free", "H-ACT-3", "speak a few sentences: text='...'")
def _speak(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    events.append(Event("speak", f"{c.name}: {action.option('text', '...')}", {"who": c.id}))


@checks("observe")
def _check_observe(state: HeimrState, action: Action) -> None:
    ability_of(state, who(state, action.actor), action.option("ability", "Perception"))


@verb("observe", "free", "H-ACT-3", "perception on a square or character, insight on an opponent")
def _observe(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    name = ability_of(state, c, action.option("ability", "Perception"))
    bonus = []
    if (
        action.target is not None
        and action.target.upper()[:1].isalpha()
        and action.target not in state.combatants
    ):
        d = combat.distance(c.square, action.target.upper())
        bonus = [("same square", 2)] if d == 0 else [("bordering square", 1)] if d == 1 else []
    # What a character notices is its own side's to know.
    challenge(
        c,
        c.stats.abilities[name],
        dice,
        f"{c.name} observes {action.target}",
        potential=bonus,
        events=events,
        seen_by=frozenset({c.side}),
    )


@checks("draw")
def _check_draw(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if not any(i.name.lower() == (action.target or "").lower() for i in c.carried):
        raise IllegalAction("H-ACT-3", f"{c.name} carries no {action.target!r} to draw")
    if c.sword_hand is not None and (c.off_hand is not None or c.shield is not None):
        raise IllegalAction("H-ACT-3", f"{c.name} has no free hand")
    if effects.bound(c, "hands"):
        raise IllegalAction("H-EFF-7", f"{c.name}'s hands are bound")


@verb("draw", "standard", "H-ACT-3", "draw a weapon or ammunition")
def _draw(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    from fracas.rules.heimr.state import Weapon

    c = who(state, action.actor)
    item = next(i for i in c.carried if i.name.lower() == (action.target or "").lower())
    c.carried.remove(item)
    if c.sword_hand is None and isinstance(item, Weapon):
        c.sword_hand = item
    elif isinstance(item, Weapon):
        c.off_hand = item
    else:
        c.shield = item
    events.append(Event("item", f"{c.name} draws the {item.name}", {"who": c.id}))


@checks("sheathe")
def _check_sheathe(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    held = [i for i in (c.sword_hand, c.off_hand, c.shield) if i is not None]
    if not any(i.name.lower() == (action.target or "").lower() for i in held):
        raise IllegalAction("H-ACT-3", f"{c.name} holds no {action.target!r}")


@verb("sheathe", "standard", "H-ACT-3", "put a weapon away")
def _sheathe(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    name = (action.target or "").lower()
    for slot in ("sword_hand", "off_hand", "shield"):
        item = getattr(c, slot)
        if item is not None and item.name.lower() == name:
            setattr(c, slot, None)
            c.carried.append(item)
            events.append(Event("item", f"{c.name} puts away the {item.name}", {"who": c.id}))
            return


@checks("get")
def _check_get(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if not any(i.name.lower() == (action.target or "").lower() for i in c.dropped):
        raise IllegalAction("H-ACT-3", f"no {action.target!r} lies at {c.name}'s feet")
    if c.has("Drop"):
        raise IllegalAction("H-EFF-3", f"{c.name} cannot pick it up until the Drop passes")
    if effects.bound(c, "hands"):
        raise IllegalAction("H-EFF-7", f"{c.name}'s hands are bound: no picking up items")


@verb("get", "ongoing", "H-ACT-3", "pick an item up (into the free hand)")
def _get(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    from fracas.rules.heimr.state import Weapon

    c = who(state, action.actor)
    item = next(i for i in c.dropped if i.name.lower() == (action.target or "").lower())
    c.dropped.remove(item)
    if isinstance(item, Weapon) and c.sword_hand is None:
        c.sword_hand = item
    elif isinstance(item, Weapon) and c.off_hand is None:
        c.off_hand = item
    elif not isinstance(item, Weapon) and c.shield is None:
        c.shield = item
    else:
        c.carried.append(item)
    events.append(Event("item", f"{c.name} picks up the {item.name}", {"who": c.id}))


@checks("drop")
def _check_drop(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    held = [i for i in (c.sword_hand, c.off_hand, c.shield) if i is not None]
    if not held:
        raise IllegalAction("H-ACT-3", f"{c.name} holds nothing to drop")
    if action.target is not None and not any(i.name.lower() == action.target.lower() for i in held):
        raise IllegalAction("H-ACT-3", f"{c.name} holds no {action.target!r}")


@verb("drop", "free", "H-ACT-3", "drop a held item, or all of them: [item]")
def _drop(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    wanted = None if action.target is None else action.target.lower()
    for slot in ("sword_hand", "off_hand", "shield"):
        item = getattr(c, slot)
        if item is not None and wanted in (None, item.name.lower()):
            setattr(c, slot, None)
            c.dropped.append(item)
            events.append(Event("drop", f"{c.name} drops the {item.name}", {"who": c.id}))


@checks("swap")
def _check_swap(state: HeimrState, action: Action) -> None:
    c = who(state, action.actor)
    if c.shield is not None:
        raise IllegalAction(
            "H-ACT-3", f"{c.name}'s {c.shield.name} is wielded in the off-hand only"
        )
    if c.sword_hand is None and c.off_hand is None:
        raise IllegalAction("H-ACT-3", f"{c.name} holds nothing to swap")
    if c.sword_hand is not None and c.sword_hand.hands != "either-hand":
        raise IllegalAction("H-ACT-3", f"the {c.sword_hand.name} cannot be wielded in the off-hand")
    if effects.bound(c, "hands"):
        raise IllegalAction("H-EFF-7", f"{c.name}'s hands are bound")


@verb("swap", "free", "H-ACT-3", "move the item of one hand to the other, or swap them")
def _swap(state: HeimrState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    c = who(state, action.actor)
    c.sword_hand, c.off_hand = c.off_hand, c.sword_hand
    events.append(Event("item", f"{c.name} swaps the items in its hands", {"who": c.id}))
