"""The default tactical policy of the Heimr core, and its game master.

On its turn a fighter, in this order: pre-rolls the best defence it has (block with a
shield, parry with a melee weapon, else dodge), stands up if prone, takes a breather
when fatigue would fail its attack outright too often, attacks the enemy it is likeliest
to hit (a weapon; with no shot, counted ammunition drawn for the next one, and its
place kept; else a punch), holds a door when its side is outnumbered, closes on
the nearest enemy (charging into a bordering square), and ends its turn. The odds come
from the exact Heimr challenge: its attack challenge as the log last showed it against
the target's pre-rolled defence, which every side sees (H-ATK-3). Poor odds are no
reason to hold back: a defence is rolled again only once used, so waiting never
lowers it, and a breather is the only thing that raises them.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy
from mypy_extensions import mypyc_attr

from fracas.dice.heimr import HeimrChallenge
from fracas.engine import Action
from fracas.engine.capabilities import Kernel, OwnPolicies, PlainStats, Vocabulary
from fracas.engine.legal import action_of, actor_of, one_of, verb_of, verb_where
from fracas.rules.heimr.melee_policy import MeleePolicy
from fracas.rules.heimr.observing import SeenCombatants
from fracas.rules.heimr.weighing import (
    DEFAULT_CHALLENGE,
    ammunition_named,
    hit_chance,
    needs_breather,
)
from fracas.rules.tactics import (
    GameMaster,
    Tactical,
    acting,
    best,
    combatants,
    find,
    first,
)

#: The actions after which nothing but free actions is left this turn: standard actions
#: that go with no other (H-ACT-1, H-ACT-2), the only ones the policy takes and goes on.
SPEND_THE_TURN = ("attack", "brawl")
#: Defences in order of preference: each is legal only for one who can use it.
DEFENCES = ("block", "parry", "dodge")


def events_back(
    view: Mapping[str, Any], kinds: Collection[str] | None = None, since: int = 0
) -> Iterator[tuple[str, Mapping[str, Any], Any]]:
    """The events of ``view``'s log (of ``kinds``, or all; of the entries from ``since``
    on), last first, as ``(kind, data, event)``: read from the events themselves where
    the log offers them (a playout's), else from its JSON. ``event`` is what
    :func:`event_text` reads."""
    log = view.get("log", ())
    back = getattr(log, "events_back", None)
    if back is not None:
        for event in back(kinds, since):
            yield event.kind, event.data, event
        return
    for index in range(len(log) - 1, since - 1, -1):  # no copy of the log: read back
        for event in reversed(log[index]):
            if kinds is None or event.get("kind") in kinds:
                yield event.get("kind"), event.get("data", {}), event


#: The events :func:`reloaded` looks among.
RELOADS = frozenset({"item", "turn"})


def reloaded(view: Mapping[str, Any], who: str) -> bool:
    """Whether the log its side sees shows ``who`` drawing or shooting counted ammunition
    this turn (H-ACT-8): with ammunition drawn (a shot spends it), it drew it this turn.

    >>> log = [[{"kind": "turn", "data": {"who": "e"}}],
    ...        [{"kind": "item", "data": {"who": "e", "ammunition": "Arrow"}}]]
    >>> reloaded({"log": log}, "e"), reloaded({"log": log[:1]}, "e")
    (True, False)
    """
    for kind, data, _ in events_back(view, RELOADS):
        if kind == "turn":
            return False
        if data.get("who") == who and "ammunition" in data:
            return True
    return False


def event_text(event: Any) -> str:
    """The text of an event :func:`events_back` gave."""
    return str(event.get("text", "")) if isinstance(event, Mapping) else str(event.text)


#: The events :func:`last_challenge` looks among.
ROLLS = frozenset({"roll"})


def last_challenge(view: Mapping[str, Any], who: str) -> tuple[int, int]:
    """``who``'s attack challenge as the log last showed it (with its modifiers)."""
    found = _last_of(view, who, ROLLS, _attack_challenge)
    return DEFAULT_CHALLENGE if found is None else found


def _last_of(
    view: Mapping[str, Any],
    who: str,
    kinds: Collection[str],
    pick: Callable[[str, Mapping[str, Any], Any], Any],
) -> Any:
    """What ``pick`` makes of the latest of ``who``'s events of ``kinds`` in the log that
    it makes anything of, or ``None``."""
    for kind, data, event in events_back(view, kinds):
        if data.get("who") == who:
            value = pick(kind, data, event)
            if value is not None:
                return value
    return None


@lru_cache(maxsize=1024)
def _challenge_of(text: str) -> tuple[int, int]:
    """Consistency and potential of a challenge as the log writes it (``C2P3``)."""
    try:
        ch = HeimrChallenge.parse(text)
    except ValueError:
        return DEFAULT_CHALLENGE
    return ch.consistency, ch.potential


#: The events :func:`breathed_last` looks among.
BREATHS = frozenset({"fatigue", "upcoming", "roll"})
#: The events :class:`_Latest` reads: those of both.
READ = ROLLS | BREATHS


#: :func:`~fracas.rules.heimr.weighing.needs_breather`'s answers by consistency and
#: fatigue, for a fighter whose last roll or breather was an attack, and a breather.
_BREATHERS: dict[tuple[int, int], tuple[bool, bool]] = {}


def breathed_last(view: Mapping[str, Any], who: str) -> bool:
    """Whether ``who``'s last roll or breather in the log was a breather (so that a
    fighter at its base fatigue does not breathe turn after turn)."""
    return bool(_last_of(view, who, BREATHS, _breath))


class _Latest:
    """By combatant, the last things one side's log has shown of it, up to entry
    :attr:`upto`: its attack challenge (:attr:`aims`, as :func:`last_challenge` reads it)
    and whether its last roll or breather was a breather (:attr:`breaths`, as
    :func:`breathed_last` reads it). Each entry is read once, for everyone and both."""

    __slots__ = ("aims", "breaths", "log", "upto")

    def __init__(self, log: object) -> None:
        self.log = log
        self.upto = 0
        self.aims: dict[str, tuple[int, int]] = {}
        self.breaths: dict[str, bool] = {}

    def catch_up(self, view: Mapping[str, Any], upto: int) -> None:
        """Read the entries from :attr:`upto` to ``upto``, last first: what each shows of
        a combatant stands over what was read before. The events are those the side's
        own log gives (:meth:`fracas.lab.playout.SideLog.events_back`): the policy reads
        nothing its side does not see."""
        if upto == self.upto:
            return
        aims: dict[str, tuple[int, int]] = {}
        breaths: dict[str, bool] = {}
        for event in view["log"].events_back(READ, self.upto):
            data = event.data
            if event.kind == "roll":  # most are: the rest of a roll read only for an attack
                if " attacks " not in str(data.get("purpose", "")):
                    continue
                who = data.get("who")
                if who is None:
                    continue
                if who not in aims:
                    aims[who] = _challenge_of(str(data.get("challenge", "")))
                if who not in breaths:
                    breaths[who] = False
                continue
            who = data.get("who")
            if (
                who is not None
                and who not in breaths
                and (event.kind == "upcoming" or "breather" in str(event.text))
            ):
                breaths[who] = True  # an upcoming action, or a breather's fatigue
        self.aims.update(aims)
        self.breaths.update(breaths)
        self.upto = upto


def _attack_challenge(kind: str, data: Mapping[str, Any], event: Any) -> tuple[int, int] | None:
    """What :func:`last_challenge` reads of one event: an attack roll's challenge."""
    if kind == "roll" and " attacks " in str(data.get("purpose", "")):
        return _challenge_of(str(data.get("challenge", "")))
    return None


def _breath(kind: str, data: Mapping[str, Any], event: Any) -> bool | None:
    """What :func:`breathed_last` reads of one event: a breather (``True``), an attack
    (``False``), or neither."""
    if kind == "upcoming" or (kind == "fatigue" and "breather" in event_text(event)):
        return True
    if kind == "roll" and " attacks " in str(data.get("purpose", "")):
        return False
    return None


# -- the battlefield -----------------------------------------------------------------------


def _grid_key(field: Mapping[str, Any]) -> tuple[Any, ...]:
    return (
        field.get("columns"),
        field.get("rows"),
        tuple(
            (tuple(b["between"]), b.get("toughness") is not None) for b in field.get("borders", ())
        ),
        tuple((sq, info.get("height", 0)) for sq, info in field.get("squares", {}).items()),
        tuple((k, tuple(v)) for k, v in field.get("locations", {}).items()),
    )


_GRAPHS: dict[tuple[Any, ...], dict[str, dict[str, int]]] = {}


def grid_graph(field: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Square -> bordering square -> turns to step there (a climb for each height above
    the first); structural barriers still standing are left out (H-GRID-3, H-GRID-5)."""
    # A field view the rules made knows the view it was copied from: the same view,
    # the same graph, without going through its squares again.
    source = getattr(field, "source", None)
    if source is not None:
        kept = _BY_SOURCE.get(id(source))
        if kept is not None and kept[0] is source:
            return kept[1]
    key = _grid_key(field)
    found = _GRAPHS.get(key)
    if found is not None:
        _keep_source(source, found)
        return found
    squares: dict[str, Any] = field.get("squares", {})
    heights = {sq: int(info.get("height", 0) or 0) for sq, info in squares.items()}
    walls = {
        frozenset(b["between"]) for b in field.get("borders", ()) if b.get("toughness") is not None
    }
    graph: dict[str, dict[str, int]] = {}
    columns, rows = field.get("columns") or 0, field.get("rows") or 0
    if columns and rows:
        for c in range(columns):
            for r in range(rows):
                here = f"{chr(65 + c)}{r + 1}"
                graph[here] = {}
                for dc, dr in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    if 0 <= c + dc < columns and 0 <= r + dr < rows:
                        there = f"{chr(65 + c + dc)}{r + dr + 1}"
                        if frozenset((here, there)) in walls:
                            continue
                        up = heights.get(there, 0) - heights.get(here, 0)
                        graph[here][there] = 1 + max(0, up - 1)
    else:
        for here, others in field.get("locations", {}).items():
            graph.setdefault(here, {})
            for there in others:
                graph[here][there] = 1
                graph.setdefault(there, {})[here] = 1
    if len(_GRAPHS) > 256:
        _GRAPHS.clear()
    _GRAPHS[key] = graph
    _keep_source(source, graph)
    return graph


_BY_SOURCE: dict[int, tuple[object, dict[str, dict[str, int]]]] = {}


def _keep_source(source: object, graph: dict[str, dict[str, int]]) -> None:
    """Keep ``graph`` as that of the field views copied from ``source`` (if any)."""
    if source is None:
        return
    if len(_BY_SOURCE) > 256:
        _BY_SOURCE.clear()
    _BY_SOURCE[id(source)] = (source, graph)


def turns_to(graph: Mapping[str, Mapping[str, int]], goals: Sequence[str]) -> dict[str, int]:
    """Turns from every square to the nearest of ``goals``."""
    into: dict[str, list[tuple[str, int]]] = {}
    for here, others in graph.items():
        for there, cost in others.items():
            into.setdefault(there, []).append((here, cost))
    found = {g: 0 for g in goals}
    queue = [(0, g) for g in goals]
    while queue:
        d, there = heapq.heappop(queue)
        if d > found.get(there, d):
            continue
        for here, cost in into.get(there, ()):
            if d + cost < found.get(here, 1 << 30):
                found[here] = d + cost
                heapq.heappush(queue, (d + cost, here))
    return found


_AWAY: dict[tuple[int, tuple[str, ...]], tuple[object, dict[str, int]]] = {}


def _turns_to(graph: Mapping[str, Mapping[str, int]], goals: tuple[str, ...]) -> dict[str, int]:
    """:func:`turns_to`, kept by graph (those of :func:`grid_graph` are kept themselves)
    and goals: the same squares are sought turn after turn. Not to be changed."""
    key = (id(graph), goals)
    found = _AWAY.get(key)
    if found is not None and found[0] is graph:
        return found[1]
    if len(_AWAY) > 1024:
        _AWAY.clear()
    away = turns_to(graph, goals)
    _AWAY[key] = (graph, away)
    return away


# -- the policies --------------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)
class DefaultPolicy(Tactical):
    """Heimr's default tactical policy (see the module's docstring)."""

    #: The verbs it lists on most turns (fracas.engine.legal): its attacks. Climbs and jumps,
    #: a dozen candidates, are listed only on the turns it looks for them; the end of the
    #: turn, a defence, a breather or standing up is asked of the rules as that one action.
    verbs_together = frozenset({"attack"})
    #: Whether it has any legal action is asked first of the end of its turn.
    probes = ("end",)

    def __init__(self, ruleset_id: str | None = None) -> None:
        super().__init__(ruleset_id)
        # What it keeps from one choice to the next, while the log is the same one
        # (fracas.lab.playout.SideLog.position): by actor, the log's position just after
        # its attack this turn, and the attack challenge last read with where it was read.
        self._attacked: dict[str, tuple[object, int]] = {}
        # Likewise the log's position just after its move this turn.
        self._moved: dict[str, tuple[object, int]] = {}
        # By side, what the log has shown of each combatant as far as it was read.
        self._read: dict[str | None, _Latest] = {}
        self._position: tuple[object, int] | None = None  # the log's, at this choice

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action:
        actor, people = acting(view, legal)
        me = people.get(actor)
        if me is None:
            return one_of(legal, action_of(actor, "end")) or legal[0]
        position = self._position = _position(view)
        if position is None:
            return self._turn(view, legal, rng, actor, me, people) or legal[0]
        log, length = position
        # Whether it attacked, or moved, just before this choice (the log one entry on).
        kept = self._attacked.get(actor)
        spent = kept is not None and kept[0] is log and kept[1] == length
        kept = self._moved.get(actor)
        moved = kept is not None and kept[0] is log and kept[1] == length
        chosen = self._turn(view, legal, rng, actor, me, people, spent, moved) or legal[0]
        verb = chosen.verb
        if verb in SPEND_THE_TURN:
            self._attacked[actor] = (log, length + 1)
        elif verb == "move":
            self._moved[actor] = (log, length + 1)
        return chosen

    def _aim(self, view: Mapping[str, Any], actor: str) -> tuple[int, int]:
        """:func:`last_challenge`, the log read only past where it was last read."""
        latest = self._latest(view)
        if latest is None:
            return last_challenge(view, actor)
        return latest.aims.get(actor, DEFAULT_CHALLENGE)

    def _latest(self, view: Mapping[str, Any]) -> _Latest | None:
        """:class:`_Latest` for the view's side, brought up to this choice's log; ``None``
        when the log cannot tell where it stands (not a playout's)."""
        position = self._position
        if position is None:
            return None
        side = view.get("side")
        latest = self._read.get(side)
        if latest is None or latest.log is not position[0] or latest.upto > position[1]:
            latest = self._read[side] = _Latest(position[0])
        latest.catch_up(view, position[1])
        return latest

    def _turn(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        rng: numpy.random.Generator,
        actor: str,
        me: Mapping[str, Any],
        people: Mapping[str, Mapping[str, Any]],
        spent: bool = False,
        moved: bool = False,
    ) -> Action | None:
        """The choice; ``spent``: the actor has attacked this turn, so that standard and
        ongoing actions are refused (H-ACT-1) and are not looked for, nor a better
        defence than those it found closed before attacking (attacking opens none);
        ``moved``: it has moved this turn, so that standard and ongoing actions are
        refused (H-ACT-1: a move goes with no other but a draw or putting away, H-ACT-2,
        which it looks for only with a punch to throw) and only free ones looked for."""
        if _dazed(me):
            return one_of(legal, action_of(actor, "end"))  # nothing else is left it
        if spent:
            return self._after_attacking(view, legal, actor, me, people)
        stance = me.get("stance")
        for kind in DEFENCES:
            if stance == kind:
                break
            found = one_of(legal, action_of(actor, "defend", kind))
            if found is not None:
                return found
        if moved:
            return self._after_moving(view, legal, actor, me, people)
        if me.get("prone") and (found := one_of(legal, action_of(actor, "stand"))) is not None:
            return found
        fatigue = int(me.get("fatigue") or 1)
        # The log is read back for the challenge only when it matters: a breather is
        # never needed below fatigue 3, and the odds only rank attacks.
        challenge = self._aim(view, actor) if fatigue >= 3 else None
        if (
            challenge is not None
            and self._needs_breather(view, actor, challenge[0], fatigue, self._breathed)
            and (breather := one_of(legal, action_of(actor, "breather"))) is not None
        ):
            return breather
        attacks = verb_of(legal, "attack")
        if len(attacks) == 1:
            return attacks[0]  # the best of one, its odds not needed
        if attacks:
            aim = challenge if challenge is not None else self._aim(view, actor)

            def odds(action: Action) -> float:
                target = people.get(action.target or "", {})
                defence = target.get("defence")
                result = None if defence is None else defence.get("result")
                value = None if result in (None, "fails") else int(result)
                return hit_chance(aim[0], aim[1], fatigue, value)

            return best(attacks, odds, rng)
        reload = _reload(legal, me)
        if reload is not None:
            return reload  # H-ACT-8: a counted arrow drawn, to shoot next turn
        punches = verb_where(legal, "brawl", _is_punch) if _may_brawl(me, people) else []
        if punches:
            weapon = _weapon_to_draw(legal)
            if weapon is not None:
                return weapon  # a weapon in hand before fists
            return best(punches, lambda a: _hurt(people.get(a.target or "", {})), rng)
        enemies, own = _forces(me, people)
        if not enemies:
            return one_of(legal, action_of(actor, "end"))
        door = self._door(view, legal, actor, me, own, enemies)
        if door is not None:
            return door
        if not (me.get("drawn_ammunition") and reloaded(view, actor)):
            # Not with a shot readied this turn: it keeps its place, and its cover.
            step = self._close_in(view, legal, rng, me, enemies)
            if step is not None:
                return step
        return one_of(legal, action_of(actor, "end"))

    def _after_attacking(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        actor: str,
        me: Mapping[str, Any],
        people: Mapping[str, Mapping[str, Any]],
    ) -> Action | None:
        """What :meth:`_turn` comes to once the turn's attack is made: of all it looks
        for, only the free actions are left (guarding a door, jumping down to an enemy
        below), then the end of the turn."""
        enemies, own = _forces(me, people)
        if not me.get("height") and (own >= len(enemies) or _no_door_to_hold(view, me)):
            # Neither a jump down nor a door to hold (not outnumbered, or none here): the
            # battlefield is read only when outnumbered.
            return one_of(legal, action_of(actor, "end"))
        door = self._door(view, legal, actor, me, own, enemies) if enemies else None
        if door is not None:
            return door
        if (
            enemies
            and me.get("height")
            and me.get("square") in {e["square"] for e in enemies}
            and _may_jump(view, me)
        ):
            jump = one_of(legal, action_of(actor, "jump"))  # down to an enemy below
            if jump is not None:
                return jump
        return one_of(legal, action_of(actor, "end"))

    def _after_moving(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        actor: str,
        me: Mapping[str, Any],
        people: Mapping[str, Mapping[str, Any]],
    ) -> Action | None:
        """What :meth:`_turn` comes to past the defences once the actor has moved this
        turn: standing up, a breather, attacks, punches, charges, steps and climbs are
        all refused, so that only a door to hold, a jump down into an enemy's square,
        counted ammunition drawn with the move (H-ACT-2), and the end of the turn are
        left (in :meth:`_turn`'s order)."""
        reload = _reload(legal, me)
        if reload is not None:
            return reload  # H-ACT-2: drawn with the move, to shoot next turn
        enemies, own = _forces(me, people)
        if not enemies:
            return one_of(legal, action_of(actor, "end"))
        door = self._door(view, legal, actor, me, own, enemies)
        if door is not None:
            return door
        if me.get("square") in {e["square"] for e in enemies} and _may_jump(view, me):
            jump = first(legal, "jump")
            if jump is not None:
                return jump
        return one_of(legal, action_of(actor, "end"))

    def _breathed(self, view: Mapping[str, Any], actor: str) -> bool:
        """:func:`breathed_last`, the log read only past where it was last read."""
        latest = self._latest(view)
        if latest is None:
            return breathed_last(view, actor)
        return latest.breaths.get(actor, False)

    @staticmethod
    def _needs_breather(
        view: Mapping[str, Any],
        actor: str,
        consistency: int,
        fatigue: int,
        breathed: Callable[[Mapping[str, Any], str], bool] = breathed_last,
    ) -> bool:
        """:func:`~fracas.rules.heimr.weighing.needs_breather`, the log read only if it
        matters: its answers either way kept by challenge and fatigue (it reads nothing
        else), the log read when they differ."""
        key = (consistency, fatigue)
        either = _BREATHERS.get(key)
        if either is None:
            if len(_BREATHERS) > 4096:
                _BREATHERS.clear()
            either = _BREATHERS[key] = (
                needs_breather(consistency, fatigue, lambda: False),
                needs_breather(consistency, fatigue, lambda: True),
            )
        if either[0] is either[1]:
            return either[0]
        return either[1] if breathed(view, actor) else either[0]

    @classmethod
    def _door(
        cls,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        actor: str,
        me: Mapping[str, Any],
        own: int,
        enemies: Sequence[Mapping[str, Any]],
    ) -> Action | None:
        """The outnumbered side (``own`` fighters standing, fewer than the enemies it
        sees: the side that holds a door, while the other comes on, so that both never
        wait) holds a door: guard it, or, guarding one, end the turn and let them come;
        ``None`` when the actor has no door to hold."""
        if own >= len(enemies):
            return None
        guard = cls._hold_the_door(view, legal, me, enemies)
        if guard is not None:
            return guard
        if str(me.get("guarding") or "").startswith("border:"):
            return one_of(legal, action_of(actor, "end"))
        return None

    @staticmethod
    def _hold_the_door(
        view: Mapping[str, Any],
        legal: Sequence[Action],
        me: Mapping[str, Any],
        enemies: Sequence[Mapping[str, Any]],
    ) -> Action | None:
        """Guard a door of the own square that enemies stand behind (H-GUARD-3): each
        asked of the rules as that one action (the guards of every border, square and
        ally are offered, each a check), but with an upcoming action due first, which
        may change where it stands and so what is offered."""
        if me.get("guarding"):
            return None
        doors = _doors(view).get(me.get("square"))
        if not doors:
            return None
        behind = {e.get("square") for e in enemies}
        one = me.get("upcoming") is None
        for name, other in doors:
            if other in behind:
                found = (
                    one_of(legal, Action(actor_of(legal), "guard", name))
                    if one
                    else find(legal, "guard", name)
                )
                if found is not None:
                    return found
        return None

    @staticmethod
    def _close_in(
        view: Mapping[str, Any],
        legal: Sequence[Action],
        rng: numpy.random.Generator,
        me: Mapping[str, Any],
        enemies: Sequence[Mapping[str, Any]],
    ) -> Action | None:
        """A step toward the nearest enemy: a charge into its square, a move, a climb."""
        here = me.get("square")
        goals = sorted({str(e["square"]) for e in enemies})
        down = _held_down(me)
        if here in goals:
            # In the enemy's square but out of reach (a height apart): climb or jump to it.
            verbs = ("jump",) if _may_jump(view, me) else ()
            return first(legal, *verbs, *(() if down else ("climb",)))
        if down:
            return None
        graph = grid_graph(view["state"].get("battlefield", {}))
        away = _turns_to(graph, tuple(goals))
        now = away.get(str(here), 1 << 30)
        # Only the actions that could be chosen are asked of the rules: charges when an
        # enemy borders the square, runs when no move comes closer, climbs when neither.
        bordering = graph.get(str(here), {})
        if not bordering.keys().isdisjoint(goals) and _may_charge(view, me, combatants(view)):
            charges = verb_of(legal, "charge")
            if charges:
                return best(charges, lambda a: _hurt(_by_id(view, a.target)), rng)

        def closer(a: Action) -> bool:
            return a.target in graph and away.get(a.target, now) < now

        moves = (
            (verb_where(legal, "move", closer) or verb_where(legal, "run", closer))
            if _may_step_closer(view, me, graph, away, now)
            else []
        )
        if moves:
            return best(moves, lambda a: -away.get(a.target or "", now), rng)
        climbs = verb_where(legal, "climb", lambda a: away.get(a.option("toward") or "", now) < now)
        if climbs:
            return best(climbs, lambda a: 0.0, rng)
        if me.get("climbing"):
            return first(legal, "climb")
        return None


def _field(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """The view's battlefield, read (never changed) from the field view it was copied
    from where it knows it, so that no part of it is copied again."""
    field = view["state"].get("battlefield", {})
    found: Mapping[str, Any] = getattr(field, "source", None) or field
    return found


def _no_door_to_hold(view: Mapping[str, Any], me: Mapping[str, Any]) -> bool:
    """Whether :meth:`DefaultPolicy._door` holds no door for ``me`` whoever stands where:
    it guards no border, and guards something else or has no door in its square's
    borders to guard."""
    guarding = me.get("guarding")
    if str(guarding or "").startswith("border:"):
        return False
    if guarding:
        return True
    return me.get("square") not in _doors(view)


#: By the field view a battlefield's views are copied from: that view, and
#: :func:`_doors`' answer.
_DOORS: dict[int, tuple[object, dict[Any, list[tuple[str, Any]]]]] = {}


def _doors(view: Mapping[str, Any]) -> Mapping[Any, list[tuple[str, Any]]]:
    """By square, the doors in its borders (a limit, no toughness: H-GUARD-3) as the
    border's name and the square behind it, in the order the field lists them: worked
    out once for the field view the view's battlefield is copied from, where it knows
    it (the borders opened or broken in play make another).

    >>> field = {"borders": [{"between": ["A1", "B1"], "limit": 1},
    ...                      {"between": ["B1", "C1"], "toughness": 5, "limit": 1}]}
    >>> _doors({"state": {"battlefield": field}})
    {'A1': [('A1-B1', 'B1')], 'B1': [('A1-B1', 'A1')]}
    """
    field = view["state"].get("battlefield", {})
    source = getattr(field, "source", None)
    if source is not None:
        kept = _DOORS.get(id(source))
        if kept is not None and kept[0] is source:
            return kept[1]
        field = source
    found: dict[Any, list[tuple[str, Any]]] = {}
    for border in field.get("borders", ()):
        if border.get("limit") is None or border.get("toughness") is not None:
            continue
        between = list(border.get("between", ()))
        name = "-".join(sorted(between))
        for here in dict.fromkeys(between):
            other = between[1] if between[0] == here else between[0]
            found.setdefault(here, []).append((name, other))
    if source is not None:
        if len(_DOORS) > 256:
            _DOORS.clear()
        _DOORS[id(source)] = (source, found)
    return found


def _may_step_closer(
    view: Mapping[str, Any],
    me: Mapping[str, Any],
    graph: Mapping[str, Mapping[str, int]],
    away: Mapping[str, int],
    now: int,
) -> bool:
    """Whether a move or run of ``me`` closer to its enemies may be legal: ``False`` when
    every square closer than ``now`` lies more than one height above or below it, which
    no step on foot reaches (H-GRID-5, H-GRID-6), so that the rules need not be asked.
    An upcoming action due first may change where it stands: then it may. The answer
    is kept by ``away`` (the turns to the enemies on one battlefield's graph, whose
    squares' heights it was built from), ``now`` and the height."""
    if me.get("upcoming") is not None:
        return True
    height = me.get("height")
    key = (id(away), now, height)
    kept = _STEPS.get(key)
    if kept is not None and kept[0] is away:
        return kept[1]
    squares: Mapping[str, Any] = _field(view).get("squares", {})
    may = False
    for square in graph:
        if away.get(square, now) < now:
            info = squares.get(square)
            if info is None or height is None or abs(int(info["height"]) - int(height)) <= 1:
                may = True
                break
    if len(_STEPS) > 4096:
        _STEPS.clear()
    _STEPS[key] = (away, may)
    return may


#: :func:`_may_step_closer`'s answers, by ``id(away)``, ``now`` and height, with ``away``.
_STEPS: dict[tuple[int, int, Any], tuple[object, bool]] = {}


def _foe_squares(
    me: Mapping[str, Any], people: Mapping[str, Mapping[str, Any]]
) -> list[str | None] | None:
    """The squares of the foes ``me`` knows of (of another side, not dead; ``None`` for
    one hidden somewhere, or on no square), or ``None`` when the rules are asked of
    another state than the one seen: ``me`` has an upcoming action due first, or stands
    on no square."""
    if me.get("upcoming") is not None or me.get("square") is None:
        return None
    side = me.get("side")
    if type(people) is SeenCombatants:
        return people.foe_squares(side)
    return [p.get("square") for p in people.values() if not p.get("dead") and p.get("side") != side]


def _may_brawl(me: Mapping[str, Any], people: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether a brawl of ``me`` may be legal: ``False`` when every foe it knows of
    stands in another square (H-ATK-1), so that the rules need not be asked; a foe it
    does not know of is never a target (H-POS-4).

    >>> me = {"side": "a", "square": "A1", "upcoming": None}
    >>> foe = {"side": "b", "square": "B1", "dead": False}
    >>> _may_brawl(me, {"e": foe}), _may_brawl(me, {"e": {**foe, "square": "A1"}})
    (False, True)
    """
    squares = _foe_squares(me, people)
    if squares is None:
        return True
    here = me.get("square")
    return any(square is None or square == here for square in squares)


def _may_charge(
    view: Mapping[str, Any], me: Mapping[str, Any], people: Mapping[str, Mapping[str, Any]]
) -> bool:
    """Whether a charge of ``me`` may be legal: ``False`` when every foe it knows of
    stands in its own square (H-ACT-4) or in one more than one height above or below it
    (H-GRID-5, H-GRID-6), so that the rules need not be asked; a foe it does not know of
    is never a target (H-POS-4)."""
    squares = _foe_squares(me, people)
    height = me.get("height")
    if squares is None or height is None:
        return True
    here = me.get("square")
    field: Mapping[str, Any] = _field(view).get("squares", {})
    for square in squares:
        if square == here:
            continue
        info = None if square is None else field.get(square)
        if info is None or abs(int(info["height"]) - int(height)) <= 1:
            return True
    return False


def _dazed(me: Mapping[str, Any]) -> bool:
    """Whether ``me`` is seen dazed, which refuses every action it might take but the end
    of its turn (H-EFF-5), so that the rules need not be asked of them; not with an
    upcoming action due first, which may change that.

    >>> _dazed({"effects": ["Daze"], "upcoming": None}), _dazed({"effects": []})
    (True, False)
    """
    return me.get("upcoming") is None and "Daze" in (me.get("effects") or ())


def _held_down(me: Mapping[str, Any]) -> bool:
    """Whether ``me`` is seen prone, which refuses every charge, move, run and climb
    (H-POS-1: it stands up first), so that the rules need not be asked of them; not with
    an upcoming action due first, which may change that.

    >>> _held_down({"prone": True, "upcoming": None}), _held_down({"prone": False})
    (True, False)
    """
    return bool(me.get("prone")) and me.get("upcoming") is None


def _may_jump(view: Mapping[str, Any], me: Mapping[str, Any]) -> bool:
    """Whether a jump down of ``me`` may be legal: ``False`` when it stands (climbing
    nowhere) no higher than its square's ground, with nothing to jump down from (H-ACT-3),
    so that the rules need not be asked. An upcoming action due first may change where
    it stands: then it may.

    >>> view = {"state": {"battlefield": {"squares": {"B3": {"height": 4}}}}}
    >>> me = {"square": "B3", "height": 4, "climbing": False, "upcoming": None}
    >>> _may_jump(view, me), _may_jump(view, {**me, "height": 5})
    (False, True)
    """
    if me.get("upcoming") is not None or me.get("climbing"):
        return True
    height = me.get("height")
    info = _field(view).get("squares", {}).get(me.get("square"))
    return info is None or height is None or int(height) > int(info["height"])


def _reload(legal: Sequence[Action], me: Mapping[str, Any]) -> Action | None:
    """A draw of the counted ammunition ``me`` has left, with none drawn (H-ACT-8: the
    rules accept it only for a weapon in hand that shoots it), or ``None``.

    >>> legal = [Action.parse(t) for t in ("e draw Axe", "e draw Arrow")]
    >>> str(_reload(legal, {"ammunition": {"Arrow": 2}, "drawn_ammunition": None}))
    'e draw Arrow'
    >>> _reload(legal, {"ammunition": {"Arrow": 0}}), _reload(legal, {})
    (None, None)
    """
    counted = me.get("ammunition")
    if not counted or me.get("drawn_ammunition") or not any(counted.values()):
        return None
    found = verb_where(legal, "draw", lambda a: bool(counted.get(a.target or "")))
    return found[0] if found else None


def _is_punch(action: Action) -> bool:
    """Whether a brawl is a punch (not a bind, which the policy never takes)."""
    return action.option("effect") == "hit"


def _weapon_to_draw(legal: Sequence[Action]) -> Action | None:
    """A weapon to draw, preferring items named weapons, never ammunition.

    >>> str(_weapon_to_draw([Action.parse(t) for t in ("e draw quiver", "e draw Axe")]))
    'e draw Axe'
    """
    # Only the draws it could take are asked of the rules (ammunition is never checked).
    draws = verb_where(legal, "draw", lambda a: not ammunition_named(a.target or ""))
    named = [a for a in draws if "weapon" in (a.target or "").lower()]
    found = named or draws
    return found[0] if found else None


def _enemies(
    me: Mapping[str, Any], people: Mapping[str, Mapping[str, Any]]
) -> list[Mapping[str, Any]]:
    """The enemies ``me`` sees standing somewhere on the field."""
    return _forces(me, people)[0]


def _forces(
    me: Mapping[str, Any], people: Mapping[str, Mapping[str, Any]]
) -> tuple[list[Mapping[str, Any]], int]:
    """The enemies ``me`` sees standing somewhere on the field, and how many of its own
    side stand (neither dead nor unconscious), read in one pass (by a side's lazy view
    itself, when it is one: :meth:`~fracas.rules.heimr.observing.SeenCombatants.forces`)."""
    side = me.get("side")
    if type(people) is SeenCombatants:
        return people.forces(side)  # type: ignore[return-value]
    enemies = []
    own = 0
    for p in people.values():
        if p.get("dead") or p.get("unconscious"):
            continue
        if p.get("side") == side:
            own += 1
        elif p.get("square") is not None:
            enemies.append(p)
    return enemies, own


def _position(view: Mapping[str, Any]) -> tuple[object, int] | None:
    """Where the view's log stands, where it can tell (a playout's log)."""
    position = getattr(view.get("log"), "position", None)
    return None if position is None else position()


def _hurt(person: Mapping[str, Any]) -> float:
    """How hurt someone looks: injuries taken, and hit points lost where known."""
    injuries = len(person.get("injuries", ()))
    lost = 0
    if person.get("hp") is not None and person.get("max_hp"):
        lost = int(person["max_hp"]) - int(person["hp"])
    return injuries + 0.1 * lost


def _by_id(view: Mapping[str, Any], cid: str | None) -> Mapping[str, Any]:
    found: Mapping[str, Any] = combatants(view).get(cid or "", {})
    return found


class GmPolicy(GameMaster):
    """Heimr's game master begins the fight, and ends the turn of one who cannot act."""

    verbs = ("begin", "skip")


class Stats(PlainStats):
    """The lab's reading of a Heimr fight (:class:`fracas.engine.capabilities.LabStats`):
    injuries are the injuries taken."""

    def injuries(self, seen: Mapping[str, Any]) -> int:
        return len(seen.get("injuries") or ())


def _kernel() -> Kernel:
    from fracas.rules.heimr.kernel import KERNEL  # NumPy tables, built when asked

    return KERNEL


#: The ruleset's policies capability (:class:`fracas.engine.capabilities.Policies`): its
#: verbs as the lab's baselines use them (each list best first), its own policies.
POLICIES = OwnPolicies(
    Vocabulary(
        attacks=("attack", "charge", "brawl"),
        approach=("move",),
        defences=(),
        finish=("end",),
        begin=("begin",),
        never=(("effect", "bind"),),
        # H-FAT-1: at fatigue 7 a roll fails outright unless a d10 shows 7 or more.
        recover="breather",
        tired=("fatigue", 7),
    ),
    {"default": DefaultPolicy, MeleePolicy.name: MeleePolicy},
    GmPolicy,
    kernel_of=_kernel,
)
STATS = Stats()
