"""The Heimr Tabletop Rulebook (seed 001, ruleset ``heimr-classic``): d20 play by post.

>>> from fracas.rules.classic.campaign import ClassicCampaign
>>> sorted(ClassicCampaign.default().statistics)[:3]
['agility', 'charisma', 'combat_skill']
"""
