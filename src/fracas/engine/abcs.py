"""Each of the engine's Mapping and Sequence classes answers ``isinstance`` on its own.

The hot path is compiled with mypyc where a C compiler is at hand (``tools/compile.py``).
A native class that subclasses an abstract base class such as ``Sequence`` does not go
through ``ABCMeta`` when it is made, and so shares that base's ``isinstance`` cache
(mypyc 2.4): asked whether a list is a ``Legal`` (no), the shared cache would then tell
every program that a list is not a ``Sequence`` either. :func:`own_isinstance_cache`
gives the class a cache of its own, as ``ABCMeta`` does for every class it makes; in
pure Python it only renews the empty cache the class already has.

>>> from collections.abc import Sequence
>>> class Row(Sequence[int]):
...     def __getitem__(self, i): return 0
...     def __len__(self): return 0
>>> own_isinstance_cache(Row) is Row
True
>>> isinstance([], Row), isinstance([], Sequence)
(False, True)
"""

from __future__ import annotations

# ABCMeta's own making of a class's caches: abc.py takes it from _abc (or _py_abc).
from abc import _abc_init  # type: ignore[attr-defined]
from typing import TypeVar

__all__ = ["own_isinstance_cache"]

T = TypeVar("T", bound=type)


def own_isinstance_cache(cls: T) -> T:
    """``cls`` with an ``isinstance`` cache of its own (see the module's docstring)."""
    _abc_init(cls)
    return cls
