"""Pitfight: a small rule system for fracas, found by its ``fracas.rulesets`` entry point."""
