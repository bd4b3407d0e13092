"""Policies: who chooses each action in a simulation, from what its side may see.

A policy gets the acting side's view (:func:`fracas.engine.view`), the legal actions of
the actor to move and a NumPy generator for any chance it needs; it never sees the
encounter itself. Policies register by name, and each is built for one ruleset:

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

import inspect
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import import_module
from typing import Any, Protocol

import numpy

from fracas.engine import Action
from fracas.lab.policies import baseline

#: The module of each ruleset's own policies, by ruleset id.
RULESET_MODULES: dict[str, str] = {
    "heimr": "heimr",
    "heimr-classic": "classic",
    "sides": "sides",
    "tempo": "tempo",
    "diestep": "diestep",
}


class Policy(Protocol):
    """Chooses one of ``legal`` from ``view``; any chance comes from ``rng``."""

    name: str

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: numpy.random.Generator
    ) -> Action: ...


@cache
def _ruleset_class(ruleset_id: str, class_name: str) -> Any:
    """``fracas.lab.policies.<ruleset>.<class_name>``, or ``None`` where there is none
    (looked up once: a playout builds fresh policies for every run)."""
    module_name = RULESET_MODULES.get(ruleset_id)
    if module_name is None:
        known = ", ".join(sorted(RULESET_MODULES))
        raise ValueError(f"no policies for ruleset {ruleset_id!r}: known are {known}")
    try:
        module = import_module(f"fracas.lab.policies.{module_name}")
    except ModuleNotFoundError as err:
        if err.name != f"fracas.lab.policies.{module_name}":
            raise
        return None
    return getattr(module, class_name, None)


def _default(ruleset_id: str) -> Policy:
    cls = _ruleset_class(ruleset_id, "DefaultPolicy")
    if cls is None:
        raise ValueError(f"policy 'default' is not available for {ruleset_id} in this fracas")
    made: Policy = cls(ruleset_id) if _takes_ruleset(cls) else cls()
    return made


def _heimr_melee(ruleset_id: str) -> Policy:
    if ruleset_id != "heimr":
        raise ValueError(f"policy 'heimr-melee' plays heimr only, not {ruleset_id}")
    try:
        module = import_module("fracas.lab.policies.heimr_melee")
    except ModuleNotFoundError:
        raise ValueError("policy 'heimr-melee' is not available in this fracas") from None
    made: Policy = module.MeleePolicy()
    return made


@cache
def _takes_ruleset(cls: Any) -> bool:
    """Whether the policy class is made with the ruleset's id (asked once a class: a
    simulation makes fresh policies for every run)."""
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
    return len(params) >= 1


#: Policy factories by name: each takes a ruleset id and returns a fresh policy.
POLICIES: dict[str, Callable[[str], Policy]] = {
    "random": baseline.RandomPolicy,
    "attack-nearest": baseline.AttackNearest,
    "focus-weakest": baseline.FocusWeakest,
    "defensive": baseline.Defensive,
    "scripted": lambda ruleset_id: baseline.Scripted(ruleset_id, ()),
    "default": _default,
    "heimr-melee": _heimr_melee,
}


def policy(name: str, ruleset_id: str) -> Policy:
    """A fresh policy ``name`` for ``ruleset_id``; :class:`ValueError` lists the names."""
    factory = POLICIES.get(name)
    if factory is None:
        raise ValueError(f"unknown policy {name!r}: known are {', '.join(sorted(POLICIES))}")
    return factory(ruleset_id)


def available(name: str, ruleset_id: str) -> bool:
    """Whether :func:`policy` can build ``name`` for ``ruleset_id`` here."""
    try:
        policy(name, ruleset_id)
    except ValueError:
        return False
    return True


def gm_policy(ruleset_id: str) -> Policy:
    """The game master's policy: the ruleset's ``GmPolicy``, else one that moves the
    encounter on (begins it, opens and closes rounds) and calls nothing else."""
    cls = _ruleset_class(ruleset_id, "GmPolicy")
    if cls is None:
        return baseline.ProceedingGm(ruleset_id)
    made: Policy = cls(ruleset_id) if _takes_ruleset(cls) else cls()
    return made


__all__ = ["POLICIES", "RULESET_MODULES", "Policy", "available", "gm_policy", "policy"]
