"""fracas: a rules engine and toolkit for tabletop role-playing combat.

Three floors. The pure rules core (no I/O): :mod:`fracas.dice`, :mod:`fracas.engine` and
:mod:`fracas.rules`. The services that stand on it: the table (:mod:`fracas.table`).
The interfaces that stand on the services: the command line (:mod:`fracas.cli`) and the
terminal tracker (:mod:`fracas.tracker`).
"""

__version__ = "0.1.0"
