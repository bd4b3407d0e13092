"""Rulesets, registered by id: ``find("heimr")`` returns the Heimr Tabletop RPG Core rules.

The engine knows none of them; each lives in its own folder with its data beside it.

>>> sorted(ids())
['diestep', 'heimr', 'heimr-classic', 'sides', 'tempo']
>>> find("heimr").id
'heimr'
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from fracas.engine.errors import EngineError
from fracas.engine.ruleset import Ruleset

#: Where each ruleset lives, imported only when asked for.
_KNOWN: dict[str, str] = {
    "heimr": "fracas.rules.heimr.ruleset:HeimrRules",
    "sides": "fracas.rules.sides.ruleset:SidesRules",
    "diestep": "fracas.rules.diestep.ruleset:DieStepRules",
    "tempo": "fracas.rules.tempo.ruleset:TempoRules",
    "heimr-classic": "fracas.rules.classic.ruleset:ClassicRules",
}
_REGISTRY: dict[str, type[Ruleset[Any]]] = {}


def register(cls: type[Ruleset[Any]]) -> type[Ruleset[Any]]:
    """Register a ruleset class by its ``id`` (usable as a decorator)."""
    _REGISTRY[cls.id] = cls
    return cls


def ids() -> list[str]:
    return sorted(set(_KNOWN) | set(_REGISTRY))


def find(ruleset_id: str) -> Ruleset[Any]:
    """A ruleset by id; :class:`EngineError` names the known ids otherwise."""
    if ruleset_id not in _REGISTRY:
        if ruleset_id not in _KNOWN:
            raise EngineError(f"unknown ruleset {ruleset_id!r}: known are {', '.join(ids())}")
        module, _, name = _KNOWN[ruleset_id].partition(":")
        register(getattr(import_module(module), name))
    return _REGISTRY[ruleset_id]()
