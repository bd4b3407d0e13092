"""The verb registry, the game master's verbs and the answers given out of turn.

Each verb has a kind (D-ACT-1): ``major``, ``minor``, ``exclusive`` and ``free`` are
taken in one's own turn and paid in AP; ``interrupt`` (a minor interrupt: block,
parry, dodge, opportunity) and ``answer`` (take, pass) answer an open window; ``gm``
verbs are the game master's. The turn's own verbs live in :mod:`.actions`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, TypeAlias

from fracas.engine import Action, DiceSource, Event, IllegalAction
from fracas.engine.verbs import Verb as EngineVerb
from fracas.engine.verbs import Verbs, named
from fracas.rules.diestep import combat, health, turns
from fracas.rules.diestep.state import (
    Attack,
    Combatant,
    DefenceWindow,
    DieStepState,
    OpportunityWindow,
)

Kind = Literal["major", "minor", "exclusive", "free", "escape", "interrupt", "answer", "gm"]
Check = Callable[[DieStepState, Action], None]
Perform = Callable[[DieStepState, Action, DiceSource, list[Event]], None]
#: What an action provokes (D-OA-1): who may attack, and whether before the action.
Provocation = tuple[tuple[str, ...], bool, str]
Provokes = Callable[[DieStepState, Action], Provocation | None]
KindOf = Callable[[DieStepState, Action], Kind]
GM = "gm"


# A string: compiled, EngineVerb stays interpreted and cannot be subscripted at run time.
Verb: TypeAlias = "EngineVerb[DieStepState, Kind]"

#: Every die-step verb. Flags: ``moving`` (movement, for a mounted pair's AP, D-MOUNT-1),
#: ``outside`` (also out of combat, after the encounter), ``only_outside``.
VERBS: Verbs[DieStepState, Kind] = Verbs()
checks = VERBS.checks
PROVOKES: dict[str, Provokes] = {}
KINDS: dict[str, KindOf] = {}


def verb(
    name: str,
    kind: Kind,
    rule: str,
    summary: str,
    *,
    moving: bool = False,
    outside: bool = False,
    only_outside: bool = False,
) -> Callable[[Perform], Perform]:
    """Register the function that carries out the action ``name``."""
    flags = [
        f
        for f, on in (("moving", moving), ("outside", outside), ("only_outside", only_outside))
        if on
    ]
    return VERBS.verb(name, kind, rule, summary, *flags)


def kind_for(state: DieStepState, action: Action) -> Kind:
    """The action's kind: its verb's, unless a rule makes it another (:func:`kind_of`)."""
    special = KINDS.get(action.verb)
    return special(state, action) if special else VERBS[action.verb].kind


def provocation(state: DieStepState, action: Action) -> Provocation | None:
    found = PROVOKES.get(action.verb)
    return found(state, action) if found else None


def provokes(*names: str) -> Callable[[Provokes], Provokes]:
    def register(found: Provokes) -> Provokes:
        for name in names:
            PROVOKES[name] = found
        return found

    return register


def kind_of(*names: str) -> Callable[[KindOf], KindOf]:
    def register(found: KindOf) -> KindOf:
        for name in names:
            KINDS[name] = found
        return found

    return register


# -- helpers ------------------------------------------------------------------------------


def who(state: DieStepState, cid: str | None, rule: str = "D-ATK-1") -> Combatant:
    return named(state.combatants, cid, rule)


def number(action: Action, key: str, rule: str, low: int = 0) -> int:
    text = action.option(key)
    if text is None:
        raise IllegalAction(rule, f"{action.verb} needs {key}=N")
    try:
        value = int(text)
    except ValueError:
        raise IllegalAction(rule, f"{key}={text!r} should be a whole number") from None
    if value < low:
        raise IllegalAction(rule, f"{key}={value} should be at least {low}")
    return value


def flag(action: Action, key: str, rule: str, default: bool = False) -> bool:
    text = action.option(key)
    if text is None:
        return default
    if text.lower() in ("yes", "true", "1"):
        return True
    if text.lower() in ("no", "false", "0"):
        return False
    raise IllegalAction(rule, f"{key}= is yes or no, not {text!r}")


# -- the game master ----------------------------------------------------------------------


@checks("begin")
def _check_begin(state: DieStepState, action: Action) -> None:
    if state.started:
        raise IllegalAction("D-ACT-1", "combat has already begun")


@verb("begin", "gm", "D-ACT-1", "roll REF for the turn order and start")
def _begin(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    turns.begin(state, dice, events)


@checks("over")
def _check_over(state: DieStepState, action: Action) -> None:
    if state.over:
        raise IllegalAction("D-KO-1", "the encounter is already over")


@verb("over", "gm", "D-KO-1", "end the encounter (survival rolls follow)")
def _over(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    health.end_encounter(state, events)


@checks("damage")
def _check_damage(state: DieStepState, action: Action) -> None:
    who(state, action.target, "D-DMG-1")
    number(action, "hp", "D-DMG-1", 1)
    flag(action, "lethal", "D-DMG-1", True)


@verb("damage", "gm", "D-DMG-1", "deal damage outside an attack: <target> hp=N [lethal=no]")
def _damage(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    target = who(state, action.target)
    lethal = flag(action, "lethal", "D-DMG-1", True)
    health.damage(state, target, number(action, "hp", "D-DMG-1"), lethal, events)


@checks("unaware", "aware")
def _check_aware(state: DieStepState, action: Action) -> None:
    target = who(state, action.target, "D-DEF-1")
    other = who(state, action.option("of"), "D-DEF-1")
    if other.id == target.id:
        raise IllegalAction("D-DEF-1", "of= names someone else")


@verb("unaware", "gm", "D-DEF-1", "<target> cannot see an attacker: of=<attacker>")
def _unaware(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    target, other = who(state, action.target), who(state, action.option("of"))
    if other.id not in target.unaware_of:
        target.unaware_of.append(other.id)
    events.append(
        Event(
            "aware",
            f"{target.name} is unaware of {other.name}",
            {},
            detail=frozenset({target.side}),  # as observe shows it: the target's side's
        )
    )


@verb("aware", "gm", "D-DEF-1", "<target> notices an attacker: of=<attacker>")
def _aware(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    target, other = who(state, action.target), who(state, action.option("of"))
    if other.id in target.unaware_of:
        target.unaware_of.remove(other.id)
    events.append(
        Event(
            "aware",
            f"{target.name} is aware of {other.name}",
            {},
            detail=frozenset({target.side}),
        )
    )


@checks("helpless", "free")
def _check_helpless(state: DieStepState, action: Action) -> None:
    who(state, action.target, "D-PRONE-1")


@verb("helpless", "gm", "D-PRONE-1", "tie up or paralyse <target>")
def _helpless(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    target = who(state, action.target)
    target.helpless = True
    events.append(Event("helpless", f"{target.name} is helpless", {"who": target.id}))


@verb("free", "gm", "D-PRONE-1", "<target> is no longer helpless")
def _free(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    target = who(state, action.target)
    target.helpless = False
    events.append(Event("helpless", f"{target.name} is no longer helpless", {"who": target.id}))


@checks("wait")
def _check_wait(state: DieStepState, action: Action) -> None:
    if state.started and not state.over:
        raise IllegalAction("D-WOUND-1", "minutes pass after the encounter: end it first")
    number(action, "minutes", "D-WOUND-1", 1)


@verb("wait", "gm", "D-WOUND-1", "let minutes pass after the encounter: minutes=N")
def _wait(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    health.wait(state, number(action, "minutes", "D-WOUND-1"), dice, events)


@checks("survival")
def _check_survival(state: DieStepState, action: Action) -> None:
    if not state.over:
        raise IllegalAction("D-KO-1", "survival rolls come after the encounter: end it first")
    if action.target is not None and not health.owes_survival(who(state, action.target)):
        raise IllegalAction("D-KO-1", f"{action.target} owes no survival roll")


@verb("survival", "gm", "D-KO-1", "the owed survival rolls (FOR), or one: [target]")
def _survival(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    if action.target is None:
        health.survive_all(state, dice, events)
    else:
        health.survival_roll(state, who(state, action.target), dice, events, ritual=False)


# -- answers out of turn ------------------------------------------------------------------


def defence_window(state: DieStepState, action: Action) -> DefenceWindow:
    top = state.windows[-1] if state.windows else None
    if not isinstance(top, DefenceWindow):
        raise IllegalAction("D-DEF-2", f"{action.verb} answers a declared attack; none is open")
    return top


@checks("block", "parry", "dodge")
def _check_defence(state: DieStepState, action: Action) -> None:
    attack = defence_window(state, action).attack
    actor = who(state, action.actor)
    if action.verb == "dodge" and actor.mounted_on is not None:
        mount = actor.mounted_on
        raise IllegalAction("D-MOUNT-1", f"a rider cannot dodge: {mount} dodges for both")
    options = combat.defences(state, attack)
    if options.get(action.verb) != actor.id:
        target = state.who(attack.target)
        if actor.id not in (target.id, target.mounted_on):
            raise IllegalAction("D-DEF-2", f"the attack is on {target.name}, not {actor.name}")
        raise IllegalAction("D-DEF-2", _why_not(state, attack, action.verb, actor))


def _why_not(state: DieStepState, attack: Attack, how: str, actor: Combatant) -> str:
    if attack.attacker in state.who(attack.target).unaware_of:
        return f"{actor.name} is unaware of the attack: no block, parry or dodge (D-DEF-1)"
    if not attack.active:
        return "active defences cannot be used against this attack"
    if not turns.can_interrupt(state, actor):
        return f"{actor.name} has no AP of the next turn left to spend on an interrupt"
    if how == "block":
        return f"{actor.name} has no shield ready, or a block does not answer this attack"
    if how == "parry":
        return "a parry answers melee attacks only"
    return "a dodge answers melee, ranged and physical attacks only"


@verb("block", "interrupt", "D-DEF-2", "block with a shield (DEF with advantage)")
@verb("parry", "interrupt", "D-DEF-2", "parry a melee attack (ATT)")
@verb("dodge", "interrupt", "D-DEF-2", "dodge (REF); a mount dodges for its rider")
def _defend(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    window = state.windows.pop()
    assert isinstance(window, DefenceWindow)
    actor = state.combatants[action.actor]  # (checked: one of those the attack allows)
    actor.debt += 1  # D-ACT-1: a minor interrupt spends an AP of the next turn
    combat.resolve(state, window.attack, action.verb, actor.id, dice, events)


@checks("take")
def _check_take(state: DieStepState, action: Action) -> None:
    attack = defence_window(state, action).attack
    if action.actor != attack.target:
        raise IllegalAction("D-ATK-1", f"the attack is on {attack.target}, not {action.actor}")


@verb("take", "answer", "D-ATK-1", "no active defence: the passive defence alone")
def _take(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    window = state.windows.pop()
    assert isinstance(window, DefenceWindow)
    combat.resolve(state, window.attack, "take", window.attack.target, dice, events)


def opportunity_window(state: DieStepState, action: Action) -> OpportunityWindow:
    top = state.windows[-1] if state.windows else None
    if not isinstance(top, OpportunityWindow):
        raise IllegalAction("D-OA-1", "no action has provoked an opportunity attack")
    if top.waiting[0] != action.actor:
        raise IllegalAction("D-OA-1", f"it is {top.waiting[0]}'s opportunity, not {action.actor}'s")
    return top


@checks("opportunity")
def _check_opportunity(state: DieStepState, action: Action) -> None:
    window = opportunity_window(state, action)
    provoker = state.who(window.provoker)
    if action.target not in (provoker.id, provoker.mounted_on, provoker.rider):
        raise IllegalAction("D-OA-1", f"the opportunity attack is on {provoker.name}")


@verb("opportunity", "interrupt", "D-OA-1", "a basic melee attack on the provoker")
def _opportunity(
    state: DieStepState, action: Action, dice: DiceSource, events: list[Event]
) -> None:
    window = opportunity_window(state, action)
    state.windows[-1] = OpportunityWindow(window.provoker, window.waiting[1:], window.action)
    actor = state.combatants[action.actor]  # (the first waiting: a combatant)
    weapon = actor.melee_weapon()
    assert weapon is not None
    actor.debt += 1  # D-OA-1: a minor interrupt, from the next turn's AP
    attack = Attack(
        actor.id,
        who(state, action.target).id,
        "opportunity",
        "att",
        0,
        "def",
        melee=True,
        ranged=False,
        physical=True,
        weapon=weapon.name,
    )
    combat.declare(state, attack, dice, events)


@checks("pass")
def _check_pass(state: DieStepState, action: Action) -> None:
    opportunity_window(state, action)


@verb("pass", "answer", "D-OA-1", "let the opportunity go")
def _pass(state: DieStepState, action: Action, dice: DiceSource, events: list[Event]) -> None:
    window = opportunity_window(state, action)
    state.windows[-1] = OpportunityWindow(window.provoker, window.waiting[1:], window.action)
    events.append(Event("pass", f"{who(state, action.actor).name} lets it go", {}))
