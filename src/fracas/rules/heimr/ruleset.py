"""The Heimr Tabletop RPG Core as a ruleset of the engine (``fracas.rules.find("heimr")``).

It checks an action against the turn (H-ACT-1: one standard action, each free action
once, ongoing and upcoming actions end the turn) and the verb's own conditions, then
applies it. What each side may see is decided by :meth:`HeimrRules.observe`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Container, Hashable, Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any, ClassVar, TypeVar

from mypy_extensions import mypyc_attr

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
from fracas.engine.abcs import own_isinstance_cache
from fracas.rules.heimr import effects, hiding, observing, setup, terrain, turns
from fracas.rules.heimr.battlefield import Battlefield
from fracas.rules.heimr.campaign import Campaign
from fracas.rules.heimr.quick import (
    IN_HAND,
    OUT_OF_HAND,
    PUNCH,
    WHOLE_VERB,
    plain_shooter,
    plain_striker,
    shot_reaches,
    struck_in_reach,
)
from fracas.rules.heimr.state import DEFENCES, Combatant, HeimrState
from fracas.rules.heimr.verbs import VERBS, free_key, kind_of
from fracas.yamlfile import KeyPath, YamlDocument

GM = "gm"

#: H-ACT-2: pairs of standard actions that go together in one turn, one pair a turn: a
#: weapon drawn or put away during a move (not a charge, docs/decisions.md).
SIMULTANEOUS = {frozenset({"move", "draw"}), frozenset({"move", "sheathe"})}

#: The verbs whose type is always standard or ongoing (not a breather's or a skill's,
#: which their options may change: :func:`~fracas.rules.heimr.verbs.kind_of`).
_SPENDING = frozenset(
    name
    for name, verb in VERBS.items()
    if verb.kind in ("standard", "ongoing") and name not in ("breather", "skill")
)

#: The verbs offered for the squares bordering the actor's.
SQUARE_VERBS = frozenset({"move", "run", "crawl", "climb", "jump"})


class _EveryVerb:
    """Contains every verb: what is wanted when no verbs are named."""

    def __contains__(self, verb: object) -> bool:
        return True


_EVERY_VERB = _EveryVerb()

#: A refusal not yet put in words: called, it builds the error to raise.
Refusal = Callable[[], IllegalAction]


@mypyc_attr(allow_interpreted_subclasses=True)
class HeimrRules(Ruleset[HeimrState]):
    """Heimr combat: initiative, turns, attacks, defences, effects, health and fatigue."""

    id: ClassVar[str] = "heimr"
    name: ClassVar[str] = "Heimr Tabletop RPG Core"
    #: What it offers beyond the protocol (:mod:`fracas.engine.capabilities`).
    capabilities: ClassVar[Mapping[str, object]] = {
        "odds": "fracas.rules.heimr.attack_odds",
        "commands": "fracas.rules.heimr.commands",
        "policies": "fracas.rules.heimr.policies:POLICIES",
        "stats": "fracas.rules.heimr.policies:STATS",
        "sheets": "fracas.rules.heimr.books:SHEETS",
        "carry": "fracas.rules.heimr.books:CARRY",
        "battlefield": "fracas.rules.heimr.ground:GROUND",
        "rolls": "fracas.engine.capabilities:NAMED_ROLLS",
    }

    def __init__(self) -> None:
        # Bordering squares by battlefield (kept alive with it, so its id stays its own).
        self._near: dict[int, tuple[Battlefield, dict[str, tuple[str, ...]]]] = {}
        # The moves, runs, crawls and climbs offered, by battlefield, by actor, verb and square.
        self._steps: dict[
            int, tuple[Battlefield, dict[tuple[str, str, str], tuple[Action, ...]]]
        ] = {}
        # The battlefield as JSON by battlefield, by the borders broken and doors open.
        self._fields: dict[int, tuple[Battlefield, dict[tuple[str, ...], dict[str, Any]]]] = {}

    def check_campaign(self, document: YamlDocument) -> None:
        Campaign.from_documents(document)

    def start(self, setup_data: Mapping[str, Any]) -> HeimrState:
        return setup.build(setup_data)

    def setup_problems(self, setup_data: Mapping[str, Any]) -> list[tuple[KeyPath, str]]:
        return setup.problems(setup_data)

    # -- whose turn --------------------------------------------------------------------

    def verb_names(self, state: HeimrState) -> list[str]:
        return sorted(VERBS)

    def combatant_ids(self, state: HeimrState) -> list[str]:
        return list(state.combatants)

    def to_move(self, state: HeimrState) -> str | None:
        if not state.started:
            return GM
        if self.is_over(state):
            return None
        return state.current

    def is_over(self, state: HeimrState) -> bool:
        if not state.started:
            return False
        side = None  # the side of the first still standing: over unless another stands
        for c in state.combatants.values():
            if not (c.dead or c.unconscious or c.fled):  # Combatant.out, asked often
                if side is None:
                    side = c.side
                elif c.side != side:
                    return False
        return True

    # -- outcomes ----------------------------------------------------------------------

    def sides(self, state: HeimrState) -> list[str]:
        return list(dict.fromkeys(c.side for c in state.combatants.values()))

    def winner(self, state: HeimrState) -> str | None:
        """The one side with someone neither dead, unconscious nor fled, once it is over."""
        standing = {c.side for c in state.combatants.values() if not c.out}
        return next(iter(standing)) if self.is_over(state) and len(standing) == 1 else None

    def harm(self, state: HeimrState) -> Hashable:
        return tuple(
            (cid, c.hp, tuple(c.injuries), c.dead, c.unconscious)
            for cid, c in sorted(state.combatants.items())
        )

    def round_number(self, state: HeimrState) -> int:
        return state.round

    def why_no_actions(self, state: HeimrState, actor: str) -> str | None:
        who = state.combatants.get(actor)
        if who is None or state.current != actor or effects.can_act(who):
            return None
        if who.has("Daze"):
            return f"{who.name} is dazed and can take no actions (H-EFF-5)"
        return f"{who.name} is helpless and can take no actions (H-POS-2)"

    # -- checking ----------------------------------------------------------------------

    def check(self, state: HeimrState, action: Action) -> None:
        refusal = self._turn_refusal(state, action, self.is_over(state))
        if refusal is not None:
            raise refusal()
        VERBS.check(self._as_met(state, action), action)

    def is_legal(self, state: HeimrState, action: Action) -> bool:
        return self._is_legal(state, action, _Checking(self, state))

    def _is_legal(self, state: HeimrState, action: Action, memo: _Checking) -> bool:
        if (
            action.verb == "end"
            and action.target is None
            and not action.options
            and _offers_and_refuses_as_its_own(type(self))
        ):
            # Asked at every choice: what the turn's check (and no check of its own)
            # makes of a plain end of the turn, read in place (H-INIT-2).
            turn = state.turn
            return (
                state.started
                and not memo.over
                and turn is not None
                and turn.actor == action.actor
                and action.actor in state.combatants
            )
        quick = OUT_OF_HAND.get(action.verb)
        if quick is not None and not self._upcoming_due(state, action) and quick(state, action):
            return False  # refused by the verb, whatever the turn allows (a defence asked)
        if self._refused(state, action, memo):
            return False
        met = self._met(state, action, memo)
        if quick is not None and met is not state and quick(met, action):
            return False  # refused without building the refusal
        accept = IN_HAND.get(action.verb)
        if accept is not None and accept(met, action):
            return True  # accepted on what the check would go through
        try:
            VERBS.check(met, action)
        except EngineError:
            return False
        return True

    def _refused(self, state: HeimrState, action: Action, memo: _Checking) -> bool:
        """Whether the turn refuses ``action``: asked once per actor and verb, which with
        a breather's options (it may be taken as upcoming) are all it reads, but for a
        skill, whose refusal depends on the skill (:func:`kind_of`, :func:`free_key`);
        and while the standard action is unspent, once per actor for every standard and
        ongoing verb (:data:`_SPENDING`), whose refusal then reads only that type."""
        verb = action.verb
        if verb == "skill":
            return self._turn_refusal(state, action, memo.over, memo.able) is not None
        key: tuple[str, str, tuple[tuple[str, str], ...]]
        if (
            verb in _SPENDING
            and state.turn is not None
            and not state.turn.standard
            and _offers_and_refuses_as_its_own(type(self))
        ):
            # The standard action not yet spent, the turn's refusal reads of a standard or
            # ongoing action only its type, not its verb (H-ACT-1): one answer for them all.
            key = (action.actor, "", ())
        else:
            key = (action.actor, verb, action.options if verb == "breather" else ())
        no = memo.refused.get(key)
        if no is None:
            no = memo.refused[key] = (
                self._turn_refusal(state, action, memo.over, memo.able) is not None
            )
        return no

    def _refused_whole(self, state: HeimrState, action: Action, memo: _Checking) -> bool:
        """Whether every candidate of ``action``'s actor and verb that the listing offers
        is refused (:data:`WHOLE_VERB`), whatever its target and options."""
        quick = WHOLE_VERB.get(action.verb)
        return (
            quick is not None
            and _offers_and_refuses_as_its_own(type(self))
            and quick(self._met(state, action, memo), action)
        )

    def _met(self, state: HeimrState, action: Action, memo: _Checking) -> HeimrState:
        """:meth:`_as_met`, worked out once per actor."""
        if not self._upcoming_due(state, action):
            return state
        found = memo.met.get(action.actor)
        if found is None:
            found = memo.met[action.actor] = self._as_met(state, action)
        return found

    def checking(self, state: HeimrState) -> Checking[HeimrState]:
        """The questions of one state answered with what they share worked out once:
        whether the fight is over, who can act, the turn's refusals, the state an
        upcoming action leaves."""
        if not _checks_as_its_own(type(self)):
            return super().checking(state)  # a subclass checks its own way
        return _Checking(self, state)

    def legal(
        self, state: HeimrState, actor: str | None, verbs: Collection[str] | None = None
    ) -> Iterator[Action]:
        """The candidates :meth:`check` accepts, checked cheaper: whether the game is over
        and the state an upcoming action leaves are worked out once, and turn-level
        refusals build no message."""
        return self._legal(state, actor, verbs, None)

    def legal_where(
        self,
        state: HeimrState,
        actor: str | None,
        verbs: Collection[str] | None,
        keep: Callable[[Action], bool],
    ) -> Iterator[Action]:
        """:meth:`legal`'s actions that ``keep`` accepts, ``keep`` asked before the
        rules' check (each candidate's check is its own, so the answer is the same)."""
        if type(self).legal is not HeimrRules.legal:  # a subclass checks its own way
            return super().legal_where(state, actor, verbs, keep)
        return self._legal(state, actor, verbs, keep)

    def _legal(
        self,
        state: HeimrState,
        actor: str | None,
        verbs: Collection[str] | None,
        keep: Callable[[Action], bool] | None,
        memo: _Checking | None = None,
    ) -> Iterator[Action]:
        if memo is None:
            memo = _Checking(self, state)
        if type(self).candidates is HeimrRules.candidates:
            if actor is not None and verbs is not None:
                # A verb the turn refuses is not offered at all (its type is its own but
                # for a breather's or a skill's, which their options may change), nor
                # one whose every candidate is refused for the actor and where its foes
                # stand (WHOLE_VERB).
                if (
                    len(verbs) == 1
                    and "attack" in verbs
                    and _offers_and_refuses_as_its_own(type(self))
                ):
                    yield from self._attacks_listed(state, actor, keep, memo)
                    return
                offered_verbs = []
                for v in verbs:
                    if v not in ("breather", "skill"):
                        plain = Action(actor, v)
                        # The quick test of the whole verb first: it reads less than the
                        # turn's refusal, and either leaves the verb out.
                        if self._refused_whole(state, plain, memo) or self._refused(
                            state, plain, memo
                        ):
                            continue
                    offered_verbs.append(v)
                if not offered_verbs:
                    return
                verbs = frozenset(offered_verbs)
                yield from self._listed(state, actor, verbs, keep, memo)
                return
            offered = self._offer(state, actor, verbs)
        else:  # a subclass offers its own candidates
            offered = self.candidates(state, actor)
        for action in offered:
            if (
                (actor is not None and action.actor != actor)
                or (verbs is not None and action.verb not in verbs)
                or (keep is not None and not keep(action))
            ):
                continue
            if self._is_legal(state, action, memo):
                yield action

    def _listed(
        self,
        state: HeimrState,
        actor: str,
        verbs: Collection[str],
        keep: Callable[[Action], bool] | None,
        memo: _Checking,
    ) -> Iterator[Action]:
        """:meth:`_legal` of one actor's ``verbs``, each of which the turn allows (but a
        breather or a skill, whose options may change that, each checked in full): a
        candidate is checked by its verb's quick tests and check alone, on the state its
        verb meets (:meth:`_met`, worked out once a verb)."""
        met_by_verb: dict[str, HeimrState] = {}
        offered = None
        if len(verbs) == 1 and _offers_and_refuses_as_its_own(type(self)):
            offered = self._offer_one(state, actor, verbs)  # else a subclass offers its own
        for action in self._offer(state, actor, verbs) if offered is None else offered:
            verb = action.verb
            if (
                action.actor != actor
                or verb not in verbs
                or (keep is not None and not keep(action))
            ):
                continue
            if verb in ("breather", "skill"):
                if self._is_legal(state, action, memo):
                    yield action
                continue
            met = met_by_verb.get(verb)
            if met is None:
                met = met_by_verb[verb] = self._met(state, action, memo)
            if self._checked(met, action):
                yield action

    @staticmethod
    def _checked(met: HeimrState, action: Action) -> bool:
        """Whether the verb accepts ``action`` in the state it meets: its quick tests
        first (:data:`OUT_OF_HAND`, :data:`IN_HAND`), then its check."""
        verb = action.verb
        quick = OUT_OF_HAND.get(verb)
        if quick is not None and quick(met, action):
            return False
        accept = IN_HAND.get(verb)
        if accept is None or not accept(met, action):
            try:
                VERBS.check(met, action)
            except EngineError:
                return False
        return True

    def _attacks_listed(
        self,
        state: HeimrState,
        actor: str,
        keep: Callable[[Action], bool] | None,
        memo: _Checking,
    ) -> Iterator[Action]:
        """:meth:`_legal` of one actor's attacks: the plain attack on each foe
        :meth:`_offer_one` offers, in its order, that the verb and the turn accept.

        For a plain striker (and a plain shooter) the quick tests' answers are read of
        the target alone, the attacker asked about once, and an attack on a foe in
        another square (refused, quick.melee_out_of_reach) is not even made: the walk
        over the foes is then the whole verb's quick test (no foe in reach, none
        listed), and the turn's refusal is asked only of an attack found."""
        foes = self._foes_offered(state, actor)
        if not foes:
            return
        plain = Action(actor, "attack")
        met = self._met(state, plain, memo)
        who = met.combatants.get(actor)
        striker = who if who is not None and plain_striker(met, who) else None
        if striker is None and self._refused_whole(state, plain, memo):
            return  # quick.no_foe_in_reach: every attack refused
        allowed = False  # whether the turn is known to allow an attack
        shooter: object = _UNASKED  # its shortest range, if a plain shooter; None if not
        for foe in foes:
            target = met.combatants.get(foe)
            if striker is not None and target is not None:
                if target.square != striker.square:
                    continue  # quick.melee_out_of_reach
                action = Action(actor, "attack", foe)
                if keep is not None and not keep(action):
                    continue
                # quick.melee_in_reach, else the verb's own tests
                ok = struck_in_reach(striker, target) or self._checked(met, action)
            else:
                action = Action(actor, "attack", foe)
                if keep is not None and not keep(action):
                    continue
                ok = False
                if target is not None:
                    # Not a plain striker: a plain shooter's, likewise (quick.shot_in_reach).
                    if shooter is _UNASKED:
                        shooter = None if who is None else plain_shooter(met, who)
                    ok = (
                        isinstance(shooter, int)
                        and who is not None
                        and shot_reaches(met, who, target, shooter)
                    )
                ok = ok or self._checked(met, action)
            if ok:
                if not allowed:
                    if self._refused(state, plain, memo):
                        return  # the turn refuses every attack
                    allowed = True
                yield action

    def _as_met(self, state: HeimrState, action: Action) -> HeimrState:
        """The state ``action`` meets: the one in which the actor's due upcoming action
        has completed (on a copy), or ``state`` itself."""
        if not self._upcoming_due(state, action):
            return state
        state = state.clone()
        turns.finish_upcoming(state, state.combatants[action.actor], [])
        return state

    @staticmethod
    def _upcoming_due(state: HeimrState, action: Action) -> bool:
        """H-ACT-1: the actor's upcoming action completes as this turn's standard action
        before whatever it does first, unless it cancels it (or delays its turn)."""
        if state.turn is None or state.turn.actor != action.actor:
            return False
        return state.combatants[action.actor].upcoming is not None and action.verb not in (
            "cancel",
            "delay",
        )

    def _turn_refusal(
        self,
        state: HeimrState,
        action: Action,
        over: bool,
        able: dict[str, bool] | None = None,
    ) -> Refusal | None:
        """Why the verb, the actor or the turn refuses ``action`` (``over``: whether the
        encounter has ended), as a function building the error, or ``None``. ``able``
        keeps, by combatant, whether it can act, for the next actions asked about."""
        verb = VERBS.get(action.verb)
        if verb is None:
            return lambda: VERBS.unknown(action, "H-ACT-3")
        if verb.kind == "gm":
            if action.actor != GM:
                return lambda: IllegalAction(
                    "H-ACT-3", f"only the game master ({GM}) may {action.verb}"
                )
            return None
        who = state.combatants.get(action.actor)
        if who is None:
            known = ", ".join([GM, *state.combatants])
            return lambda: IllegalAction(
                "H-CHAR-5", f"no combatant called {action.actor!r} (there are {known})"
            )
        return self._check_turn(state, action, who, kind_of(action, state), over, able)

    @staticmethod
    def _check_turn(
        state: HeimrState,
        action: Action,
        who: Combatant,
        kind: str,
        over: bool,
        able: dict[str, bool] | None,
    ) -> Refusal | None:
        if kind == "any":
            return None
        if kind == "start" and action.verb == "rest":
            if state.started and not over:
                return lambda: IllegalAction("H-HP-3", "a short rest is taken out of combat")
            return None
        turn = state.turn
        if not state.started or turn is None:
            return lambda: IllegalAction(
                "H-INIT-1", "combat has not begun: the game master begins it"
            )
        if over:
            return lambda: IllegalAction("H-INIT-2", "the encounter is over")
        if kind != "reaction" and turn.actor != who.id:
            current = state.combatants[turn.actor].name
            return lambda: IllegalAction("H-INIT-2", f"it is {current}'s turn, not {who.name}'s")
        if action.verb == "end":
            return None
        if able is None:
            can = effects.can_act(who)
        elif who.id in able:
            can = able[who.id]
        else:
            can = able[who.id] = effects.can_act(who)
        if not can:
            why = "dazed" if who.has("Daze") else "helpless"
            return lambda: IllegalAction(
                "H-EFF-5" if why == "dazed" else "H-POS-2",
                f"{who.name} is {why} and can take no actions",
            )
        if kind == "reaction":
            return None
        if kind in ("standard", "ongoing") and turn.standard:
            if frozenset({turn.standard_verb, action.verb}) not in SIMULTANEOUS:
                return lambda: IllegalAction(
                    "H-ACT-1", f"{who.name} has already used the standard action this turn"
                )
            if turn.simultaneous:
                return lambda: IllegalAction(
                    "H-ACT-2", f"{who.name} has already used a simultaneous action this turn"
                )
        if kind in ("free", "upcoming") and free_key(action) in turn.free:
            return lambda: IllegalAction(
                "H-ACT-1",
                f"{who.name} has already used {action.verb} this "
                "turn: each free action once a turn",
            )
        return None

    # -- applying ----------------------------------------------------------------------

    def apply(self, state: HeimrState, action: Action, dice: DiceSource) -> list[Event]:
        return hiding.unseen(state, self._apply(state, action, dice))

    def _apply(self, state: HeimrState, action: Action, dice: DiceSource) -> list[Event]:
        name = action.verb
        verb = VERBS[name]
        # kind_of(action, state), read in place but for the verbs whose options choose it.
        kind = kind_of(action, state) if name == "breather" or name == "skill" else verb.kind
        events: list[Event] = []
        turn = state.turn
        acting = turn is not None and turn.actor == action.actor
        if (
            acting
            and state.combatants[action.actor].upcoming is not None
            and name != "cancel"
            and name != "delay"
        ):  # _upcoming_due, read in place
            turns.finish_upcoming(state, state.combatants[action.actor], events)
        verb.apply(state, action, dice, events)
        if not acting or turn is None or state.turn is not turn or name == "end":
            return events
        turn.acted = True
        if kind in ("standard", "ongoing"):
            if turn.standard:
                turn.simultaneous = True  # H-ACT-2
            else:
                turn.standard, turn.standard_verb = True, action.verb
        if kind in ("free", "upcoming"):
            turn.free.append(free_key(action))
        who = state.combatants[action.actor]
        if kind == "ongoing":
            who.ongoing = True  # H-ACT-1: -2 on defence rolls until the next turn
        if kind in ("ongoing", "upcoming") or who.out:
            turns.end_turn(state, dice, events)
        return events

    # -- offering ----------------------------------------------------------------------

    def candidates(self, state: HeimrState, actor: str | None) -> Iterator[Action]:
        return self._offer(state, actor, None)

    def _offer(
        self, state: HeimrState, actor: str | None, verbs: Collection[str] | None
    ) -> Iterator[Action]:
        """The candidates of ``actor`` (everyone's when ``None``) with one of ``verbs``
        (any when ``None``), built only for the verbs asked for."""

        wanted: Container[str] = _EVERY_VERB if verbs is None else verbs
        want = wanted.__contains__
        if not state.started:
            if "begin" in wanted:
                yield Action(GM, "begin")
            return
        if actor is None:
            whose: Iterable[Combatant] = state.combatants.values()
        else:
            one = state.combatants.get(actor)
            whose = () if one is None else (one,)
        for c in whose:
            cid = c.id
            if c.readied is not None and "trigger" in wanted:
                yield Action(cid, "trigger")
            if state.current != cid:
                continue
            if "end" in wanted:
                yield Action(cid, "end")
            if "attack" in wanted or "brawl" in wanted or "charge" in wanted:
                foes = [o for o in state.combatants.values() if o.id != cid and not o.dead]
                foes = [o for o in foes if o.side != c.side]
                for other in foes:
                    if "attack" in wanted:
                        yield Action(cid, "attack", other.id)
                    if "brawl" in wanted:
                        yield Action(cid, "brawl", other.id, (("effect", "hit"),))
                        yield Action(cid, "brawl", other.id, (("effect", "bind"),))
                    if "charge" in wanted:
                        yield Action(cid, "charge", other.id)
            if verbs is None or not SQUARE_VERBS.isdisjoint(verbs):
                yield from self._offer_squares(state, c, want)
            if "hide" in wanted:
                yield Action(cid, "hide")
            if "guard" in wanted:
                for ally in state.combatants.values():
                    if ally.side == c.side and ally.id != cid and not ally.dead:
                        yield Action(cid, "guard", ally.id)
                yield Action(cid, "guard", c.square)
                for square in self._neighbours(state, c.square):
                    yield Action(cid, "guard", "-".join(sorted((c.square, square))))
            if "outmanoeuvre" in wanted:
                for other in state.combatants.values():
                    if (
                        other.guarding is not None
                        and other.side != c.side
                        and hiding.hidden_from(c, other.side) is None
                        and hiding.hidden_from(other, c.side) != hiding.UNAWARE
                    ):
                        yield Action(cid, "outmanoeuvre", other.id)
            if "skill" in wanted:
                for skill in c.skills:
                    yield Action(cid, "skill", skill)
                    for effect in state.tables.skill(skill).effects:  # H-EFF-11
                        for other in state.combatants.values():
                            if other.id != cid and other.side != c.side and not other.out:
                                yield Action(
                                    cid, "skill", skill, (("effect", effect), ("on", other.id))
                                )
            if "defend" in wanted:
                for kind in (*DEFENCES, "none"):
                    if kind != c.stance:
                        yield Action(cid, "defend", kind)
            for simple in ("prone", "stand", "dodge", "breather", "release", "cancel", "swap"):
                if simple in wanted:
                    yield Action(cid, simple)
            if "breather" in wanted:
                yield Action(cid, "breather", None, (("as", "upcoming"),))
            if "draw" in wanted:
                for item in [*c.carried, *c.concealed]:
                    yield Action(cid, "draw", item.name)
                for ammo in c.ammunition:  # H-ACT-8
                    yield Action(cid, "draw", ammo)
            if "conceal" in wanted:
                for item in c.held():
                    yield Action(cid, "conceal", item.name)
            if "sheathe" in wanted or "drop" in wanted:
                for held in (c.sword_hand, c.off_hand, c.shield):
                    if held is not None:
                        if "sheathe" in wanted:
                            yield Action(cid, "sheathe", held.name)
                        if "drop" in wanted:
                            yield Action(cid, "drop", held.name)
            if "get" in wanted:
                for item in [*c.pouch, *c.dropped]:
                    yield Action(cid, "get", item.name)
            if "delay" in wanted and state.turn is not None and not state.turn.acted:
                for anchor in state.order:
                    unaware = hiding.hidden_from(state.combatants[anchor], c.side)
                    if anchor != cid and unaware != hiding.UNAWARE:
                        yield Action(cid, "delay", None, (("after", anchor),))
        if state.pending is not None and "reroll" in wanted:
            pending = Action.parse(state.pending)
            if pending.target is not None and actor in (None, pending.target):
                yield Action(pending.target, "reroll")

    def _offer_one(
        self, state: HeimrState, actor: str, verbs: Collection[str]
    ) -> list[Action] | None:
        """:meth:`_offer` of one actor's one verb among those a policy lists most (its
        candidates in the same order), built without walking every verb's offer;
        ``None`` for the others."""
        (verb,) = verbs
        if verb not in _OFFERED_ONE:
            return None
        if verb in _AT_FOES:
            foes = self._foes_offered(state, actor)
            if verb == "brawl":
                return [Action(actor, "brawl", foe, options) for foe in foes for options in _BRAWLS]
            return [Action(actor, verb, foe) for foe in foes]
        c = state.combatants.get(actor)
        if c is None or not state.started or state.current != actor:
            return []
        if verb == "jump":
            return [Action(actor, "jump")] if c.height > 0 else []
        # The same actor's moves from the same square are the same actions (immutable):
        # made once a battlefield, not at every listing.
        known = _kept_for(self._steps, state.battlefield)
        key = (actor, verb, c.square)
        steps = known.get(key)
        if steps is None:
            if len(known) > 4096:
                known.clear()
            steps = known[key] = self._steps_from(state, actor, verb, c.square)
        return list(steps)

    def _steps_from(
        self, state: HeimrState, actor: str, verb: str, square: str
    ) -> tuple[Action, ...]:
        """:meth:`_offer_one` of a move, run, crawl or climb from ``square``."""
        near = self._neighbours(state, square)
        if verb == "climb":
            return (
                Action(actor, "climb", "up"),
                Action(actor, "climb", "down"),
                *(
                    Action(actor, "climb", way, (("toward", to),))
                    for to in near
                    for way in ("up", "down")
                ),
            )
        steps = [Action(actor, verb, to) for to in near]
        if verb == "move":
            steps.append(Action(actor, "move", "out"))
        return tuple(steps)

    @staticmethod
    def _foes_offered(state: HeimrState, actor: str) -> list[str]:
        """Whom :meth:`_offer_one` offers ``actor`` to attack, brawl or charge, in order:
        everyone of another side not dead, when it is the actor's turn."""
        c = state.combatants.get(actor)
        if c is None or not state.started or state.current != actor:
            return []
        side = c.side
        return [
            o.id
            for o in state.combatants.values()
            if o.id != actor and not o.dead and o.side != side
        ]

    def _offer_squares(
        self, state: HeimrState, c: Combatant, want: Callable[[str], bool]
    ) -> Iterator[Action]:
        """Moves and climbs to the bordering squares, and jumps."""
        cid = c.id
        near = self._neighbours(state, c.square)
        for square in near:
            for verb in ("move", "run", "crawl"):
                if want(verb):
                    yield Action(cid, verb, square)
        if want("move"):
            yield Action(cid, "move", "out")
        if want("climb"):
            yield Action(cid, "climb", "up")
            yield Action(cid, "climb", "down")
            for square in near:
                yield Action(cid, "climb", "up", (("toward", square),))
                yield Action(cid, "climb", "down", (("toward", square),))
        if want("jump") and c.height > 0:  # heights are never below 0: none to jump
            yield Action(cid, "jump")

    def _neighbours(self, state: HeimrState, square: str) -> tuple[str, ...]:
        """The squares bordering ``square``, worked out once per battlefield (which play
        does not change)."""
        known = _kept_for(self._near, state.battlefield)
        near = known.get(square)
        if near is None:
            near = known[square] = tuple(state.battlefield.neighbours(square))
        return near

    # -- observing ---------------------------------------------------------------------

    def observe(self, state: HeimrState, side: str | None) -> dict[str, Any]:
        """The game master sees everything; a side sees its own fully and others as a
        character would (:mod:`fracas.rules.heimr.observing`)."""
        return {key: part(self, state, side, False) for key, part in _PARTS.items()}

    def observe_lazily(self, state: HeimrState, side: str | None) -> Mapping[str, Any]:
        return Parts(_PARTS, self, state, side, True)

    def _field_view(self, state: HeimrState, lazy: bool = False) -> Mapping[str, Any]:
        """:func:`field_view`, worked out once per battlefield and the borders play has
        opened (which alone change in play), and handed out as a copy of its own;
        ``lazy``: each of its parts copied when first read (a policy reads one or two)."""
        field = state.battlefield
        known = self._fields.get(id(field))
        if known is None or known[0] is not field:
            if len(self._fields) > 64:
                self._fields.clear()
            known = self._fields[id(field)] = (field, {})
        key = (*state.broken, "", *state.open_doors)
        found = known[1].get(key)
        if found is None:
            if len(known[1]) > 64:
                known[1].clear()
            found = known[1][key] = field_view(state)
        return LazyFieldView(found) if lazy else _copy_field_view(found)


#: Not yet worked out.
_UNASKED = object()

_K = TypeVar("_K")
_V = TypeVar("_V")


def _kept_for(
    cache: dict[int, tuple[Battlefield, dict[_K, _V]]], field: Battlefield
) -> dict[_K, _V]:
    """What ``cache`` keeps for ``field`` (kept alive with it, so that its id stays its
    own), empty for a battlefield it has not seen; at most 64 battlefields are kept."""
    known = cache.get(id(field))
    if known is None or known[0] is not field:
        if len(cache) > 64:
            cache.clear()
        known = cache[id(field)] = (field, {})
    return known[1]


#: The brawls offered on each foe, in order.
_BRAWLS = (PUNCH, (("effect", "bind"),))
#: The verbs offered on each foe.
_AT_FOES = frozenset({"attack", "brawl", "charge"})
#: The verbs :meth:`HeimrRules._offer_one` offers.
_OFFERED_ONE = _AT_FOES | SQUARE_VERBS


@lru_cache(maxsize=16)
def _offers_and_refuses_as_its_own(rules: type[HeimrRules]) -> bool:
    """Whether ``rules`` offers candidates and refuses a turn's actions as
    :class:`HeimrRules` does, so that the shortcuts that stand for those (a plain end of
    the turn, one verb's candidates, :data:`~fracas.rules.heimr.quick.WHOLE_VERB`) answer
    as they would: a subclass that changes them is asked the long way. Answered once a
    class (asked at every listing; a class's methods are set when it is made)."""
    return all(
        getattr(rules, name) is getattr(HeimrRules, name)
        for name in ("_turn_refusal", "_check_turn", "_offer", "_offer_one", "_offer_squares")
    )


@lru_cache(maxsize=16)
def _checks_as_its_own(rules: type[HeimrRules]) -> bool:
    """Whether ``rules`` lists and checks actions as :class:`HeimrRules` does, so that
    :meth:`HeimrRules.checking` answers for it. Answered once a class (asked at every
    choice)."""
    return all(
        getattr(rules, name) is getattr(HeimrRules, name)
        for name in ("legal", "legal_where", "is_legal")
    )


def _combatants(
    rules: HeimrRules, state: HeimrState, side: str | None, lazy: bool
) -> Mapping[str, Any]:
    """Everyone ``side`` knows of; ``lazy``: each field worked out as it is read."""
    if lazy:
        return observing.SeenCombatants(state, side)
    return {
        cid: observing.observe_one(state, c, side)
        for cid, c in state.combatants.items()
        if side is None or hiding.hidden_from(c, side) != hiding.UNAWARE
    }


#: Each part of what a side observes, as the function working it out from the rules,
#: the state, the side and whether the combatants' fields are read lazily.
_PARTS: dict[str, Callable[[HeimrRules, HeimrState, str | None, bool], Any]] = {
    "round": lambda rules, state, side, lazy: state.round,
    "clock": lambda rules, state, side, lazy: state.clock,
    "current": lambda rules, state, side, lazy: state.current,
    "order": lambda rules, state, side, lazy: list(state.order),
    "initiative": lambda rules, state, side, lazy: {
        cid: result
        for cid, result in state.initiative.items()
        if side is None or state.combatants[cid].side == side
    },
    "clusters": lambda rules, state, side, lazy: [list(c) for c in state.clusters],
    "battlefield": lambda rules, state, side, lazy: rules._field_view(state, lazy),
    "combatants": _combatants,
}


class _Checking(Checking[HeimrState]):
    """:class:`~fracas.engine.Checking` of the Heimr rules: what the questions of one
    state share, kept as they are first worked out."""

    __slots__ = ("able", "heimr", "met", "over", "refused")

    def __init__(self, ruleset: HeimrRules, state: HeimrState) -> None:
        self.ruleset = ruleset
        self.heimr = ruleset  # the same, as HeimrRules (an attribute keeps its base's type)
        self.state = state
        self.over = ruleset.is_over(state)  # whether the encounter has ended
        self.able: dict[str, bool] = {}  # who can act at all (H-EFF-5, H-POS-2)
        # Whether the turn refuses an action, by its actor, verb and (a breather's) options.
        self.refused: dict[tuple[str, str, tuple[tuple[str, str], ...]], bool] = {}
        self.met: dict[str, HeimrState] = {}  # the state after an actor's due upcoming

    def legal(self, actor: str | None, verbs: Collection[str] | None = None) -> Iterator[Action]:
        return self.heimr._legal(self.state, actor, verbs, None, self)

    def legal_where(
        self, actor: str | None, verbs: Collection[str] | None, keep: Callable[[Action], bool]
    ) -> Iterator[Action]:
        return self.heimr._legal(self.state, actor, verbs, keep, self)

    def is_legal(self, action: Action) -> bool:
        return self.heimr._is_legal(self.state, action, self)


class FieldView(dict[str, Any]):
    """A copy of a :func:`field_view`, with the view it was copied from as ``source``:
    the same source, the same battlefield (a policy keeps what it works out from it)."""

    __slots__ = ("source",)

    source: dict[str, Any] | None


def _copy_field_view(seen: dict[str, Any]) -> dict[str, Any]:
    """A copy of a :func:`field_view` sharing nothing that could be changed in it."""
    copied = FieldView(_copied_field_view(seen))
    copied.source = seen
    return copied


def _copied_field_view(seen: dict[str, Any]) -> dict[str, Any]:
    return {key: copy(seen) for key, copy in _FIELD_PARTS.items()}


#: Each part of a :func:`field_view`, as the function copying it from one.
_FIELD_PARTS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "columns": lambda seen: seen["columns"],
    "rows": lambda seen: seen["rows"],
    "locations": lambda seen: {name: list(o) for name, o in seen["locations"].items()},
    "darkness": lambda seen: seen["darkness"],
    "weather": lambda seen: seen["weather"],
    "squares": lambda seen: {
        sq: {**info, "cover": list(info["cover"])} for sq, info in seen["squares"].items()
    },
    "borders": lambda seen: [{**b, "between": list(b["between"])} for b in seen["borders"]],
}


class LazyFieldView(Parts):
    """A copy of a :func:`field_view` whose parts are copied as they are read, with
    the view it is copied from as ``source`` (as :class:`FieldView`'s).

    >>> seen = {"columns": 3, "rows": 1, "borders": [{"between": ["A1", "B1"]}]}
    >>> lazy = LazyFieldView({**seen, "locations": {}, "darkness": None,
    ...                       "weather": None, "squares": {}})
    >>> lazy["borders"] == seen["borders"] and lazy["borders"] is not seen["borders"]
    True
    """

    __slots__ = ("source",)

    def __init__(self, seen: dict[str, Any]) -> None:
        super().__init__(_FIELD_PARTS, seen)
        self.source = seen


own_isinstance_cache(LazyFieldView)


def field_view(state: HeimrState) -> dict[str, Any]:
    """The battlefield as JSON, for maps: squares with their features, and borders."""
    field = state.battlefield
    squares = {
        sq.id: {
            "name": sq.name,
            "height": sq.height,
            "top": sq.top,
            "difficult": sq.difficult,
            "concealment": field.concealment(sq.id),
            "cover": [name for name, _ in sq.concealment],
            "light": sq.light,
            "lit": field.lit(sq.id),
        }
        for sq in field.squares.values()
    }
    borders = [
        {
            "between": sorted(b.squares),
            "name": b.name,
            "limit": b.limit,
            "cr": b.cr,
            "toughness": None
            if terrain.border_key(*sorted(b.squares)) in terrain.open_borders(state)
            else b.toughness,
            "door": None
            if not b.door
            else "open"
            if terrain.border_key(*sorted(b.squares)) in state.open_doors
            else "closed",
            "climb": (b.climb or 0) if b.climbable else None,  # 0: a climb with no roll
        }
        for b in field.borders.values()
    ]
    return {
        "columns": field.columns,
        "rows": field.rows,
        "locations": {name: list(others) for name, others in field.links.items()},
        "darkness": field.darkness,
        "weather": field.weather,
        "squares": squares,
        "borders": borders,
    }
