"""The action-point tempo rules (seed 003) as a ruleset of the engine (``find("tempo")``).

Each action is one step of the turn sequence (:mod:`.exchange`): the actor declares,
an opponent reacts or passes, the actor may replace its action, and it resolves;
``recover`` ends the turn (:mod:`.turns`). Who is waited for is :meth:`to_move`;
:func:`.legality.check` refuses everything else with the rule that forbids it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterator, Mapping
from typing import Any, ClassVar

from fracas.engine import (
    Action,
    Checking,
    DiceSource,
    Event,
    IllegalAction,
    Parts,
    Ruleset,
)
from fracas.rules.tempo import exchange, legality, setup, table, turns
from fracas.rules.tempo.legality import PASS, shown
from fracas.rules.tempo.state import Combatant, Exchange, TempoState
from fracas.rules.tempo.tables import TempoTables
from fracas.yamlfile import KeyPath, YamlDocument


class TempoRules(Ruleset[TempoState]):
    """Action points, proactive, reactive and counter-tempo actions, statuses, stamina."""

    id: ClassVar[str] = "tempo"
    name: ClassVar[str] = "Action-point tempo rules"
    #: What it offers beyond the protocol (:mod:`fracas.engine.capabilities`).
    capabilities: ClassVar[Mapping[str, object]] = {
        "odds": "fracas.rules.tempo.attack_odds",
        "commands": "fracas.rules.tempo.attack_odds",
        "policies": "fracas.rules.tempo.policies:POLICIES",
        "sheets": "fracas.rules.tempo.books:SHEETS",
        "carry": "fracas.rules.tempo.books:CARRY",
        "rolls": "fracas.engine.capabilities:NAMED_ROLLS",
    }

    def check_campaign(self, document: YamlDocument) -> None:
        TempoTables.check_document(document)

    def start(self, setup_data: Mapping[str, Any]) -> TempoState:
        return setup.build(setup_data)

    def setup_problems(self, setup_data: Mapping[str, Any]) -> list[tuple[KeyPath, str]]:
        return setup.problems(setup_data)

    # -- whose move --------------------------------------------------------------------

    def combatant_ids(self, state: TempoState) -> list[str]:
        return list(state.combatants)

    def to_move(self, state: TempoState) -> str | None:
        ex = state.exchange
        if state.over:
            return None
        if not state.rolled:
            return table.GM  # T-ROUND-1: the turn order is rolled first
        if ex is None:
            return state.current
        if ex.phase == "counter":
            return ex.proactive.who
        return next(
            (cid for cid in state.order if legality.reactions(state, ex, state.combatants[cid])),
            None,
        )  # the first of legality.reactors

    def is_over(self, state: TempoState) -> bool:
        return state.over

    # -- outcomes ----------------------------------------------------------------------

    def sides(self, state: TempoState) -> list[str]:
        return list(dict.fromkeys(c.side for c in state.combatants.values()))

    def winner(self, state: TempoState) -> str | None:
        standing = state.standing_sides()
        return next(iter(standing)) if state.over and len(standing) == 1 else None

    def harm(self, state: TempoState) -> Hashable:
        return tuple((cid, c.hp) for cid, c in sorted(state.combatants.items()))

    def round_number(self, state: TempoState) -> int:
        return state.round

    def why_no_actions(self, state: TempoState, actor: str) -> str | None:
        """On its own turn, why every action but Recover Stamina is refused: too few AP for
        those its status allows (T-ROUND-2), or a status that allows none (T-STAT-1)."""
        if state.over or state.exchange is not None or state.current != actor:
            return None
        recover = state.tables.verb("Recover Stamina")
        rules: set[str] = set()
        for action in self._own_turn(state, state.combatants[actor], actor):
            if action.verb == recover:
                continue
            try:
                legality.check(state, action)
            except IllegalAction as err:
                rules.add(err.rule)
                continue
            return None
        who = state.combatants[actor]
        if "T-ROUND-2" in rules:
            return f"{who.name} has {who.ap} AP, too few for any action: recover (T-ROUND-2)"
        if "T-STAT-1" in rules:
            return f"{who.name} is {who.status}: no action allows it (T-STAT-1)"
        return f"{who.name} can take no action now ({', '.join(sorted(rules))})"

    # -- checking and applying ---------------------------------------------------------

    def check(self, state: TempoState, action: Action) -> None:
        if action.actor == table.GM:
            if state.over and action.verb != "note":
                raise IllegalAction("T-ROUND-1", "the encounter is over")
            table.check(state, action)
            return
        if not state.rolled:
            raise IllegalAction("T-ROUND-1", "the turn order is rolled first: gm initiative")
        legality.check(state, action)

    def apply(self, state: TempoState, action: Action, dice: DiceSource) -> list[Event]:
        events: list[Event] = []
        if action.actor == table.GM:
            table.apply(state, action, events, dice)
            return events
        ex = state.exchange
        name = PASS if action.verb == PASS else state.tables.by_verb(action.verb)
        assert name is not None, "checked: the verb is known"
        if name == PASS:
            exchange.let_go(state, action, dice, events)
        elif ex is None and state.tables.actions[name].kind == "special":
            turns.recover(state, action, name, dice, events)
        elif ex is None:
            exchange.declare(state, action, name, dice, events)
        elif ex.phase == "react":
            exchange.react(state, action, name, dice, events)
        else:
            exchange.replace(state, action, name, dice, events)
        return events

    def is_legal(self, state: TempoState, action: Action) -> bool:
        if action.verb == PASS and state.exchange is None and state.rolled:
            return action.actor == table.GM and super().is_legal(state, action)  # T-ROUND-2
        return super().is_legal(state, action)

    def checking(self, state: TempoState) -> Checking[TempoState]:
        if type(self) is not TempoRules:
            return super().checking(state)  # a subclass may check its own way
        return _Checking(self, state)

    def legal(
        self, state: TempoState, actor: str | None, verbs: Collection[str] | None = None
    ) -> Iterator[Action]:
        """:meth:`Ruleset.legal`, from quick predicates: in an exchange every candidate is
        legal (each is proposed only where :func:`.legality.check` accepts it), and in a
        turn each is asked of :func:`_own_turn_legal` instead of the full check (a
        subclass's own checks are asked the long way)."""
        if state.over or not state.rolled or type(self) is not TempoRules:
            yield from super().legal(state, actor, verbs)  # the game master's initiative
            return
        if state.exchange is None:
            who = state.combatants[state.current]
            if actor in (None, who.id):
                yield from _own_turn_legal(state, who, verbs)
            return
        for action in self.proposed(state, actor, verbs):
            if verbs is None or action.verb in verbs:
                yield action

    # -- offering ----------------------------------------------------------------------

    def candidates(self, state: TempoState, actor: str | None) -> Iterator[Action]:
        yield from self.proposed(state, actor, None)

    def proposed(
        self, state: TempoState, actor: str | None, verbs: Collection[str] | None
    ) -> Iterator[Action]:
        """:meth:`candidates`; in a turn, only those of ``verbs`` when given."""
        if state.over:
            return
        if not state.rolled:
            if actor in (None, table.GM):
                yield Action(table.GM, "initiative")  # T-ROUND-1: the order is rolled first
            return
        ex = state.exchange
        if ex is None:
            yield from self._own_turn(state, state.combatants[state.current], actor, verbs)
            return
        tables = state.tables
        if ex.phase == "counter":
            if actor in (None, ex.proactive.who):
                for name in legality.affordable_replacements(state, ex):
                    yield Action(ex.proactive.who, tables.verb(name))
                yield Action(ex.proactive.who, PASS)
            return
        for cid in state.order:  # legality.reactors, each one's reactions worked out once
            if actor not in (None, cid):
                continue
            names = legality.reactions(state, ex, state.combatants[cid])
            if names:
                for name in names:
                    yield Action(cid, tables.verb(name))
                yield Action(cid, PASS)

    @staticmethod
    def _own_turn(
        state: TempoState,
        who: Combatant,
        actor: str | None,
        verbs: Collection[str] | None = None,
    ) -> Iterator[Action]:
        """``who``'s actions in its own turn; only those of ``verbs`` when given."""
        if actor not in (None, who.id):
            return
        for name, spec in state.tables.actions.items():
            if spec.kind != "proactive":
                continue
            verb = state.tables.verb(name)
            if verbs is not None and verb not in verbs:
                continue
            if spec.target == "opponent":
                for other in state.combatants.values():
                    if legality.opponents(who, other) and not other.out:
                        yield Action(who.id, verb, other.id)
            else:
                yield Action(who.id, verb)
        recover = state.tables.verb("Recover Stamina")
        if verbs is None or recover in verbs:
            yield Action(who.id, recover)

    # -- observing ---------------------------------------------------------------------

    def observe(self, state: TempoState, side: str | None) -> dict[str, Any]:
        """All is open but hit points (the own side's only) and a feint not yet resolved,
        which the other sides see as the Melee Attack it was declared as."""
        return {key: part(self, state, side) for key, part in _PARTS.items()}

    def observe_lazily(self, state: TempoState, side: str | None) -> Mapping[str, Any]:
        """:meth:`observe`, each part worked out when it is read."""
        return Parts(_PARTS, self, state, side)


def _own_turn_legal(
    state: TempoState, who: Combatant, verbs: Collection[str] | None
) -> Iterator[Action]:
    """The candidates of :meth:`TempoRules._own_turn` that :func:`.legality.check`
    accepts, in their order, without building a refusal: those its status and weapons
    allow (:meth:`.TempoTables.offers`) and its AP pay for, at their targets (the
    opponents standing, within reach where the action asks for it: T-MOVE-1)."""
    if who.hp <= 0:  # down
        return
    for _, verb, spec, cost in state.tables.offers("turn", who.status, tuple(who.weapons)):
        if (verbs is not None and verb not in verbs) or cost > who.ap:
            continue
        if spec.target == "opponent":
            for other in state.combatants.values():
                if (
                    other.side != who.side
                    and other.hp > 0  # standing
                    and (not spec.reach or other.id in who.reach)
                ):
                    yield Action(who.id, verb, other.id)
            continue
        target = who.engaged_with if spec.target == "engaged" else None
        if not spec.reach or target is None or target in who.reach:
            yield Action(who.id, verb)


class _Checking(Checking[TempoState]):
    """The legality questions of one tempo state: its legal actions listed once (for
    everyone), each question answered from the listing."""

    __slots__ = ("_legal",)

    def __init__(self, ruleset: TempoRules, state: TempoState) -> None:
        super().__init__(ruleset, state)
        self._legal: dict[Action, None] | None = None

    def _listed(self) -> dict[Action, None]:
        if self._legal is None:
            self._legal = dict.fromkeys(self.ruleset.legal(self.state, None))
        return self._legal

    def legal(self, actor: str | None, verbs: Collection[str] | None = None) -> Iterator[Action]:
        return (
            a
            for a in self._listed()
            if (actor is None or a.actor == actor) and (verbs is None or a.verb in verbs)
        )

    def legal_where(
        self, actor: str | None, verbs: Collection[str] | None, keep: Callable[[Action], bool]
    ) -> Iterator[Action]:
        return (a for a in self.legal(actor, verbs) if keep(a))

    def is_legal(self, action: Action) -> bool:
        return action in self._listed() or self.ruleset.is_legal(self.state, action)


#: Each part of what a side observes (:meth:`TempoRules.observe`), as the function
#: working it out from the rules, the state and the side.
_PARTS: dict[str, Callable[[TempoRules, TempoState, str | None], Any]] = {
    "round": lambda rules, state, side: state.round,
    "clock": lambda rules, state, side: state.round * state.tables.round.seconds,
    "current": lambda rules, state, side: None if state.over else state.current,
    "order": lambda rules, state, side: list(state.order),
    "waiting_for": lambda rules, state, side: rules.to_move(state),
    "exchange": lambda rules, state, side: (
        None if state.exchange is None else _exchange(state, state.exchange, side)
    ),
    "combatants": lambda rules, state, side: {
        cid: _combatant(state, c, side in (None, c.side)) for cid, c in state.combatants.items()
    },
}


def _exchange(state: TempoState, ex: Exchange, side: str | None) -> dict[str, Any]:
    actor = state.combatants[ex.proactive.who]
    knows = side in (None, actor.side)
    return {
        "actor": actor.id,
        "action": ex.proactive.action if knows else shown(state, ex.proactive),
        "target": ex.target,
        "weapon": ex.proactive.weapon,
        "paid": ex.paid,
        "phase": ex.phase,
        "reaction": None
        if ex.reaction is None
        else {"who": ex.reaction.who, "action": ex.reaction.action},
    }


def _combatant(state: TempoState, c: Combatant, full: bool) -> dict[str, Any]:
    effects = []
    if c.engaged_with:
        effects.append(f"{c.status.lower()} with {state.combatants[c.engaged_with].name}")
    if c.aimed:
        effects.append(f"aimed ({c.aimed})")
    if c.out:
        effects.append("down")
    seen: dict[str, Any] = {
        "name": c.name,
        "side": c.side,
        "status": c.status,
        "ap": c.ap,
        "engaged_with": c.engaged_with,
        "reach": sorted(c.reach),
        "weapons": list(c.weapons),
        "armour": c.armour,
        "effects": effects,
        "down": c.out,
    }
    if full:
        seen.update(hp=c.hp, max_hp=c.max_hp)
    return seen
