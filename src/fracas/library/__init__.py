"""The game master's library: battlefields and encounters kept in the store, checked by
their ruleset, read from and written as the files the terminal reads."""

from __future__ import annotations

from fracas.library.kinds import KINDS, MapKind
from fracas.library.library import (
    BattlefieldRecord,
    Campaigns,
    EncounterRecord,
    Invalid,
    Library,
    LibraryError,
    dump_yaml,
)

__all__ = [
    "KINDS",
    "BattlefieldRecord",
    "Campaigns",
    "EncounterRecord",
    "Invalid",
    "Library",
    "LibraryError",
    "MapKind",
    "dump_yaml",
]
