"""The rules-agnostic engine: encounters, actions, events, dice sources and views.

>>> from fracas.engine import Action
>>> str(Action.of("ylva", "attack", "brannoc", part="torso"))
'ylva attack brannoc part=torso'
"""

from fracas.engine.actions import Action
from fracas.engine.dicesource import DiceSource, DrawnRoll, RandomDice, ScriptedDice
from fracas.engine.encounter import SCHEMA_VERSION, Encounter, Entry, LegalActions
from fracas.engine.errors import EngineError, IllegalAction, NotationError, SaveError
from fracas.engine.events import Event
from fracas.engine.ruleset import Checking, Parts, Ruleset, State
from fracas.engine.views import offered, view

__all__ = [
    "SCHEMA_VERSION",
    "Action",
    "Checking",
    "DiceSource",
    "DrawnRoll",
    "Encounter",
    "EngineError",
    "Entry",
    "Event",
    "IllegalAction",
    "LegalActions",
    "NotationError",
    "Parts",
    "RandomDice",
    "Ruleset",
    "SaveError",
    "ScriptedDice",
    "State",
    "offered",
    "view",
]
