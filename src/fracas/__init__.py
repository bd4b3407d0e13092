"""fracas: a rules engine and toolkit for tabletop role-playing combat.

The pure rules core (no I/O) lives in :mod:`fracas.dice`; the command line in
:mod:`fracas.cli` is a thin layer over it.
"""

__version__ = "0.1.0"
