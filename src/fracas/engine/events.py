"""Events: what an action caused, every die face included.

An event may be hidden: ``seen_by`` names the sides that may see it (``None`` means
everyone). The game master sees all; :mod:`fracas.engine.views` filters the rest.

>>> e = Event("hit", "brannoc loses 2 hit points", {"target": "brannoc", "damage": 2})
>>> Event.from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened, in words and in data."""

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    seen_by: frozenset[str] | None = None

    def visible_to(self, side: str | None) -> bool:
        """Whether ``side`` may see this event; ``None`` is the game master."""
        return side is None or self.seen_by is None or side in self.seen_by

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text, "data": dict(self.data)}
        if self.seen_by is not None:
            out["seen_by"] = sorted(self.seen_by)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        seen = data.get("seen_by")
        return cls(
            data["kind"],
            data["text"],
            dict(data.get("data", {})),
            None if seen is None else frozenset(seen),
        )
