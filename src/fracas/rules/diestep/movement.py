"""Regions, moving, prone and mounts (D-OA-1, D-PRONE-1, D-MOUNT-1).

A region is the unit of movement: a named area of the battlefield (a room, a stretch
of road, a bridge), bordering other regions. Everyone in a region can reach everyone
else in it in melee; a ranged attack's distance is the fewest borders crossed.
``move`` crosses one border (a minor action), ``run`` two (a major action; a mount
runs three), ``crawl`` one when prone (an exclusive action).
"""

from __future__ import annotations

from collections import deque

from fracas.engine import Event, IllegalAction
from fracas.rules.diestep import grapple
from fracas.rules.diestep.state import Combatant, DieStepState


def distance(state: DieStepState, a: str, b: str) -> int | None:
    """The fewest borders between regions ``a`` and ``b`` (``None``: no way).

    >>> from fracas.rules.diestep.setup import build
    >>> s = build({"campaign": {"characters": {"x": {"name": "X", "side": "s"}}},
    ...            "regions": {"a": {"borders": ["b"]}, "b": {"borders": ["c"]}, "c": {}},
    ...            "combatants": [{"character": "x", "region": "a"}]})
    >>> distance(s, "a", "c"), distance(s, "c", "a"), distance(s, "b", "b")
    (2, 2, 0)
    """
    seen = {a: 0}
    queue = deque([a])
    while queue:
        here = queue.popleft()
        if here == b:
            return seen[here]
        for nxt in state.regions[here].borders:
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return None


def distances(state: DieStepState, a: str) -> dict[str, int]:
    """The fewest borders from region ``a`` to every region reachable from it: what
    :func:`distance` gives for each, in one search.

    >>> from fracas.rules.diestep.setup import build
    >>> s = build({"campaign": {"characters": {"x": {"name": "X", "side": "s"}}},
    ...            "regions": {"a": {"borders": ["b"]}, "b": {"borders": ["c"]}, "c": {}},
    ...            "combatants": [{"character": "x", "region": "a"}]})
    >>> distances(s, "a"), distances(s, "c")
    ({'a': 0, 'b': 1, 'c': 2}, {'c': 0, 'b': 1, 'a': 2})
    """
    seen = {a: 0}
    queue = deque([a])
    while queue:
        here = queue.popleft()
        for nxt in state.regions[here].borders:
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return seen


def region_name(state: DieStepState, name: str | None) -> str:
    if name is None or name not in state.regions:
        known = ", ".join(state.regions)
        raise IllegalAction("D-OA-1", f"no region called {name!r} (there are {known})")
    return name


def path(state: DieStepState, who: Combatant, to: str | None, via: str | None) -> list[str]:
    """The regions entered, in order, each bordering the last."""
    steps = [region_name(state, r) for r in (via.split(",") if via else [])]
    steps.append(region_name(state, to))
    here = who.region
    for step in steps:
        if step not in state.regions[here].borders:
            raise IllegalAction("D-OA-1", f"{step} does not border {here}: name the way, via=")
        here = step
    return steps


def mover(state: DieStepState, who: Combatant) -> Combatant:
    """Who carries ``who``: its mount when riding."""
    return state.who(who.mounted_on) if who.mounted_on else who


def check_free_to_move(state: DieStepState, who: Combatant, crawling: bool = False) -> None:
    """D-PRONE-1, D-GRAB-1: what stops a character (or its pair) from moving."""
    refused = free_to_move_refusal(state, who, crawling)
    if refused is not None:
        raise IllegalAction(*refused)


def free_to_move_refusal(
    state: DieStepState, who: Combatant, crawling: bool = False
) -> tuple[str, str] | None:
    """What stops ``who`` (or its pair) from moving, as a rule and a sentence, or
    ``None``: :func:`check_free_to_move` without raising."""
    body = mover(state, who)
    if body.prone and not crawling:
        return "D-PRONE-1", f"{body.name} is not standing: crawl or stand up"
    if crawling and not body.prone:
        return "D-PRONE-1", f"{body.name} is standing: only the fallen crawl"
    for c in (who,) if body is who else (who, body):
        if c.held_by is not None:
            return "D-GRAB-1", f"{c.name} is grabbed and cannot move: escape first"
        if c.holding is not None:
            target = state.who(c.holding)
            if target.hold == "full":
                return "D-GRAB-1", f"{c.name} holds {target.name}: drag them or let go first"
            if not grapple.much_larger(state, c, target):
                return "D-GRAB-1", f"{c.name} cannot move without letting go of {target.name}"
    return None


def run_regions(state: DieStepState, who: Combatant) -> int:
    """D-MOUNT-1: two regions, a mount three (a sheet may say otherwise)."""
    body = mover(state, who)
    if body.sheet.run_regions is not None:
        return body.sheet.run_regions
    return state.tables.mount_run_regions if body.sheet.mount else state.tables.run_regions


def go(
    state: DieStepState, who: Combatant, steps: list[str], how: str, events: list[Event]
) -> None:
    """Move ``who`` (with its mount or rider, and a partially grabbed target) along ``steps``."""
    body = mover(state, who)
    group = [body] + ([state.who(body.rider)] if body.rider else [])
    for c in list(group):
        if c.holding is not None:
            group.append(state.who(c.holding))  # a much larger grappler takes its target along
    for c in group:
        c.region = steps[-1]
    if state.turn is not None and body.sheet.mount and body.rider is not None:
        state.turn.mount_moved = True
    names = " and ".join(c.name for c in group)
    how = how if len(group) == 1 else how.removesuffix("s")
    events.append(
        Event(
            "move",
            f"{names} {how} to {steps[-1]}",
            {"who": [c.id for c in group], "to": steps[-1], "path": steps},
        )
    )


def check_mount(state: DieStepState, rider: Combatant, mount_id: str | None) -> Combatant:
    if rider.mounted_on is not None:
        raise IllegalAction("D-MOUNT-1", f"{rider.name} is already mounted")
    if mount_id is None or mount_id not in state.combatants:
        raise IllegalAction("D-MOUNT-1", f"name the mount: {rider.id} mount <mount>")
    mount = state.who(mount_id)
    if not mount.sheet.mount or mount.rider is not None or not mount.able:
        raise IllegalAction("D-MOUNT-1", f"{mount.name} is not a free mount")
    if mount.region != rider.region or mount.side != rider.side:
        raise IllegalAction("D-MOUNT-1", f"{mount.name} is not a mount of {rider.name}'s side here")
    if rider.prone or rider.held_by or rider.holding:
        raise IllegalAction("D-MOUNT-1", f"{rider.name} must stand free to mount")
    return mount


def mount(state: DieStepState, rider: Combatant, mount: Combatant, events: list[Event]) -> None:
    rider.mounted_on, mount.rider = mount.id, rider.id
    events.append(
        Event("mount", f"{rider.name} mounts {mount.name}", {"who": rider.id, "mount": mount.id})
    )


def dismount(state: DieStepState, rider: Combatant, events: list[Event]) -> None:
    assert rider.mounted_on is not None
    mount = state.who(rider.mounted_on)
    rider.mounted_on, mount.rider = None, None
    if state.turn is not None and state.turn.partner == mount.id:
        state.turn.partner = None
    events.append(
        Event("mount", f"{rider.name} dismounts {mount.name}", {"who": rider.id, "mount": mount.id})
    )
