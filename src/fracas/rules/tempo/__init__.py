"""The action-point tempo rules (seed 003): a round of 12 AP, proactive, reactive and
counter-tempo actions, statuses, checks on the Prismatic Dice Pool, Recover Stamina.

>>> from fracas.rules import find
>>> find("tempo").name
'Action-point tempo rules'
"""
