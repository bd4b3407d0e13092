"""Policies: what a simulated character (or the game master) does, given what it may see."""
