"""The Heimr battlefield (H-GRID-1..9): squares like a chessboard, the borders between
them, heights, terrain, concealment and light.

A battlefield is written in the encounter file (docs/formats.md)::

    battlefield:
      columns: 4
      rows: 3
      darkness: 2                       # concealment everywhere, 1..3 (H-GRID-9)
      squares:
        B2: {name: courtyard, terrain: difficult, light: Torch}
        C2: {name: wall walk, height: 4, concealment: [Stone merlon], roof: true}
      borders:
        - {between: [A2, B2], preset: Single door}
        - {between: [B2, C2], climb: Ladder or stairs}

Presets are the names of the campaign's tables (movement limits, crossing challenges,
structural barriers, climbing); a preset may appear in several (a Window limits to 1
and is a crossing challenge of 5).

>>> from fracas.rules.heimr.campaign import Campaign
>>> field = Battlefield.build({"columns": 3, "rows": 3}, Campaign.default().tables)
>>> field.neighbours("A1"), field.distance("A1", "C3")
(['A2', 'B1'], 4)
"""

from __future__ import annotations

import heapq
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from fracas.engine import EngineError
from fracas.engine.setups import validated
from fracas.rules.heimr.tables import Tables
from fracas.yamlfile import KeyPath, collect, unknown_name

__all__ = ["Battlefield", "Border", "Square", "square_name"]


def square_name(column: int, row: int) -> str:
    """Chessboard names: column 0 is A, row 0 is 1 (H-GRID-1).

    >>> square_name(0, 0), square_name(2, 2)
    ('A1', 'C3')
    """
    return f"{chr(65 + column)}{row + 1}"


def coordinates(square: str) -> tuple[int, int]:
    return ord(square[0]) - 65, int(square[1:]) - 1


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SquareSpec(_Spec):
    name: str = ""
    terrain: Literal["normal", "difficult"] = "normal"
    height: int = Field(default=0, ge=0)
    top: int | None = Field(default=None, ge=0)  # the highest point to climb to in it
    climb: str | None = None  # what is climbed inside the square (a tree, a rock face)
    concealment: list[str] = Field(default_factory=list)
    light: str | None = None
    roof: bool = False


class BorderSpec(_Spec):
    between: tuple[str, str]
    preset: str | None = None
    limit: int | None = Field(default=None, ge=1)
    cr: int | None = None
    toughness: int | None = Field(default=None, ge=0)
    climb: str | None = None
    one_way_from: str | None = None
    closed: bool | None = None  # a door or gate: how it starts (default: its preset's)


class BattlefieldSpec(_Spec):
    # Outside combat: named locations and the ones each borders, any number (H-GRID-2).
    locations: dict[str, list[str]] | None = None
    columns: int = Field(default=3, ge=3, le=26)
    rows: int = Field(default=3, ge=3, le=99)
    darkness: int = Field(default=0, ge=0, le=3)
    weather: int = Field(default=0, ge=0, le=3)
    squares: dict[str, SquareSpec] = Field(default_factory=dict)
    borders: list[BorderSpec] = Field(default_factory=list)


@dataclass(frozen=True)
class Square:
    """A location: its name, terrain, height, concealment, light and roof."""

    id: str
    name: str = ""
    difficult: bool = False
    height: int = 0
    top: int = 0  # heights from `height` to `top` can be stood or climbed at
    climb: int | None = None  # the climbing CR inside the square (None: no roll)
    concealment: tuple[tuple[str, int], ...] = ()
    light: int | None = None  # the distance a light source here reaches
    roof: bool = False
    # H-GRID-9: how high above the ground each cover conceals (None: any height).
    cover_heights: tuple[int | None, ...] = ()


@dataclass(frozen=True)
class Border:
    """What stands between two bordering squares (H-GRID-3)."""

    squares: frozenset[str]
    name: str = ""
    limit: int | None = None  # movement limit: characters per count
    cr: int | None = None  # crossing challenge requirement
    toughness: int | None = None  # structural barrier: cannot be crossed until broken
    climb: int | None = None  # climbing CR for each height (None: no roll)
    one_way_from: str | None = None  # the limit/challenge applies crossing from here only
    climbable: bool = False  # a climb is described (a ladder, a wall face)
    door: bool = False  # a door or gate: its limit when open, its toughness when closed
    closed: bool = False  # a door that starts closed

    def applies_from(self, square: str) -> bool:
        return self.one_way_from is None or self.one_way_from == square


@dataclass(frozen=True)
class Battlefield:
    """The squares and borders of a combat grid, or outside combat a free graph of named
    locations (``links``); fixed for an encounter."""

    columns: int
    rows: int
    squares: dict[str, Square] = field(default_factory=dict)
    borders: dict[frozenset[str], Border] = field(default_factory=dict)
    darkness: int = 0
    weather: int = 0
    links: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: What :meth:`neighbours` and :meth:`distance` worked out, kept: the field is fixed.
    _known: dict[tuple[str | int | None, ...], Any] = field(
        default_factory=dict, init=False, compare=False, repr=False, hash=False
    )

    @property
    def grid(self) -> bool:
        """A combat grid (True) or a free graph of locations (False)."""
        return not self.links

    def place(self, text: str) -> str:
        """The square or location ``text`` names, whatever its case (unknown: as given)."""
        if self.grid:
            return text.upper()
        return next((name for name in self.squares if name.lower() == text.lower()), text)

    def describe(self) -> str:
        return f"{self.columns}x{self.rows} grid" if self.grid else "map of locations"

    @classmethod
    def build(cls, spec: dict[str, Any] | None, tables: Tables) -> Battlefield:
        """A battlefield from its spec; :class:`EngineError` names the square or border."""
        parsed = validated(BattlefieldSpec, spec or {}, "battlefield")
        problems: list[FieldProblem] = []
        field = cls._build(parsed, tables, problems)
        if problems or field is None:
            raise problems[0]
        return field

    @classmethod
    def problems(cls, spec: dict[str, Any] | None, tables: Tables) -> list[tuple[KeyPath, str]]:
        """Every mistake in a battlefield's spec, each at its path below ``battlefield``.

        >>> from fracas.rules.heimr.campaign import Campaign
        >>> spec = {"borders": [{"between": ["A1", "A2"], "preset": "Singel door"}],
        ...         "squares": {"B2": {"light": "torch"}}}
        >>> for path, message in Battlefield.problems(spec, Campaign.default().tables):
        ...     print(path, message.split(" (")[0], "...", message.split("; ")[-1])
        ('squares', 'B2', 'light') unknown light 'torch' ... did you mean 'Torch'?
        ('borders', 0, 'preset') unknown preset 'Singel door' ... did you mean 'Single door'?
        """
        return cls.checked(spec, tables)[1]

    @classmethod
    def checked(
        cls, spec: dict[str, Any] | None, tables: Tables
    ) -> tuple[Battlefield | None, list[tuple[KeyPath, str]]]:
        """The battlefield as far as it can be built (its bad squares and borders left
        out), and every mistake in its spec, at its path below ``battlefield``."""
        parsed, problems = collect(BattlefieldSpec, spec or {})
        if parsed is None:
            return None, problems
        found: list[FieldProblem] = []
        field = cls._build(parsed, tables, found)
        return field, [(p.path, p.message) for p in found]

    @classmethod
    def _build(
        cls, parsed: BattlefieldSpec, tables: Tables, problems: list[FieldProblem]
    ) -> Battlefield | None:
        """The battlefield, each mistake added to ``problems`` (``None`` if no map)."""
        try:
            links = _links(parsed.locations) if parsed.locations is not None else {}
        except FieldProblem as problem:
            problems.append(problem)
            return None
        names = set(links) or {
            square_name(c, r) for r in range(parsed.rows) for c in range(parsed.columns)
        }
        squares: dict[str, Square] = {}
        for name in sorted(names):
            try:
                squares[name] = _square(name, parsed.squares.get(name, SquareSpec()), tables)
            except FieldProblem as problem:
                problems.append(problem)
        for name in parsed.squares:
            if name not in names:
                where = (
                    "not a location" if links else (f"off the {parsed.columns}x{parsed.rows} grid")
                )
                problems.append(
                    FieldProblem(f"battlefield, square {name}", ("squares", name), where)
                )
        borders: dict[frozenset[str], Border] = {}
        for i, b in enumerate(parsed.borders):
            try:
                border = _border(i, b, names, tables, links)
            except FieldProblem as problem:
                problems.append(problem)
                continue
            borders[border.squares] = border
        columns, rows = (0, 0) if links else (parsed.columns, parsed.rows)
        return cls(columns, rows, squares, borders, parsed.darkness, parsed.weather, links)

    def __contains__(self, square: object) -> bool:
        return square in self.squares

    def neighbours(self, square: str) -> list[str]:
        """H-GRID-2: the squares up, down, left and right, as on the grid (outside combat:
        the locations it is joined to)."""
        known = self._known.get(("n", square))
        if known is None:
            known = self._known["n", square] = tuple(self._neighbours(square))
        return list(known)

    def _neighbours(self, square: str) -> list[str]:
        if not self.grid:
            return sorted(self.links.get(square, ()))
        c, r = coordinates(square)
        found = []
        for dc, dr in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            name = square_name(c + dc, r + dr)
            if 0 <= c + dc < self.columns and 0 <= r + dr < self.rows:
                found.append(name)
        return sorted(found)

    def border(self, a: str, b: str) -> Border | None:
        return self.borders.get(frozenset((a, b)))

    def steps(self, a: str, b: str, broken: Collection[str] = ()) -> int | None:
        """Turns to go from square ``a`` into bordering ``b`` (H-ATK-6, H-GRID-5): one move,
        plus a climb for each height above the first; jumping down is free. ``None``
        when a structural barrier stands between them (not one of the ``broken``, named
        like ``A2-B2``)."""
        border = self.border(a, b)
        if (
            border is not None
            and border.toughness is not None
            and "-".join(sorted(border.squares)) not in broken
        ):
            return None
        up = self.squares[b].height - self.squares[a].height
        return 1 + max(0, up - 1)

    def distance(self, a: str, b: str, broken: Collection[str] = ()) -> int:
        """H-ATK-6: the fewest turns to move, climb or jump down from ``a`` to ``b``, round
        the structural barriers still standing (``broken`` ones are open)."""
        key = ("d", a, b, *broken)
        known: int | None = self._known.get(key)
        if known is None:
            if len(self._known) > 4096:
                self._known.clear()
            known = self._known[key] = self._distance(a, b, broken)
        return known

    def _distance(self, a: str, b: str, broken: Collection[str]) -> int:
        best = {a: 0}
        queue = [(0, a)]
        while queue:
            d, here = heapq.heappop(queue)
            if here == b:
                return d
            if d > best.get(here, d):
                continue
            for there in self.neighbours(here):
                step = self.steps(here, there, broken)
                if step is not None and d + step < best.get(there, 1 << 30):
                    best[there] = d + step
                    heapq.heappush(queue, (d + step, there))
        # Walled off: count the steps as if the barriers were not there.
        return self.grid_steps(a, b)

    def lit(self, square: str) -> bool:
        """H-GRID-9: within reach of a torch (1) or a camp fire (2)."""
        return any(
            s.light is not None and self.grid_steps(s.id, square) <= s.light
            for s in self.squares.values()
        )

    def grid_steps(self, a: str, b: str) -> int:
        """Steps from ``a`` to ``b`` ignoring barriers and heights: orthogonal steps on a
        grid, borders crossed on a map of locations (unconnected: as many as there are)."""
        if self.grid:
            (ac, ar), (bc, br) = coordinates(a), coordinates(b)
            return abs(ac - bc) + abs(ar - br)
        seen, frontier, steps = {a}, [a], 0
        while frontier:
            if b in frontier:
                return steps
            frontier = [n for f in frontier for n in self.links.get(f, ()) if n not in seen]
            seen.update(frontier)
            steps += 1
        return len(self.squares)

    def concealment(self, square: str, at: int | None = None, seen_from: int | None = None) -> int:
        """H-GRID-9: the concealment of someone in ``square``: its cover, plus darkness
        where no light reaches, plus weather where no roof covers.

        The cover's Height (the concealment table's column) is read when heights are
        given: a cover ``k`` high conceals someone standing at ``at`` below the square's
        ground plus ``k``, from an attacker at ``seen_from`` below that too (one above
        it looks over the cover; docs/decisions.md). "4 or more" conceals at any height.
        """
        key = ("c", square, at, seen_from)
        known: int | None = self._known.get(key)
        if known is None:
            if len(self._known) > 4096:
                self._known.clear()
            known = self._known[key] = self._concealment(square, at, seen_from)
        return known

    def _concealment(self, square: str, at: int | None, seen_from: int | None) -> int:
        s = self.squares[square]
        heights = s.cover_heights or (None,) * len(s.concealment)
        total = max(
            (
                v
                for (_, v), k in zip(s.concealment, heights, strict=True)
                if k is None or all(h is None or h < s.height + k for h in (at, seen_from))
            ),
            default=0,
        )
        if self.darkness and not self.lit(square):
            total += self.darkness
        if self.weather and not s.roof:
            total += self.weather
        return total


class FieldProblem(EngineError):
    """A mistake in a battlefield, at ``path`` below ``battlefield`` in the encounter file."""

    def __init__(self, label: str, path: KeyPath, message: str) -> None:
        self.path, self.message = path, message
        super().__init__(f"{label}: {message}")


def _square(name: str, spec: SquareSpec, tables: Tables) -> Square:
    label = f"battlefield, square {name}"
    cover = []
    reach: list[int | None] = []
    for i, item in enumerate(spec.concealment):
        if item not in tables.concealment:
            raise FieldProblem(
                label,
                ("squares", name, "concealment", i),
                unknown_name("concealment", item, tables.concealment),
            )
        cover.append((item, tables.concealment[item].effectiveness))
        spec_cover = tables.concealment[item]
        reach.append(None if spec_cover.height_or_more else spec_cover.height)
    light = None
    if spec.light is not None:
        if spec.light not in tables.lighting:
            raise FieldProblem(
                label,
                ("squares", name, "light"),
                unknown_name("light", spec.light, tables.lighting),
            )
        light = tables.lighting[spec.light]
    climb = None
    if spec.climb is not None:
        if spec.climb not in tables.climbing:
            raise FieldProblem(
                label,
                ("squares", name, "climb"),
                unknown_name("climb", spec.climb, tables.climbing),
            )
        climb = tables.climbing[spec.climb]
    top = spec.height if spec.top is None else spec.top
    if top < spec.height:
        raise FieldProblem(
            label, ("squares", name, "top"), f"top {top} is below its height {spec.height}"
        )
    return Square(
        name,
        spec.name,
        spec.terrain == "difficult",
        spec.height,
        top,
        climb,
        tuple(cover),
        light,
        spec.roof,
        tuple(reach),
    )


def _links(locations: dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    """H-GRID-2: outside combat a location may border any others; borders go both ways."""
    links: dict[str, set[str]] = {name: set() for name in locations}
    for name, others in locations.items():
        label = f"battlefield, location {name!r}"
        if "-" in name:
            raise FieldProblem(label, ("locations", name), "names cannot hold '-'")
        for other in others:
            if other not in locations:
                raise FieldProblem(
                    label, ("locations", name), unknown_name("location", other, locations)
                )
            links[name].add(other)
            links[other].add(name)
    return {name: tuple(sorted(others)) for name, others in links.items()}


def _border(
    i: int,
    spec: BorderSpec,
    names: set[str],
    tables: Tables,
    links: dict[str, tuple[str, ...]] | None = None,
) -> Border:
    a, b = spec.between
    label = f"battlefield, border {i + 1} ({a}-{b})"
    for sq in (a, b):
        if sq not in names:
            raise FieldProblem(
                label, ("borders", i, "between"), f"{sq} is not a square of the battlefield"
            )
    if links:
        bordering = b in links.get(a, ())
    else:
        (ac, ar), (bc, br) = coordinates(a), coordinates(b)
        bordering = abs(ac - bc) + abs(ar - br) == 1
    if not bordering:
        raise FieldProblem(
            label, ("borders", i, "between"), f"{a} and {b} are not bordering squares (H-GRID-2)"
        )
    limit, cr, toughness, climb = spec.limit, spec.cr, spec.toughness, None
    door = spec.preset is not None and spec.preset in tables.doors
    if spec.closed is not None and not door:
        raise FieldProblem(
            label,
            ("borders", i, "closed"),
            f"closed applies to a door or gate, not a {spec.preset}",
        )
    if spec.preset is not None:
        found = door
        if door:
            kind = tables.doors[spec.preset]
            limit = limit or kind.limit
            toughness = toughness if toughness is not None else kind.toughness
        if spec.preset in tables.movement_limits:
            limit, found = limit or tables.movement_limits[spec.preset], True
        if spec.preset in tables.crossing_challenges:
            cr, found = cr if cr is not None else tables.crossing_challenges[spec.preset], True
        if spec.preset in tables.structural_barriers:
            toughness = (
                toughness if toughness is not None else tables.structural_barriers[spec.preset]
            )
            found = True
        if not found:
            known = {
                **tables.doors,
                **tables.movement_limits,
                **tables.crossing_challenges,
                **tables.structural_barriers,
            }
            raise FieldProblem(
                label, ("borders", i, "preset"), unknown_name("preset", spec.preset, known)
            )
    if spec.climb is not None:
        if spec.climb not in tables.climbing:
            raise FieldProblem(
                label, ("borders", i, "climb"), unknown_name("climb", spec.climb, tables.climbing)
            )
        climb = tables.climbing[spec.climb]
    if spec.one_way_from is not None and spec.one_way_from not in (a, b):
        raise FieldProblem(label, ("borders", i, "one_way_from"), f"must be {a} or {b}")
    return Border(
        frozenset((a, b)),
        spec.preset or spec.climb or "",
        limit,
        cr,
        toughness,
        climb,
        spec.one_way_from,
        spec.climb is not None,
        door,
        door and (tables.doors[spec.preset or ""].closed if spec.closed is None else spec.closed),
    )
