"""The side-initiative skirmish rules (seed 002, ruleset ``sides``): 2d6 roll-under combat.

Each round the sides roll 1d6 for initiative and the winner chooses to act or react;
the acting side moves, charges, shoots and casts, then the reacting side, then melee
resolves with First and Last Strike. Combatants stand on a line, positions in feet or
metres. See :mod:`.ruleset` for the engine's view and ``data/*.yaml`` for the tables.

>>> from fracas.rules.sides.campaign import load
>>> load({}).weapons["Mace"].damage_dice()
'1d6'
"""

from fracas.rules.sides.campaign import Tables, load
from fracas.rules.sides.state import Combatant, SidesState

__all__ = ["Combatant", "SidesState", "Tables", "load"]
