"""The terminal tracker behind ``fracas play``: an interface over the table service."""

from fracas.tracker.tracker import (
    AskedDice,
    Tracker,
    battlefield_map,
    combatants_table,
    load_save,
    log_lines,
    new_encounter,
    run_script,
    script_lines,
    script_seed,
)

__all__ = [
    "AskedDice",
    "Tracker",
    "battlefield_map",
    "combatants_table",
    "load_save",
    "log_lines",
    "new_encounter",
    "run_script",
    "script_lines",
    "script_seed",
]
