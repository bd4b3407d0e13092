"""The Heimr Tabletop RPG Core as a ruleset of the engine (``fracas.rules.find("heimr")``).

It checks an action against the turn (H-ACT-1: one standard action, each free action
once, ongoing and upcoming actions end the turn) and the verb's own conditions, then
applies it. What each side may see is decided by :meth:`HeimrRules.observe`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from fracas.engine import Action, DiceSource, Event, IllegalAction, Ruleset
from fracas.rules.heimr import combat, effects, health, hiding, setup, terrain, turns
from fracas.rules.heimr.campaign import Campaign
from fracas.rules.heimr.state import DEFENCES, Combatant, HeimrState
from fracas.rules.heimr.verbs import VERBS, free_key, kind_of
from fracas.yamlfile import YamlDocument

GM = "gm"

#: H-ACT-2: pairs of standard actions that go together in one turn, one pair a turn: a
#: weapon drawn or put away during a move (not a charge, docs/decisions.md).
SIMULTANEOUS = {frozenset({"move", "draw"}), frozenset({"move", "sheathe"})}


class HeimrRules(Ruleset[HeimrState]):
    """Heimr combat: initiative, turns, attacks, defences, effects, health and fatigue."""

    id: ClassVar[str] = "heimr"
    name: ClassVar[str] = "Heimr Tabletop RPG Core"

    def check_campaign(self, document: YamlDocument) -> None:
        Campaign.from_documents(document)

    def start(self, setup_data: Mapping[str, Any]) -> HeimrState:
        return setup.build(setup_data)

    # -- whose turn --------------------------------------------------------------------

    def to_move(self, state: HeimrState) -> str | None:
        if not state.started:
            return GM
        if self.is_over(state):
            return None
        return state.current

    def is_over(self, state: HeimrState) -> bool:
        if not state.started:
            return False
        standing = {c.side for c in state.combatants.values() if not c.out}
        return len(standing) <= 1

    # -- checking ----------------------------------------------------------------------

    def check(self, state: HeimrState, action: Action) -> None:
        verb = VERBS.find(action, "H-ACT-3")
        if verb.kind == "gm":
            if action.actor != GM:
                raise IllegalAction("H-ACT-3", f"only the game master ({GM}) may {action.verb}")
        else:
            if action.actor not in state.combatants:
                known = ", ".join([GM, *state.combatants])
                raise IllegalAction(
                    "H-CHAR-5", f"no combatant called {action.actor!r} (there are {known})"
                )
            self._check_turn(state, action, state.combatants[action.actor], kind_of(action))
        if self._upcoming_due(state, action):
            # The action meets the state in which the upcoming action has completed.
            state = state.clone()
            turns.finish_upcoming(state, state.combatants[action.actor], [])
        VERBS.check(state, action)

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

    def _check_turn(self, state: HeimrState, action: Action, who: Combatant, kind: str) -> None:
        if kind == "any":
            return
        if kind == "start" and action.verb == "rest":
            if state.started and not self.is_over(state):
                raise IllegalAction("H-HP-3", "a short rest is taken out of combat")
            return
        if not state.started or state.turn is None:
            raise IllegalAction("H-INIT-1", "combat has not begun: the game master begins it")
        if self.is_over(state):
            raise IllegalAction("H-INIT-2", "the encounter is over")
        if kind != "reaction" and state.turn.actor != who.id:
            current = state.combatants[state.turn.actor].name
            raise IllegalAction("H-INIT-2", f"it is {current}'s turn, not {who.name}'s")
        if action.verb == "end":
            return
        if not effects.can_act(who):
            why = "dazed" if who.has("Daze") else "helpless"
            raise IllegalAction(
                "H-EFF-5" if why == "dazed" else "H-POS-2",
                f"{who.name} is {why} and can take no actions",
            )
        if kind == "reaction":
            return
        turn = state.turn
        if kind in ("standard", "ongoing") and turn.standard:
            if frozenset({turn.standard_verb, action.verb}) not in SIMULTANEOUS:
                raise IllegalAction(
                    "H-ACT-1", f"{who.name} has already used the standard action this turn"
                )
            if turn.simultaneous:
                raise IllegalAction(
                    "H-ACT-2", f"{who.name} has already used a simultaneous action this turn"
                )
        if kind in ("free", "upcoming") and free_key(action) in turn.free:
            raise IllegalAction(
                "H-ACT-1",
                f"{who.name} has already used {action.verb} this "
                "turn: each free action once a turn",
            )

    # -- applying ----------------------------------------------------------------------

    def apply(self, state: HeimrState, action: Action, dice: DiceSource) -> list[Event]:
        verb = VERBS[action.verb]
        kind = kind_of(action)
        events: list[Event] = []
        turn = state.turn
        acting = turn is not None and turn.actor == action.actor
        if self._upcoming_due(state, action):
            turns.finish_upcoming(state, state.combatants[action.actor], events)
        verb.apply(state, action, dice, events)
        if not acting or turn is None or state.turn is not turn or action.verb == "end":
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
        if not state.started:
            yield Action(GM, "begin")
            return
        for cid, c in state.combatants.items():
            if actor is not None and actor != cid:
                continue
            if c.readied is not None:
                yield Action(cid, "trigger")
            if state.current != cid:
                continue
            yield Action(cid, "end")
            for other in state.combatants.values():
                if other.id == cid or other.dead or other.side == c.side:
                    continue
                yield Action(cid, "attack", other.id)
                yield Action(cid, "brawl", other.id, (("effect", "hit"),))
                yield Action(cid, "brawl", other.id, (("effect", "bind"),))
                yield Action(cid, "charge", other.id)
            for square in self._neighbours(state, c.square):
                yield Action(cid, "move", square)
                yield Action(cid, "run", square)
                yield Action(cid, "crawl", square)
            yield Action(cid, "move", "out")
            yield Action(cid, "climb", "up")
            yield Action(cid, "climb", "down")
            for square in self._neighbours(state, c.square):
                yield Action(cid, "climb", "up", (("toward", square),))
                yield Action(cid, "climb", "down", (("toward", square),))
            yield Action(cid, "jump")
            yield Action(cid, "hide")
            for ally in state.combatants.values():
                if ally.side == c.side and ally.id != cid and not ally.dead:
                    yield Action(cid, "guard", ally.id)
            yield Action(cid, "guard", c.square)
            for square in self._neighbours(state, c.square):
                yield Action(cid, "guard", "-".join(sorted((c.square, square))))
            for other in state.combatants.values():
                if other.guarding is not None and other.side != c.side:
                    yield Action(cid, "outmanoeuvre", other.id)
            for skill in c.skills:
                yield Action(cid, "skill", skill)
            for kind in (*DEFENCES, "none"):
                if kind != c.stance:
                    yield Action(cid, "defend", kind)
            for simple in ("prone", "stand", "dodge", "breather", "release", "cancel", "swap"):
                yield Action(cid, simple)
            yield Action(cid, "breather", None, (("as", "upcoming"),))
            for item in c.carried:
                yield Action(cid, "draw", item.name)
            for held in (c.sword_hand, c.off_hand, c.shield):
                if held is not None:
                    yield Action(cid, "sheathe", held.name)
                    yield Action(cid, "drop", held.name)
            for item in c.dropped:
                yield Action(cid, "get", item.name)
            if state.turn is not None and not state.turn.acted:
                for anchor in state.order:
                    if anchor != cid:
                        yield Action(cid, "delay", None, (("after", anchor),))
        if state.pending is not None:
            pending = Action.parse(state.pending)
            if pending.target is not None and actor in (None, pending.target):
                yield Action(pending.target, "reroll")

    @staticmethod
    def _neighbours(state: HeimrState, square: str) -> list[str]:
        return state.battlefield.neighbours(square)

    # -- observing ---------------------------------------------------------------------

    def observe(self, state: HeimrState, side: str | None) -> dict[str, Any]:
        """The game master sees everything; a side sees its own fully and others as a
        character would: position, visible states, injuries and pre-rolled defences
        (H-ATK-3), but not hit points, willpower, fatigue or readied actions."""
        return {
            "round": state.round,
            "clock": state.clock,
            "current": state.current,
            "order": list(state.order),
            "initiative": dict(state.initiative) if side is None else {},
            "clusters": [list(c) for c in state.clusters],
            "battlefield": field_view(state),
            "combatants": {
                cid: self._observe_one(state, c, side)
                for cid, c in state.combatants.items()
                if side is None or hiding.hidden_from(c, side) != hiding.UNAWARE
            },
        }

    @staticmethod
    def _observe_one(state: HeimrState, c: Combatant, side: str | None) -> dict[str, Any]:
        full = side is None or side == c.side
        seen: dict[str, Any] = {
            "name": c.name,
            "hidden": c.hide_cr is not None,
            "side": c.side,
            "square": c.square,
            "height": c.height,
            "climbing": c.climbing is not None,
            "prone": c.prone,
            "dead": c.dead,
            "unconscious": c.unconscious,
            "injury": health.level_name(state, c.hp),
            "injuries": list(c.injuries),
            "effects": [e.name for e in c.effects],
            "defence": None
            if c.defence is None
            else {
                "kind": c.defence.kind,
                "result": "fails" if c.defence.failed else c.defence.result,
            },
            "holding": c.holding,
            "held_by": c.held_by,
            "weapons": [w.name for w in c.weapons()] + ([c.shield.name] if c.shield else []),
        }
        if side is not None and hiding.hidden_from(c, side) == hiding.AWARE:
            seen["square"] = None  # known to be hidden somewhere, not where (H-POS-4)
        if full:
            seen.update(
                hide_cr=c.hide_cr,
                guarding=c.guarding,
                hp=c.hp,
                max_hp=c.stats.hit_points,
                willpower=c.willpower,
                fatigue=c.fatigue,
                base_fatigue=combat.base_fatigue(state, c),
                stance=c.stance,
                readied=None
                if c.readied is None
                else {"action": c.readied.action, "trigger": c.readied.trigger},
                upcoming=c.upcoming,
                xp=c.xp,
            )
        return seen


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
            if terrain.border_key(*sorted(b.squares)) in state.broken
            else b.toughness,
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
