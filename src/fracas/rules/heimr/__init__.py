"""The Heimr Tabletop RPG Core (seed 000, ruleset ``heimr``): campaign data and sheets.

>>> from fracas.rules.heimr import Campaign
>>> sorted(Campaign.default().attributes)
['dex', 'emp', 'int', 'soc', 'sta', 'str']
"""

from fracas.rules.heimr.campaign import (
    Ability,
    AbilityTraining,
    Attribute,
    Campaign,
    CharacterSheet,
    Items,
    Shield,
    SituationalPenalty,
    TrainingResult,
    Weapon,
)
from fracas.rules.heimr.sheet import DiceChallenge, XpShare
from fracas.rules.heimr.tables import Tables

__all__ = [
    "Ability",
    "AbilityTraining",
    "Attribute",
    "Campaign",
    "CharacterSheet",
    "DiceChallenge",
    "Items",
    "Shield",
    "SituationalPenalty",
    "Tables",
    "TrainingResult",
    "Weapon",
    "XpShare",
]
