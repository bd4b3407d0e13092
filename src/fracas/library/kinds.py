"""What a battlefield is in each ruleset (its ``battlefield`` capability,
:class:`fracas.engine.capabilities.Battlefield`): its shape (a grid, named places, a
line), the keys of an encounter file that describe it, the model its file is read with
(and its JSON Schema), and its check, done by the ruleset's own
:meth:`~fracas.engine.Ruleset.setup_problems`. A ruleset without the capability has no
battlefield to edit (its encounters are exchanges between combatants, say).

>>> kind = KINDS["heimr"]
>>> spec = {"battlefield": {"columns": 3, "rows": 3,
...         "borders": [{"between": ["A1", "C1"], "preset": "Single door"}]}}
>>> for path, message in problems("heimr", spec):
...     print(path, message)
('battlefield', 'borders', 0, 'between') A1 and C1 are not bordering squares (H-GRID-2)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from fracas.engine.capabilities import Battlefield, battlefield
from fracas.rules import find, offering
from fracas.yamlfile import KeyPath, collect

__all__ = [
    "KINDS",
    "MapKind",
    "battlefield_file_model",
    "choices",
    "grid_view",
    "problems",
    "schema",
]


@dataclass(frozen=True)
class MapKind:
    """A ruleset's battlefield: its shape, the encounter file's keys that hold it, the
    model of each key, and what a new one holds."""

    ruleset: str
    shape: Literal["grid", "places", "line"]
    keys: Mapping[str, Any]  # key -> its type (for the file's model)
    default: Mapping[str, Any]
    place_word: str = "square"  # what one location is called in messages and forms
    place_fields: tuple[str, ...] = ()  # a place's own fields (places: besides borders)
    notes: str = field(default="")
    guarded: bool = False  # borders between places may block (carry ``blocks``)
    aliases: Mapping[str, str] = field(default_factory=dict)  # other names of its keys
    own: Battlefield | None = None  # the ruleset's capability

    def empty(self) -> dict[str, Any]:
        import copy

        return copy.deepcopy(dict(self.default))


class _Kinds(Mapping[str, MapKind]):
    """The battlefield of every installed ruleset that has one, by ruleset id (asked of
    the rulesets when first read)."""

    def _found(self) -> dict[str, MapKind]:
        return _installed_kinds()

    def __getitem__(self, ruleset: str) -> MapKind:
        return self._found()[ruleset]

    def __iter__(self) -> Iterator[str]:
        return iter(self._found())

    def __len__(self) -> int:
        return len(self._found())


@cache
def _installed_kinds() -> dict[str, MapKind]:
    """Asked of the rulesets once a process."""
    found: dict[str, MapKind] = {}
    for rid in offering("battlefield"):
        own = battlefield(find(rid))
        if own is not None:
            found[rid] = MapKind(
                rid,
                own.shape,
                own.keys,
                own.default,
                own.place_word,
                own.place_fields,
                own.notes,
                own.guarded,
                own.aliases,
                own,
            )
    return found


#: Each ruleset's battlefield, by ruleset id.
KINDS: Mapping[str, MapKind] = _Kinds()


#: Stand-ins for the combatants a battlefield is checked without: the rulesets check a
#: setup's ground only once the setup as a whole reads, and their problems are left out.
STAND_INS = [{"character": "?"}, {"character": "?"}]


def problems(
    ruleset: str, document: Mapping[str, Any], campaign: Mapping[str, Any] | None = None
) -> list[tuple[KeyPath, str]]:
    """Every mistake in a battlefield ``document`` (the encounter file's keys of its
    kind), each at its path: first as its file's model reads it, then as the ruleset's
    own setup check finds them; ``campaign`` (a campaign file's content) gives the
    presets and tables, the shipped ones if none."""
    kind = KINDS[ruleset]
    _, found = collect(battlefield_file_model(ruleset), {"ruleset": ruleset, **document})
    if found:
        return found
    setup = {**document, "campaign": dict(campaign or {}), "combatants": STAND_INS}
    keys = (*kind.keys, "campaign")
    checked = find(ruleset).setup_problems(setup)
    return [(path, message) for path, message in checked if path and path[0] in keys]


class _FileBase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str = ""


@cache
def battlefield_file_model(ruleset: str) -> type[BaseModel]:
    """The model of a battlefield file of ``ruleset``: its ruleset, a title and the keys
    of its kind (exactly as an encounter file holds them)."""
    kind = KINDS[ruleset]
    fields: dict[str, Any] = {"ruleset": (Literal[ruleset], Field(...))}
    for key, annotation in kind.keys.items():
        fields[key] = (annotation, None)
    model: type[BaseModel] = create_model(
        f"Battlefield{''.join(p.title() for p in ruleset.split('-'))}File",
        __base__=_FileBase,
        __doc__=f"A {ruleset} battlefield file: {kind.notes}.",
        **fields,
    )
    return model


def schema(ruleset: str) -> dict[str, Any]:
    """The JSON Schema of a battlefield file of ``ruleset``."""
    found: dict[str, Any] = battlefield_file_model(ruleset).model_json_schema()
    found["title"] = f"fracas {ruleset} battlefield"
    return found


def choices(ruleset: str, campaign: Mapping[str, Any] | None = None) -> dict[str, list[str]]:
    """What each field of a square, border or place may hold, from the campaign's tables
    (the shipped ones if none): the editor offers these and nothing hard-coded.

    >>> sorted(choices("heimr"))
    ['climb', 'concealment', 'light', 'preset', 'terrain']
    >>> choices("heimr")["preset"][:3]
    ['1.5 meter jump', '2 meter jump', '2.5 meter jump']
    """
    kind = KINDS.get(ruleset)
    if kind is None or kind.own is None:
        return {}
    return kind.own.choices(campaign)


def grid_view(
    ruleset: str, document: Mapping[str, Any], campaign: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A grid battlefield document as a map's JSON (as a screen's ``battlefield``: squares
    with height, concealment, light; borders with what they are), to draw it: the
    ruleset's own ``grid_view``; :class:`ValueError` for a ruleset that draws no grid."""
    kind = KINDS.get(ruleset)
    draw = getattr(kind.own, "grid_view", None) if kind is not None else None
    if draw is None:
        raise ValueError(f"a {ruleset} battlefield is no grid")
    found: dict[str, Any] = draw(document, campaign)
    return found
