"""Quick answers to whether a verb's own check accepts an action, building no refusal.

Each mirrors the check registered for its verb (:mod:`.actions`, :mod:`.verbs`) for
the actions a fight offers: a target that is a combatant or a region, and no options.
For any other action it answers ``None``, and the check itself is asked. The actor is
a combatant (``who``); whose turn it is and what the turn's AP pay for are asked
apart (:class:`fracas.rules.diestep.ruleset._Checks`).

>>> from fracas.rules.diestep.setup import build
>>> s = build({"campaign": {"characters": {
...     "x": {"name": "X", "side": "s"}, "y": {"name": "Y", "side": "t"}}},
...     "regions": {"a": {"borders": ["b"]}, "b": {}},
...     "combatants": [{"character": "x", "region": "a"}, {"character": "y", "region": "b"}]})
>>> x = s.who("x")
>>> allows(s, x, Action("x", "strike", "y")), allows(s, x, Action("x", "move", "b"))
(False, True)
>>> allows(s, x, Action("x", "move", "b", (("via", "a"),))) is None
True
"""

from __future__ import annotations

from collections.abc import Callable

from fracas.engine import Action
from fracas.rules.diestep import movement
from fracas.rules.diestep.state import Combatant, DefenceWindow, DieStepState, OpportunityWindow

#: A quick answer: whether the verb's check accepts the action, ``None``: ask the check.
Quick = Callable[[DieStepState, Combatant, Action], "bool | None"]


def allows(state: DieStepState, who: Combatant, action: Action) -> bool | None:
    """Whether the check of ``action``'s verb accepts it (``who`` is its actor), or
    ``None`` when this module does not answer for such an action."""
    quick = QUICK.get(action.verb)
    return None if quick is None or action.options else quick(state, who, action)


def _foe(state: DieStepState, who: Combatant, action: Action) -> Combatant | None:
    """The target of an attack that ``actions._foe`` accepts (another combatant, not
    dead), or ``None``."""
    target = state.combatants.get(action.target) if action.target is not None else None
    if target is None or target.id == who.id or target.dead:
        return None
    return target


def _attack(state: DieStepState, who: Combatant, action: Action) -> bool | None:
    """``actions._check_attack``: a weapon ready, the target in reach or range."""
    if action.target not in state.combatants:
        return None  # the check names who there is
    target = _foe(state, who, action)
    weapon = who.weapon
    if target is None or weapon is None or not who.ready:
        return False
    if weapon.melee:
        return who.region == target.region
    far = movement.distance(state, who.region, target.region)
    return far is not None and far <= weapon.range


def _unarmed(state: DieStepState, who: Combatant, action: Action) -> bool | None:
    """``actions._check_unarmed``: the target in reach, not riding; a grab holds nobody
    already, of someone nobody holds."""
    if action.target not in state.combatants:
        return None
    target = _foe(state, who, action)
    if target is None or who.region != target.region or who.mounted_on is not None:
        return False
    return action.verb != "grab" or (who.holding is None and target.held_by is None)


def _move(state: DieStepState, who: Combatant, action: Action) -> bool | None:
    """``actions._check_move`` of one step (no ``via``): free to move, into a region
    bordering the mover's (a crawl: not riding)."""
    to = action.target
    if to is None or to not in state.regions:
        return None
    crawling = action.verb == "crawl"
    if movement.free_to_move_refusal(state, who, crawling) is not None:
        return False
    if crawling and who.mounted_on:
        return False
    body = movement.mover(state, who)
    if to not in state.regions[body.region].borders:
        return False
    return action.verb != "run" or movement.run_regions(state, who) >= 1


def _end(state: DieStepState, who: Combatant, action: Action) -> bool:
    """``actions._check_end``: the pair's turn is ended by its actor."""
    return state.turn is None or action.actor == state.turn.actor


def _take(state: DieStepState, who: Combatant, action: Action) -> bool:
    """``verbs._check_take``: an attack on the actor waits for its answer."""
    top = state.windows[-1] if state.windows else None
    return isinstance(top, DefenceWindow) and action.actor == top.attack.target


def _opportunity(state: DieStepState, who: Combatant, action: Action) -> bool:
    """``verbs._check_pass`` and ``verbs._check_opportunity``: the actor is the first
    waiting to answer a provocation; an opportunity attack is on the provoker or its
    pair."""
    top = state.windows[-1] if state.windows else None
    if not isinstance(top, OpportunityWindow) or top.waiting[0] != action.actor:
        return False
    if action.verb == "pass":
        return True
    provoker = state.who(top.provoker)
    return action.target in (provoker.id, provoker.mounted_on, provoker.rider)


def _escape(state: DieStepState, who: Combatant, action: Action) -> bool:
    """``actions._check_escape``: held, with the AP of a major action left."""
    turn = state.turn
    return who.held_by is not None and (turn is None or turn.left >= state.tables.costs["major"])


def _holding(state: DieStepState, who: Combatant, action: Action) -> bool:
    """The checks of ``hold``, ``release``, ``down``, ``crush`` and ``throw``: holding
    someone (fully, to crush or throw; not yet down, to force down); a hold not yet
    sustained, nor a grab made, this turn."""
    if who.holding is None:
        return False
    verb = action.verb
    if verb == "hold":
        turn = state.turn
        return turn is None or not (turn.grabbed or turn.sustained)
    if verb == "release":
        return True
    held = state.who(who.holding)
    return not held.prone if verb == "down" else held.hold == "full"


def _draw(state: DieStepState, who: Combatant, action: Action) -> bool:
    """``actions._check_draw``: a weapon or shield not ready."""
    return not who.ready and (who.weapon is not None or who.shield)


def _posture(state: DieStepState, who: Combatant, action: Action) -> bool:
    """``actions._check_posture``: not riding, and not down (standing) already."""
    return who.mounted_on is None and who.prone != (action.verb == "prone")


#: The quick answer of each verb that has one.
QUICK: dict[str, Quick] = {
    "attack": _attack,
    "strike": _unarmed,
    "grab": _unarmed,
    "move": _move,
    "run": _move,
    "crawl": _move,
    "end": _end,
    "take": _take,
    "pass": _opportunity,
    "opportunity": _opportunity,
    "escape": _escape,
    "hold": _holding,
    "release": _holding,
    "down": _holding,
    "crush": _holding,
    "throw": _holding,
    "draw": _draw,
    "prone": _posture,
    "stand": _posture,
}
