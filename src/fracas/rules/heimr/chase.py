"""The chase (H-CHASE-1): one character running after another, decided by fatigue.

"Chasing characters is done purely on the basis of fatigue." The GM picks the ability
(or attribute) the terrain calls for; every chase turn the target rolls it, then the
chaser does. Each roll goes through :func:`fracas.rules.heimr.rolls.challenge`, so it
is a fatigue check (H-FAT-1: the result before potential must reach the fatigue) and a
d6 below fatigue tires the runner (H-FAT-2). Then:

- a runner who fails the fatigue check cannot go on: a target who fails is caught, a
  chaser who fails lets the target escape;
- a chaser 3 or more above the target closes one square; level with the target
  (gap 0), the chaser would pass instead, and may act against the target;
- a chaser 3 or more below lets the target gain a square.

Fatigue never falls during a chase. The choices the seed leaves open are in
docs/decisions.md. :class:`Chase` changes the fatigue of the combatants it is
given, as every roll in an encounter does; clone them first to keep the originals.

>>> pace(12, 8, gap=2)  # 4 above: one square closer
(1, None)
>>> pace(10, 8, gap=2), pace(5, 8, gap=2)  # within 2: no change; 3 below: the target gains
((2, None), (3, None))
>>> pace(11, 8, gap=0)  # level with the target and 3 above: acts instead of passing
(0, 'act')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from fracas.engine import DiceSource, Event, IllegalAction
from fracas.rules.heimr.rolls import Check, challenge
from fracas.rules.heimr.state import Ability, Combatant

__all__ = [
    "MARGIN",
    "MAX_TURNS",
    "Chase",
    "ChaseTurn",
    "Outcome",
    "Runner",
    "chase_ability",
    "pace",
    "parse_terrain",
]

Outcome = Literal["caught", "escaped", "act"]

#: How much higher a roll must be to gain a square (H-CHASE-1).
MARGIN = 3
#: Chase turns :meth:`Chase.run` plays before leaving the chase to the GM.
MAX_TURNS = 100


def pace(chaser: int, target: int, gap: int) -> tuple[int, Outcome | None]:
    """H-CHASE-1: the gap after a chase turn in which neither runner failed on fatigue,
    and ``"act"`` when the chaser, level with the target, would pass it."""
    if chaser - target >= MARGIN:
        return (0, "act") if gap == 0 else (gap - 1, None)
    if target - chaser >= MARGIN:
        return gap + 1, None
    return gap, None


@dataclass
class Runner:
    """One runner: the combatant, the challenge it rolls on this terrain and its name.

    ``base_fatigue`` (H-FAT-3) is where standing still brings fatigue back after the
    chase; the chase itself never lowers fatigue.
    """

    who: Combatant
    ability: Ability
    label: str
    base_fatigue: int | None = None

    @classmethod
    def of(
        cls, who: Combatant, name: str, consistency: int = 0, base_fatigue: int | None = None
    ) -> Runner:
        """``who`` running on the ability or attribute ``name`` (:func:`chase_ability`)."""
        label, ability = chase_ability(who, name, consistency)
        return cls(who, ability, label, base_fatigue)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.who.id,
            "name": self.who.name,
            "ability": self.label,
            "challenge": f"C{self.ability.consistency}P{self.ability.potential}",
            "fatigue": self.who.fatigue,
            "base_fatigue": self.base_fatigue,
        }


def chase_ability(who: Combatant, name: str, consistency: int = 0) -> tuple[str, Ability]:
    """The challenge ``who`` rolls in the chase: an ability by name (any case), or an
    attribute roll (H-CHAR-4) with the GM's ``consistency``.

    :class:`~fracas.engine.IllegalAction` when the name is unknown, or when the roll is
    not based on a physical attribute: such a roll never fails on fatigue nor tires
    (H-FAT-1, H-FAT-2), so the chase could not end.
    """
    label: str | None = next((a for a in who.stats.abilities if a.lower() == name.lower()), None)
    if label is not None:
        ability = who.stats.abilities[label]
    elif name.lower() in who.stats.attributes:
        label = name.lower()
        ability = Ability(consistency, who.stats.attributes[label], (label,))
    else:
        known = ", ".join([*who.stats.abilities, *who.stats.attributes])
        raise IllegalAction("H-CHAR-3", f"unknown ability or attribute {name!r}: known are {known}")
    if not who.stats.physical(ability):
        raise IllegalAction(
            "H-CHASE-1",
            f"a chase is run on fatigue: {label} is not based on a physical attribute",
        )
    return label, ability


#: The most terrain decisions one chase takes (H-CHASE-2): input is bounded.
MAX_TERRAIN = 20


def parse_terrain(text: str) -> dict[int, tuple[str, ...]]:
    """H-CHASE-2: the GM's terrain decisions, ``"TURN:ABILITY"`` separated by commas or
    spaces; ``"3:Swim|Climbing"`` offers the target a choice from chase turn 3 on.

    >>> parse_terrain("2:Swim, 4:Agility|sta")
    {2: ('Swim',), 4: ('Agility', 'sta')}
    """
    out: dict[int, tuple[str, ...]] = {}
    items = [i for i in text.replace(",", " ").split() if i]
    if len(items) > MAX_TERRAIN:
        raise IllegalAction("H-CHASE-2", f"at most {MAX_TERRAIN} terrain decisions a chase")
    for item in items:
        turn, _, names = item.partition(":")
        choices = tuple(n for n in names.split("|") if n)
        if not turn.isdigit() or int(turn) < 1 or not choices:
            raise IllegalAction(
                "H-CHASE-2",
                f"terrain {item!r}: give TURN:ABILITY (or TURN:A|B for the target's choice), "
                "as in 2:Swim",
            )
        if int(turn) in out:
            raise IllegalAction("H-CHASE-2", f"two terrain decisions for chase turn {turn}")
        out[int(turn)] = choices
    return out


@dataclass(frozen=True)
class ChaseTurn:
    """One chase turn: the rolls made (target first), the gap after it and any outcome."""

    number: int
    rolls: tuple[tuple[str, Check], ...]
    gap: int
    outcome: Outcome | None
    events: tuple[Event, ...]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record; the faces replay the turn with scripted dice."""
        return {
            "turn": self.number,
            "rolls": [
                {
                    "who": who,
                    "challenge": f"C{check.consistency}P{check.potential}",
                    "faces": list(check.roll.faces),
                    "result": check.result,
                    "failed_on_fatigue": check.failed_outright,
                }
                for who, check in self.rolls
            ],
            "gap": self.gap,
            "outcome": self.outcome,
        }


@dataclass
class Chase:
    """A chase between ``chaser`` and ``target``, ``gap`` squares apart.

    ``escape``, when given, is the gap at which the target is out of reach (the edge of
    the grid that keeps track of the distance): reaching it, the target has escaped.
    """

    chaser: Runner
    target: Runner
    gap: int = 1
    escape: int | None = None
    turns: list[ChaseTurn] = field(default_factory=list)
    outcome: Outcome | None = None
    #: H-CHASE-2: the GM's terrain decisions by chase turn; several names are the
    #: target's choice (see :meth:`choose`).
    terrains: dict[int, tuple[str, ...]] = field(default_factory=dict)
    consistency: int = 0  # the GM's consistency for an attribute roll (H-CHAR-4)

    def __post_init__(self) -> None:
        if self.chaser.who.id == self.target.who.id:
            raise IllegalAction("H-CHASE-1", f"{self.chaser.who.name} cannot chase itself")
        if self.gap < 0:
            raise IllegalAction("H-CHASE-1", f"the gap is {self.gap} squares: it cannot be below 0")
        if self.escape is not None and self.escape <= self.gap:
            raise IllegalAction(
                "H-CHASE-1",
                f"the target is out of reach at {self.escape} squares, "
                f"so the chase cannot start {self.gap} apart",
            )
        for runner in (self.chaser, self.target):
            if not runner.who.stats.physical(runner.ability):
                raise IllegalAction(
                    "H-CHASE-1", f"{runner.label} is not based on a physical attribute"
                )
        for choices in self.terrains.values():  # every terrain named must be runnable
            for name in choices:
                for runner in (self.chaser, self.target):
                    chase_ability(runner.who, name, self.consistency)

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def runners(self) -> Mapping[str, Runner]:
        return {"chaser": self.chaser, "target": self.target}

    def terrain(self, name: str, consistency: int = 0) -> None:
        """The GM's terrain decision: from the next turn on, both roll ``name``, an
        ability or an attribute (with the GM's ``consistency``)."""
        self.chaser = Runner.of(self.chaser.who, name, consistency, self.chaser.base_fatigue)
        self.target = Runner.of(self.target.who, name, consistency, self.target.base_fatigue)

    def choose(self, choices: tuple[str, ...]) -> str:
        """H-CHASE-2: the terrain the target picks among ``choices`` (docs/decisions.md):
        the one where its challenge (consistency plus potential) stands highest above
        the chaser's; the first named on a tie."""
        best, edge = choices[0], None
        for name in choices:
            _, mine = chase_ability(self.target.who, name, self.consistency)
            _, theirs = chase_ability(self.chaser.who, name, self.consistency)
            diff = (mine.consistency + mine.potential) - (theirs.consistency + theirs.potential)
            if edge is None or diff > edge:
                best, edge = name, diff
        return best

    def step(self, dice: DiceSource) -> ChaseTurn:
        """Play one chase turn: the target rolls, then (if the target is still running)
        the chaser; a failed fatigue check ends the chase at once."""
        if self.over:
            raise IllegalAction("H-CHASE-1", f"the chase is over: {self.outcome}")
        mark, fatigue = dice.mark(), (self.chaser.who.fatigue, self.target.who.fatigue)
        try:
            return self._step(dice)
        except BaseException:  # dice ran out, or a person gave up typing them: undo the turn
            dice.rewind(mark)
            self.chaser.who.fatigue, self.target.who.fatigue = fatigue
            raise

    def _step(self, dice: DiceSource) -> ChaseTurn:
        number = len(self.turns) + 1
        events: list[Event] = []
        rolls: list[tuple[str, Check]] = []
        outcome: Outcome | None = None
        if number in self.terrains:
            self._decide(number, self.terrains[number], events)
        for role in ("target", "chaser"):
            runner = self.runners[role]
            check = challenge(
                runner.who,
                runner.ability,
                dice,
                f"chase turn {number}: {runner.who.name} runs ({runner.label})",
                events=events,
                in_combat=False,
            )
            rolls.append((runner.who.id, check))
            if check.failed_outright:
                outcome = "caught" if role == "target" else "escaped"
                break
        if outcome is None:
            (_, target), (_, chaser) = rolls
            self.gap, outcome = pace(chaser.result, target.result, self.gap)
            if self.escape is not None and self.gap >= self.escape:
                outcome = "escaped"
            events.append(self._pace_event(number, chaser.result, target.result, outcome))
        elif outcome == "caught":
            self.gap = 0
        self.outcome = outcome
        if outcome is not None:
            events.append(self._end_event(tired=rolls[-1][1].failed_outright))
        turn = ChaseTurn(number, tuple(rolls), self.gap, outcome, tuple(events))
        self.turns.append(turn)
        return turn

    def _decide(self, number: int, choices: tuple[str, ...], events: list[Event]) -> None:
        """H-CHASE-2: the terrain changes before chase turn ``number``."""
        name = self.choose(choices)
        before = (self.chaser, self.target)
        try:
            self.terrain(name, self.consistency)
        except BaseException:
            self.chaser, self.target = before
            raise
        t = self.target.who.name
        how = (
            f"{t} chooses {self.target.label} of {', '.join(choices)}"
            if len(choices) > 1
            else (f"the terrain calls for {self.target.label}")
        )
        events.append(
            Event(
                "chase",
                f"chase turn {number}: {how}; both roll {self.target.label} from now on "
                "(H-CHASE-2)",
                {"turn": number, "ability": self.target.label, "choices": list(choices)},
            )
        )

    def run(self, dice: DiceSource, max_turns: int = MAX_TURNS) -> list[ChaseTurn]:
        """Play chase turns until the chase ends or ``max_turns`` have been played;
        returns the turns played by this call."""
        played: list[ChaseTurn] = []
        while not self.over and len(played) < max_turns:
            played.append(self.step(dice))
        return played

    def to_dict(self) -> dict[str, Any]:
        return {
            "chaser": self.chaser.to_dict(),
            "target": self.target.to_dict(),
            "gap": self.gap,
            "escape": self.escape,
            "turns": [t.to_dict() for t in self.turns],
            "outcome": self.outcome,
            "terrain": {str(k): list(v) for k, v in sorted(self.terrains.items())},
        }

    # -- the log ------------------------------------------------------------------------

    def _pace_event(self, number: int, chaser: int, target: int, outcome: Outcome | None) -> Event:
        c, t = self.chaser.who.name, self.target.who.name
        if chaser - target >= MARGIN:
            how = f"{c} would pass {t}" if outcome == "act" else f"{c} closes in"
        elif target - chaser >= MARGIN:
            how = f"{t} gains a square"
        else:
            how = "neither gains"
        return Event(
            "chase",
            f"chase turn {number}: {c} {chaser} against {t} {target}: {how}; "
            f"{_squares(self.gap)} between them",
            {
                "turn": number,
                "chaser": self.chaser.who.id,
                "target": self.target.who.id,
                "gap": self.gap,
            },
        )

    def _end_event(self, tired: bool) -> Event:
        c, t = self.chaser.who.name, self.target.who.name
        if self.outcome == "caught":
            text = f"{t} fails the fatigue check and cannot go on: {c} reaches {t}"
        elif self.outcome == "act":
            text = f"{c} would pass {t}: {c} may act against {t} instead"
        elif tired:
            text = f"{c} fails the fatigue check and cannot go on: {t} escapes"
        else:
            text = f"{t} is {_squares(self.gap)} away, out of reach: {t} escapes"
        return Event(
            "chase-end",
            text + " (H-CHASE-1)",
            {
                "chaser": self.chaser.who.id,
                "target": self.target.who.id,
                "outcome": self.outcome,
                "gap": self.gap,
            },
        )


def _squares(n: int) -> str:
    return "1 square" if n == 1 else f"{n} squares"
