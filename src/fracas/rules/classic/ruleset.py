"""The Heimr Tabletop Rulebook as a ruleset of the engine (``find("heimr-classic")``).

Play by post (HC-ROUND-1): the DM opens the round (``gm open``), each player declares
its actions (``ylva attack orc1 else=orc2``) and finishes its post (``ylva done``);
``gm close`` rolls initiative and resolves everything in its order, then the next
round opens. A declaration is checked when made, against the fighter as its post so
far leaves it: known names, the action economy (HC-ACT-1), conditions, positions.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterator, Mapping
from typing import Any, ClassVar

from fracas.engine import Action, DiceSource, EngineError, Event, IllegalAction, Ruleset
from fracas.engine.declared import Declaration
from fracas.engine.ruleset import Parts
from fracas.rules.classic import combat, posts, rounds, setup, table, verbs
from fracas.rules.classic.campaign import ClassicCampaign, heimr_tables
from fracas.rules.classic.economy import Planned, check_budget, planned
from fracas.rules.classic.state import TACTICS, ClassicState, Fighter
from fracas.rules.classic.verbs import CHECKS, VERBS, fighter
from fracas.rules.classic.verbs import check as check_verb
from fracas.yamlfile import KeyPath, YamlDocument

GM = "gm"
__all__ = ["ClassicRules", "posts", "rounds", "table"]  # importing them registers their verbs


class ClassicRules(Ruleset[ClassicState]):
    """Heimr Tabletop Rulebook combat: declared rounds resolved in d20 initiative order."""

    id: ClassVar[str] = "heimr-classic"
    name: ClassVar[str] = "Heimr Tabletop Rulebook"
    #: What it offers beyond the protocol (:mod:`fracas.engine.capabilities`).
    capabilities: ClassVar[Mapping[str, object]] = {
        "odds": "fracas.rules.classic.attack_odds",
        "commands": "fracas.rules.classic.attack_odds",
        "policies": "fracas.rules.classic.policies:POLICIES",
        "stats": "fracas.rules.classic.policies:STATS",
        "sheets": "fracas.rules.classic.books:SHEETS",
        "carry": "fracas.rules.classic.books:CARRY",
        "battlefield": "fracas.rules.classic.ground:GROUND",
        "posts": "fracas.rules.classic.posts:BY_POST",
        "rolls": "fracas.engine.capabilities:NAMED_ROLLS",
    }

    def check_campaign(self, document: YamlDocument) -> None:
        ClassicCampaign.from_documents(document)

    def start(self, setup_data: Mapping[str, Any]) -> ClassicState:
        return setup.build(setup_data)

    def setup_problems(self, setup_data: Mapping[str, Any]) -> list[tuple[KeyPath, str]]:
        return setup.problems(setup_data)

    # -- whose move ------------------------------------------------------------------------

    def verb_names(self, state: ClassicState) -> list[str]:
        return sorted(VERBS)

    def combatant_ids(self, state: ClassicState) -> list[str]:
        return list(state.combatants)

    def to_move(self, state: ClassicState) -> str | None:
        if not state.opened:
            return GM
        if self.is_over(state):
            return None
        for who in state.combatants.values():
            if who.in_fight and not who.helpless and who.id not in state.posted:
                return who.id
        return GM

    def is_over(self, state: ClassicState) -> bool:
        if not state.opened:
            return False
        standing = None  # at most one side with someone in the fight
        for f in state.combatants.values():
            if f.in_fight:
                if standing is None:
                    standing = f.side
                elif f.side != standing:
                    return False
        return True

    # -- outcomes --------------------------------------------------------------------------

    def sides(self, state: ClassicState) -> list[str]:
        return list(dict.fromkeys(f.side for f in state.combatants.values()))

    def winner(self, state: ClassicState) -> str | None:
        """The one side with someone neither dead nor dying, once it is over."""
        standing = {f.side for f in state.combatants.values() if f.in_fight}
        return next(iter(standing)) if self.is_over(state) and len(standing) == 1 else None

    def harm(self, state: ClassicState) -> Hashable:
        return tuple(
            (cid, f.hp, f.dead, f.has("dying")) for cid, f in sorted(state.combatants.items())
        )

    def round_number(self, state: ClassicState) -> int:
        return state.round

    def why_no_actions(self, state: ClassicState, actor: str) -> str | None:
        who = state.combatants.get(actor)
        if who is None or not who.in_fight or not who.helpless:
            return None
        return f"{who.name} is helpless and can do nothing (HC-COND-1)"

    # -- checking --------------------------------------------------------------------------

    def check(self, state: ClassicState, action: Action) -> None:
        self._check(state, action, self.is_over(state), None)

    def legal(
        self, state: ClassicState, actor: str | None, verbs: Collection[str] | None = None
    ) -> Iterator[Action]:
        """The candidates :meth:`check` accepts, with whether the fight is over and each
        fighter's plan so far worked out once for them all."""
        over = self.is_over(state)
        plans: dict[str, Planned] = {}
        ready: dict[tuple[str, str], int] = {}  # by actor and verb: see _ready_for
        for action in self._candidates(state, actor, verbs, plans):
            if (actor is not None and action.actor != actor) or (
                verbs is not None and action.verb not in verbs
            ):
                continue
            left = _WHOLE
            if not action.options:
                key = (action.actor, action.verb)
                left = ready.get(key, -1)
                if left < 0:
                    left = ready[key] = self._ready_for(state, action, over, plans)
            try:
                if left == _WHOLE:
                    self._check(state, action, over, plans)
                elif left == _VERB_CHECK:
                    check_verb(state, action, plans[action.actor])
                elif left == _REFUSED:
                    continue
            except EngineError:
                continue
            yield action

    def _ready_for(
        self, state: ClassicState, action: Action, over: bool, plans: dict[str, Planned]
    ) -> int:
        """What is left to ask of a candidate without options once what :meth:`_check`
        asks of every such action of its actor and verb has been asked: nothing (it is
        refused, :data:`_REFUSED`, or accepted, :data:`_ACCEPTED`), its verb's own check
        against the plan so far, or the whole check (the DM's actions, and verbs whose
        cost depends on what they name)."""
        verb = VERBS.get(action.verb)
        if verb is None:
            return _REFUSED
        who = state.combatants.get(action.actor)
        if verb.kind == "gm" or who is None or action.verb in ("power", "draw", "sheathe"):
            return _WHOLE
        try:
            self._check_fighter(state, who, action, over)
        except EngineError:
            return _REFUSED
        if verb.kind == "post" and action.verb not in CHECKS:
            return _ACCEPTED
        if verb.kind == "post" and not _reads_plan(state, action):
            return _WHOLE
        if who.id not in plans:
            plans[who.id] = planned(state, who.id)
        if verb.kind != "post":
            try:
                check_budget(state, action, (), plans[who.id])
            except EngineError:
                return _REFUSED
        return _VERB_CHECK

    def _check(
        self,
        state: ClassicState,
        action: Action,
        over: bool,
        plans: dict[str, Planned] | None,
    ) -> None:
        """:meth:`check`, told whether the fight is over; ``plans`` keeps the fighters'
        plans so far for the next actions checked in the same state."""
        verb = VERBS.get(action.verb)
        if verb is None:
            known = ", ".join(sorted(VERBS))
            raise IllegalAction("HC-ACT-1", f"unknown action {action.verb!r}: known are {known}")
        if verb.kind == "gm":
            if action.actor != GM:
                raise IllegalAction("HC-ROUND-1", f"only the DM ({GM}) may {action.verb}")
            if action.verb == "close" and over:
                raise IllegalAction("HC-ROUND-1", "the fight is over")
            verbs.check(state, action, Planned("", False))
            return
        who = fighter(state, action.actor)
        self._check_fighter(state, who, action, over)
        main, alternatives = split(state, action)
        if verb.kind == "post" and not _reads_plan(state, main):
            verbs.check(state, main, Planned("", False))  # no plan read: none worked out
            return
        if plans is None:
            plan = planned(state, who.id)
        elif who.id in plans:
            plan = plans[who.id]
        else:
            plan = plans[who.id] = planned(state, who.id)
        if verb.kind == "post":
            verbs.check(state, main, plan)
            return
        check_budget(state, main, alternatives, plan if main.actor == who.id else None)
        verbs.check(state, main, plan)
        if (alternatives or main.option("trigger") is not None) and verb.kind != "turn":
            raise IllegalAction(
                "HC-ROUND-2", f"a {action.verb} holds for the round: no alternatives or triggers"
            )
        for alternative in alternatives:
            other = VERBS.get(alternative.verb)
            if other is None or other.kind != "turn":
                raise IllegalAction(
                    "HC-ROUND-2", f"{alternative.verb!r} cannot stand in for {action.verb}"
                )
            verbs.check(state, alternative, plan)
        _check_trigger(state, main)

    @staticmethod
    def _check_fighter(state: ClassicState, who: Fighter, action: Action, over: bool) -> None:
        if not state.opened:
            raise IllegalAction("HC-ROUND-1", "the DM has not opened the round yet")
        if over:
            raise IllegalAction("HC-ROUND-1", "the fight is over")
        if who.id in state.posted:
            raise IllegalAction(
                "HC-ROUND-1", f"{who.name} has posted this round already: one post a round"
            )
        if not who.in_fight:
            why = "dead" if who.dead else "dying"
            raise IllegalAction("HC-COND-1", f"{who.name} is {why} and can do nothing")
        if action.verb in ("done", "retract"):
            return
        if who.helpless:
            raise IllegalAction("HC-COND-1", f"{who.name} is helpless and can do nothing")
        if who.has("confused") and action.verb != "speak":
            raise IllegalAction(
                "HC-COND-1", f"{who.name} is confused: nothing but mumbling questions (speak)"
            )

    # -- applying --------------------------------------------------------------------------

    def apply(self, state: ClassicState, action: Action, dice: DiceSource) -> list[Event]:
        events: list[Event] = []
        verb = VERBS[action.verb]
        if verb.kind in ("gm", "post"):
            verb.apply(state, action, dice, events)
            return events
        main, alternatives = split(state, action)
        state.declared.declare(Declaration(main, alternatives))
        who = state.combatants[action.actor]
        said = str(main)
        others = [str(a) for a in alternatives]
        name = who.name

        def render() -> str:  # the words, written only if the log is read
            text = f"{name} declares: {_after_actor(said)}"
            if alternatives:
                text += ", else " + "; else ".join(_after_actor(str(a)) for a in alternatives)
            return text

        events.append(
            Event.deferred(
                "declare",
                render,
                {"who": who.id, "action": said, "else": others},
                detail=frozenset({who.side}),  # the other sides learn it when the round closes
            )
        )
        return events

    # -- offering --------------------------------------------------------------------------

    def candidates(self, state: ClassicState, actor: str | None) -> Iterator[Action]:
        return self._candidates(state, actor, None, {})

    def _candidates(
        self,
        state: ClassicState,
        actor: str | None,
        verbs: Collection[str] | None,
        plans: dict[str, Planned],
    ) -> Iterator[Action]:
        """:meth:`candidates`, only those with one of ``verbs`` when given (the others
        in their order); ``plans`` keeps each fighter's plan so far, as in :meth:`legal`."""
        if not state.opened:
            yield Action(GM, "open")
            return
        if actor in (None, GM):
            yield Action(GM, "close")
        for who in state.combatants.values():
            if actor is None or actor == who.id:
                yield from self._offer(state, who, verbs, plans)

    @staticmethod
    def _offer(
        state: ClassicState,
        who: Fighter,
        verbs: Collection[str] | None = None,
        plans: dict[str, Planned] | None = None,
    ) -> Iterator[Action]:
        cid = who.id
        if verbs is None:
            verbs = _OFFERED
        if "done" in verbs:
            yield Action(cid, "done")
        if "attack" in verbs:
            for other in state.enemies(cid):
                yield Action(cid, "attack", other.id)
        moving = [v for v in ("move", "crawl", "guard") if v in verbs]
        if moving:
            if plans is None:
                plan = planned(state, cid)
            elif cid in plans:
                plan = plans[cid]
            else:
                plan = plans[cid] = planned(state, cid)
            for place in state.battlefield.borders(plan.position):
                if "move" in verbs:
                    yield Action(cid, "move", place)
                if plan.prone and "crawl" in verbs:
                    yield Action(cid, "crawl", place)
                if plan.moved and "guard" in verbs:
                    yield Action(cid, "guard", place)
        if "stand" in verbs:
            yield Action(cid, "stand")
        if "tactic" in verbs:
            for tactic in TACTICS[1:]:
                yield Action(cid, "tactic", tactic)
        if "draw" in verbs:
            for item in who.carried:
                yield Action(cid, "draw", item)
            yield Action(cid, "draw", "arrow")
        if who.hero_points and "hero" in verbs:
            for use in ("hits", "dodges", "initiative"):
                yield Action(cid, "hero", None, (("use", use),))
        if "retract" in verbs and state.declared.of(cid):
            yield Action(cid, "retract")

    # -- observing -------------------------------------------------------------------------

    def observe(self, state: ClassicState, side: str | None) -> dict[str, Any]:
        """The DM sees everything; a side sees its own fully and others as they look:
        position, conditions, injury, weapons, but not hit points, willpower or hero
        points. That a character has posted is public, as on the forum; what it declared
        is its own side's until the round closes."""
        return {key: part(self, state, side) for key, part in _EAGER.items()}

    def observe_lazily(self, state: ClassicState, side: str | None) -> Mapping[str, Any]:
        """:meth:`observe`, each part worked out when it is read."""
        return Parts(_PARTS, self, state, side)


#: Each part of what a side observes (:meth:`ClassicRules.observe`), as the function
#: working it out from the rules, the state and the side.
_PARTS: dict[str, Callable[[ClassicRules, ClassicState, str | None], Any]] = {
    "round": lambda rules, state, side: state.round,
    "clock": lambda rules, state, side: state.clock,
    "current": lambda rules, state, side: rules.to_move(state),
    "order": lambda rules, state, side: (
        [c for c in state.order if c in state.combatants] or list(state.combatants)
    ),
    "initiative": lambda rules, state, side: dict(state.initiative),
    "positions": lambda rules, state, side: {
        p: state.battlefield.borders(p) for p in state.battlefield.places
    },
    "guards": lambda rules, state, side: [
        {"guard": g.guard, "at": g.at, "toward": g.toward, "named": g.named} for g in state.guards
    ],
    "declared": lambda rules, state, side: _declared(state, side),
    "posted": lambda rules, state, side: list(state.posted),
    "warnings": lambda rules, state, side: list(state.warnings) if side is None else [],
    "combatants": lambda rules, state, side: {
        cid: Parts(_SEEN_FULL if side is None or side == f.side else _SEEN, state, f)
        for cid, f in state.combatants.items()
    },
}

#: :data:`_PARTS` as :meth:`ClassicRules.observe` gives them: plain dicts, ready for JSON.
_EAGER: dict[str, Callable[[ClassicRules, ClassicState, str | None], Any]] = {
    **_PARTS,
    "combatants": lambda rules, state, side: {
        cid: _observe_one(state, f, side is None or side == f.side)
        for cid, f in state.combatants.items()
    },
}


#: What :meth:`ClassicRules.legal` has left to ask of a candidate: nothing (refused or
#: accepted), its verb's own check, or the whole of :meth:`ClassicRules._check`.
_REFUSED, _ACCEPTED, _VERB_CHECK, _WHOLE = range(4)

#: The verbs :meth:`ClassicRules._offer` proposes.
_OFFERED = frozenset(
    {"done", "attack", "move", "crawl", "guard", "stand", "tactic", "draw", "hero", "retract"}
)


def _reads_plan(state: ClassicState, action: Action) -> bool:
    """Whether the check of ``action``, a post's own verb, reads the plan so far (else it
    is not worked out for it)."""
    if action.verb not in CHECKS:
        return False
    return action.verb != "done" or posts.done_reads_plan(state, action)


def _declared(state: ClassicState, side: str | None) -> dict[str, list[str]]:
    """What each fighter ``side`` sees has declared this round (its own side's: the
    others' are read when the round closes), in the order of their first declarations."""
    out: dict[str, list[str]] = {}
    combatants = state.combatants
    for declaration in state.declared.declarations:
        cid = declaration.actor
        if side is None or combatants[cid].side == side:
            out.setdefault(cid, []).append(str(declaration.action))
    return out


def _observe_one(state: ClassicState, f: Fighter, full: bool) -> dict[str, Any]:
    return {key: part(state, f) for key, part in (_SEEN_FULL if full else _SEEN).items()}


#: What every side sees of a fighter, each field as the function working it out.
_SEEN: dict[str, Callable[[ClassicState, Fighter], Any]] = {
    "name": lambda state, f: f.name,
    "side": lambda state, f: f.side,
    "npc": lambda state, f: f.npc,
    "square": lambda state, f: f.position,
    "dead": lambda state, f: f.dead,
    "prone": lambda state, f: f.prone,
    "effects": lambda state, f: [c.name for c in f.conditions],
    "injury": lambda state, f: None if f.hp > 0 else heimr_tables().injury_level(f.hp),
    "defence": lambda state, f: {"kind": "defence", "result": combat.defence(state, f)[0]},
    "weapons": lambda state, f: f.held(),
}
#: What the fighter's own side (and the DM) sees besides.
_SEEN_FULL: dict[str, Callable[[ClassicState, Fighter], Any]] = {
    **_SEEN,
    "hp": lambda state, f: f.hp,
    "max_hp": lambda state, f: f.profile.max_hp,
    "willpower": lambda state, f: f.willpower,
    "hero_points": lambda state, f: f.hero_points,
    "statistics": lambda state, f: dict(f.profile.statistics),
    "stance": lambda state, f: f.plan.tactic,
    "carried": lambda state, f: list(f.carried),
}


def _after_actor(action: str) -> str:
    """An action (as text) without its actor: ``attack orc1 with=off``."""
    return action.partition(" ")[2]


def split(state: ClassicState, action: Action) -> tuple[Action, tuple[Action, ...]]:
    """The declared action without its ``else``, and the alternatives ``else`` lists.

    Each alternative is another target for the same action (``else=orc2``), an action
    without a target (``else=stand``), or a whole action (``else='move Street'``).
    """
    text = action.option("else")
    if text is None:
        return action, ()
    main = Action(
        action.actor,
        action.verb,
        action.target,
        tuple((k, v) for k, v in action.options if k != "else"),
    )
    out = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        if " " not in part and part not in VERBS:  # another target for the same action
            options = tuple((k, v) for k, v in main.options if k != "trigger")
            out.append(Action(main.actor, main.verb, part, options))
        else:
            out.append(Action.parse(f"{action.actor} {part}"))
    return main, tuple(out)


def _check_trigger(state: ClassicState, action: Action) -> None:
    trigger = action.option("trigger")
    if trigger is None:
        return
    words = trigger.split()
    if not words or len(words) > 2:
        raise IllegalAction("HC-INITM-1", "trigger='<character> [<verb>]', such as 'bob move'")
    cue = fighter(state, words[0], "HC-INITM-1")
    if cue.id == action.actor:
        raise IllegalAction("HC-INITM-1", "a delayed action waits for someone else")
    if len(words) == 2 and words[1] not in VERBS:
        raise IllegalAction("HC-INITM-1", f"trigger verb {words[1]!r} is no action")
