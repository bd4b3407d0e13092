"""The die-step rules (seed 004, ruleset ``diestep``): attributes are dice on a ladder.

``fracas.rules.find("diestep")`` returns :class:`~fracas.rules.diestep.ruleset.DieStepRules`.
The modules follow the seed's concepts: :mod:`.rolls` (die ranks, advantage),
:mod:`.turns` (action points, turn order), :mod:`.combat` (attacks, defences,
opportunity attacks), :mod:`.health` (damage, knockout, wounds, healing),
:mod:`.grapple`, :mod:`.movement` (regions, prone, mounts) and :mod:`.verbs`.
"""
