"""fracas: a rules engine and toolkit for tabletop role-playing combat.

The pure rules core (no I/O) lives in :mod:`fracas.dice`, :mod:`fracas.engine` and
:mod:`fracas.rules`; the command line in
the services (:mod:`fracas.table`) stand on it, and the interfaces (:mod:`fracas.cli`,
:mod:`fracas.tracker`) on them.
"""

__version__ = "0.1.0"
