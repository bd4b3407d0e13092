"""The die-step rules as a ruleset of the engine (``fracas.rules.find("diestep")``).

Turns and interrupts: the character whose turn it is (with its mount) takes major,
minor, exclusive and free actions, paid from the turn's AP (:mod:`.turns`). Others act
inside that turn only to answer an open window (:mod:`.combat`): a declared attack
waits for its target's ``block``, ``parry``, ``dodge`` or ``take``; an action that
provokes waits for each enemy's ``opportunity`` or ``pass``. While a window is open
:meth:`DieStepRules.to_move` names who must answer and nothing else is legal. When
every window is closed the provoking action goes ahead, and the rules check whether
the turn (a knocked-out actor, an escape) or the encounter (one side left standing)
is over; the end of the encounter brings the survival rolls (D-KO-1).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterator, Mapping
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple

from fracas.engine import (
    Action,
    Checking,
    DiceSource,
    EngineError,
    Event,
    IllegalAction,
    Parts,
    Ruleset,
)
from fracas.rules.diestep import actions, combat, health, movement, setup, table, turns
from fracas.rules.diestep.quick import QUICK
from fracas.rules.diestep.state import (
    Combatant,
    DefenceWindow,
    DieStepState,
    OpportunityWindow,
    Turn,
)
from fracas.rules.diestep.tables import Campaign, Sheet, package_data
from fracas.rules.diestep.verbs import GM, KINDS, PROVOKES, VERBS, kind_for
from fracas.yamlfile import KeyPath, YamlDocument, merge_documents, validate

_REGISTERED = (table,)  # its verbs register on import


class DieStepRules(Ruleset[DieStepState]):
    """Die-step combat: dice ranks, action points, interrupts, wounds, grabs and mounts."""

    id: ClassVar[str] = "diestep"
    name: ClassVar[str] = "Die-step rules"
    #: What it offers beyond the protocol (:mod:`fracas.engine.capabilities`).
    capabilities: ClassVar[Mapping[str, object]] = {
        "odds": "fracas.rules.diestep.attack_odds",
        "commands": "fracas.rules.diestep.attack_odds",
        "policies": "fracas.rules.diestep.policies:POLICIES",
        "stats": "fracas.rules.diestep.policies:STATS",
        "sheets": "fracas.rules.diestep.books:SHEETS",
        "carry": "fracas.rules.diestep.books:CARRY",
        "battlefield": "fracas.rules.diestep.ground:GROUND",
        "rolls": "fracas.engine.capabilities:NAMED_ROLLS",
    }

    def check_campaign(self, document: YamlDocument) -> None:
        package = YamlDocument(package_data(), name="fracas/rules/diestep/data")
        validate(Campaign, merge_documents(package, document))

    def start(self, setup_data: Mapping[str, Any]) -> DieStepState:
        return setup.build(setup_data)

    def setup_problems(self, setup_data: Mapping[str, Any]) -> list[tuple[KeyPath, str]]:
        return setup.problems(setup_data)

    # -- whose move ---------------------------------------------------------------------

    def verb_names(self, state: DieStepState) -> list[str]:
        return sorted(VERBS)

    def combatant_ids(self, state: DieStepState) -> list[str]:
        return list(state.combatants)

    def to_move(self, state: DieStepState) -> str | None:
        if not state.started:
            return GM
        if state.over:
            return None
        if state.windows:
            top = state.windows[-1]
            if isinstance(top, DefenceWindow):
                return top.attack.target
            return top.waiting[0]
        return state.current

    def is_over(self, state: DieStepState) -> bool:
        return state.over

    # -- outcomes -----------------------------------------------------------------------

    def sides(self, state: DieStepState) -> list[str]:
        return list(dict.fromkeys(c.side for c in state.combatants.values()))

    def winner(self, state: DieStepState) -> str | None:
        """The one side left standing when the encounter ended (not after ``gm over`` with
        several standing)."""
        standing = {c.side for c in state.combatants.values() if _standing(c)}
        return next(iter(standing)) if state.over and len(standing) == 1 else None

    def harm(self, state: DieStepState) -> Hashable:
        return tuple(
            (cid, c.hp, c.knocked_out, c.dead, c.wound)
            for cid, c in sorted(state.combatants.items())
        )

    def round_number(self, state: DieStepState) -> int:
        return state.round

    def why_no_actions(self, state: DieStepState, actor: str) -> str | None:
        turn = state.turn
        if state.over or state.windows or turn is None or actor not in turn.members():
            return None
        who = state.who(actor)
        if who.helpless:
            return f"{who.name} is helpless and can take no physical actions (D-PRONE-1)"
        if not who.able:
            return f"{who.name} is stunned and can take no actions (D-HEAL-1)"
        if turn.left <= 0:
            return f"{who.name} has no AP left this turn (D-ACT-1)"
        return None

    # -- checking -----------------------------------------------------------------------

    def check(self, state: DieStepState, action: Action) -> None:
        verb = VERBS.find(action, "D-ACT-1")
        if action.actor == GM:
            if verb.kind != "gm" and action.verb != "heal":
                raise IllegalAction("D-ACT-1", f"the game master does not {action.verb}")
            if action.verb != "note":  # a note may come at any time
                self._check_no_window(state)
            VERBS.check(state, action)
            return
        if verb.kind == "gm":
            raise IllegalAction("D-ACT-1", f"only the game master ({GM}) may {action.verb}")
        who = state.combatants.get(action.actor)
        if who is None:
            known = ", ".join([GM, *state.combatants])
            raise IllegalAction("D-ACT-1", f"no combatant called {action.actor!r} ({known})")
        if verb.kind in ("interrupt", "answer"):
            VERBS.check(state, action)
            return
        if not state.started or state.over:
            if not (verb.has("outside") or verb.has("only_outside")):
                why = "combat has not begun: gm begin" if not state.started else "it is over"
                raise IllegalAction("D-ACT-1", f"{action.verb} is a combat action; {why}")
            if who.out or who.helpless:
                raise IllegalAction("D-ACT-1", f"{who.name} cannot act")
            VERBS.check(state, action)
            return
        if verb.has("only_outside"):
            raise IllegalAction("D-WOUND-1", f"{action.verb} takes minutes: after the encounter")
        self._check_no_window(state)
        turn = state.turn
        if turn is None or action.actor not in turn.members():
            current = state.who(turn.actor).name if turn else "nobody"
            raise IllegalAction("D-ACT-1", f"it is {current}'s turn, not {who.name}'s")
        if not who.able:
            raise IllegalAction("D-ACT-1", f"{who.name} cannot act")
        kind = kind_for(state, action)
        if kind in ("major", "minor", "exclusive", "free"):
            turns.check_spend(state, who, kind, verb.has("moving"))
        VERBS.check(state, action)

    def is_legal(self, state: DieStepState, action: Action) -> bool:
        """Whether :meth:`check` accepts ``action``, without building a refusal's message
        where :class:`_Checks` can tell."""
        if (
            state.started
            and not state.over
            and GM not in state.combatants
            and (type(self) is DieStepRules or _checks_as_its_own(type(self)))
        ):
            return _Checks(self, state).is_legal(state, action)
        return super().is_legal(state, action)  # (a subclass's own check is asked)

    def checking(self, state: DieStepState) -> Checking[DieStepState]:
        """The questions of one state while a fight is under way, with what they share
        (whose turn, whether each actor can act, what the turn's AP pay for, the open
        attack's defences) worked out once for all of them (:class:`_Fighting`)."""
        if (
            state.started
            and not state.over
            and GM not in state.combatants
            and (type(self) is DieStepRules or _checks_as_its_own(type(self)))
        ):
            return _Fighting(self, state)
        return super().checking(state)  # (a subclass may check its own way)

    def _check_no_window(self, state: DieStepState) -> None:
        if state.windows:
            raise IllegalAction(
                "D-ACT-1", f"waiting for {self.to_move(state)} to answer first (see the log)"
            )

    # -- applying -----------------------------------------------------------------------

    def apply(self, state: DieStepState, action: Action, dice: DiceSource) -> list[Event]:
        verb = VERBS[action.verb]
        events: list[Event] = []
        fighting = state.started and not state.over and action.actor != GM
        special = KINDS.get(action.verb)  # kind_for, with the verb at hand
        kind = special(state, action) if special is not None else verb.kind
        provoked = None
        paid = _PAID.get(kind) if fighting else None
        if paid is not None:
            turns.spend(state, paid, verb.has("moving"))
            provokes = PROVOKES.get(action.verb)
            provoked = provokes(state, action) if provokes is not None else None
            if kind == "exclusive":  # D-OA-1: an exclusive action provokes
                who = state.combatants[action.actor]
                more = combat.opportunists(state, actions.pair(state, who), {who.region})
                earlier = provoked[0] if provoked else ()
                merged = tuple(dict.fromkeys((*earlier, *more)))
                provoked = (merged, True, f"takes an exclusive action ({action.verb})")
        if provoked is not None and provoked[0]:
            waiting, before, why = provoked
            who = state.combatants[action.actor]
            if before:
                combat.provoke(state, who, waiting, _text(action), why, events)
            else:
                verb.apply(state, action, dice, events)
                combat.provoke(state, who, waiting, None, why, events)
        else:
            verb.apply(state, action, dice, events)
        self._settle(state, dice, events)
        return events

    def _settle(self, state: DieStepState, dice: DiceSource, events: list[Event]) -> None:
        """Close answered windows, carry out provoking actions, end turns and the encounter."""
        while state.windows:
            top = state.windows[-1]
            if isinstance(top, DefenceWindow):
                return
            provoker = state.combatants[top.provoker]
            waiting = () if provoker.out else tuple([c for c in top.waiting if _can_oa(state, c)])
            if waiting:
                if waiting != top.waiting:
                    state.windows[-1] = OpportunityWindow(top.provoker, waiting, top.action)
                return
            state.windows.pop()
            if top.action is not None and not provoker.out:
                stored = _parsed(top.action)
                VERBS[stored.verb].apply(state, stored, dice, events)
        if not state.started or state.over:
            return
        if _one_side_standing(state):
            health.end_encounter(state, events)
            return
        turn = state.turn
        if turn is not None and (turn.done or not state.combatants[turn.actor].able):
            turns.end_turn(state, events)

    # -- offering -----------------------------------------------------------------------

    def candidates(self, state: DieStepState, actor: str | None) -> Iterator[Action]:
        for action in self._offers(state):
            if actor is None or action.actor == actor:
                yield action

    def legal(
        self, state: DieStepState, actor: str | None, verbs: Collection[str] | None = None
    ) -> Iterator[Action]:
        """The candidates :meth:`check` accepts; with ``verbs``, the turn's candidates of
        other verbs are not even proposed."""
        return self.legal_where(state, actor, verbs, None)

    def legal_where(
        self,
        state: DieStepState,
        actor: str | None,
        verbs: Collection[str] | None,
        keep: Callable[[Action], bool] | None,
    ) -> Iterator[Action]:
        """:meth:`legal`, only the candidates ``keep`` accepts (asked before the rules
        check them). While a window is open or a turn under way, what :meth:`check` asks
        of every candidate alike (whose turn, whether the actor can act, what the turn's
        AP pay for) is worked out once for the listing (:class:`_Checks`), and a verb
        whose every action the turn's AP cannot pay is not even proposed. A subclass that
        checks or offers its own way is listed the long way, by its own checks."""
        if type(self) is not DieStepRules and not _checks_as_its_own(type(self)):
            listed = Ruleset.legal(self, state, actor, verbs)
            return listed if keep is None else (a for a in listed if keep(a))
        return self._listing(state, actor, verbs, keep, None)

    def _listing(
        self,
        state: DieStepState,
        actor: str | None,
        verbs: Collection[str] | None,
        keep: Callable[[Action], bool] | None,
        checks: _Checks | None,
    ) -> Iterator[Action]:
        """:meth:`legal_where`, with the :class:`_Checks` of the state when a listing of
        it has made them already (:meth:`checking`)."""
        offered = verbs
        defences = None
        if state.started and not state.over and GM not in state.combatants:
            if checks is None:
                checks = _Checks(self, state)
            is_legal = checks.is_legal
            if state.windows:
                defences = checks.defences(state)  # offered and checked alike
            elif state.turn is not None and (verbs is None or len(verbs) > 1):
                # (one verb's few candidates are refused as cheaply one by one)
                offered = checks.payable(state, _OFFERED if verbs is None else verbs)
        else:
            is_legal = super().is_legal
        for action in self._offers(state, offered, actor, defences, checked=True):
            if (
                (actor is not None and action.actor != actor)
                or (verbs is not None and action.verb not in verbs)
                or (keep is not None and not keep(action))
            ):
                continue
            if is_legal(state, action):
                yield action

    def _offers(
        self,
        state: DieStepState,
        verbs: Collection[str] | None = None,
        actor: str | None = None,
        defences: Mapping[str, str] | None = None,
        checked: bool = False,
    ) -> Iterator[Action]:
        """The candidates, in their order; with ``actor``, a turn's other member (a mount
        in its rider's turn) is offered nothing (the caller keeps only ``actor``'s);
        ``defences``: the open attack's, when worked out already; ``checked``: for
        :meth:`legal`, which checks each (see :meth:`_turn_offers`)."""
        if not state.started:
            yield Action(GM, "begin")
            return
        if state.over:
            yield from self._after(state)
            return
        if state.windows:
            yield from self._answers(state, defences)
            return
        turn = state.turn
        if turn is None:
            return
        if verbs is None or "end" in verbs:
            yield Action(turn.actor, "end")
        if verbs is not None and _TURN_VERBS.isdisjoint(verbs):
            return
        for cid in turn.members():
            if actor is None or cid == actor:
                asked = _TURN_VERBS if verbs is None else verbs
                yield from self._turn_offers(state, state.who(cid), asked, checked)

    def _answers(
        self, state: DieStepState, defences: Mapping[str, str] | None = None
    ) -> Iterator[Action]:
        top = state.windows[-1]
        if isinstance(top, DefenceWindow):
            if defences is None:
                defences = combat.defences(state, top.attack)
            for how, by in defences.items():
                yield Action(by, how)
            yield Action(top.attack.target, "take")
            return
        first = top.waiting[0]
        provoker = state.who(top.provoker)
        for target in (provoker.id, provoker.mounted_on, provoker.rider):
            if target is not None:
                yield Action(first, "opportunity", target)
        yield Action(first, "pass")

    def _turn_offers(
        self,
        state: DieStepState,
        who: Combatant,
        verbs: Collection[str] = (),
        checked: bool = False,
    ) -> Iterator[Action]:
        """The actions ``who`` may be offered in its turn, only those with ``verbs``;
        ``checked`` (for :meth:`legal`): not those the rules refuse whatever their target
        (:func:`_refused_whoever`), nor melee attacks, strikes and grabs out of reach
        (D-ATK-1, D-UNARMED-1, D-GRAB-1: the same region)."""
        c = who.id
        if not _STRIKES.isdisjoint(verbs):
            strikes = [v for v in ("attack", "strike", "grab") if v in verbs]
            melee: tuple[str, ...] = ()  # verbs whose target must share the region
            if checked:
                strikes = [v for v in strikes if not _refused_whoever(who, v)]
                ranged = who.weapon is not None and not who.weapon.melee
                melee = ("strike", "grab") if ranged else ("attack", "strike", "grab")
            for other in state.combatants.values():
                if other.side == who.side or other.out:
                    continue
                near = other.region == who.region
                for verb in strikes:
                    if near or verb not in melee:
                        yield Action(c, verb, other.id)
        for simple in ("escape", "hold", "release", "down", "crush", "throw", "draw", "prone"):
            if simple in verbs:
                yield Action(c, simple)
        if "stand" in verbs:
            yield Action(c, "stand")
        if not _MOVES.isdisjoint(verbs):
            body = movement.mover(state, who)
            for region in state.regions[body.region].borders:
                for how in ("move", "run", "crawl", "drag"):
                    if how in verbs:
                        yield Action(c, how, region)
            if "run" in verbs:
                away = movement.distances(state, body.region)
                for far in state.regions:
                    if away.get(far) == 2:
                        yield Action(c, "run", far)
        if "mount" in verbs:
            for mount in state.combatants.values():
                if mount.sheet.mount and mount.rider is None:
                    yield Action(c, "mount", mount.id)
        if "dismount" in verbs:
            yield Action(c, "dismount")

    def _after(self, state: DieStepState) -> Iterator[Action]:
        if any(health.owes_survival(c) for c in state.combatants.values()):
            yield Action(GM, "survival")
            return
        for patient in state.combatants.values():
            if patient.wound in ("mortal", "badly") and patient.knocked_out:
                for medic in state.combatants.values():
                    if medic.side == patient.side and medic.id != patient.id:
                        yield Action(medic.id, "aid", patient.id, (("supplies", "kit"),))
        yield Action(GM, "wait", None, (("minutes", "10"),))

    # -- observing ----------------------------------------------------------------------

    def observe(self, state: DieStepState, side: str | None) -> dict[str, Any]:
        """The game master sees all; a side sees its own in full and others as a
        character would: where they stand, how they look, not their HP, AP or dice.
        ``square`` repeats the region under the tracker's column name."""
        return {key: part(self, state, side) for key, part in _EAGER.items()}

    def observe_lazily(self, state: DieStepState, side: str | None) -> Mapping[str, Any]:
        """:meth:`observe`, each part worked out when it is read."""
        return Parts(_PARTS, self, state, side)


#: The actions a fight offers, each made once: the same words, the same action (an
#: action is immutable, and one a listing gives again is found again at once).
_ACTIONS: dict[tuple[str, str, str | None], Action] = {}


def _action(actor: str, verb: str, target: str | None = None) -> Action:
    """``Action(actor, verb, target)``, made once (:data:`_ACTIONS`, bounded)."""
    key = (actor, verb, target)
    found = _ACTIONS.get(key)
    if found is None:
        if len(_ACTIONS) >= 8192:
            _ACTIONS.clear()
        found = _ACTIONS[key] = Action(actor, verb, target)
    return found


@lru_cache(maxsize=16)
def _checks_as_its_own(rules: type[DieStepRules]) -> bool:
    """Whether ``rules`` checks and offers as :class:`DieStepRules` does (a subclass may
    override either), so that its :meth:`~DieStepRules.checking` may be
    :class:`_Fighting`, which stands for both."""
    own = DieStepRules
    return all(
        getattr(rules, name) is getattr(own, name)
        for name in (
            "legal",
            "legal_where",
            "is_legal",
            "check",
            "candidates",
            "_offers",
            "_turn_offers",
        )
    )


class _Checks:
    """:meth:`DieStepRules.is_legal` for the candidates of one listing while a fight is
    under way: what :meth:`DieStepRules.check` asks of every action of one actor and verb
    alike is asked once for them (whose turn it is, whether the actor can act, whether
    the turn's AP pay for the verb's kind), and the open attack's defences once; each
    candidate's own verb check runs as there. Not for a state whose combatants include
    one called ``gm``, nor before the fight or after it."""

    __slots__ = ("_defences", "_gates", "_members", "_ready", "_refusals", "_rules")

    def __init__(self, rules: DieStepRules, state: DieStepState) -> None:
        self._rules = rules
        turn = state.turn
        self._members = () if state.windows or turn is None else turn.members()
        self._refusals: dict[tuple[turns.Kind, bool], bool] = {}
        self._defences: dict[str, str] | None = None
        #: By actor and verb: what is left to ask of each action (see :meth:`_ready_for`).
        self._ready: dict[tuple[str, str], int] = {}
        self._gates: Mapping[str, int] | None = None  # for the turn's pair: see gate()

    def is_legal(self, state: DieStepState, action: Action) -> bool:
        key = (action.actor, action.verb)
        ready = self._ready.get(key)
        if ready is None:
            ready = self._ready[key] = self._ready_for(state, action)
        return self.accepts(state, action, ready)

    def gate(self, state: DieStepState, verb: str) -> int:
        """What is left to ask of an action with ``verb`` by an able member of the turn's
        pair while no window is open, as :meth:`_ready_for` would answer: the same for
        either member (:func:`_turn_gates`)."""
        gates = self._gates
        if gates is None:
            gates = self._gates = _turn_gates(state)
        return gates.get(verb, _WHOLE)  # a verb registered after the table: the whole check

    def accepts(self, state: DieStepState, action: Action, ready: int) -> bool:
        """:meth:`is_legal` of ``action``, whose actor's and verb's :meth:`ready` is
        ``ready``."""
        if ready == _DEFENCE:
            return self._defends(state, state.who(action.actor), action.verb)
        return _accepts(self._rules, state, action, ready)

    def _ready_for(self, state: DieStepState, action: Action) -> int:
        """What is left to ask of ``action`` once what :meth:`DieStepRules.check` asks of
        its actor and verb has been asked: nothing (:data:`_REFUSED`), its verb's check,
        the defences, or the whole check (the game master's, and actions whose kind a
        rule works out for each)."""
        if action.actor == GM:
            return _WHOLE
        verb = VERBS.get(action.verb)
        if verb is None or verb.kind == "gm":
            return _REFUSED
        who = state.combatants.get(action.actor)
        if who is None:
            return _REFUSED
        if verb.kind in ("interrupt", "answer"):
            return _DEFENCE if action.verb in ("block", "parry", "dodge") else _VERB_CHECK
        if verb.has("only_outside") or state.windows or action.actor not in self._members:
            return _REFUSED
        if not who.able:
            return _REFUSED
        return self.gate(state, action.verb)

    def _defends(self, state: DieStepState, who: Combatant, how: str) -> bool:
        """Whether the check of ``block``, ``parry`` and ``dodge`` accepts ``who``'s
        ``how``: the open window's attack's defences worked out once for the listing."""
        top = state.windows[-1] if state.windows else None
        if not isinstance(top, DefenceWindow):
            return False  # no attack declared to answer
        if how == "dodge" and who.mounted_on is not None:
            return False  # D-MOUNT-1: the mount dodges for both
        found = self.defences(state)
        return found is not None and found.get(how) == who.id

    def defences(self, state: DieStepState) -> dict[str, str] | None:
        """The active defences open to the declared attack (:func:`combat.defences`),
        worked out once; ``None`` when no attack waits for an answer."""
        if self._defences is None:
            top = state.windows[-1] if state.windows else None
            if not isinstance(top, DefenceWindow):
                return None
            declared = top.defences
            self._defences = (
                dict(declared) if declared is not None else combat.defences(state, top.attack)
            )
        return self._defences

    def _refused(self, state: DieStepState, kind: turns.Kind, moving: bool) -> bool:
        """Whether the turn's AP cannot pay for an action of ``kind`` (whether
        :func:`turns.spend_refusal` refuses it, whoever the actor)."""
        refused = self._refusals.get((kind, moving))
        if refused is None:
            refused = turns.shortfall(state, kind, moving) is not None
            self._refusals[kind, moving] = refused
        return refused

    def payable(self, state: DieStepState, verbs: Collection[str]) -> Collection[str]:
        """``verbs`` but those of the turn whose every action the turn's AP cannot pay:
        their kind is the verb's own (not one a rule works out per action, as a mount's)
        and :func:`turns.spend_refusal` refuses it. Only while a turn is under way."""
        assert state.turn is not None and not state.windows
        unpaid = [
            name
            for name, kind, moving in _paid(frozenset(verbs))
            if self._refused(state, kind, moving)
        ]
        return frozenset(verbs).difference(unpaid) if unpaid else verbs


class _Fighting(Checking[DieStepState]):
    """:class:`~fracas.engine.Checking` of a fight under way, kept for the questions of
    one state (a policy's one choice): what the turn's AP refuse is looked up once
    (:func:`_turn_gates`); the turn's listings are made straight from the state, each
    candidate asked only its verb's quick check (:mod:`.quick`); a window's answers are
    listed straight from the open window, once (each is what :meth:`DieStepRules.check`
    accepts of it: the open attack's defences and its target's ``take``, or the first
    waiting's opportunity attacks on the provoker and its pair, and ``pass``); anything
    else is asked of one :class:`_Checks`."""

    __slots__ = ("_answered", "_gates", "_made")

    ruleset: DieStepRules

    def __init__(self, rules: DieStepRules, state: DieStepState) -> None:
        self.ruleset = rules
        self.state = state
        self._made: _Checks | None = None
        self._gates: Mapping[str, int] | None = None
        self._answered: dict[str, list[Action]] = {}  # each one's answers to the window

    def _turn_gates(self) -> Mapping[str, int]:
        """:func:`_turn_gates` of the state, looked up once."""
        gates = self._gates
        if gates is None:
            gates = self._gates = _turn_gates(self.state)
        return gates

    @property
    def _checks(self) -> _Checks:
        made = self._made
        if made is None:
            made = self._made = _Checks(self.ruleset, self.state)
        return made

    def is_legal(self, action: Action) -> bool:
        state = self.state
        verb = action.verb
        if not action.options and (verb in _ANSWERING or verb == "end"):
            who = state.combatants.get(action.actor)
            if who is not None and verb != "end":
                # D-ACT-1: the answers to a window are asked only of their own check
                return QUICK[verb](state, who, action) is True
            turn = state.turn
            if who is not None and state.windows:
                return False  # D-ACT-1: nothing but the answers while a window is open
            if who is not None and turn is not None:
                # D-ACT-1: the turn's own actor ends it, if it can act
                return (
                    action.actor == turn.actor
                    and who.able
                    and self._turn_gates()["end"] != _REFUSED
                )
        return self._checks.is_legal(state, action)

    def legal(self, actor: str | None, verbs: Collection[str] | None = None) -> Iterator[Action]:
        return self._where(actor, verbs, None)

    def any_legal(self, actor: str) -> bool:
        state = self.state
        if not state.windows:
            return super().any_legal(actor)
        found = self._answered.get(actor)
        if found is None:  # kept for the listing the policy asks next
            found = self._answered[actor] = self._answers(actor)
        return bool(found)

    def legal_where(
        self, actor: str | None, verbs: Collection[str] | None, keep: Callable[[Action], bool]
    ) -> Iterator[Action]:
        return self._where(actor, verbs, keep)

    def _where(
        self,
        actor: str | None,
        verbs: Collection[str] | None,
        keep: Callable[[Action], bool] | None,
    ) -> Iterator[Action]:
        state = self.state
        if actor is None:
            return self.ruleset._listing(state, actor, verbs, keep, self._checks)
        if not state.windows:
            turn = state.turn
            if turn is None or actor not in turn.members():
                return iter(())  # D-ACT-1: only the turn's pair acts, or answers a window
            return iter(self._turn(state.combatants[actor], turn, verbs, keep))
        found = self._answered.get(actor)
        if found is None:
            found = self._answered[actor] = self._answers(actor)
        return iter(
            [a for a in found if (verbs is None or a.verb in verbs) and (keep is None or keep(a))]
        )

    def _turn(
        self,
        who: Combatant,
        turn: Turn,
        verbs: Collection[str] | None,
        keep: Callable[[Action], bool] | None,
    ) -> list[Action]:
        """The legal actions of ``who``, of the turn's pair, in the order
        :meth:`DieStepRules._offers` proposes them; the candidates of a verb the turn
        refuses whatever its target (:meth:`_Checks.gate`) are not even made."""
        if not who.able:
            return []  # D-ACT-1: no actions at all
        state = self.state
        gates = self._turn_gates()
        actor = who.id
        try:
            plan = _PLANS[verbs]
        except (KeyError, TypeError):  # (verbs unhashable, as a list)
            plan = _plan(verbs)
        # Each candidate with what is left to ask of it, in the order they are offered.
        offered: list[tuple[Action, int]] = []
        if plan.end and actor == turn.actor:
            offered.append((_action(actor, "end"), gates["end"]))
        if plan.strikes:
            strikes = []
            for verb in plan.strikes:  # (not _refused_whoever, asked in place)
                if verb == "attack":
                    if who.weapon is None or not who.ready:
                        continue  # D-ATK-1
                elif who.mounted_on is not None or (verb == "grab" and who.holding is not None):
                    continue  # D-MOUNT-1, D-GRAB-1
                if (ready := gates[verb]) != _REFUSED:
                    strikes.append((verb, ready))
            if strikes:
                ranged = who.weapon is not None and not who.weapon.melee
                for other in state.combatants.values():
                    if other.side == who.side or other.dead or other.knocked_out:  # other.out
                        continue
                    near = other.region == who.region
                    for verb, ready in strikes:
                        if near or (ranged and verb == "attack"):  # D-ATK-1: the same region
                            offered.append((_action(actor, verb, other.id), ready))
        for simple in plan.simple:
            if (ready := gates[simple]) != _REFUSED:
                offered.append((_action(actor, simple), ready))
        if plan.moves:
            moves = [(how, ready) for how in plan.moves if (ready := gates[how]) != _REFUSED]
            if moves:
                body = movement.mover(state, who)
                for region in state.regions[body.region].borders:
                    for how, ready in moves:
                        offered.append((_action(actor, how, region), ready))
                if plan.run and (ready := gates["run"]) != _REFUSED:
                    away = movement.distances(state, body.region)
                    for far in state.regions:
                        if away.get(far) == 2:
                            offered.append((_action(actor, "run", far), ready))
        for verb in plan.mounts:
            if (ready := gates[verb]) != _REFUSED:
                if verb == "mount":
                    for m in state.combatants.values():
                        if m.sheet.mount and m.rider is None:
                            offered.append((_action(actor, verb, m.id), ready))
                else:
                    offered.append((_action(actor, verb), ready))
        found = []
        for action, ready in offered:  # (_accepts, asked in place)
            if keep is not None and not keep(action):
                continue
            if ready == _VERB_CHECK:
                quick = QUICK.get(action.verb)
                ok = quick(state, who, action) if quick is not None else None
                if ok is None:
                    ok = _verb_allows(state, action)
            elif ready == _WHOLE:
                ok = Ruleset.is_legal(self.ruleset, state, action)
            else:
                ok = False  # _REFUSED (an end the turn's AP refuse)
            if ok:
                found.append(action)
        return found

    def _answers(self, actor: str) -> list[Action]:
        """``actor``'s legal answers to the open window, in the order they are offered."""
        state = self.state
        top = state.windows[-1]
        if isinstance(top, DefenceWindow):
            found = []
            defences = top.defences  # as declared
            if defences is None:
                defences = combat.defences(state, top.attack)
            for how, by in defences.items():
                if by == actor and not (how == "dodge" and state.combatants[by].mounted_on):
                    found.append(_action(by, how))  # D-MOUNT-1: a rider does not dodge
            if top.attack.target == actor:
                found.append(_action(actor, "take"))
            return found
        if top.waiting[0] != actor:
            return []
        provoker = state.combatants[top.provoker]
        found = [_action(actor, "opportunity", provoker.id)]
        if provoker.mounted_on is not None:  # or the pair it rides or carries
            found.append(_action(actor, "opportunity", provoker.mounted_on))
        if provoker.rider is not None:
            found.append(_action(actor, "opportunity", provoker.rider))
        found.append(_action(actor, "pass"))
        return found


@lru_cache(maxsize=1024)
def _parsed(text: str) -> Action:
    """A provoking action stored in its window, read again (an action is immutable)."""
    return Action.parse(text)


@lru_cache(maxsize=1024)
def _text(action: Action) -> str:
    """A provoking action as its window stores it (:func:`_parsed` reads it again)."""
    return str(action)


#: :func:`_turn_gates` by what decides them: the turn's AP spent and left, its pair's
#: shares of them, and what the actions cost.
_GATES: dict[tuple[int, ...], Mapping[str, int]] = {}


def _turn_gates(state: DieStepState) -> Mapping[str, int]:
    """For every verb, what is left to ask of an action with it by an able member of the
    turn's pair while no window is open (after :meth:`_Checks._ready_for`'s other
    questions): the whole check (a kind a rule works out per action), nothing (the
    turn's AP cannot pay for its kind: :func:`turns.shortfall`) or its verb's check.
    Shared by every state whose turn has the same AP."""
    turn = state.turn
    assert turn is not None
    costs = state.tables.costs
    key = (
        turn.spent,
        turn.pool,
        turn.partner is None,
        turn.moving,
        turn.other,
        turn.rider_cap,
        turn.mount_cap,
        costs["major"],
        costs["minor"],
    )
    found = _GATES.get(key)
    if found is None:
        if len(_GATES) >= 4096:
            _GATES.clear()
        refused: dict[tuple[turns.Kind, bool], bool] = {}
        gates = {}
        for name, verb in VERBS.items():
            paid, moving = _PAID.get(verb.kind), verb.has("moving")
            if name in KINDS:
                gates[name] = _WHOLE
            elif paid is None:
                gates[name] = _VERB_CHECK
            else:
                if (paid, moving) not in refused:
                    refused[paid, moving] = turns.shortfall(state, paid, moving) is not None
                gates[name] = _REFUSED if refused[paid, moving] else _VERB_CHECK
        found = _GATES[key] = gates
    return found


@lru_cache(maxsize=256)
def _paid(verbs: frozenset[str]) -> tuple[tuple[str, turns.Kind, bool], ...]:
    """Those of ``verbs`` the turn pays for in AP whose kind is the verb's own (not one a
    rule works out per action, as a mount's), with that kind and whether they move."""
    found = []
    for name in verbs:
        verb = VERBS.get(name)
        paid = None if verb is None or name in KINDS else _PAID.get(verb.kind)
        if verb is not None and paid is not None:
            found.append((name, paid, verb.has("moving")))
    return tuple(found)


class _Plan(NamedTuple):
    """What :meth:`_Fighting._turn` offers of the verbs asked, each group in its order."""

    end: bool
    strikes: tuple[str, ...]
    simple: tuple[str, ...]
    moves: tuple[str, ...]  # one border away
    run: bool  # two borders away, too
    mounts: tuple[str, ...]


def _plan(verbs: Collection[str] | None) -> _Plan:
    """The :class:`_Plan` of ``verbs`` (``None``: every verb of the turn), kept for a
    frozenset or tuple (a policy asks the same few again and again)."""
    asked = _OFFERED if verbs is None else verbs
    hashable = verbs is None or isinstance(verbs, (frozenset, tuple))
    found = _PLANS.get(verbs) if hashable else None
    if found is None:
        found = _Plan(
            "end" in asked,
            tuple(v for v in ("attack", "strike", "grab") if v in asked),
            tuple(v for v in _SIMPLE if v in asked),
            tuple(v for v in _MOVES_IN_ORDER if v in asked),
            "run" in asked,
            tuple(v for v in ("mount", "dismount") if v in asked),
        )
        if hashable:
            if len(_PLANS) >= 256:
                _PLANS.clear()
            _PLANS[verbs] = found
    return found


#: :func:`_plan` by the verbs asked.
_PLANS: dict[Collection[str] | None, _Plan] = {}


def _accepts(rules: DieStepRules, state: DieStepState, action: Action, ready: int) -> bool:
    """Whether :meth:`DieStepRules.check` accepts ``action``, of which only what
    ``ready`` says is left to ask (not the defences: :meth:`_Checks.accepts`)."""
    if ready == _VERB_CHECK:
        quick = QUICK.get(action.verb)
        if quick is not None and not action.options:
            found = quick(state, state.combatants[action.actor], action)
            if found is not None:
                return found
        return _verb_allows(state, action)
    if ready == _REFUSED:
        return False
    return Ruleset.is_legal(rules, state, action)


def _verb_allows(state: DieStepState, action: Action) -> bool:
    """Whether the check of ``action``'s verb accepts it."""
    try:
        VERBS.check(state, action)
    except EngineError:
        return False
    return True


#: Each part of what a side observes (:meth:`DieStepRules.observe`), as the function
#: working it out from the rules, the state and the side.
_PARTS: dict[str, Callable[[DieStepRules, DieStepState, str | None], Any]] = {
    "round": lambda rules, state, side: state.round,
    "current": lambda rules, state, side: state.current,
    "order": lambda rules, state, side: list(state.order),
    "initiative": lambda rules, state, side: dict(state.initiative) if side is None else {},
    "over": lambda rules, state, side: state.over,
    "minutes": lambda rules, state, side: state.minutes,
    "waiting": lambda rules, state, side: rules.to_move(state) if state.windows else None,
    "ap": lambda rules, state, side: (
        None
        if state.turn is None or side not in (None, state.who(state.turn.actor).side)
        else state.turn.left
    ),
    "regions": lambda rules, state, side: {n: list(r.borders) for n, r in state.regions.items()},
    "combatants": lambda rules, state, side: _People(state, side),
}

#: :data:`_PARTS` as :meth:`DieStepRules.observe` gives them: plain dicts, ready for JSON.
_EAGER: dict[str, Callable[[DieStepRules, DieStepState, str | None], Any]] = {
    **_PARTS,
    "combatants": lambda rules, state, side: {
        cid: _observe_one(c, side is None or side == c.side) for cid, c in state.combatants.items()
    },
}


_STRIKES = frozenset({"attack", "strike", "grab"})
#: The answers to a window with a quick check (kind ``answer`` or ``interrupt``, not a
#: defence): :meth:`DieStepRules.check` asks nothing else of them.
_ANSWERING = frozenset({"take", "pass", "opportunity"})
#: What :class:`_Checks` has left to ask of an action: nothing (refused), its verb's
#: check, the open attack's defences, or the whole of :meth:`DieStepRules.check`.
_REFUSED, _VERB_CHECK, _DEFENCE, _WHOLE = range(4)
#: The kinds of action a turn pays for in AP (D-ACT-1).
_PAID: dict[str, turns.Kind] = {k: k for k in ("major", "minor", "exclusive", "free")}
_MOVES = frozenset({"move", "run", "crawl", "drag"})
_MOVES_IN_ORDER = ("move", "run", "crawl", "drag")
#: The turn's verbs with no target, in the order they are offered.
_SIMPLE = ("escape", "hold", "release", "down", "crush", "throw", "draw", "prone", "stand")
#: Every verb :meth:`DieStepRules._turn_offers` proposes.
_TURN_VERBS = frozenset(
    {
        *_STRIKES,
        *("escape", "hold", "release", "down", "crush", "throw", "draw", "prone"),
        "stand",
        *_MOVES,
        "mount",
        "dismount",
    }
)
#: Every verb :meth:`DieStepRules._offers` proposes in a turn.
_OFFERED = _TURN_VERBS | {"end"}


class _People(Mapping[str, Parts]):
    """What a side sees of each combatant (:data:`_SEEN`, or :data:`_SEEN_FULL` of its
    own), each one's worked out when it is first read: a policy that looks at its own
    fighter reads no other."""

    __slots__ = ("_seen", "_side", "_state")

    def __init__(self, state: DieStepState, side: str | None) -> None:
        self._state = state
        self._side = side
        self._seen: dict[str, Parts] = {}

    def __getitem__(self, cid: str) -> Parts:
        found = self._seen.get(cid)
        if found is None:
            c = self._state.combatants[cid]
            full = self._side is None or self._side == c.side
            found = self._seen[cid] = Parts(_SEEN_FULL if full else _SEEN, c)
        return found

    def get(self, cid: str, default: Any = None) -> Any:
        return self[cid] if cid in self._state.combatants else default

    def __contains__(self, cid: object) -> bool:
        return cid in self._state.combatants

    def __iter__(self) -> Iterator[str]:
        return iter(self._state.combatants)

    def __len__(self) -> int:
        return len(self._state.combatants)


def _observe_one(c: Combatant, full: bool) -> dict[str, Any]:
    return {key: part(c) for key, part in (_SEEN_FULL if full else _SEEN).items()}


def _effects(c: Combatant) -> list[str]:
    out = []
    if c.stunned or c.stunned_encounter:
        out.append("stunned")
    if c.helpless:
        out.append("helpless")
    if c.surprised:
        out.append("surprised")
    if c.wound == "badly":
        out.append("badly wounded")
    elif c.wound == "mortal":
        out.append("mortally wounded")
    if c.mounted_on:
        out.append(f"riding {c.mounted_on}")
    if c.holding:
        out.append(f"holding {c.holding}")
    if not c.ready and c.weapon is not None:
        out.append("weapon not ready")
    return out


#: What every side sees of a combatant, each field as the function working it out.
_SEEN: dict[str, Callable[[Combatant], Any]] = {
    "name": lambda c: c.name,
    "side": lambda c: c.side,
    "region": lambda c: c.region,
    "square": lambda c: c.region,
    "prone": lambda c: c.prone,
    "dead": lambda c: c.dead,
    "unconscious": lambda c: c.knocked_out and not c.dead,
    "effects": _effects,
    "held_by": lambda c: c.held_by,
    "hold": lambda c: c.hold,
    "mounted_on": lambda c: c.mounted_on,
    "rider": lambda c: c.rider,
    "weapon": lambda c: c.weapon.name if c.weapon else None,
    "shield": lambda c: c.shield,
}
#: What its own side (and the game master) sees besides.
_SEEN_FULL: dict[str, Callable[[Combatant], Any]] = {
    **_SEEN,
    "hp": lambda c: c.hp,
    "max_hp": lambda c: c.sheet.hit_points,
    "mp": lambda c: c.mp,
    "debt": lambda c: c.debt,
    "dice": lambda c: dict(_dice_seen(c.sheet)),
    "unaware_of": lambda c: list(c.unaware_of),
    "survival": lambda c: c.survival,
    "permanent_injury": lambda c: c.permanent_injury,
}


#: :func:`_dice_seen` by the sheet's id, with the sheet (an id outlives its object).
_DICE_SEEN: dict[int, tuple[Sheet, dict[str, str]]] = {}


def _dice_seen(sheet: Sheet) -> dict[str, str]:
    """A sheet's dice as a view shows them (``{"att": "d8"}``), worked out once for each
    sheet (sheets are shared, never changed in play); not to be changed."""
    found = _DICE_SEEN.get(id(sheet))
    if found is None or found[0] is not sheet:
        if len(_DICE_SEEN) >= 1024:
            _DICE_SEEN.clear()
        found = _DICE_SEEN[id(sheet)] = (sheet, {k: f"d{v}" for k, v in sheet.dice.items()})
    return found[1]


def _can_oa(state: DieStepState, cid: str) -> bool:
    c = state.combatants[cid]
    return c.able and c.melee_weapon() is not None and turns.can_interrupt(state, c)


def _refused_whoever(who: Combatant, verb: str) -> bool:
    """Whether the check of ``who``'s ``verb`` (``attack``, ``strike`` or ``grab``) refuses
    it whoever the target: no weapon ready to attack with (D-ATK-1), riding (no unarmed
    attack, D-MOUNT-1), or holding someone already (no second grab, D-GRAB-1)."""
    if verb == "attack":
        return who.weapon is None or not who.ready
    return who.mounted_on is not None or (verb == "grab" and who.holding is not None)


def _one_side_standing(state: DieStepState) -> bool:
    """Whether at most one side has anyone standing (the encounter is over)."""
    side = None
    for c in state.combatants.values():
        if not (c.dead or c.knocked_out or c.helpless or c.stunned_encounter):  # _standing
            if side is None:
                side = c.side
            elif c.side != side:
                return False
    return True


def _standing(c: Combatant) -> bool:
    return not (c.out or c.helpless or c.stunned_encounter)
