"""Quick answers the Heimr rules' check would give, building no refusal: for the actions a
policy asks about most, a cheap test of only what the check reads.

- :data:`OUT_OF_HAND`, by verb: the check refuses this action (never one it accepts).
- :data:`WHOLE_VERB`, by verb: the check refuses every action of the verb that the
  listing offers the actor, whatever its target and options.
- :data:`IN_HAND`, by verb: the check accepts this action (never one it refuses).

:class:`fracas.rules.heimr.ruleset.HeimrRules` asks them before its check, and only for
itself and the subclasses that check, refuse and offer as it does;
``tests/heimr/test_listing_shortcuts.py`` holds each to the check over the examples.

>>> from fracas.rules.heimr.setup import build
>>> ATTRIBUTES = {"str": 0, "dex": 0, "sta": 0, "int": 0, "soc": 0, "emp": 0}
>>> def sheet(name, side):
...     return {"name": name, "side": side, "attributes": ATTRIBUTES, "hit_points": 4,
...             "willpower": 3, "items": {"sword_hand": "Light weapon"}}
>>> state = build({"campaign": {"characters": {"a": sheet("A", "n"), "b": sheet("B", "s")}},
...     "battlefield": {"columns": 3, "rows": 3},
...     "combatants": [{"character": "a", "square": "A1"}, {"character": "b", "square": "B1"}]})
>>> OUT_OF_HAND["attack"](state, Action("a", "attack", "b"))  # a sword reaches its square
True
>>> WHOLE_VERB["brawl"](state, Action("a", "brawl"))  # no foe in its square to brawl
True
"""

from __future__ import annotations

from collections.abc import Callable

from fracas.engine import Action
from fracas.rules.heimr import combat, hiding, terrain
from fracas.rules.heimr.state import Combatant, HeimrState, item_named

#: A quick test of an action in a state.
Quick = Callable[[HeimrState, Action], bool]


def melee_out_of_reach(state: HeimrState, action: Action) -> bool:
    """Whether the rules' check would refuse the attack ``action`` whatever else holds:
    a melee weapon it would strike with reaches only the own square (H-ATK-1). Asked
    before the check when listing, which then builds no refusal for most attacks."""
    attacker = state.combatants.get(action.actor)
    target = state.combatants.get(action.target or "")
    if attacker is None or target is None or attacker.square == target.square:
        return False
    return any(w.melee for w in combat.usable_weapons(state, attacker))


def brawl_out_of_reach(state: HeimrState, action: Action) -> bool:
    """Whether the check refuses the brawl ``action`` for its squares (H-ATK-1)."""
    attacker = state.combatants.get(action.actor)
    target = state.combatants.get(action.target or "")
    return attacker is not None and target is not None and attacker.square != target.square


def charge_out_of_reach(state: HeimrState, action: Action) -> bool:
    """Whether the check refuses the charge ``action`` for its squares: the target in
    the charger's own square (H-ACT-4), in one not bordering it (H-GRID-2), or in one
    more than one height above or below the charger (H-GRID-5, H-GRID-6)."""
    charger = state.combatants.get(action.actor)
    target = state.combatants.get(action.target or "")
    if charger is None or target is None or target.square is None:
        return False
    if target.square == charger.square:
        return True
    field = state.battlefield
    to = field.place(target.square)
    return to not in field.neighbours(charger.square) or too_steep(state, charger, to)


def step_too_steep(state: HeimrState, action: Action) -> bool:
    """Whether the check refuses the move or run ``action`` into a square for its height:
    more than one above or below the mover (H-GRID-5, H-GRID-6), whatever else holds."""
    mover = state.combatants.get(action.actor)
    if mover is None or action.target in (None, "out"):
        return False
    return too_steep(state, mover, state.battlefield.place(action.target or ""))


def too_steep(state: HeimrState, who: Combatant, to: str) -> bool:
    """Whether square ``to`` is more than one height above or below ``who``: every way
    into it on foot is refused (:func:`fracas.rules.heimr.terrain.check_cross`)."""
    spot = state.battlefield.squares.get(to)
    return spot is not None and abs(spot.height - who.height) > 1


def no_hand_to_climb(state: HeimrState, action: Action) -> bool:
    """Whether the check refuses the climb ``action`` for the climber's hands: none is
    free (H-POS-5), which every climb needs."""
    climber = state.combatants.get(action.actor)
    return climber is not None and not climber.free_hand()


def not_free_to_stand(state: HeimrState, action: Action) -> bool:
    """Whether the check refuses standing up: the actor is not prone (H-POS-1), or a
    Fall holds it down (H-EFF-3)."""
    who = state.combatants.get(action.actor)
    return who is not None and (not who.prone or who.has("Fall"))


def no_hand_to_draw(state: HeimrState, action: Action) -> bool:
    """Whether the check refuses the draw ``action`` for the drawer's hands: the item
    (carried or concealed, not counted ammunition, H-ACT-8) finds no free hand
    (H-ACT-3), whatever else holds."""
    c = state.combatants.get(action.actor)
    if c is None or action.target is None:
        return False
    name = action.target.lower()
    if any(a.lower() == name for a in c.ammunition):
        return False
    item = item_named(c.carried, action.target) or item_named(c.concealed, action.target)
    return item is not None and not c.can_take_in_hand(item)


def defence_unheld(state: HeimrState, action: Action) -> bool:
    """Whether the check refuses the defence ``action`` for what is held (H-DEF-1): a
    block with no shield, a parry with no melee weapon (a policy asks every turn)."""
    who = state.combatants.get(action.actor)
    if who is None:
        return False
    if action.target == "block":
        return who.shield is None
    if action.target == "parry":
        return not any(w is not None and w.melee for w in (who.sword_hand, who.off_hand))
    return False


def no_foe_in_reach(state: HeimrState, action: Action) -> bool:
    """Whether the check refuses every attack the listing offers the actor: it has no
    weapon it can attack with (H-ACT-8, H-EFF-7: refused before any target is looked
    at), or :func:`melee_out_of_reach` refuses them all (no foe in its square, and a
    melee weapon to strike with)."""
    attacker = state.combatants.get(action.actor)
    if attacker is None:
        return False
    usable = combat.usable_weapons(state, attacker)
    if not usable:
        return True
    for w in usable:  # plain loops: asked at every listing of attacks
        if w.melee:
            return not foe_in_square(state, attacker)
    return False


def no_foe_to_charge(state: HeimrState, action: Action) -> bool:
    """Whether the check refuses every charge the listing offers the actor (each with no
    options): it wields no melee weapon (H-ACT-4: it would charge with a brawl), or
    :func:`charge_out_of_reach` refuses them all: each foe (of another side, not dead)
    in its own square, in one not bordering it, or in one more than one height above or
    below it."""
    charger = state.combatants.get(action.actor)
    if charger is None or charger.square is None:
        return False
    if not any(w.melee for w in charger.weapons()):
        return True
    field = state.battlefield
    near = field.neighbours(charger.square)
    for o in state.combatants.values():
        if o.id == charger.id or o.dead or o.side == charger.side:
            continue
        if o.square is None:
            return False
        if o.square == charger.square:
            continue
        to = field.place(o.square)
        if to in near and not too_steep(state, charger, to):
            return False
    return True


def no_foe_to_brawl(state: HeimrState, action: Action) -> bool:
    """Whether :func:`brawl_out_of_reach` refuses every brawl the listing offers the
    actor: no foe in its square."""
    brawler = state.combatants.get(action.actor)
    return brawler is not None and not foe_in_square(state, brawler)


def foe_in_square(state: HeimrState, c: Combatant) -> bool:
    """Whether one the listing offers ``c`` as a target (of another side, not dead) stands
    in ``c``'s square."""
    square, side = c.square, c.side
    for o in state.combatants.values():  # a plain loop: asked at every listing
        if o.square == square and o.side != side and not o.dead and o.id != c.id:
            return True
    return False


def melee_in_reach(state: HeimrState, action: Action) -> bool:
    """Whether the check accepts the attack ``action``, shown cheaply in the common case
    (else ``False``, and the check decides): a plain attack (no options) by a
    :func:`plain_striker` on a target :func:`struck_in_reach`."""
    if action.options:
        return False
    attacker = state.combatants.get(action.actor)
    target = state.combatants.get(action.target or "")
    return (
        attacker is not None
        and target is not None
        and struck_in_reach(attacker, target)
        and plain_striker(state, attacker)
    )


def plain_striker(state: HeimrState, attacker: Combatant) -> bool:
    """What :func:`melee_in_reach` asks of the attacker alone: under no effect and held by
    no one (no Stumble, H-EFF-4; no Bind, H-EFF-7), its wielded weapons all melee and all
    usable (H-ACT-8). Such an attacker's attacks are refused outside its square
    (:func:`melee_out_of_reach`) and accepted on a target :func:`struck_in_reach`."""
    if attacker.effects or attacker.held_by is not None:
        return False
    weapons = attacker.weapons()
    if not weapons:
        return False
    for w in weapons:
        if not w.melee:
            return False
    # Under no effect, each is usable but for ammunition it counts (H-ACT-8).
    return not attacker.ammunition or len(combat.usable_weapons(state, attacker)) == len(weapons)


def struck_in_reach(attacker: Combatant, target: Combatant) -> bool:
    """What :func:`melee_in_reach` asks of the target: another, living, that the attacker
    knows is there (H-POS-4), in its square (H-ATK-1), within one height (H-GRID-5)."""
    return (
        target.id != attacker.id
        and not target.dead
        and target.square == attacker.square
        and abs(target.height - attacker.height) <= 1
        and hiding.hidden_from(target, attacker.side) != hiding.UNAWARE
    )


def in_reach(state: HeimrState, action: Action) -> bool:
    """Whether the check accepts the attack ``action``, shown cheaply in the common cases
    (else ``False``): :func:`shot_in_reach` for one whose first weapon is ranged, else
    :func:`melee_in_reach` (each accepts only what the check accepts)."""
    attacker = state.combatants.get(action.actor)
    if attacker is None:
        return False
    weapons = attacker.weapons()
    if weapons and weapons[0].ranged is not None:
        return shot_in_reach(state, action)
    return melee_in_reach(state, action)


def shot_in_reach(state: HeimrState, action: Action) -> bool:
    """Whether the check accepts the attack ``action``, shown cheaply in the common case
    (else ``False``): a plain attack (no options) by one under no effect (no Stumble,
    H-EFF-4; no Bind, H-EFF-7), whose wielded weapons are all ranged and all usable (the
    ammunition it counts drawn, H-ACT-8), on another, living, that it knows is there
    (H-POS-4), within each weapon's range (H-ATK-6)."""
    if action.options:
        return False
    attacker = state.combatants.get(action.actor)
    target = state.combatants.get(action.target or "")
    if attacker is None or target is None:
        return False
    reach = plain_shooter(state, attacker)
    return reach is not None and shot_reaches(state, attacker, target, reach)


def plain_shooter(state: HeimrState, attacker: Combatant) -> int | None:
    """What :func:`shot_in_reach` asks of the attacker alone: the shortest range of its
    wielded weapons when it is under no effect (no Stumble, H-EFF-4; no Bind, H-EFF-7)
    and they are all ranged and all usable (the ammunition it counts drawn, H-ACT-8);
    else ``None``. Such an attacker's attacks on a target :func:`shot_reaches` are
    accepted."""
    if attacker.effects:
        return None
    weapons = attacker.weapons()
    reach = None
    for w in weapons:
        if w.ranged is None:
            return None
        reach = w.ranged if reach is None else min(reach, w.ranged)
    if reach is None:
        return None
    if attacker.ammunition and len(combat.usable_weapons(state, attacker)) != len(weapons):
        return None
    return reach


def shot_reaches(state: HeimrState, attacker: Combatant, target: Combatant, reach: int) -> bool:
    """What :func:`shot_in_reach` asks of the target: another, living, that the attacker
    knows is there (H-POS-4), within ``reach`` (H-ATK-6)."""
    return (
        target.id != attacker.id
        and not target.dead
        and hiding.hidden_from(target, attacker.side) != hiding.UNAWARE
        and terrain.shot_distance(state, attacker, target) <= reach
    )


def punch_in_reach(state: HeimrState, action: Action) -> bool:
    """Whether the check accepts the brawl ``action``, shown cheaply in the common case
    (else ``False``): a punch (``effect=hit``, H-ATK-8) by one not stumbling (H-EFF-4) on
    one that it knows is there (H-POS-4), in its square (H-ATK-1), within one height
    (H-GRID-5)."""
    if action.options != PUNCH:
        return False
    attacker = state.combatants.get(action.actor)
    target = state.combatants.get(action.target or "")
    return (
        attacker is not None
        and target is not None
        and target.square == attacker.square
        and abs(target.height - attacker.height) <= 1
        and hiding.hidden_from(target, attacker.side) != hiding.UNAWARE
        and not attacker.has("Stumble")
    )


def step_in_reach(state: HeimrState, action: Action) -> bool:
    """Whether the check accepts the move or run ``action``, shown cheaply in the common
    case (else ``False``): a plain step by one neither prone (H-POS-1) nor under any
    effect (no Bind, H-EFF-7; no Stumble, H-EFF-4) into a square bordering its own
    (H-GRID-2) with no border between them (no barrier, limit or crossing challenge,
    H-GRID-3, H-GRID-4) and within one height of it (H-GRID-5, H-GRID-6)."""
    if action.options or action.target in (None, "out"):
        return False
    mover = state.combatants.get(action.actor)
    if mover is None or mover.prone or mover.effects or mover.square is None:
        return False
    field = state.battlefield
    to = field.place(action.target or "")
    spot = field.squares.get(to)
    return (
        spot is not None
        and abs(spot.height - mover.height) <= 1
        and field.border(mover.square, to) is None
        and to in field.neighbours(mover.square)
    )


def charge_in_reach(state: HeimrState, action: Action) -> bool:
    """Whether the check accepts the charge ``action``, shown cheaply in the common case
    (else ``False``): a plain charge (no options) by one neither prone (H-POS-1) nor under
    any effect (no Stumble, H-EFF-4; no Bind, H-EFF-7), wielding a melee weapon (H-ACT-4),
    on one it knows is there (H-POS-4) that did not run from its square (H-ACT-5), in a
    square bordering its own (H-GRID-2) with no border between them (no barrier, limit
    or crossing challenge, H-GRID-3, H-GRID-4), within one height of the charger
    (H-GRID-5, H-GRID-6) and standing within one height of that square's ground (the
    reach of melee from there, H-GRID-5)."""
    if action.options:
        return False
    charger = state.combatants.get(action.actor)
    target = state.combatants.get(action.target or "")
    if (
        charger is None
        or target is None
        or charger.prone
        or charger.effects
        or charger.square is None
        or target.square == charger.square
    ):
        return False
    field = state.battlefield
    to = target.square
    spot = field.squares.get(to)
    return (
        spot is not None
        and field.place(to) == to
        and abs(spot.height - charger.height) <= 1
        and abs(spot.height - target.height) <= 1
        and target.ran_from != charger.square
        and field.border(charger.square, to) is None
        and to in field.neighbours(charger.square)
        and hiding.hidden_from(target, charger.side) != hiding.UNAWARE
        and any(w.melee for w in charger.weapons())
    )


PUNCH = (("effect", "hit"),)

#: By verb, a cheap test that the rules' check accepts an action (never one it refuses):
#: it reads only what the check would, for the actions a policy asks most.
IN_HAND: dict[str, Quick] = {
    "attack": in_reach,
    "brawl": punch_in_reach,
    "charge": charge_in_reach,
    "move": step_in_reach,
    "run": step_in_reach,
}

#: By verb, a cheap test that the rules' check refuses every action of that verb that a
#: listing offers an actor (it reads the actor's weapons and hands, and where it and
#: its foes stand): the listing offers none of them.
WHOLE_VERB: dict[str, Quick] = {
    "attack": no_foe_in_reach,
    "brawl": no_foe_to_brawl,
    "charge": no_foe_to_charge,
    "climb": no_hand_to_climb,
}

#: By verb, a cheap test that the rules' check refuses an action (never one it accepts).
OUT_OF_HAND: dict[str, Quick] = {
    "attack": melee_out_of_reach,
    "brawl": brawl_out_of_reach,
    "charge": charge_out_of_reach,
    "climb": no_hand_to_climb,
    "defend": defence_unheld,
    "draw": no_hand_to_draw,
    "move": step_too_steep,
    "run": step_too_steep,
    "stand": not_free_to_stand,
}
