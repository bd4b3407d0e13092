"""Attacks and defence (H-ATK-1..10, H-DEF-1..4, H-POS-1..2).

Defences are pre-rolled at the end of one's turn and again once used (H-DEF-2); an
attack hits when it is higher than the defence (H-ATK-4). Fatigue fails physical
rolls outright and rises on a low d6 (H-FAT-1, H-FAT-2), through :mod:`.rolls`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from fracas.engine import DiceSource, Event, IllegalAction
from fracas.rules.heimr import effects, guards, health, hiding, terrain
from fracas.rules.heimr.blindspots import BlindSpots, Line
from fracas.rules.heimr.rolls import Check, Modifier, challenge, tire
from fracas.rules.heimr.state import (
    Ability,
    ActiveEffect,
    Combatant,
    Defence,
    HeimrState,
    PreRolled,
    Weapon,
)

#: H-ATK-5: aiming at a chosen body part costs this much consistency.
AIM_PENALTY = 2
#: H-DEF-3: each use of a dodge or block since one's last turn costs this on the next.
REPEAT_PENALTY = 2
#: H-ACT-1: an ongoing action costs this on defence rolls until the next turn.
ONGOING_PENALTY = 2
#: H-POS-1: prone characters attack and defend at this penalty.
PRONE_PENALTY = 2
#: H-GUARD-4: the dodge of one outmanoeuvring a guard.
OUTMANOEUVRE_DODGE = -1
#: H-ACT-3: a readied dodge adds this potential to the next dodge against a ranged attack.
READY_DODGE_BONUS = 2


def defence_ability(who: Combatant, kind: Defence) -> tuple[Ability, int] | None:
    """H-DEF-1: the ability and potential bonus of a defence, or ``None`` if unavailable."""
    abilities = who.stats.abilities
    if kind == "dodge":
        return abilities["Agility"], 0
    if kind == "block":
        if who.shield is None:
            return None
        return abilities[who.shield.ability], who.shield.potential_bonus
    melee = []
    for w in who.weapons():
        if w.ranged is None:  # melee
            melee.append(w)
    if not melee or who.uses.get("parry", 0) >= len(melee):
        return None  # H-DEF-3: one parry per wielded melee weapon between turns
    weapon = melee[min(who.uses.get("parry", 0), len(melee) - 1)]
    return abilities[weapon.ability], weapon.potential_bonus


def defence_mods(state: HeimrState, who: Combatant, kind: Defence) -> list[Modifier]:
    mods: list[Modifier] = terrain.defence_mods(state, who, kind)
    uses = who.uses
    if uses and (kind == "dodge" or kind == "block") and uses.get(kind):
        mods.append((f"{uses[kind]} earlier {kind}", -REPEAT_PENALTY * uses[kind]))
    if who.ongoing:
        mods.append(("ongoing action", -ONGOING_PENALTY))
    if who.prone:
        mods.append(("prone", -PRONE_PENALTY))
    return mods


def roll_defence(
    state: HeimrState,
    who: Combatant,
    kind: Defence,
    dice: DiceSource,
    events: list[Event],
    potential: list[Modifier] | None = None,
    consistency: list[Modifier] | None = None,
) -> PreRolled | None:
    if kind == "dodge":  # H-DEF-1: always at hand (defence_ability's first answer)
        ability, bonus = who.stats.abilities["Agility"], 0
    else:
        found = defence_ability(who, kind)
        if found is None:
            return None
        ability, bonus = found
    pot: Sequence[Modifier] = (("item", bonus),) if bonus else ()
    if potential:
        pot = [*pot, *potential]
    mods = defence_mods(state, who, kind)
    if consistency:
        mods += consistency
    # H-DEF-2: fatigue changes only when used (fatigue=False)
    roll, _, _, _, failed = challenge(
        who, ability, dice, f"{who.name}'s {kind}", mods, pot, events, False
    )
    parts = roll.parts
    return PreRolled(kind, roll.result, parts["raw"], parts["d6"], failed)


def preroll_defence(
    state: HeimrState, who: Combatant, dice: DiceSource, events: list[Event]
) -> None:
    """H-DEF-2: roll the next defence of the character's chosen kind (dodge if it cannot)."""
    stance = who.stance
    if stance == "none" or who.out:
        who.defence = None
        return
    rolled = roll_defence(state, who, stance, dice, events)  # most often it can
    if rolled is None:
        rolled = roll_defence(state, who, "block", dice, events) or roll_defence(
            state, who, "dodge", dice, events
        )
    who.defence = rolled


@dataclass
class Outcome:
    hit: bool
    defended_with: Defence | None
    margin: int | None


def defend(
    state: HeimrState,
    attacker: Combatant,
    target: Combatant,
    attack: Check,
    ranged: bool,
    dice: DiceSource,
    events: list[Event],
    choice: str | None = None,
    holding: bool | None = None,
    line: str | None = None,
) -> Outcome:
    """The target's defence against one attack roll (H-ATK-4, H-DEF-2..4).

    ``holding`` says whether the target held someone in a grab when the attack was made
    (H-ATK-10), in case the attack has broken the hold since.
    """
    holding = target.holding is not None if holding is None else holding
    if not effects.can_defend(target) or holding or choice == "none" or target.defence is None:
        why = "does not defend" if choice == "none" else "cannot defend"
        events.append(Event("defence", f"{target.name} {why}", {"who": target.id}))
        return Outcome(True, None, None)  # H-DEF-4: no penalty follows
    held = target.defence
    readied = ranged and target.ready_dodge  # H-ACT-3: +2 potential to dodge this shot
    bonus = [("readied dodge", READY_DODGE_BONUS)] if readied else []
    blind = blind_spot_penalty(state, attacker, target, ranged) if state.blind_spots else 0
    if (ranged and held.kind == "parry") or blind:
        # H-DEF-2: no parrying a shot; roll dodge or block now, keep the parry for melee.
        # H-MOD-1: from a blind spot the defence is rolled now at -5 (docs/decisions.md).
        kind: Defence = held.kind
        if ranged and held.kind == "parry":
            kind = "block" if choice == "block" and target.shield else "dodge"
        extra = [("blind spot", -blind)] if blind else []
        used = roll_defence(
            state, target, kind, dice, events, bonus if kind == "dodge" else [], extra
        ) or roll_defence(state, target, "dodge", dice, events, bonus, extra)
        assert used is not None
        keep = held
    else:
        used, keep = held, None
        if readied and used.kind == "dodge":
            used = replace(used, result=used.result + READY_DODGE_BONUS)
            events.append(
                Event(
                    "defence",
                    f"{target.name}'s readied dodge: P+{READY_DODGE_BONUS}, {used.result}",
                    {"who": target.id, "defence": used.result},
                )
            )
    target.uses[used.kind] = target.uses.get(used.kind, 0) + 1
    if readied and used.kind == "dodge":
        target.ready_dodge = False
    tire(target, used.d6, events)  # H-DEF-2, H-FAT-2: fatigue moves when the defence is used
    hit = used.failed or attack.result > used.result
    text = f"{target.name}'s {used.kind} {used.result}"
    text += " failed outright on fatigue" if used.failed else ""
    text += f" against {attack.result}: {'hit' if hit else 'miss'}"
    events.append(
        Event(
            "defence",
            text,
            {
                "who": target.id,
                "kind": used.kind,
                "defence": used.result,
                "attack": attack.result,
                "hit": hit,
            },
        )
    )
    if keep is not None:
        target.defence = keep
    else:
        preroll_defence(state, target, dice, events)  # H-DEF-2: rolled again once used
    if ranged:
        widen_blind_spot(state, attacker, target, line, events)
    return Outcome(hit, used.kind, attack.result - used.result)


def blind_spot_penalty(
    state: HeimrState, attacker: Combatant, target: Combatant, ranged: bool
) -> int:
    """H-MOD-1: 5 against a shot from the target's blind spot, or a melee attack by one
    who entered the target's square from it this turn."""
    spots = state.blind_spots.get(target.id)
    if spots is None:
        return 0
    if ranged:
        return spots.penalty_for_ranged(attacker.square)
    entered = attacker.entered_from if attacker.square == target.square else None
    return spots.penalty_for_melee(entered)


def widen_blind_spot(
    state: HeimrState,
    attacker: Combatant,
    target: Combatant,
    line: str | None,
    events: list[Event],
) -> None:
    """H-MOD-1: a defended shot from another square leaves a blind spot opposite it, until
    the defender's next turn; an attacker exactly between two lines says which
    (``line=straight|diagonal``, straight unless said)."""
    field = state.battlefield
    if (
        not state.options.get("blind_spots", 1)
        or attacker.square == target.square
        or not field.grid
    ):
        return
    spots = state.blind_spots.get(target.id)
    if spots is None:
        spots = state.blind_spots[target.id] = BlindSpots(field.columns, field.rows)
    prefer: Line = "diagonal" if line == "diagonal" else "straight"
    added = spots.add_attack(target.square, attacker.square, prefer=prefer)
    if added:
        events.append(
            Event(
                "blind spot",
                f"{target.name}'s blind spot: {', '.join(sorted(spots.squares))}",
                {"who": target.id, "squares": sorted(spots.squares)},
            )
        )


def distance(state: HeimrState, a: str, b: str) -> int:
    """H-ATK-6: the fewest turns to move, climb or jump down from ``a`` to ``b``."""
    return state.battlefield.distance(a, b)


def join_cluster(
    state: HeimrState, a: Combatant, b: Combatant, events: list[Event] | None = None
) -> None:
    """H-ATK-1: a melee attack puts both in one combat cluster (where nobody hides)."""
    for who in (a, b):
        if who.hide_cr is not None:
            hiding.reveal(who, "it is in a combat cluster", events if events is not None else [])
    ca, cb = state.cluster_of(a.id), state.cluster_of(b.id)
    if ca is not None and ca is cb:
        return
    merged = [*(ca or [a.id]), *(cb or [b.id])]
    state.clusters = [c for c in state.clusters if c is not ca and c is not cb]
    state.clusters.append(merged)


def attack_mods(
    state: HeimrState, attacker: Combatant, target: Combatant, weapon: Weapon, part: str | None
) -> list[Modifier]:
    mods: list[Modifier] = []
    if part is not None:
        mods.append(("aimed at the " + part, -AIM_PENALTY))
    if attacker.prone:
        mods.append(("prone", -PRONE_PENALTY))
    if not weapon.melee:
        d = terrain.shot_distance(state, attacker, target)
        if d:
            mods.append((f"distance {d}", -(d // 2)))
        if target.prone:
            mods.append(("shooting a prone target", -PRONE_PENALTY))
    return mods + terrain.attack_mods(state, attacker, target, weapon.melee)


def check_weapon_attack(state: HeimrState, attacker: Combatant, target: Combatant) -> None:
    if target.id == attacker.id:
        raise IllegalAction("H-ATK-2", f"{attacker.name} cannot attack itself")
    hiding.check_attack(attacker, target)
    if not attacker.weapons():
        raise IllegalAction("H-ATK-2", f"{attacker.name} wields no weapon: draw one or brawl")
    weapons = usable_weapons(state, attacker)
    if not weapons:
        w = attacker.weapons()[0]
        if not effects.arm_free(attacker, w):
            raise IllegalAction("H-EFF-7", f"{attacker.name}'s arm is bound: no using the {w.name}")
        ammo = state.tables.ammunition.get(w.name)
        raise IllegalAction("H-ACT-8", f"{attacker.name} has no {ammo} drawn: draw {ammo} first")
    if target.dead:
        raise IllegalAction("H-ATK-2", f"{target.name} is dead")
    stumbling = attacker.has("Stumble")
    for w in weapons:
        if w.melee:
            terrain.check_reach(attacker, target)
            if attacker.square != target.square:
                raise IllegalAction(
                    "H-ATK-1",
                    f"{target.name} is in {target.square}, not in "
                    f"{attacker.name}'s square {attacker.square}: melee "
                    "reaches only the same square",
                )
            cluster = state.cluster_of(attacker.id)
            if stumbling and (cluster is None or target.id not in cluster):
                raise IllegalAction(
                    "H-EFF-4",
                    f"{attacker.name} is stumbling: melee only against "
                    "characters in a cluster with it",
                )
        else:
            if stumbling:
                raise IllegalAction("H-EFF-4", f"{attacker.name} is stumbling: no ranged attacks")
            assert w.ranged is not None
            if terrain.shot_distance(state, attacker, target) > w.ranged:
                raise IllegalAction(
                    "H-ATK-6", f"{target.name} is beyond the {w.name}'s range {w.ranged}"
                )
    if attacker.held_by is not None and any(
        p.part == "hands" for p in attacker.effects if p.name == "Bind"
    ):
        raise IllegalAction("H-EFF-7", f"{attacker.name}'s hands are bound")


def needs_ammunition(state: HeimrState, who: Combatant, weapon: Weapon) -> str | None:
    """H-ACT-8: the ammunition ``weapon`` shoots when ``who`` counts it (its sheet or
    placement gives a count), else ``None``: its supply is not kept track of."""
    ammo = state.tables.ammunition.get(weapon.name)
    return ammo if ammo is not None and ammo in who.ammunition else None


def usable_weapons(state: HeimrState, who: Combatant) -> list[Weapon]:
    """The wielded weapons ``who`` can attack with: not in a bound arm's hand (H-EFF-7),
    and, for counted ammunition, with one drawn (H-ACT-8)."""
    if not who.effects and not who.ammunition:
        return who.weapons()  # the common case, asked at every attack
    out = []
    for w in who.weapons():
        if not effects.arm_free(who, w):
            continue
        ammo = needs_ammunition(state, who, w)
        if ammo is not None and who.drawn_ammunition != ammo:
            continue
        out.append(w)
    return out


def spend_ammunition(
    state: HeimrState, who: Combatant, weapon: Weapon, events: list[Event]
) -> None:
    """H-ACT-8: the shot spends the drawn ammunition."""
    if who.drawn_ammunition is None:
        return
    ammo = needs_ammunition(state, who, weapon)
    if ammo is None or who.drawn_ammunition != ammo:
        return
    who.drawn_ammunition = None
    events.append(
        Event(
            "item",
            f"{who.name} shoots the drawn {ammo}: {who.ammunition[ammo]} left",
            {"who": who.id, "ammunition": ammo, "left": who.ammunition[ammo]},
            detail=frozenset({who.side}),
            outline=f"{who.name} shoots the drawn {ammo}",
            outline_data={"who": who.id, "ammunition": ammo},
        )
    )


def weapon_attack(
    state: HeimrState,
    attacker: Combatant,
    target: Combatant,
    dice: DiceSource,
    events: list[Event],
    part: str | None = None,
    hit_effect: int | None = None,
    defence: str | None = None,
    melee_only: bool = False,
    line: str | None = None,
) -> None:
    """H-ATK-2: one roll per wielded weapon against one target; H-ATK-4 damage on a hit;
    H-ATK-7 a shot into a combat cluster goes on to the next character when dodged."""
    original = target
    weapons = usable_weapons(state, attacker)
    if attacker.drawn_ammunition is not None:  # H-ACT-8: else there is none to spend
        for weapon in weapons:
            if not (melee_only and not weapon.melee):
                spend_ammunition(state, attacker, weapon, events)
    guard = guards.intercept_attack(state, attacker, target, events)
    if guard is not None:
        target = guard  # H-GUARD-1: the attack goes to the guard instead
    for weapon in weapons:
        if melee_only and not weapon.melee:
            continue
        if target.dead:
            break
        if guard is not None and not weapon.melee:
            # A shot the guard dodges goes on to the one it guards; a block stops it.
            outcome = strike(
                state,
                attacker,
                guard,
                weapon,
                dice,
                events,
                part,
                hit_effect,
                defence,
                charging=melee_only,
                line=line,
            )
            if outcome is not None and not outcome.hit and outcome.defended_with == "dodge":
                events.append(
                    Event(
                        "guard",
                        f"{guard.name} dodges: the shot goes on to {original.name}",
                        {"who": guard.id},
                    )
                )
                strike(
                    state,
                    attacker,
                    original,
                    weapon,
                    dice,
                    events,
                    part,
                    hit_effect,
                    None,
                    fatigue=False,
                    line=line,
                )
            continue
        # H-ATK-7 reads the target's cluster for a shot alone (a melee strike needs none).
        cluster = None if weapon.melee else state.cluster_of(target.id)
        if cluster is None or attacker.id in cluster:
            strike(
                state,
                attacker,
                target,
                weapon,
                dice,
                events,
                part,
                hit_effect,
                defence,
                charging=melee_only,
            )
        else:
            fire_into_cluster(
                state, attacker, target, cluster, weapon, dice, events, part, hit_effect, defence
            )


def fire_into_cluster(
    state: HeimrState,
    attacker: Combatant,
    target: Combatant,
    cluster: list[str],
    weapon: Weapon,
    dice: DiceSource,
    events: list[Event],
    part: str | None,
    hit_effect: int | None,
    defence: str | None,
) -> None:
    """H-ATK-7: a penalty of one per character in the cluster; if the target dodges,
    roll again against the next in initiative order from it, the penalty one lower,
    until someone is hit or blocks. Only the first roll can raise fatigue."""
    order = [c for c in state.order if c in cluster] or list(cluster)
    start = order.index(target.id) if target.id in order else 0
    victims = [state.combatants[c] for c in order[start:] + order[:start]]
    penalty = len(cluster)
    for i, victim in enumerate(victims):
        if victim.dead:
            continue
        mods = [(f"firing into a cluster of {len(cluster)}", -(penalty - i))]
        outcome = strike(
            state,
            attacker,
            victim,
            weapon,
            dice,
            events,
            part,
            hit_effect,
            defence if i == 0 else None,
            mods,
            fatigue=i == 0,
        )
        if outcome is None or outcome.hit or outcome.defended_with != "dodge":
            return
        if i + 1 < len(victims):
            events.append(
                Event(
                    "attack",
                    f"{victim.name} dodges: the shot goes on into the cluster",
                    {"who": attacker.id, "dodged": victim.id},
                )
            )


def strike(
    state: HeimrState,
    attacker: Combatant,
    target: Combatant,
    weapon: Weapon,
    dice: DiceSource,
    events: list[Event],
    part: str | None = None,
    hit_effect: int | None = None,
    defence: str | None = None,
    extra: list[Modifier] | None = None,
    fatigue: bool = True,
    charging: bool = False,
    line: str | None = None,
) -> Outcome | None:
    """One attack roll with ``weapon`` against ``target`` and its defence; ``None`` when
    the roll came to nothing before a defence (fatigue, a hold)."""
    # The cheap tests of the rare cases (hidden, holding, held, upcoming) are made here,
    # before calling what handles them: asked at every attack.
    ability = attacker.stats.abilities[weapon.ability]
    melee = weapon.ranged is None
    mods = attack_mods(state, attacker, target, weapon, part)
    if target.hide_cr is not None:
        luck = hiding.luck_shot(attacker, target, dice, events)
        if luck is None:
            return None
        mods += luck
    if extra:
        mods += extra
    pot = [("weapon", weapon.potential_bonus)] if weapon.potential_bonus else []
    if attacker.hide_cr is not None and (not melee or charging):
        pot += hiding.hidden_bonus(attacker, target)
    check = challenge(
        attacker,
        ability,
        dice,
        f"{attacker.name} attacks {target.name} with the {weapon.name}",
        mods,
        pot,
        events,
        fatigue=fatigue,
    )
    if attacker.hide_cr is not None:
        hiding.after_attack(state, attacker, target, melee, events)
    if melee:
        join_cluster(state, attacker, target, events)
        attacker.attacked_melee.append(target.id)
    else:
        target.shot_by.append(attacker.id)  # H-ACT-7: cannot hide from it next turn
    if target.upcoming is not None:
        effects.interrupt(target, "attack", events)
    holding = target.holding is not None
    if attacker.held_by is not None and not held_attack_passes(
        state, attacker, check, dice, events
    ):
        return None
    if check.failed_outright:
        events.append(
            Event(
                "attack",
                f"{attacker.name}'s attack fails outright on fatigue: "
                f"{target.name} need not defend",
                {"who": attacker.id, "target": target.id, "hit": False},
            )
        )
        return None
    outcome = defend(
        state, attacker, target, check, not melee, dice, events, defence, holding, line
    )
    if melee and outcome.defended_with == "dodge" and not outcome.hit:
        target.dodged_melee_of.append(attacker.id)  # H-ATK-9: lets a brawler in
    if outcome.hit:
        struck = part or state.tables.body_part(check.d6)
        # H-ATK-4: a Hit effect called on a hit replaces the weapon's damage.
        called = hit_effect is not None
        damage = hit_effect if hit_effect is not None else weapon.damage
        hurt(state, attacker, target, damage, struck, events, effect=called, dice=dice)
    return outcome


def hurt(
    state: HeimrState,
    attacker: Combatant,
    target: Combatant,
    amount: int,
    part: str,
    events: list[Event],
    effect: bool = False,
    dice: DiceSource | None = None,
) -> None:
    """A hit: lose hit points in ``part``. A hold ends when the held hits its holder, or
    when the holder receives an effect: a called Hit (``effect``) is one (H-ATK-10)."""
    if attacker.held_by == target.id:
        effects.release_hold(state, target, f"hit by {attacker.name}", events)
    elif effect:
        effects.release_hold(state, target, "receives an effect", events)
    health.lose_hit_points(state, target, amount, part, events)
    if dice is not None and target.climbing is not None:
        terrain.hold_on(state, target, dice, events)  # H-GRID-7: hit while climbing


def held_attack_passes(
    state: HeimrState, who: Combatant, check: Check, dice: DiceSource, events: list[Event]
) -> bool:
    """H-ATK-10: the holder's brawl roll is the CR of a held character's physical action;
    passing it breaks the hold."""
    if who.held_by is None or not check.physical:
        return True
    holder = state.combatants[who.held_by]
    cr = challenge(
        holder,
        holder.stats.abilities["Brawl"],
        dice,
        f"{holder.name} holds {who.name} back",
        events=events,
    )
    if check.result >= cr.result:
        effects.release_hold(state, holder, f"{who.name} breaks free", events)
        return True
    events.append(
        Event(
            "hold",
            f"{holder.name} holds {who.name}: the action fails",
            {"who": who.id, "holder": holder.id},
        )
    )
    return False


def brawl(
    state: HeimrState,
    attacker: Combatant,
    target: Combatant,
    effect: str,
    dice: DiceSource,
    events: list[Event],
    defence: str | None = None,
    charging: bool = False,
) -> None:
    """H-ATK-8..10: a punch (Hit 1) or a grab (Bind), chosen before the roll."""
    target = guards.intercept_attack(state, attacker, target, events) or target  # H-GUARD-1
    luck = hiding.luck_shot(attacker, target, dice, events)  # H-POS-4
    if luck is None:
        return
    if not past_the_weapon(state, attacker, target, dice, events):
        return
    check = challenge(
        attacker,
        attacker.stats.abilities["Brawl"],
        dice,
        f"{attacker.name} brawls {target.name} ({effect})",
        ([("prone", -PRONE_PENALTY)] if attacker.prone else [])  # H-POS-1: all attacks
        + terrain.attack_mods(state, attacker, target, melee=True)
        + luck,
        hiding.hidden_bonus(attacker, target) if charging else [],  # H-POS-4: a charge
        events=events,
    )
    join_cluster(state, attacker, target, events)
    attacker.attacked_melee.append(target.id)
    effects.interrupt(target, "attack", events)
    holding = target.holding is not None
    if not held_attack_passes(state, attacker, check, dice, events):
        return
    if check.failed_outright:
        events.append(
            Event(
                "attack",
                f"{attacker.name}'s brawl fails outright on fatigue",
                {"who": attacker.id, "hit": False},
            )
        )
        return
    outcome = defend(state, attacker, target, check, False, dice, events, defence, holding)
    part = state.tables.body_part(check.d6)
    # H-ATK-8: equal to the defence or one below it touches, costing no hit points.
    touch = not outcome.hit and outcome.margin is not None and outcome.margin >= -1
    if not outcome.hit and not touch:
        return
    if effect == "bind":
        grab(state, attacker, target, part, events)  # a touch grabs too (docs/decisions.md)
    elif outcome.hit:
        hurt(state, attacker, target, 1, part, events, effect=True, dice=dice)  # Hit 1
    else:
        events.append(
            Event(
                "brawl",
                f"{attacker.name} touches {target.name}: no hit points lost",
                {"who": attacker.id, "touch": True},
            )
        )


def past_the_weapon(
    state: HeimrState,
    attacker: Combatant,
    target: Combatant,
    dice: DiceSource,
    events: list[Event],
) -> bool:
    """H-ATK-9: whether a brawler gets past the melee weapon of ``target``.

    Free when it dodged the target's melee attack in the target's last turn (or the target
    cannot act). Otherwise the target first makes a weapon attack, as if readied, with its
    first melee weapon; the brawler must dodge it (its pre-rolled dodge if it holds one,
    else a dodge rolled now), and a hit ends the brawl. The order does not change.
    """
    weapon = None
    for w in target.weapons():
        if w.ranged is None:  # its first melee weapon
            weapon = w
            break
    if weapon is None or target.id in attacker.dodged_melee_of or not effects.can_act(target):
        return True
    events.append(
        Event(
            "brawl",
            f"{target.name} is armed: {attacker.name} must get past the weapon",
            {"who": attacker.id, "target": target.id},
        )
    )
    pot = [("weapon", weapon.potential_bonus)] if weapon.potential_bonus else []
    strike = challenge(
        target,
        target.stats.abilities[weapon.ability],
        dice,
        f"{target.name} strikes at {attacker.name} with the {weapon.name}",
        attack_mods(state, target, attacker, weapon, None),
        pot,
        events,
    )
    join_cluster(state, attacker, target, events)
    holding = attacker.holding is not None
    if not held_attack_passes(state, target, strike, dice, events) or strike.failed_outright:
        return True  # no attack to dodge (H-ATK-10, H-FAT-1)
    dodge = provoked_dodge(state, attacker, holding, dice, events)
    if dodge is not None and not dodge.failed and dodge.result >= strike.result:
        events.append(
            Event(
                "brawl",
                f"{attacker.name} dodges the {weapon.name} ({dodge.result} against "
                f"{strike.result}) and closes in",
                {"who": attacker.id},
            )
        )
        return True
    events.append(
        Event(
            "brawl",
            f"{attacker.name} fails to dodge the {weapon.name}: the brawl attack fails",
            {"who": attacker.id, "hit": False},
        )
    )
    part = state.tables.body_part(strike.d6)
    hurt(state, target, attacker, weapon.damage, part, events, dice=dice)
    return False


def provoked_dodge(
    state: HeimrState, who: Combatant, holding: bool, dice: DiceSource, events: list[Event]
) -> PreRolled | None:
    """H-ATK-9: the dodge against a provoked attack, or ``None`` if ``who`` cannot defend.

    A pre-rolled dodge is used (and rolled again, H-DEF-2); with another defence held, a
    dodge is rolled now and the held one kept, as for a parry against a shot.
    """
    if not effects.can_defend(who) or holding:
        events.append(Event("defence", f"{who.name} cannot defend", {"who": who.id}))
        return None
    held = who.defence
    if held is not None and held.kind == "dodge":
        used: PreRolled | None = held
    else:
        used = roll_defence(state, who, "dodge", dice, events)
    assert used is not None
    who.uses["dodge"] = who.uses.get("dodge", 0) + 1
    tire(who, used.d6, events)
    if used is held:
        preroll_defence(state, who, dice, events)
    return used


def grab(
    state: HeimrState, holder: Combatant, held: Combatant, part: str, events: list[Event]
) -> None:
    """H-ATK-8, H-ATK-10: Bind on the body part the brawl roll picked."""
    effects.release_hold(state, holder, "takes a new hold", events)
    holder.holding = held.id
    held.held_by = holder.id
    bind_part = {
        "sword arm": "arm",
        "other arm": "arm",
        "right leg": "leg",
        "left leg": "leg",
        "torso": "body",
    }[part]
    limb = part if bind_part in ("arm", "leg") else None
    held.effects.append(ActiveEffect("Bind", 0, 0, source=holder.id, part=bind_part, limb=limb))
    events.append(
        Event(
            "hold",
            f"{holder.name} grabs {held.name} by the {part}: Bind "
            f"({bind_part}); {holder.name} cannot defend while holding on",
            {"who": holder.id, "held": held.id, "part": bind_part},
        )
    )


def finish_upcoming(state: HeimrState, who: Combatant, events: list[Event]) -> None:
    """H-ACT-1: an upcoming action completes as this turn's standard action."""
    action, who.upcoming = who.upcoming, None
    if action is None:
        return
    verb, _, rest = action.partition(" ")
    if verb == "crawl":
        terrain.enter(state, who, rest, events)
        events.append(
            Event("move", f"{who.name} crawls into {rest}", {"who": who.id, "square": rest})
        )
    elif verb == "breather":
        breather(state, who, events)
    elif verb == "skill":  # H-SKILL-1: the prepared skill is used now, and done with
        who.skill_in_use = None
        events.append(Event("skill", f"{who.name} uses the prepared {rest}", {"who": who.id}))


def breather(state: HeimrState, who: Combatant, events: list[Event]) -> None:
    """H-FAT-3: fatigue falls by 2, not below base."""
    base = base_fatigue(state, who)
    who.fatigue = max(base, who.fatigue - state.tables.fatigue.breather)
    events.append(
        Event(
            "fatigue",
            f"{who.name} takes a breather: fatigue {who.fatigue}",
            {"who": who.id, "fatigue": who.fatigue},
            detail=frozenset({who.side}),
            outline=f"{who.name} takes a breather",
            outline_data={"who": who.id},
        )
    )


def base_fatigue(state: HeimrState, who: Combatant) -> int:
    """H-FAT-3: max(1, 4 - sta), with the numbers of the campaign's fatigue table."""
    table = state.tables.fatigue
    return max(table.minimum, table.base - who.stats.attributes.get(table.attribute, 0))


def outmanoeuvre(
    state: HeimrState,
    mover: Combatant,
    guard: Combatant,
    dice: DiceSource,
    events: list[Event],
) -> bool:
    """H-GUARD-4: the guard attacks as a free action (its first weapon, else a brawl Hit 1)
    and the mover must dodge it, at -1 consistency; a dodge gets it past the guard."""
    weapon = next(iter(guard.weapons()), None)
    ability = guard.stats.abilities[weapon.ability if weapon else "Brawl"]
    pot = [("weapon", weapon.potential_bonus)] if weapon and weapon.potential_bonus else []
    mods = attack_mods(state, guard, mover, weapon, None) if weapon else []
    attack = challenge(
        guard,
        ability,
        dice,
        f"{guard.name} strikes at {mover.name} slipping past",
        mods,
        pot,
        events,
    )
    if attack.failed_outright:
        return True
    dodge = roll_defence(
        state, mover, "dodge", dice, events, consistency=[("outmanoeuvring", OUTMANOEUVRE_DODGE)]
    )
    assert dodge is not None
    mover.uses["dodge"] = mover.uses.get("dodge", 0) + 1
    tire(mover, dodge.d6, events)
    if not dodge.failed and dodge.result >= attack.result:
        events.append(
            Event(
                "guard",
                f"{mover.name} dodges past {guard.name}",
                {"who": mover.id, "guard": guard.id, "past": True},
            )
        )
        return True
    events.append(
        Event(
            "guard",
            f"{mover.name} fails to get past {guard.name}",
            {"who": mover.id, "guard": guard.id, "past": False},
        )
    )
    part = state.tables.body_part(attack.d6)
    hurt(state, guard, mover, weapon.damage if weapon else 1, part, events, dice=dice)
    return False
