"""The rules of Pitfight (README.md gives each its ID): the state, the actions a fighter
may take, and what each side may see of the fight."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from fracas import dice
from fracas.engine import Action, DiceSource, EngineError, Event, IllegalAction, Ruleset
from fracas.yamlfile import YamlDocument, validate

__all__ = ["Fighter", "PitState", "PitfightRules", "Sheet"]

#: P-BRACE-1: what bracing adds to a fighter's guard.
BRACE = 2
#: P-HIT-1: what 2d6 plus the attack must reach, before the target's guard.
TARGET = 7


class Sheet(BaseModel):
    """P-SHEET-1: a fighter's sheet, each number within its bounds."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    side: str = Field(min_length=1, max_length=40)
    hp: int = Field(ge=1, le=20)
    attack: int = Field(default=0, ge=0, le=5)
    guard: int = Field(default=0, ge=0, le=5)


class Placement(BaseModel):
    """A fighter in an encounter file: a character of the campaign, and the hit points it
    starts with when not its sheet's (carried from an earlier fight)."""

    model_config = ConfigDict(extra="forbid")

    character: str
    id: str | None = None
    side: str | None = None
    hp: int | None = Field(default=None, ge=-20, le=20)


class Campaign(BaseModel):
    """A campaign: its fighters by key."""

    model_config = ConfigDict(extra="forbid")

    characters: dict[str, Sheet] = Field(default_factory=dict)


@dataclass
class Fighter:
    id: str
    name: str
    side: str
    hp: int
    max_hp: int
    attack: int
    guard: int
    braced: bool = False

    @property
    def dead(self) -> bool:
        """Out of the fight (P-OUT-1); the books carry it as death."""
        return self.hp <= 0


@dataclass
class PitState:
    combatants: dict[str, Fighter]
    order: list[str]
    current: int = 0
    round: int = 1
    over: bool = False
    winner: str | None = None
    log_rounds: list[int] = field(default_factory=list)

    def clone(self) -> PitState:
        return copy.deepcopy(self)


def _standing_sides(state: PitState) -> list[str]:
    return sorted({f.side for f in state.combatants.values() if not f.dead})


class PitfightRules(Ruleset[PitState]):
    """Pitfight: fighters trade blows in turn until one side is left standing."""

    id: ClassVar[str] = "pitfight"
    name: ClassVar[str] = "Pitfight"
    capabilities: ClassVar[Mapping[str, object]] = {
        "odds": "pitfight.odds:ODDS",
        "commands": "pitfight.odds:COMMANDS",
        "policies": "pitfight.policies:POLICIES",
        "sheets": "pitfight.books:SHEETS",
        "carry": "pitfight.books:CARRY",
        "rolls": "fracas.engine.capabilities:NAMED_ROLLS",
    }

    # -- the start -------------------------------------------------------------------------

    def check_campaign(self, document: YamlDocument) -> None:
        """A campaign file read by the campaign model, each mistake at its line (so that
        fracas tells a Pitfight campaign from another system's)."""
        validate(Campaign, document)

    def start(self, setup: Mapping[str, Any]) -> PitState:
        try:
            campaign = Campaign.model_validate(dict(setup.get("campaign") or {}))
        except ValidationError as err:
            raise EngineError(f"the campaign: {err.errors()[0]['msg']}") from None
        fighters: dict[str, Fighter] = {}
        for n, raw in enumerate(setup.get("combatants") or [], 1):
            try:
                place = Placement.model_validate(raw)
            except ValidationError as err:
                raise EngineError(f"combatant {n}: {err.errors()[0]['msg']}") from None
            sheet = campaign.characters.get(place.character)
            if sheet is None:
                raise EngineError(f"combatant {n}: no character {place.character!r}")
            cid = place.id or place.character
            if cid in fighters:
                raise EngineError(f"combatant {n}: a second {cid!r}")
            hp = sheet.hp if place.hp is None else place.hp
            side = place.side or sheet.side
            fighters[cid] = Fighter(cid, sheet.name, side, hp, sheet.hp, sheet.attack, sheet.guard)
        if len({f.side for f in fighters.values()}) < 2:
            raise EngineError("a fight needs fighters of two sides (P-END-1)")
        state = PitState(fighters, list(fighters))
        state.current = self._next_standing(state, -1)
        return state

    def setup_problems(self, setup: Mapping[str, Any]) -> list[tuple[tuple[Any, ...], str]]:
        try:
            self.start(setup)
        except EngineError as err:
            return [((), str(err))]
        return []

    # -- whose turn ------------------------------------------------------------------------

    def _next_standing(self, state: PitState, after: int) -> int:
        """P-TURN-1: the index of the next fighter standing after ``after``."""
        n = len(state.order)
        for step in range(1, n + 1):
            i = (after + step) % n
            if not state.combatants[state.order[i]].dead:
                return i
        return after

    def to_move(self, state: PitState) -> str | None:
        return None if state.over else state.order[state.current]

    def is_over(self, state: PitState) -> bool:
        return state.over

    def winner(self, state: PitState) -> str | None:
        return state.winner

    def round_number(self, state: PitState) -> int:
        return state.round

    def harm(self, state: PitState) -> tuple[int, ...]:
        return tuple(f.hp for f in state.combatants.values())

    # -- actions ---------------------------------------------------------------------------

    def candidates(self, state: PitState, actor: str | None) -> Iterator[Action]:
        who = self.to_move(state)
        if who is None or (actor is not None and actor != who):
            return
        me = state.combatants[who]
        for foe in state.combatants.values():
            if foe.side != me.side and not foe.dead:
                yield Action.of(who, "hit", foe.id)
        yield Action.of(who, "brace")

    def verb_names(self, state: PitState) -> list[str]:
        return ["brace", "hit"]

    def check(self, state: PitState, action: Action) -> None:
        who = self.to_move(state)
        if who is None:
            raise IllegalAction("P-END-1", "the fight is over")
        if action.actor != who:
            raise IllegalAction("P-TURN-1", f"it is {who}'s turn, not {action.actor}'s")
        if action.options:
            raise IllegalAction("P-ACT-1", f"{action.verb} takes no options")
        if action.verb == "brace":
            if action.target is not None:
                raise IllegalAction("P-ACT-1", "brace takes no target")
            return
        if action.verb != "hit":
            raise IllegalAction("P-ACT-1", f"a fighter hits or braces, not {action.verb!r}")
        foe = state.combatants.get(action.target or "")
        if foe is None:
            raise IllegalAction("P-ACT-1", f"no fighter {action.target!r} to hit")
        if foe.side == state.combatants[who].side or foe.dead:
            raise IllegalAction("P-ACT-1", f"{foe.name} is no standing foe")

    def apply(self, state: PitState, action: Action, dice_source: DiceSource) -> list[Event]:
        me = state.combatants[action.actor]
        me.braced = False  # P-BRACE-1: until its next turn
        events: list[Event] = []
        if action.verb == "brace":
            me.braced = True
            events.append(Event("brace", f"{me.name} braces", {"who": me.id}))
        else:
            foe = state.combatants[str(action.target)]
            events += self._hit(me, foe, dice_source)
        sides = _standing_sides(state)
        if len(sides) <= 1:  # P-END-1
            state.over = True
            state.winner = sides[0] if sides else None
            text = f"{sides[0]} win the fight" if sides else "nobody is left standing"
            events.append(Event("over", text, {"winner": state.winner}))
            return events
        nxt = self._next_standing(state, state.current)
        if nxt <= state.current:
            state.round += 1
            events.append(Event("round", f"Round {state.round}", {"round": state.round}))
        state.current = nxt
        return events

    def _hit(self, me: Fighter, foe: Fighter, dice_source: DiceSource) -> list[Event]:
        """P-HIT-1, P-DMG-1, P-OUT-1, P-HIDE-1."""
        guard = foe.guard + (BRACE if foe.braced else 0)
        need = TARGET + guard
        roll = dice_source.roll(
            dice.parse("standard", f"2d6+{me.attack}"), f"{me.name} hits {foe.name}"
        )
        faces = ", ".join(map(str, roll.faces))
        data = {"who": me.id, "target": foe.id, "total": roll.result, "need": need}
        if roll.result < need:
            text = f"{me.name} swings at {foe.name}: [{faces}] +{me.attack} = {roll.result}"
            return [Event("miss", f"{text}, short of {need}", data)]
        damage = dice_source.roll(dice.parse("standard", "1d3"), f"{me.name}'s blow").result
        foe.hp -= damage
        hit = f"{me.name} hits {foe.name}: [{faces}] +{me.attack} = {roll.result} of {need}"
        events = [Event("hit", hit, data)]
        left = f"{foe.name} takes {damage} ({foe.hp} left)"
        events.append(
            Event(
                "damage",
                left,
                {"who": foe.id, "damage": damage, "hp": foe.hp},
                detail=frozenset({foe.side}),
                outline=f"{foe.name} takes {damage}",
                outline_data={"who": foe.id, "damage": damage},
            )
        )
        if foe.dead:
            events.append(Event("out", f"{foe.name} is out of the fight", {"who": foe.id}))
        return events

    # -- what each side sees (P-HIDE-1) ----------------------------------------------------

    def observe(self, state: PitState, side: str | None) -> dict[str, Any]:
        people: dict[str, Any] = {}
        for f in state.combatants.values():
            seen: dict[str, Any] = {
                "name": f.name,
                "side": f.side,
                "attack": f.attack,
                "guard": f.guard + (BRACE if f.braced else 0),
                "down": f.dead,
            }
            if side is None or side == f.side:
                seen.update(hp=f.hp, max_hp=f.max_hp)
            else:
                seen["status"] = "out" if f.dead else ("hurt" if f.hp < f.max_hp else "fresh")
            if f.braced:
                seen["stance"] = "braced"
            people[f.id] = seen
        return {
            "round": state.round,
            "current": self.to_move(state),
            "order": list(state.order),
            "combatants": people,
        }
