"""Events: what an action caused, every die face included.

An event may be hidden, and may be seen in part. ``seen_by`` names the sides that may
see it at all (``None``: everyone); ``detail`` names those that see its full text and
data (``None``: all who see it). The others read its ``outline`` and ``outline_data``
instead; an event without an outline is, to them, not there. The game master sees
all; :meth:`Event.for_side` gives what one side may see, and
:mod:`fracas.engine.views` shows only that.

>>> e = Event("hit", "brannoc loses 2 hit points", {"target": "brannoc", "damage": 2})
>>> Event.from_dict(e.to_dict()) == e
True
>>> w = Event("damage", "Ylva loses 3 hit points (1 left)", {"who": "ylva", "hp": 1},
...           detail=frozenset({"north"}), outline="Ylva is wounded",
...           outline_data={"who": "ylva"})
>>> w.for_side("north") is w, w.for_side(None) is w
(True, True)
>>> w.for_side("south").to_dict()
{'kind': 'damage', 'text': 'Ylva is wounded', 'data': {'who': 'ylva'}}

An event's text may be written only when it is first read (:meth:`Event.deferred`): a
playout's events are mostly never read, and their words cost more than their data.

>>> d = Event.deferred("roll", lambda: "ylva rolls 7", {"who": "ylva"})
>>> d.text, d == Event("roll", "ylva rolls 7", {"who": "ylva"})
('ylva rolls 7', True)

Its outline too, and a side that sees only the outline gets it written when read:

>>> f = Event.deferred("roll", lambda: "ylva rolls 2; fatigue 4", {"who": "ylva"},
...                    detail=frozenset({"north"}), outline=lambda: "ylva rolls 2")
>>> f.visible_to("south"), f.for_side("south").text, f.outline
(True, 'ylva rolls 2', 'ylva rolls 2')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from mypy_extensions import mypyc_attr

#: The outline data of an event given none (read-only, shared by every such event).
_NO_DATA: Mapping[str, Any] = MappingProxyType({})


@mypyc_attr(native_class=False)  # its text is kept in, and read from, its __dict__
@dataclass(frozen=True, init=False)
class Event:
    """One thing that happened, in words and in data."""

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    seen_by: frozenset[str] | None = None
    #: The sides that see the full text and data; ``None``: every side that sees it.
    detail: frozenset[str] | None = None
    #: What a side that sees the event but not its detail reads instead of ``text``.
    outline: str | None = None
    #: The data such a side gets instead of ``data`` (unset: :data:`_NO_DATA`).
    outline_data: Mapping[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        kind: str,
        text: str | Callable[[], str],
        data: Mapping[str, Any] | None = None,
        seen_by: frozenset[str] | None = None,
        detail: frozenset[str] | None = None,
        outline: str | Callable[[], str] | None = None,
        outline_data: Mapping[str, Any] | None = None,
    ) -> None:
        # The fields set at once (a frozen dataclass's own init sets them one by one
        # through object.__setattr__: events are made by the thousand in a simulation).
        # Those left ``None`` are not set: the class defaults (``None``, no outline data)
        # read the same.
        own = self.__dict__
        own["kind"] = kind
        own["text"] = text
        own["data"] = {} if data is None else data
        if seen_by is not None:
            own["seen_by"] = seen_by
        if detail is not None:
            own["detail"] = detail
        if outline is not None:
            own["outline"] = outline
        if outline_data is not None:
            own["outline_data"] = outline_data

    @classmethod
    def deferred(
        cls,
        kind: str,
        render: Callable[[], str],
        data: Mapping[str, Any] | None = None,
        seen_by: frozenset[str] | None = None,
        detail: frozenset[str] | None = None,
        outline: str | Callable[[], str] | None = None,
        outline_data: Mapping[str, Any] | None = None,
    ) -> Event:
        """An event whose ``text`` is ``render()``, called when the text is first read
        (and whose ``outline``, given as a function, likewise). The functions must depend
        on nothing that changes after the event is made."""
        # __init__ keeps the function where the words go; reading ``text`` calls it.
        return cls(kind, render, data, seen_by, detail, outline, outline_data)

    def __getstate__(self) -> dict[str, Any]:
        # Every field (those left unset too); a copy or a pickle carries the words, not
        # the functions.
        return {
            "kind": self.kind,
            "text": self.text,
            "data": self.data,
            "seen_by": self.seen_by,
            "detail": self.detail,
            "outline": self.outline,
            "outline_data": {} if self.outline_data is _NO_DATA else self.outline_data,
        }

    def visible_to(self, side: str | None) -> bool:
        """Whether ``side`` may see this event (in full or in outline); ``None`` is the
        game master."""
        if side is None:
            return True
        if self.seen_by is not None and side not in self.seen_by:
            return False
        detail = self.detail
        return detail is None or side in detail or self.__dict__.get("outline") is not None

    def for_side(self, side: str | None) -> Event | None:
        """What ``side`` sees of this event: itself, its outline, or nothing (``None``)."""
        seen_by, detail = self.seen_by, self.detail
        if side is None or (
            (seen_by is None or side in seen_by) and (detail is None or side in detail)
        ):
            return self  # seen in full (asked at every event a policy reads back)
        if not self.visible_to(side):
            return None
        outline = self.__dict__.get("outline")  # its words, or the function that writes them
        assert outline is not None, "visible without detail: there is an outline"
        seen = Event(self.kind, "", dict(self.outline_data), self.seen_by)
        seen.__dict__["text"] = outline
        return seen

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text, "data": dict(self.data)}
        if self.seen_by is not None:
            out["seen_by"] = sorted(self.seen_by)
        if self.detail is not None:
            out["detail"] = sorted(self.detail)
        if self.outline is not None:
            out["outline"] = self.outline
        if self.outline_data:
            out["outline_data"] = dict(self.outline_data)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        seen = data.get("seen_by")
        detail = data.get("detail")
        return cls(
            data["kind"],
            data["text"],
            dict(data.get("data", {})),
            None if seen is None else frozenset(seen),
            None if detail is None else frozenset(detail),
            data.get("outline"),
            dict(data.get("outline_data", {})),
        )


@mypyc_attr(native_class=False)  # a descriptor
class _Text:
    """:attr:`Event.text` (and :attr:`Event.outline`): kept in the event's ``__dict__`` as
    the string itself (or ``None``, for an outline), or as the function of
    :meth:`Event.deferred`, replaced by its string on first read."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, event: Event | None, owner: type | None = None) -> Any:
        if event is None:
            raise AttributeError(self.name)  # the dataclass field has no default
        own = event.__dict__
        text = own.get(self.name)  # an outline left unset: None
        if text is not None and type(text) is not str:
            text = own[self.name] = text()
        return text

    def __set__(self, event: Event, text: str | None) -> None:
        event.__dict__[self.name] = text


# After the dataclass has made its fields (noqa: B010, setattr on purpose).
setattr(Event, "text", _Text("text"))  # noqa: B010
setattr(Event, "outline", _Text("outline"))  # noqa: B010
setattr(Event, "outline_data", _NO_DATA)  # noqa: B010  (the default of those unset)
