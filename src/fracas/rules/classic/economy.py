"""The action economy of a round (HC-ACT-1) and what a fighter's post plans so far.

A round holds two half actions or one full action, any number of free actions and one
reactive action besides. The action table of the seed gives each verb its type; a few
depend on what they name (drawing a weapon is a half action, drawing another item a
full one) and a power says its own (``cost=``).

>>> ACTION_TABLE["attack"], ACTION_TABLE["crawl"], ACTION_TABLE["guard"]
('half', 'full', 'free')
"""

from __future__ import annotations

from dataclasses import dataclass

from fracas.engine import Action, IllegalAction
from fracas.rules.classic.combat import attack_weapon
from fracas.rules.classic.state import ClassicState

#: HC-ACT-1: the seed's action table, by verb (``varies``: the action names its cost).
ACTION_TABLE: dict[str, str] = {
    "attack": "half",
    "power": "varies",
    "cast": "full",  # with a touch attack and one position of movement
    "taunt": "half",
    "move": "half",
    "stand": "half",
    "crawl": "full",
    "draw": "varies",  # a weapon, an arrow, two throwing weapons: half; an item: full
    "sheathe": "varies",  # a weapon: half; an item: full
    "drop": "free",
    "pick": "half",
    "speak": "free",
    "guard": "free",
    "hero": "free",
    "willpower": "free",
    # Not in the table (docs/decisions.md):
    "tactic": "free",
    "after": "free",
    "prone": "free",
    "dodge": "reactive",
}
UNITS = {"free": 0, "half": 1, "full": 2, "reactive": 0}
PER_ROUND = 2  # two half actions, or one full action
SPECIAL_DRAWS = ("arrow",)


def cost(state: ClassicState, action: Action) -> str:
    """The action type of ``action``: free, half, full or reactive."""
    kind = ACTION_TABLE[action.verb]
    if action.verb == "power":
        return action.option("cost", "half") or "half"
    if action.verb in ("draw", "sheathe"):
        if action.target in SPECIAL_DRAWS:
            return "half"
        who = state.combatants[action.actor]
        return "half" if action.target in who.profile.weapons else "full"
    return kind


@dataclass
class Planned:
    """A fighter as its post leaves it so far: where, how, and what it has spent."""

    position: str
    prone: bool
    units: int = 0
    reactive: bool = False
    moved: bool = False  # a move action, which a guard needs (HC-MOVE-2)
    tactic: str | None = None
    casting: bool = False
    hero: int = 0
    hero_initiative: bool = False
    attacks_pc: bool = False
    willpower: int = 0
    after: str | None = None
    missiles: int = 0  # arrows drawn or throwing weapons in hand, once the post has resolved


def planned(state: ClassicState, actor: str) -> Planned:
    """What ``actor``'s declarations this round add up to."""
    who = state.combatants[actor]
    plan = Planned(who.position, who.prone, missiles=who.loaded)
    for declaration in state.declared.of(actor):
        every = (declaration.action, *declaration.alternatives)
        units = [UNITS.get(cost(state, a), 0) for a in every]
        plan.units += max(units)
        add(state, plan, declaration.action)
    return plan


def add(state: ClassicState, plan: Planned, action: Action) -> None:
    """Lay one declared action over the plan."""
    verb, target = action.verb, action.target
    if cost(state, action) == "reactive":
        plan.reactive = True
    if verb in ("move", "crawl") and target is not None:
        plan.position, plan.moved = target, True
    elif verb == "cast":
        plan.casting = True
        if action.option("move"):
            plan.position = action.option("move") or plan.position
    elif verb == "stand":
        plan.prone = False
    elif verb == "prone":
        plan.prone = True
    elif verb == "tactic":
        plan.tactic = target
    elif verb == "hero":
        plan.hero += 1
        plan.hero_initiative |= action.option("use") == "initiative"
    elif verb == "willpower":
        plan.willpower += int(action.option("spend") or 0)
    elif verb == "after":
        plan.after = target
    if verb in ("attack", "cast") and target in state.combatants:
        plan.attacks_pc |= not state.combatants[target].npc
    if verb == "attack":
        plan.willpower += int(action.option("willpower") or 0)
        if ranged_weapon(state, action) is not None:
            plan.missiles = max(plan.missiles - 1, 0)
    if verb == "draw" and target == "arrow":
        plan.missiles = 1
    elif verb == "draw" and target is not None:
        kind = state.combatants[action.actor].profile.weapons.get(target)
        weapon = state.tables.weapons.get(kind or "")
        if weapon is not None and weapon.ranged and not weapon.ammunition:
            plan.missiles = 2  # two throwing weapons to a draw
    if action.option("guard") is not None:
        plan.moved = True


def ranged_weapon(state: ClassicState, action: Action) -> str | None:
    """The ranged weapon an attack is made with, if it is one (what it shoots is counted)."""
    who = state.combatants[action.actor]
    item, kind = attack_weapon(state, who, action.option("with"))
    return item if state.tables.weapons[kind].ranged else None


def check_budget(
    state: ClassicState,
    action: Action,
    alternatives: tuple[Action, ...],
    plan: Planned | None = None,
) -> None:
    """HC-ACT-1: refuse an action the round has no time left for (``plan``: the actor's
    :func:`planned`, when already known)."""
    if plan is None:
        plan = planned(state, action.actor)
    name = state.combatants[action.actor].name
    kinds = [cost(state, a) for a in (action, *alternatives)]
    need = max(UNITS.get(k, 0) for k in kinds)  # an unknown cost is the verb's to refuse
    if plan.units + need > PER_ROUND:
        used = {0: "nothing", 1: "a half action", 2: "a full round"}[plan.units]
        raise IllegalAction(
            "HC-ACT-1",
            f"{name} has declared {used} already: a round holds two half actions or one "
            f"full action, so no {kinds[0]} action more",
        )
    if "reactive" in kinds and plan.reactive:
        raise IllegalAction("HC-ACT-1", f"{name} has one reactive action a round, already taken")
