"""The side-initiative skirmish rules as a ruleset of the engine (``find("sides")``).

It checks who may act in the round's phase (S-ROUND-1, S-ROUND-2), then the verb's own
conditions, applies the verb and lets the round run on (:func:`.rounds.settle`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterator, Mapping
from typing import Any, ClassVar

from fracas.engine import Action, DiceSource, Event, IllegalAction, Parts, Ruleset
from fracas.rules.sides import melee, movement, ranged, rounds, setup, table
from fracas.rules.sides.campaign import Tables, package_data
from fracas.rules.sides.positions import engaged_with, show
from fracas.rules.sides.state import Combatant, SidesState
from fracas.rules.sides.verbs import GM, VERBS, Verb, combatant, side_of
from fracas.yamlfile import KeyPath, YamlDocument, merge_documents, validate

__all__ = ["SidesRules"]
_REGISTERED = (movement, ranged, table)  # their verbs register on import


#: The game master's table verbs, open before the first round too.
TABLE_VERBS = ("add", "remove", "note")
#: The verbs :meth:`SidesRules._phase_candidates` proposes.
_PHASE_VERBS = frozenset({"done", "charge", "shoot", "move", "run", "pickup"})


class SidesRules(Ruleset[SidesState]):
    """Side initiative, phases, movement, ranged and melee attacks, damage."""

    id: ClassVar[str] = "sides"
    name: ClassVar[str] = "Side-initiative skirmish rules"
    #: What it offers beyond the protocol (:mod:`fracas.engine.capabilities`).
    capabilities: ClassVar[Mapping[str, object]] = {
        "odds": "fracas.rules.sides.attack_odds",
        "commands": "fracas.rules.sides.attack_odds",
        "policies": "fracas.rules.sides.policies:POLICIES",
        "sheets": "fracas.rules.sides.books:SHEETS",
        "battlefield": "fracas.rules.sides.ground:GROUND",
        "rolls": "fracas.rules.sides.rounds:ROLLS",
    }

    def check_campaign(self, document: YamlDocument) -> None:
        validate(Tables, merge_documents(package_data(), document))

    def start(self, setup_data: Mapping[str, Any]) -> SidesState:
        return setup.build(setup_data)

    def setup_problems(self, setup_data: Mapping[str, Any]) -> list[tuple[KeyPath, str]]:
        return setup.problems(setup_data)

    # -- whose move ----------------------------------------------------------------------

    def is_over(self, state: SidesState) -> bool:
        return rounds.is_over(state)

    def verb_names(self, state: SidesState) -> list[str]:
        return sorted(VERBS)

    def combatant_ids(self, state: SidesState) -> list[str]:
        return list(state.combatants)

    def to_move(self, state: SidesState) -> str | None:
        """The game master before the first round; the initiative winner's side while it
        chooses; the next character of the phasing side; the next to declare in melee;
        an enemy offered an opportunity attack before anyone else."""
        if self.is_over(state):
            return None
        if state.phase == "setup":
            return GM
        if state.pending:
            return state.pending[0][0]
        if state.phase == "choose":
            return state.winner
        if state.phase in ("acting", "reacting"):
            who = rounds.next_in_phase(state)
            return who.id if who else GM
        nxt = melee.next_to_declare(state)
        return nxt.id if nxt else GM

    # -- outcomes ------------------------------------------------------------------------

    def sides(self, state: SidesState) -> list[str]:
        return list(state.sides)

    def winner(self, state: SidesState) -> str | None:
        """The one side with anyone living once it is over (the game master's ``end`` with
        several sides standing has no winner)."""
        standing = {c.side for c in state.living()}
        return next(iter(standing)) if self.is_over(state) and len(standing) == 1 else None

    def harm(self, state: SidesState) -> Hashable:
        return tuple((cid, c.health, c.dead) for cid, c in sorted(state.combatants.items()))

    def round_number(self, state: SidesState) -> int:
        return state.round

    # -- checking ------------------------------------------------------------------------

    def check(self, state: SidesState, action: Action) -> None:
        verb = VERBS.find(action, "S-ROUND-2")
        if verb.kind == "gm" and action.actor != GM:
            raise IllegalAction(verb.rule, f"only the game master ({GM}) may {action.verb}")
        if verb.kind == "side":
            side_of(state, action.actor)
        elif verb.kind != "gm":
            combatant(state, action.actor)
        self._check_moment(state, action, verb)
        VERBS.check(state, action)

    def _check_moment(self, state: SidesState, action: Action, verb: Verb) -> None:
        if state.phase == "setup":
            if action.verb not in ("begin", "surprise", *TABLE_VERBS):
                raise IllegalAction("S-ROUND-1", "combat has not begun: the game master begins it")
            return
        if self.is_over(state) and action.verb != "note":
            raise IllegalAction("S-ROUND-1", "the encounter is over")
        if state.pending:
            attacker, target, _ = state.pending[0]
            ok = action.actor == attacker and action.verb in ("attack", "pass")
            if not ok and action.verb not in ("end", "note"):
                raise IllegalAction(
                    "S-MOVE-2",
                    f"first {state.combatants[attacker].name} may make an opportunity attack on "
                    f"{state.combatants[target].name}: {attacker} attack {target}, or "
                    f"{attacker} pass",
                )
            return
        if verb.kind == "reply":
            raise IllegalAction("S-MOVE-2", "there is no opportunity attack to answer")
        if verb.kind == "side" and state.phase != "choose":
            raise IllegalAction(
                "S-ROUND-1", "the initiative winner chooses only at the round's start"
            )
        if verb.kind == "gm" and state.phase == "choose" and action.verb == "next":
            return  # the verb's check explains
        if state.phase == "choose" and verb.kind not in ("gm", "side"):
            raise IllegalAction(
                "S-ROUND-1",
                f"{state.winner} won the initiative and chooses first: "
                f"{state.winner} act, or {state.winner} react",
            )
        if verb.kind == "phase":
            self._check_phase(state, combatant(state, action.actor))
        if verb.kind == "melee":
            self._check_melee(state, combatant(state, action.actor))

    @staticmethod
    def _check_phase(state: SidesState, who: Combatant) -> None:
        if state.phase == "melee":
            raise IllegalAction(
                "S-ROUND-2", "it is the melee: moving, shooting and casting are over this round"
            )
        if who.out:
            raise IllegalAction("S-HP-1", f"{who.name} is dead")
        if state.surprised_now(who.side):
            raise IllegalAction(
                "S-SURPRISE-1",
                f"{who.name}'s side is surprised and does not act in the first round",
            )
        if who.side != state.phasing:
            raise IllegalAction(
                "S-ROUND-2",
                f"it is the {state.phase} phase of {state.phasing}; {who.side} "
                + ("moved in the acting phase" if state.phase == "reacting" else "moves next"),
            )
        if who.doing.done:
            raise IllegalAction("S-ROUND-2", f"{who.name} is done for this phase")

    @staticmethod
    def _check_melee(state: SidesState, who: Combatant) -> None:
        if state.phase != "melee":
            raise IllegalAction(
                "S-ROUND-2",
                "melee attacks come in the melee phase, after both sides' phases "
                "(to charge into melee now: charge)",
            )
        why = melee.cannot_fight(state, who)
        if why is not None:
            raise IllegalAction(*why)
        if who.doing.declared is not None:
            raise IllegalAction("S-MELEE-1", f"{who.name} has already declared")

    # -- applying ------------------------------------------------------------------------

    def apply(self, state: SidesState, action: Action, dice: DiceSource) -> list[Event]:
        events: list[Event] = []
        VERBS[action.verb].apply(state, action, dice, events)
        rounds.settle(state, dice, events)
        return events

    # -- offering ------------------------------------------------------------------------

    def candidates(self, state: SidesState, actor: str | None) -> Iterator[Action]:
        for action in self.proposed(state):
            if actor is None or action.actor == actor:
                yield action

    def proposed(
        self, state: SidesState, actor: str | None = None, verbs: Collection[str] | None = None
    ) -> Iterator[Action]:
        """Every candidate in order; with ``actor`` or ``verbs``, others may be left out."""
        if state.phase == "setup":
            yield Action(GM, "begin")
            yield Action(GM, "surprise")
            for side in state.sides:
                yield Action(GM, "surprise", side)
            return
        if state.pending:
            attacker, target, _ = state.pending[0]
            yield Action(attacker, "attack", target)
            yield Action(attacker, "pass")
            return
        if state.phase == "choose" and state.winner is not None:
            yield Action(state.winner, "act")
            yield Action(state.winner, "react")
            return
        if state.phase in ("acting", "reacting") and (
            verbs is None or not _PHASE_VERBS.isdisjoint(verbs)
        ):
            for cid in state.order():
                if actor is not None and cid != actor:
                    continue
                who = state.combatants[cid]
                if who.side == state.phasing and not who.out and not who.doing.done:
                    yield from self._phase_candidates(state, who, verbs or _PHASE_VERBS)
        if state.phase == "melee" and (verbs is None or "attack" in verbs or "hold" in verbs):
            for who in melee.fighters(state):
                if who.doing.declared is None and actor in (None, who.id):
                    for foe in engaged_with(state, who):
                        yield Action(who.id, "attack", foe.id)
                    yield Action(who.id, "hold")
        yield Action(GM, "next")

    @staticmethod
    def _phase_candidates(
        state: SidesState, who: Combatant, verbs: Collection[str] = ()
    ) -> Iterator[Action]:
        """The actions ``who`` may be offered in its side's phase, only those with ``verbs``."""
        if "done" in verbs:
            yield Action(who.id, "done")
        foes = state.enemies(who)
        if "charge" in verbs:
            for foe in foes:
                yield Action(who.id, "charge", foe.id)
        if "shoot" in verbs:
            for foe in foes:
                yield Action(who.id, "shoot", foe.id)
        if "move" in verbs or "run" in verbs:
            for foe in foes:
                if "move" in verbs:
                    yield Action(who.id, "move", foe.id)
                    yield Action(who.id, "move", foe.id, (("dir", "away"),))
                if "run" in verbs:
                    yield Action(who.id, "run", foe.id, (("dir", "away"),))
        if who.dropped and "pickup" in verbs:
            yield Action(who.id, "pickup")

    # -- observing -----------------------------------------------------------------------

    def observe(self, state: SidesState, side: str | None) -> dict[str, Any]:
        """The game master sees all; a side sees its own characters fully and the others'
        position, gear and state, but not their Health or Stamina, nor their melee
        declarations before the melee resolves."""
        return {key: part(self, state, side) for key, part in _PARTS.items()}

    def observe_lazily(self, state: SidesState, side: str | None) -> Mapping[str, Any]:
        """:meth:`observe`, each part worked out when it is read."""
        return Parts(_PARTS, self, state, side)

    @staticmethod
    def _observe_one(state: SidesState, c: Combatant, full: bool) -> dict[str, Any]:
        doing = c.doing
        effects = [
            label
            for label, on in (
                ("charged", doing.movement == "charge"),
                ("ran", doing.movement == "run"),
                ("shot", doing.shot),
                ("cast", doing.cast),
                ("improvised", doing.improvised),
                ("dropped weapon", c.dropped),
                ("mounted", c.stats.mounted),
                ("done", doing.done),
            )
            if on
        ]
        seen: dict[str, Any] = {
            "name": c.name,
            "side": c.side,
            "position": c.position,
            "square": show(c.position, state.units),
            "dead": c.dead,
            "effects": effects,
            "weapons": [name for name, _ in c.stats.weapons]
            + ([c.stats.off_hand[0]] if c.stats.off_hand else []),
            "armour": c.stats.armour[0] if c.stats.armour else None,
            "evasion": c.stats.evasion,
            "movement": c.stats.movement,
        }
        if full:
            seen.update(
                hp=c.health,
                max_hp=c.stats.max_health,
                stamina=c.stamina,
                max_stamina=c.stats.max_stamina,
                attributes=dict(c.stats.attributes),
                declared=doing.declared,
            )
        return seen


#: Each part of what a side observes (:meth:`SidesRules.observe`), as the function
#: working it out from the rules, the state and the side.
_PARTS: dict[str, Callable[[SidesRules, SidesState, str | None], Any]] = {
    "round": lambda rules, state, side: state.round,
    "clock": lambda rules, state, side: rounds.SECONDS_PER_ROUND * max(0, state.round - 1),
    "phase": lambda rules, state, side: state.phase,
    "units": lambda rules, state, side: state.units,
    "acting": lambda rules, state, side: state.acting,
    "reacting": lambda rules, state, side: state.reacting,
    "winner": lambda rules, state, side: state.winner,
    "surprised": lambda rules, state, side: list(state.surprised),
    "confined_space": lambda rules, state, side: state.confined_space,
    "current": lambda rules, state, side: rules.to_move(state),
    "order": lambda rules, state, side: state.order(),
    "pending": lambda rules, state, side: [list(p) for p in state.pending],
    "combatants": lambda rules, state, side: {
        cid: rules._observe_one(state, c, side is None or side == c.side)
        for cid, c in state.combatants.items()
    },
}
