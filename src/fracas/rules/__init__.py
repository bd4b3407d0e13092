"""Rulesets, registered by id through the ``fracas.rulesets`` entry points of their
distributions: ``find("heimr")`` returns the Heimr Tabletop RPG Core rules.

The engine knows none of them; each lives in its own folder with its data beside it
(the five built in here, declared in fracas's own ``pyproject.toml``), or in a
distribution of its own (docs/rulesets.md). What a ruleset offers beyond the
:class:`~fracas.engine.Ruleset` protocol is asked through
:mod:`fracas.engine.capabilities`.

>>> {'diestep', 'heimr', 'heimr-classic', 'sides', 'tempo'} <= set(ids())
True
>>> find("heimr").id
'heimr'
>>> info("heimr").source
'fracas'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import import_module, metadata
from typing import Any

from fracas.engine.capabilities import ask
from fracas.engine.errors import EngineError
from fracas.engine.ruleset import Ruleset

__all__ = [
    "GROUP",
    "RulesetInfo",
    "check_version",
    "find",
    "ids",
    "info",
    "offering",
    "register",
]

#: The entry point group a ruleset registers in.
GROUP = "fracas.rulesets"

#: The built-in rulesets, used only when fracas runs uninstalled (no entry points).
_BUILT_IN: dict[str, str] = {
    "heimr": "fracas.rules.heimr.ruleset:HeimrRules",
    "sides": "fracas.rules.sides.ruleset:SidesRules",
    "diestep": "fracas.rules.diestep.ruleset:DieStepRules",
    "tempo": "fracas.rules.tempo.ruleset:TempoRules",
    "heimr-classic": "fracas.rules.classic.ruleset:ClassicRules",
}
_REGISTRY: dict[str, type[Ruleset[Any]]] = {}


@dataclass(frozen=True)
class RulesetInfo:
    """Where a ruleset comes from: its id, where its class lives, its distribution."""

    id: str
    target: str  # "module:Class"
    source: str  # the distribution that declares it
    source_version: str


@cache
def _installed() -> dict[str, RulesetInfo]:
    """Every ruleset the environment's entry points declare (read once a process)."""
    found: dict[str, RulesetInfo] = {}
    about: dict[int, tuple[str, str]] = {}  # each distribution's metadata, read once
    for point in metadata.entry_points(group=GROUP):
        dist = point.dist
        if dist is not None and id(dist) not in about:
            meta = dist.metadata
            about[id(dist)] = (meta["Name"], meta["Version"])
        name, version = about[id(dist)] if dist is not None else ("?", "")
        found.setdefault(point.name, RulesetInfo(point.name, point.value, name, version))
    if not any(i.source == "fracas" for i in found.values()):  # run from a source tree
        try:
            own = metadata.version("fracas")
        except metadata.PackageNotFoundError:
            own = "0"
        for rid, target in _BUILT_IN.items():
            found.setdefault(rid, RulesetInfo(rid, target, "fracas", own))
    return found


def register(cls: type[Ruleset[Any]]) -> type[Ruleset[Any]]:
    """Register a ruleset class by its ``id`` (usable as a decorator: for tests and
    scripts; a distribution declares an entry point instead)."""
    _REGISTRY[cls.id] = cls
    return cls


def ids() -> list[str]:
    """Every ruleset installed (or registered), sorted."""
    return sorted(set(_installed()) | set(_REGISTRY))


def info(ruleset_id: str) -> RulesetInfo:
    """Where ``ruleset_id`` comes from; :class:`EngineError` when it is not installed."""
    found = _installed().get(ruleset_id)
    if found is None:
        if ruleset_id in _REGISTRY:
            cls = _REGISTRY[ruleset_id]
            return RulesetInfo(ruleset_id, f"{cls.__module__}:{cls.__qualname__}", "-", "")
        raise EngineError(_unknown(ruleset_id))
    return found


def _unknown(ruleset_id: str) -> str:
    return f"unknown ruleset {ruleset_id!r}: known are {', '.join(ids())}"


def find(ruleset_id: str) -> Ruleset[Any]:
    """A ruleset by id; :class:`EngineError` names the known ids otherwise."""
    if ruleset_id not in _REGISTRY:
        where = _installed().get(ruleset_id)
        if where is None:
            raise EngineError(_unknown(ruleset_id))
        module, _, name = where.target.partition(":")
        try:
            cls = getattr(import_module(module), name)
        except (ImportError, AttributeError) as err:
            raise EngineError(
                f"ruleset {ruleset_id!r} of {where.source} does not load: {err}"
            ) from None
        if not cls.version:
            cls.version = where.source_version
        register(cls)
    return _REGISTRY[ruleset_id]()


def offering(capability: str) -> list[str]:
    """The installed rulesets that offer ``capability`` (of
    :mod:`fracas.engine.capabilities`), those that load.

    >>> offering("posts")
    ['heimr-classic']
    """
    found = []
    for rid in ids():
        try:
            if ask(find(rid), capability) is not None:
                found.append(rid)
        except EngineError:
            continue
    return found


def check_version(ruleset_id: str, recorded: str | None) -> Ruleset[Any]:
    """The ruleset a table or save was made with, checked against the one installed: one
    :class:`EngineError` line when it is missing or its major version differs.

    >>> check_version("heimr", None).id
    'heimr'
    >>> check_version("heimr", "999.0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fracas.engine.errors.EngineError: made with heimr 999.0, but heimr ... is installed ...
    """
    ruleset = find(ruleset_id)
    if recorded and _major(recorded) != _major(ruleset.version):
        raise EngineError(
            f"made with {ruleset_id} {recorded}, but {ruleset_id} {ruleset.version or '?'} "
            "is installed (another major version: its rules may differ)"
        )
    return ruleset


def _major(version: str) -> str:
    return version.split(".", 1)[0].strip()
