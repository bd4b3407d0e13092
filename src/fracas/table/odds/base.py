"""What every ruleset's odds are made of; they live in :mod:`fracas.engine.odds`, where
a ruleset's odds capability finds them (kept here for the table's older imports)."""

from fracas.engine.odds import AttackOdds, NoOdds, Probe, best_choice, spread

__all__ = ["AttackOdds", "NoOdds", "Probe", "best_choice", "spread"]
