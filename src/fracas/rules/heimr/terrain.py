"""The battlefield in play (H-GRID-3..9, H-POS-5): borders, heights, climbing and falls,
difficult terrain, concealment and light.

:mod:`.battlefield` describes the grid; this module applies its rules to combatants.
"""

from __future__ import annotations

from typing import Literal

from fracas.engine import DiceSource, Event, IllegalAction
from fracas.rules.heimr import effects, guards, health, hiding
from fracas.rules.heimr.battlefield import Border
from fracas.rules.heimr.rolls import Modifier, challenge
from fracas.rules.heimr.state import Ability, Combatant, HeimrState

How = Literal["move", "run", "charge", "crawl"]
#: H-GRID-5: melee against a higher target, and against a lower one.
HIGHER_PENALTY, LOWER_BONUS = -1, 1
#: H-GRID-8: difficult terrain on melee attacks, parry and dodge.
DIFFICULT_PENALTY = -1
#: H-POS-5: a climbing character's defences and attacks (docs/errata.md).
CLIMBING_DEFENCE, CLIMBING_ATTACK = -2, -1
#: H-GRID-7: the consistency of the roll to hold on.
HOLD_ON_CONSISTENCY = 1
_RULE_OF: dict[How, str] = {
    "move": "H-GRID-3",
    "run": "H-ACT-5",
    "charge": "H-ACT-4",
    "crawl": "H-ACT-6",
}


def border_key(a: str, b: str) -> str:
    return "-".join(sorted((a, b)))


def ground(state: HeimrState, square: str) -> int:
    return state.battlefield.squares[square].height


def blocking(state: HeimrState, border: Border | None) -> bool:
    """A structural barrier not yet broken, or a door or gate shut (H-GRID-3)."""
    return (
        border is not None
        and border.toughness is not None
        and border_key(*sorted(border.squares)) not in open_borders(state)
    )


def open_borders(state: HeimrState) -> list[str]:
    """The borders whose toughness stands in nobody's way: broken, or doors standing open."""
    return [*state.broken, *state.open_doors]


def check_cross(state: HeimrState, who: Combatant, to: str, how: How) -> None:
    """Whether ``who`` may go from its square into bordering ``to`` (H-GRID-2..5)."""
    field = state.battlefield
    if to not in field:
        raise IllegalAction("H-GRID-1", f"{to} is not a square of the {field.describe()}")
    if to not in field.neighbours(who.square):
        raise IllegalAction("H-GRID-2", f"{to} does not border {who.name}'s square {who.square}")
    border = field.border(who.square, to)
    name = (border.name or "border") if border is not None else ""
    if blocking(state, border):
        assert border is not None
        raise IllegalAction(
            "H-GRID-3",
            f"a {name} (toughness {border.toughness}) stands between {who.square} and {to}: "
            "break it, or go round",
        )
    challenge_here = border is not None and border.cr is not None
    if challenge_here and border is not None and border.applies_from(who.square) and how != "move":
        raise IllegalAction(
            _RULE_OF[how],
            f"no {how} across the {name}: crossing it is a challenge (CR {border.cr})",
        )
    if border is not None and border.limit is not None and border.applies_from(who.square):
        crossed = state.crossings.get(border_key(who.square, to), [])
        if len(crossed) >= border.limit:
            first = state.combatants[crossed[0]].name
            raise IllegalAction(
                "H-GRID-4",
                f"the {name} lets {border.limit} through: no more until the start of "
                f"{first}'s next turn",
            )
    rise = ground(state, to) - who.height
    if rise > 1:
        raise IllegalAction(
            "H-GRID-5", f"{to} is {rise} higher than {who.name} stands: climb first"
        )
    if rise < -1:
        raise IllegalAction(
            "H-GRID-6", f"{to} is {-rise} lower than {who.name} stands: jump or climb down"
        )


def cross(
    state: HeimrState,
    who: Combatant,
    to: str,
    dice: DiceSource,
    events: list[Event],
    charging: bool = False,
) -> bool:
    """Go into ``to``; a guard may stop it (H-GUARD-3), and a crossing challenge failed
    leaves it prone where it was."""
    if guards.stop_crossing(state, who, to, charging, events) is not None:
        return False
    border = state.battlefield.border(who.square, to)
    if border is not None and border.cr is not None and border.applies_from(who.square):
        check = challenge(
            who,
            who.stats.abilities["Agility"],
            dice,
            f"{who.name} crosses the {border.name or 'border'} (CR {border.cr})",
            events=events,
            seen_by=hiding.seen_by(state, who),
        )
        if check.failed_outright or check.result < border.cr:
            who.prone = True
            events.append(
                Event(
                    "cross",
                    f"{who.name} fails to cross and falls prone",
                    {"who": who.id, "square": who.square, "crossed": False},
                    seen_by=hiding.seen_by(state, who),
                )
            )
            return False
    enter(state, who, to, events, charging)
    return True


def enter(
    state: HeimrState, who: Combatant, to: str, events: list[Event], charging: bool = False
) -> None:
    """Step into bordering ``to``, counting it against the border's limit (H-GRID-4).
    A hidden character in the open is seen, unless charging: the charge's attack ends
    the hiding itself, after its +2 (H-POS-4)."""
    border = state.battlefield.border(who.square, to)
    if border is not None and border.limit is not None and border.applies_from(who.square):
        state.crossings.setdefault(border_key(who.square, to), []).append(who.id)
    effects.leave_cluster(state, who, events)
    who.entered_from = who.square
    who.square = to
    who.height = ground(state, to)
    who.climbing = None
    if not charging:
        unconcealed(state, who, events)


def unconcealed(state: HeimrState, who: Combatant, events: list[Event]) -> None:
    """H-POS-4: "You can not be hidden from an opponent unless you are also concealed
    from them": a hidden character in a square with no concealment at its height (the
    cover's Height, H-GRID-9) is seen again."""
    if who.hide_cr is not None and state.battlefield.concealment(who.square, who.height) == 0:
        hiding.reveal(who, f"nothing in {who.square} conceals it", events)


def new_turn(state: HeimrState, who: Combatant) -> None:
    """H-GRID-4: a border's count resets at the start of its first crosser's next turn;
    H-ACT-5: a runner may be charged from where it ran again."""
    if state.crossings:  # most turns: no limited border crossed
        _forget_crossings(state, who)
    who.entered_from = None
    who.ran_from = None  # H-ACT-5: not charged from where it ran "until ... your next turn"


def _forget_crossings(state: HeimrState, who: Combatant) -> None:
    """The border counts whose first crosser is ``who`` (or dead) end (H-GRID-4)."""
    for key, crossed in list(state.crossings.items()):
        # A first crosser who has died has no next turn: its count ends with the next
        # turn of anyone (docs/decisions.md).
        if crossed and (crossed[0] == who.id or state.combatants[crossed[0]].dead):
            del state.crossings[key]


# -- climbing, jumping and falling --------------------------------------------------------


def climb_target(state: HeimrState, who: Combatant, up: bool, toward: str | None) -> int | None:
    """The CR of one climb (None: no roll), or :class:`IllegalAction` (H-GRID-5)."""
    square = state.battlefield.squares[who.square]
    if not who.free_hand():
        raise IllegalAction("H-POS-5", f"{who.name} needs a free hand to climb")
    if toward is None:
        if up and who.height >= square.top:
            raise IllegalAction("H-GRID-5", f"nothing higher to climb in {who.square}")
        if not up and who.height <= square.height:
            raise IllegalAction("H-GRID-5", f"{who.name} is on the ground of {who.square}")
        return square.climb
    border = state.battlefield.border(who.square, toward)
    if border is None or not border.climbable:
        raise IllegalAction("H-GRID-5", f"nothing to climb between {who.square} and {toward}")
    goal = ground(state, toward)
    if up and who.height >= goal - 1:
        raise IllegalAction("H-GRID-5", f"{who.name} is high enough to move into {toward}")
    if not up and who.height <= goal + 1:
        raise IllegalAction("H-GRID-5", f"{who.name} is low enough to move into {toward}")
    return border.climb


def climb(
    state: HeimrState,
    who: Combatant,
    up: bool,
    toward: str | None,
    dice: DiceSource,
    events: list[Event],
) -> None:
    """H-GRID-5: one height up or down; failing the CR is a fall from the height being
    reached. Short of the top or bottom, the climber is in climbing position (H-POS-5)."""
    cr = climb_target(state, who, up, toward)
    reach = who.height + (1 if up else -1)
    seen = hiding.seen_by(state, who)  # not by the sides it is hidden from
    if cr is not None:
        check = challenge(
            who,
            who.stats.abilities["Agility"],
            dice,
            f"{who.name} climbs {'up' if up else 'down'} (CR {cr})",
            events=events,
            seen_by=seen,
        )
        if check.failed_outright or check.result < cr:
            events.append(
                Event(
                    "climb",
                    f"{who.name} loses the grip at height {reach}",
                    {"who": who.id, "height": reach},
                    seen_by=seen,
                )
            )
            who.climbing = toward or who.square  # it falls from where it was climbing
            fall(state, who, reach, dice, events)
            return
    who.height = reach
    square = state.battlefield.squares[who.square]
    at_rest = who.height == square.height or (toward is None and who.height == square.top)
    who.climbing = None if at_rest else (toward or who.square)
    events.append(
        Event(
            "climb",
            f"{who.name} climbs to height {who.height}"
            + (" (climbing position)" if who.climbing else ""),
            {"who": who.id, "height": who.height},
            seen_by=seen,
        )
    )
    unconcealed(state, who, events)  # H-GRID-9: above its cover's Height it is seen


def landing(state: HeimrState, who: Combatant) -> str:
    """The square a fall or a jump from ``who``'s place ends in: its own, or the lower
    square it climbs down towards (down the outside of a wall, H-GRID-5)."""
    toward = who.climbing
    if (
        toward is not None
        and toward != who.square
        and ground(state, toward) < ground(state, who.square)
    ):
        return toward
    return who.square


def fall(
    state: HeimrState,
    who: Combatant,
    height: int,
    dice: DiceSource,
    events: list[Event],
    jumping: bool = False,
) -> None:
    """H-GRID-6: from height 2 or more an agility CR (2 x height jumping, 2 + 2 x height
    falling); failing sets hit points to 3 - height, injuring the legs, and the torso at
    -4 or -5. Armour does not help. The faller lands prone; a jumper on its feet."""
    below = landing(state, who)
    drop = height - ground(state, below)
    if below != who.square:
        effects.leave_cluster(state, who, events)
        who.square = below
    who.height = ground(state, below)
    who.climbing = None
    if not jumping:
        who.prone = True
    events.append(
        Event(
            "fall",
            f"{who.name} {'jumps' if jumping else 'falls'} down {drop} into {who.square}",
            {"who": who.id, "drop": drop, "square": who.square},
            seen_by=hiding.seen_by(state, who),
        )
    )
    unconcealed(state, who, events)
    if drop < 2:
        return
    cr = 2 * drop if jumping else 2 + 2 * drop
    seen = hiding.seen_by(state, who)
    check = challenge(
        who,
        who.stats.abilities["Agility"],
        dice,
        f"{who.name} lands (CR {cr})",
        events=events,
        seen_by=seen,
    )
    if not check.failed_outright and check.result >= cr:
        events.append(Event("fall", f"{who.name} lands unhurt", {"who": who.id}, seen_by=seen))
        return
    hp = 3 - drop
    parts = ["left leg", "right leg"]
    if hp <= -4 and hp >= -5:
        parts.append("torso")
    health.set_hit_points(state, who, hp, parts, events)


def hold_on(state: HeimrState, who: Combatant, dice: DiceSource, events: list[Event]) -> None:
    """H-GRID-7, H-POS-5: hit by an effect or an attack while climbing a challenge, roll
    to hold on: the climb check at consistency 1 against the climb's CR."""
    if who.climbing is None or who.dead:
        return
    cr = _climbing_cr(state, who)
    if cr is None:
        return
    agility = who.stats.abilities["Agility"]
    ability = Ability(HOLD_ON_CONSISTENCY, agility.potential, agility.attributes)
    check = challenge(who, ability, dice, f"{who.name} holds on (CR {cr})", events=events)
    if check.failed_outright or check.result < cr:
        fall(state, who, who.height, dice, events)


def _climbing_cr(state: HeimrState, who: Combatant) -> int | None:
    if who.climbing == who.square or who.climbing is None:
        return state.battlefield.squares[who.square].climb
    border = state.battlefield.border(who.square, who.climbing)
    return None if border is None else border.climb


# -- modifiers ------------------------------------------------------------------------------


def check_reach(attacker: Combatant, target: Combatant, height: int | None = None) -> None:
    """H-GRID-5: melee reaches one height up or down (from ``height``, where a charger
    will stand; the attacker's own height by default)."""
    apart = abs((attacker.height if height is None else height) - target.height)
    if apart > 1:
        raise IllegalAction(
            "H-GRID-5", f"{target.name} stands {apart} heights away: melee reaches one"
        )


def shot_distance(state: HeimrState, attacker: Combatant, target: Combatant) -> int:
    """H-ATK-6: the fewest turns for ``attacker`` to move, climb or jump down to ``target``:
    the squares' distance round the barriers still standing, and the climb up to the
    height the target stands at in its square (one climb action a height, as climbing
    is played); jumping down is free."""
    d = state.battlefield.distance(attacker.square, target.square, open_borders(state))
    start = attacker.height if attacker.square == target.square else ground(state, target.square)
    return d + max(0, target.height - start)


def attack_mods(
    state: HeimrState, attacker: Combatant, target: Combatant, melee: bool
) -> list[Modifier]:
    """Heights, terrain, climbing and concealment on an attack roll."""
    mods: list[Modifier] = []
    if melee:
        if target.height > attacker.height:
            mods.append(("against a higher target", HIGHER_PENALTY))
        elif target.height < attacker.height:
            mods.append(("against a lower target", LOWER_BONUS))
        if state.battlefield.squares[attacker.square].difficult:
            mods.append(("difficult terrain", DIFFICULT_PENALTY))
    if attacker.climbing is not None:
        mods.append(("climbing", CLIMBING_ATTACK))
    cover = concealment(state, attacker, target)
    if cover:
        mods.append(("concealment", -cover))
    return mods


def defence_mods(state: HeimrState, who: Combatant, kind: str) -> list[Modifier]:
    mods: list[Modifier] = []
    if kind in ("parry", "dodge") and state.battlefield.squares[who.square].difficult:
        mods.append(("difficult terrain", DIFFICULT_PENALTY))
    if who.climbing is not None:
        mods.append(("climbing", CLIMBING_DEFENCE))
    return mods


def concealment(state: HeimrState, attacker: Combatant, target: Combatant) -> int:
    """H-GRID-9, H-POS-3: the target's concealment, never against its own cluster."""
    cluster = state.cluster_of(target.id)
    if cluster is not None and attacker.id in cluster:
        return 0
    return state.battlefield.concealment(target.square, target.height, attacker.height)
