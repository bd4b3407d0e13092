"""Pitfight's policies for ``fracas sim`` (its ``policies`` capability): the default hits
the foe that looks weakest (hurt before fresh), braces when it is hurt and alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fracas.engine import Action
from fracas.engine.capabilities import OwnPolicies, Vocabulary

__all__ = ["POLICIES", "HitTheWeakest"]

_LOOKS = {"hurt": 0, "fresh": 1}


class HitTheWeakest:
    """Hits the foe that looks weakest from the side's own view (never the whole state)."""

    name = "default"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Any) -> Action:
        people = view["state"]["combatants"]
        hits = [a for a in legal if a.verb == "hit"]
        if not hits:
            return legal[0]
        return min(hits, key=lambda a: (_LOOKS.get(people[a.target].get("status"), 1), a.target))


POLICIES = OwnPolicies(
    Vocabulary(attacks=("hit",), approach=(), defences=("brace",), finish=(), begin=()),
    {"default": HitTheWeakest},
)
