"""An oracle of hidden information: what must not be shown to a side, and what the game
master's output must show of the same (so that a test of a leak can fail).

It reads the rules, not the events' visibility marks: a secret is named by the kind of
an event and whose it is, or by the state (who is hidden, a feint not yet resolved, a
declaration not yet carried out), so an event built without its marks is caught.

``secrets(encounter, side)`` gives:

- ``never``: strings that must appear nowhere in what the side is shown, its whole log
  included: the game master's text of every event that tells another side's hidden
  numbers (hit points, fatigue, willpower, stamina, AP, dice), an unrevealed feint or
  a declaration, or an event kept from the side altogether;
- ``now``: strings that must not appear in what the side is shown of the present: the
  state, whose turn it is, the actions offered and the newest log entry (an older log
  entry may name a combatant from before it hid, or a feint since resolved);
- ``gm_shows``: those of the secrets that the game master's view shows as they are
  (not the forms only an offered action or a presenter prints).

Strings are compared as they are printed; :func:`leaks` also tries their JSON forms.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from fracas.engine import Encounter, Event, view
from fracas.engine.views import offered

#: Per ruleset: the event kinds whose full text is private to the side of the combatant
#: it is about (``who``), unless a test says otherwise: the numbers its observer hides.
PRIVATE_KINDS: Mapping[str, frozenset[str]] = {
    "heimr": frozenset({"damage", "heal", "fatigue", "initiative", "willpower", "stance", "xp"}),
    "heimr-classic": frozenset({"damage", "declare", "post"}),
    "sides": frozenset({"wound", "declare", "attack", "check"}),
    "tempo": frozenset({"damage", "secret"}),
    "diestep": frozenset({"damage", "roll", "wake"}),
}

#: Words that, in an event of any kind about another side's combatant, tell a number
#: that side's observer hides.
PRIVATE_WORDS: Mapping[str, tuple[str, ...]] = {
    "heimr": (
        " left)",
        " left),",
        "reduced to",
        "hit points and dies",
        "rests five minutes:",
        "fatigue rises",
        "below fatigue ",
        ": fatigue ",
        "willpower",
        " XP",
    ),
    "heimr-classic": (" hit point", "willpower"),
    "sides": (" Health", " Stamina"),
    "tempo": (" HP",),
    "diestep": (" HP", " AP", " MP"),
}


@dataclass(frozen=True)
class Secrets:
    never: frozenset[str]
    now: frozenset[str]
    gm_shows: frozenset[str]


def secrets(encounter: Encounter[Any], side: str) -> Secrets:
    """What ``side`` must not be shown of ``encounter`` (see the module's docstring)."""
    ruleset = encounter.ruleset.id
    state = encounter.state
    side_of = {cid: c.side for cid, c in state.combatants.items()}
    never: set[str] = set()
    for entry in encounter.log:
        for event in entry.events:
            if _private(ruleset, event, side, side_of):
                never.add(event.text)
                # The purpose of a roll the event reports (a presenter asking for faces
                # prints it), when nothing the side may read holds it.
                never |= {r.purpose for r in entry.rolls if event.text.startswith(r.purpose)}
    public = _public_texts(encounter, side)
    never = {s for s in never - public if not any(s in text for text in public)}
    now: set[str] = set()
    gm_shows = set(never)
    for secret, also_in_gm_view in _NOW[ruleset](encounter, side):
        now.add(secret)
        if also_in_gm_view:
            gm_shows.add(secret)
    return Secrets(frozenset(never), frozenset(now), frozenset(gm_shows))


def present(encounter: Encounter[Any], side: str) -> str:
    """What ``side`` is shown of the present, as JSON: whose turn, the state, the newest
    log entry and the actions it is offered (where ``Secrets.now`` must not appear)."""
    seen = view(encounter, side)
    return json.dumps(
        {
            "to_move": seen["to_move"],
            "state": seen["state"],
            "log": seen["log"][-1:],
            "offered": [str(a) for a in offered(encounter, side)],
        },
        ensure_ascii=False,
    )


def leaks(secret: str, shown: str) -> bool:
    """Whether ``secret`` appears in ``shown``, as printed or as JSON writes it."""
    return secret in shown or json.dumps(secret)[1:-1] in shown


def _subject(event: Event) -> str | None:
    """Whom the event is about: the one hurt by damage, else the one acting."""
    keys = ("target", "who") if event.kind == "damage" else ("who", "attacker", "target", "actor")
    for key in keys:
        value = event.data.get(key)
        if isinstance(value, str):
            return value
    return None


def _private(ruleset: str, event: Event, side: str, side_of: Mapping[str, str]) -> bool:
    if event.seen_by is not None and side not in event.seen_by:
        return True
    who = _subject(event)
    if who is None or side_of.get(who, side) == side:
        return False
    if event.kind in PRIVATE_KINDS[ruleset]:
        return True
    return any(word in event.text for word in PRIVATE_WORDS[ruleset])


def _public_texts(encounter: Encounter[Any], side: str) -> set[str]:
    """Texts a side may read all the same: the events the rules leave public, and the
    outlines of the others."""
    out = set()
    side_of = {cid: c.side for cid, c in encounter.state.combatants.items()}
    for entry in encounter.log:
        for event in entry.events:
            if not _private(encounter.ruleset.id, event, side, side_of):
                out.add(event.text)
            elif event.outline is not None:
                out.add(event.outline)
    return out


# -- what is secret now, from the state ------------------------------------------------------


def _heimr_now(encounter: Encounter[Any], side: str) -> Iterable[tuple[str, bool]]:
    from fracas.rules.heimr import hiding

    for cid, c in encounter.state.combatants.items():
        if c.side != side and hiding.hidden_from(c, side) == hiding.UNAWARE:
            yield c.name, True
            yield json.dumps(cid), True  # the id as a JSON string: named anywhere in a view
            yield f"{cid} ", False  # as an action's actor or target


def _classic_now(encounter: Encounter[Any], side: str) -> Iterable[tuple[str, bool]]:
    state = encounter.state
    if not state.declared.open:
        return
    for declaration in state.declared.declarations:
        who = state.combatants.get(declaration.actor)
        if who is not None and who.side != side:
            yield str(declaration.action), True


def _sides_now(encounter: Encounter[Any], side: str) -> Iterable[tuple[str, bool]]:
    for c in encounter.state.combatants.values():
        if c.side != side and c.doing.declared:
            yield f"{c.name} declares", False


def _tempo_now(encounter: Encounter[Any], side: str) -> Iterable[tuple[str, bool]]:
    state = encounter.state
    ex = state.exchange
    if ex is None:
        return
    actor = state.combatants[ex.proactive.who]
    from fracas.rules.tempo.legality import shown

    if actor.side != side and shown(state, ex.proactive) != ex.proactive.action:
        yield ex.proactive.action, True  # "Feint"
        yield ex.proactive.action.lower(), False  # as a verb


def _nothing(encounter: Encounter[Any], side: str) -> Iterable[tuple[str, bool]]:
    return ()


_NOW: Mapping[str, Callable[[Encounter[Any], str], Iterable[tuple[str, bool]]]] = {
    "heimr": _heimr_now,
    "heimr-classic": _classic_now,
    "sides": _sides_now,
    "tempo": _tempo_now,
    "diestep": _nothing,
}
