"""What a side may see. Hidden information is filtered here and nowhere else.

The game master (``side=None``) sees everything; a side sees the state as its
ruleset's observer shows it and only the log events it may see.
"""

from __future__ import annotations

from typing import Any

from fracas.engine.encounter import Encounter
from fracas.engine.ruleset import S


def view(encounter: Encounter[S], side: str | None = None) -> dict[str, Any]:
    """A JSON-ready view of ``encounter`` for ``side`` (``None``: the game master)."""
    return {
        "ruleset": encounter.ruleset.id,
        "side": side,
        "to_move": encounter.to_move,
        "over": encounter.is_over(),
        "state": encounter.ruleset.observe(encounter.state, side),
        "log": [
            [e.to_dict() for e in entry.events if e.visible_to(side)] for entry in encounter.log
        ],
    }
