"""What a post sets up for the whole round, and the post itself (HC-ROUND-1).

These verbs take effect when the DM closes the round, before initiative: the tactic
(HC-TAC-1), hero points (HC-HERO-1), willpower for the dodge or initiative (HC-WP-1),
lowered initiative (HC-INITM-1) and the dodge kept for one attacker (HC-DODGE-1).
``done`` finishes a post; ``retract`` takes it back first.
"""

from __future__ import annotations

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.engine.capabilities import ByPost
from fracas.rules.classic.economy import Planned
from fracas.rules.classic.state import TACTICS, ClassicState
from fracas.rules.classic.verbs import checks, fighter, number, verb

HERO_USES = ("hits", "dodges", "initiative", "best")
WILLPOWER_ROLLS = ("dodge", "initiative")


# -- the round's set-up -------------------------------------------------------------------


@checks("tactic")
def _check_tactic(state: ClassicState, action: Action, plan: Planned) -> None:
    if action.target not in TACTICS:
        raise IllegalAction("HC-TAC-1", f"tactic {action.target!r}: one of {', '.join(TACTICS)}")
    if plan.tactic is not None:
        raise IllegalAction("HC-TAC-1", f"the tactic for this round is {plan.tactic} already")
    if plan.casting and action.target != "normal":
        raise IllegalAction("HC-TAC-1", "no tactic in a round of casting a spell")


@verb("tactic", "round", "HC-TAC-1", "fight normal, aggressive, defensive or mobile this round")
def _tactic(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.actor]
    who.plan.tactic = action.target or "normal"
    events.append(Event("tactic", f"{who.name} fights {who.plan.tactic}", {"who": who.id}))


@checks("hero")
def _check_hero(state: ClassicState, action: Action, plan: Planned) -> None:
    who = state.combatants[action.actor]
    use = action.option("use")
    if use not in HERO_USES:
        raise IllegalAction("HC-HERO-1", f"use={use}: a hero point is for {', '.join(HERO_USES)}")
    if who.hero_points - plan.hero < 1:
        raise IllegalAction("HC-HERO-1", f"{who.name} has no hero point left")
    if use == "best" and action.option("roll") not in ("attack", "dodge"):
        raise IllegalAction("HC-HERO-1", "a hero point makes one roll: roll=attack or roll=dodge")
    if use == "initiative" and plan.attacks_pc:
        raise IllegalAction(
            "HC-HERO-1",
            f"{who.name} attacks a player character this round: no hero point for initiative",
        )


@verb("hero", "round", "HC-HERO-1", "spend a hero point: use=hits|dodges|initiative|best roll=")
def _hero(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.actor]
    use = action.option("use")
    who.hero_points -= 1
    if use == "hits":
        who.plan.hero_hits += 2
        what = "two attacks on NPCs hit this round"
    elif use == "dodges":
        who.plan.hero_dodges += 2
        what = "two NPC attacks on them are dodged this round"
    elif use == "initiative":
        who.plan.hero_initiative = True
        what = "the highest initiative next round"
    else:
        roll = action.option("roll") or "attack"
        who.plan.hero_best.append(roll)
        what = f"the next {roll} roll against an NPC as good as possible"
    events.append(Event("hero", f"{who.name} spends a hero point: {what}", {"who": who.id}))


@checks("willpower")
def _check_willpower(state: ClassicState, action: Action, plan: Planned) -> None:
    who = state.combatants[action.actor]
    spend = number(action, "spend", rule="HC-WP-1")
    if action.option("roll") not in WILLPOWER_ROLLS:
        raise IllegalAction(
            "HC-WP-1", "willpower goes into roll=dodge or roll=initiative (attacks: willpower=N)"
        )
    if spend < 1 or plan.willpower + spend > who.willpower:
        raise IllegalAction(
            "HC-WP-1", f"spend=N, 1 to the {who.willpower - plan.willpower} willpower left"
        )


@verb("willpower", "round", "HC-WP-1", "put willpower into a roll: spend=N roll=dodge|initiative")
def _willpower(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    who = state.combatants[action.actor]
    roll = action.option("roll") or "dodge"
    who.plan.willpower[roll] = who.plan.willpower.get(roll, 0) + number(action, "spend")


@checks("after")
def _check_after(state: ClassicState, action: Action, plan: Planned) -> None:
    anchor = fighter(state, action.target)
    if anchor.id == action.actor:
        raise IllegalAction("HC-INITM-1", "name someone else to act after")
    seen = {action.actor}
    current: str | None = anchor.id
    while current is not None:
        if current in seen:
            raise IllegalAction(
                "HC-INITM-1",
                f"{anchor.name} already waits for {state.combatants[action.actor].name}",
            )
        seen.add(current)
        nxt = [d.action.target for d in state.declared.of(current) if d.action.verb == "after"]
        current = nxt[0] if nxt else None


@verb("after", "round", "HC-INITM-1", "lower initiative: act just after this character")
def _after(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    state.combatants[action.actor].plan.after = action.target


@checks("dodge")
def _check_dodge(state: ClassicState, action: Action, plan: Planned) -> None:
    enemy = fighter(state, action.target)
    if enemy.side == state.combatants[action.actor].side:
        raise IllegalAction("HC-DODGE-1", f"{enemy.name} is no enemy to keep the dodge for")


@verb("dodge", "round", "HC-DODGE-1", "keep this round's dodge for one attacker")
def _dodge(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    state.combatants[action.actor].plan.dodge_for = action.target


# -- the post -----------------------------------------------------------------------------


def done_reads_plan(state: ClassicState, action: Action) -> bool:
    """Whether the check of ``done`` reads the fighter's plan so far: only under fear."""
    return state.combatants[action.actor].condition("fear") is not None


@checks("done")
def _check_done(state: ClassicState, action: Action, plan: Planned) -> None:
    who = state.combatants[action.actor]
    fear = who.condition("fear")
    if fear is None or fear.source not in state.combatants or who.helpless:
        return
    source = state.combatants[fear.source]
    if not source.in_fight:
        return
    field = state.battlefield
    now = field.distance(plan.position, source.position) or 0
    before = field.distance(who.position, source.position) or 0
    further = [
        p for p in field.borders(who.position) if (field.distance(p, source.position) or 0) > before
    ]
    if now <= before and further:
        raise IllegalAction(
            "HC-COND-1",
            f"{who.name} fears {source.name}: move at least one position away from "
            f"{source.position} this round ({', '.join(further)})",
        )


@verb("done", "post", "HC-ROUND-1", "finish this round's post")
def _done(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    state.posted.append(action.actor)
    who = state.combatants[action.actor]
    lines = [str(d.action).partition(" ")[2] for d in state.declared.of(action.actor)]
    events.append(
        Event(
            "post",
            f"{who.name} posts: " + ("; ".join(lines) if lines else "nothing"),
            {"who": who.id, "actions": lines},
            detail=frozenset({who.side}),
            outline=f"{who.name} posts",
            outline_data={"who": who.id},
        )
    )


@verb("retract", "post", "HC-ROUND-1", "take back this round's declarations")
def _retract(state: ClassicState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    n = state.declared.retract(action.actor)
    who = state.combatants[action.actor]
    events.append(
        Event(
            "retract",
            f"{who.name} takes back {n} declarations",
            {"who": who.id},
            detail=frozenset({who.side}),
            outline=f"{who.name} takes back the post",
            outline_data={"who": who.id},
        )
    )


#: How heimr-classic plays by post (its ``posts`` capability): the game master opens the
#: first round and closes each (HC-ROUND-1, HC-ROUND-2); ``done`` finishes a post.
BY_POST = ByPost(open="gm open", close="gm close", done="done", defend=("tactic defensive",))
