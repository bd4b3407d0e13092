"""Policies: who chooses each action in a simulation, from what its side may see.

A policy gets the acting side's view (:func:`fracas.engine.view`), the legal actions of
the actor to move and a NumPy generator for any chance it needs; it never sees the
encounter itself. The baselines (:mod:`.baseline`) play every ruleset; a ruleset adds
its own through its ``policies`` capability (:class:`fracas.engine.capabilities.Policies`):
its ``default``, its game master's, and any other it names. A ruleset with no default
of its own plays ``default`` at random among the legal actions.

>>> sorted(POLICIES)[:3]
['attack-nearest', 'default', 'defensive']
>>> policy("attack-nearest", "heimr").name
'attack-nearest'
>>> policy("berserk", "heimr")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown policy 'berserk': known are attack-nearest, default, defensive, ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache

from fracas.engine import EngineError
from fracas.engine.capabilities import Policies, Policy, policies
from fracas.lab.policies import baseline
from fracas.rules import find, ids

__all__ = ["POLICIES", "Policy", "available", "gm_policy", "named", "policy"]


@cache
def _capability(ruleset_id: str) -> Policies:
    """The ruleset's policies capability (asked once a process: a simulation makes fresh
    policies for every run)."""
    try:
        return policies(find(ruleset_id))
    except EngineError as err:
        raise ValueError(str(err)) from None


def _own(ruleset_id: str) -> Mapping[str, Callable[..., Policy]]:
    """The ruleset's own policies by name."""
    return _capability(ruleset_id).named()


#: The baselines by name, each a factory taking a ruleset id; ``default`` is the
#: ruleset's own (random where it has none).
POLICIES: dict[str, Callable[[str], Policy]] = {
    "random": baseline.RandomPolicy,
    "attack-nearest": baseline.AttackNearest,
    "focus-weakest": baseline.FocusWeakest,
    "defensive": baseline.Defensive,
    "scripted": lambda ruleset_id: baseline.Scripted(ruleset_id, ()),
    "default": lambda ruleset_id: _default(ruleset_id),
}


def _default(ruleset_id: str) -> Policy:
    """The ruleset's own default, else a choice at random among the legal actions."""
    own = _own(ruleset_id).get("default")
    return own() if own is not None else baseline.RandomPolicy(ruleset_id)


def named(ruleset_id: str) -> list[str]:
    """Every policy name ``ruleset_id`` may play: the baselines and its own."""
    return sorted(set(POLICIES) | set(_own(ruleset_id)))


def _all_names() -> list[str]:
    names = set(POLICIES)
    for rid in ids():
        try:
            names |= set(_own(rid))
        except (ValueError, EngineError):
            continue
    return sorted(names)


def policy(name: str, ruleset_id: str) -> Policy:
    """A fresh policy ``name`` for ``ruleset_id``; :class:`ValueError` lists the names."""
    factory = POLICIES.get(name)
    if factory is not None:
        return factory(ruleset_id)
    own = _own(ruleset_id).get(name)
    if own is not None:
        return own()
    if name in _all_names():
        raise ValueError(f"policy {name!r} does not play {ruleset_id}")
    raise ValueError(f"unknown policy {name!r}: known are {', '.join(_all_names())}")


def available(name: str, ruleset_id: str) -> bool:
    """Whether :func:`policy` can build ``name`` for ``ruleset_id`` here."""
    try:
        policy(name, ruleset_id)
    except ValueError:
        return False
    return True


def gm_policy(ruleset_id: str) -> Policy:
    """The game master's policy: the ruleset's own, else one that moves the encounter on
    (begins it, opens and closes rounds) and calls nothing else."""
    own = _capability(ruleset_id).gm()
    return own if own is not None else baseline.ProceedingGm(ruleset_id)
