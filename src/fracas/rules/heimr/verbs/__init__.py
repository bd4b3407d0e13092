"""The actions of a Heimr encounter: what each verb needs (check) and does (apply).

Each verb has an action type (H-ACT-1): standard, free, ongoing, upcoming; ``reaction``
for what a character does in another's turn; ``gm`` for the game master's calls. The
verbs are grouped by concept; importing this package registers them all.
"""

from fracas.rules.heimr.verbs import fighting, forced, gm, items, moving, table, turn
from fracas.rules.heimr.verbs.registry import VERBS, Kind, Verb, free_key, kind_of

__all__ = [
    "VERBS",
    "Kind",
    "Verb",
    "fighting",
    "forced",
    "free_key",
    "gm",
    "items",
    "kind_of",
    "moving",
    "table",
    "turn",
]
