"""YAML files people write, read with the line of every key, and errors that point at it.

A :class:`YamlDocument` is the loaded data plus a map from each key path (mapping
keys and list indices) to the file and line it came from. :func:`validate` checks
a document against a pydantic model and turns every failure into one
:class:`CampaignError` whose lines read ``file, line N, a.b.c: what is wrong``.
:func:`merge_documents` lays a file over package defaults: mappings merge key by
key, anything else replaces, and a mapping tagged ``!replace`` replaces outright.

>>> doc = parse_yaml("hero:\\n  str: two\\n", "campaign.yaml")
>>> doc.location(("hero", "str"))
Location(file='campaign.yaml', line=2)
>>> from pydantic import BaseModel
>>> class File(BaseModel):
...     hero: dict[str, int]
>>> validate(File, doc)
Traceback (most recent call last):
...
fracas.yamlfile.CampaignError: campaign.yaml, line 2, hero.str: Input should be a valid integer...
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from fracas.files import InputError, read_text

__all__ = [
    "CampaignError",
    "KeyPath",
    "Location",
    "Problems",
    "Replace",
    "YamlDocument",
    "collect",
    "deep_merge",
    "format_path",
    "load_yaml",
    "merge_documents",
    "parse_yaml",
    "unknown_name",
    "validate",
]

#: A path into loaded data: mapping keys and list indices, outermost first.
KeyPath = tuple[Any, ...]

M = TypeVar("M", bound=BaseModel)


class CampaignError(ValueError):
    """A mistake in a file a person wrote; every line names the file, the line and the field."""


class Problems(ValueError):
    """Raised inside a model validator to report mistakes at paths below the model.

    :func:`validate` unwraps it, so each problem gets its own file and line.

    >>> str(Problems([(("abilities", "Duelling"), "unknown ability")]))
    'abilities.Duelling: unknown ability'
    """

    def __init__(self, problems: Sequence[tuple[KeyPath, str]]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(f"{format_path(p)}: {m}" for p, m in self.problems))


class Replace(dict[Any, Any]):
    """A mapping tagged ``!replace`` in YAML: it replaces the default instead of merging."""


@dataclass(frozen=True)
class Location:
    """Where a value was written: a file and a line (counted from 1)."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}, line {self.line}"


@dataclass(frozen=True)
class YamlDocument:
    """Loaded YAML data and the location of every key path in it."""

    data: Any
    locations: Mapping[KeyPath, Location] = field(default_factory=dict)
    name: str = "<data>"

    def location(self, path: Sequence[Any]) -> Location:
        """The location of ``path``, or of its longest prefix that was written down."""
        path = tuple(path)
        for end in range(len(path), -1, -1):
            found = self.locations.get(path[:end])
            if found is not None:
                return found
        return Location(self.name, 1)

    def error(self, problems: Iterable[tuple[KeyPath, str]]) -> CampaignError:
        """A :class:`CampaignError` for problems at paths of this document."""
        lines = []
        for path, message in problems:
            where = f"{self.location(path)}, {format_path(path)}" if path else self.location(path)
            lines.append(f"{where}: {message}")
        return CampaignError("\n".join(lines))


def unknown_name(kind: str, name: str, known: Iterable[str]) -> str:
    """The message for a name that is not among ``known``, with the closest as a hint.

    >>> unknown_name("ability", "Duelling", ["Dueling", "Archery"])
    "unknown ability 'Duelling' (known: Archery, Dueling); did you mean 'Dueling'?"
    """
    names = sorted(set(known), key=str.casefold)
    folded = {n.casefold(): n for n in names}
    close = difflib.get_close_matches(name.casefold(), list(folded), n=1)
    hint = f"; did you mean {folded[close[0]]!r}?" if close else ""
    return f"unknown {kind} {name!r} (known: {', '.join(names)}){hint}"


def format_path(path: Sequence[Any]) -> str:
    """Dotted keys, with list indices in brackets.

    >>> format_path(("characters", "ylva", "skills", 1))
    'characters.ylva.skills[1]'
    """
    text = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


#: The largest YAML file read.
MAX_YAML_BYTES = 2 * 1024 * 1024
#: The deepest nesting of lists and mappings.
MAX_YAML_DEPTH = 64
#: The most values a document may hold once its aliases (``*name``) are expanded.
MAX_YAML_VALUES = 200_000
#: The longest number written (longer ones are refused before they are converted).
MAX_NUMBER_CHARS = 100

_YAML = "tag:yaml.org,2002:"
#: The tags a document may hold: text, numbers, booleans, null, lists and mappings.
_PLAIN_TAGS = {
    _YAML + name for name in ("str", "int", "float", "bool", "null", "seq", "map", "merge")
} | {"!replace"}
_TAG_NAMES = {
    "timestamp": "a date or time",
    "set": "a set",
    "binary": "binary data",
    "omap": "an ordered map",
    "pairs": "a list of pairs",
    "value": "a default value",
}
_ONLY = "only text, numbers, true/false, null, lists and mappings are read"


class _Plain(yaml.composer.Composer, yaml.constructor.SafeConstructor, yaml.resolver.Resolver):
    """Composing with a bound on nesting, and the safe constructor plus the ``!replace``
    tag; the events come from one of the two parsers below."""

    def __init__(self) -> None:
        yaml.composer.Composer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)
        self.depth = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        self.depth += 1
        try:
            if self.depth > MAX_YAML_DEPTH:
                raise yaml.composer.ComposerError(
                    None,
                    None,
                    f"nested deeper than {MAX_YAML_DEPTH} levels",
                    self.peek_event().start_mark,  # type: ignore[attr-defined]
                )
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class _Loader(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, _Plain):
    """PyYAML's own parser, in Python: the reader whose messages are shown."""

    def __init__(self, text: str) -> None:
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        _Plain.__init__(self)


def _construct_replace(loader: _Plain, node: yaml.Node) -> Replace:
    if not isinstance(node, yaml.MappingNode):
        raise yaml.constructor.ConstructorError(
            None, None, "!replace applies to a mapping", node.start_mark
        )
    return Replace(loader.construct_mapping(node, deep=True))


_Plain.add_constructor("!replace", _construct_replace)  # type: ignore[type-var]

_FastLoader: Callable[[str], _Plain] | None
try:
    from yaml._yaml import CParser
except ImportError:  # PyYAML without libyaml: the Python parser alone
    _FastLoader = None
else:

    class _CLoader(_Plain, CParser):
        """libyaml's parser (C) under the same composer and constructor: the same
        documents about ten times faster. What it refuses is read again by
        :class:`_Loader`, for the message."""

        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)
            _Plain.__init__(self)

    _FastLoader = _CLoader


def _refuse(node: yaml.Node, problem: str) -> NoReturn:
    raise yaml.constructor.ConstructorError(None, None, problem, node.start_mark)


def _check_plain(loader: _Plain, root: yaml.Node) -> None:
    """Refuse what is not plain data: other tags (dates, sets, binary), numbers that are
    too long or not finite, recursive aliases, and more than :data:`MAX_YAML_VALUES`
    values once aliases are expanded (a "billion laughs" stops here, early)."""
    count = 0
    active: set[int] = set()

    def visit(node: yaml.Node) -> None:
        nonlocal count
        count += 1
        if count > MAX_YAML_VALUES:
            _refuse(node, f"more than {MAX_YAML_VALUES:,} values once aliases are expanded")
        if node.tag not in _PLAIN_TAGS:
            short = node.tag.removeprefix(_YAML)
            if node.tag == _YAML + "timestamp" and isinstance(node, yaml.ScalarNode):
                _refuse(node, f"{node.value} reads as a date, which is not read here: quote it")
            kind = _TAG_NAMES.get(short)
            shown = f"!!{short}" if node.tag.startswith(_YAML) else node.tag
            _refuse(node, f"the tag {shown}{f' ({kind})' if kind else ''} is not read: {_ONLY}")
        if isinstance(node, yaml.ScalarNode):
            if node.tag in (_YAML + "int", _YAML + "float"):
                if len(node.value) > MAX_NUMBER_CHARS:
                    _refuse(node, f"a number longer than {MAX_NUMBER_CHARS} characters")
                number = loader.construct_object(node)
                if isinstance(number, float) and not math.isfinite(number):
                    _refuse(node, f"{node.value} is not a finite number")
            return
        if id(node) in active:
            _refuse(node, "an alias refers to a value that contains it")
        active.add(id(node))
        for child in node.value:
            if isinstance(child, tuple):
                visit(child[0])
                visit(child[1])
            else:
                visit(child)
        active.discard(id(node))

    visit(root)


def parse_yaml(text: str, name: str) -> YamlDocument:
    """Parse YAML text (plain data only, bounded); ``name`` is the file name in messages.

    >>> parse_yaml("hero:\\n  str: 1\\n   dex: 2\\n", "x.yaml")
    Traceback (most recent call last):
    ...
    fracas.yamlfile.CampaignError: x.yaml, line 3: mapping values are not allowed here
    >>> parse_yaml("hero:\\n  born: 2026-11-24\\n", "x.yaml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fracas.yamlfile.CampaignError: x.yaml, line 2: 2026-11-24 reads as a date, ...: quote it
    """
    if len(text) > MAX_YAML_BYTES or len(text.encode("utf-8", "replace")) > MAX_YAML_BYTES:
        raise CampaignError(f"{name}: the file is larger than {MAX_YAML_BYTES // 2**20} MB")
    if _FastLoader is not None and _fast_enough(text):
        try:
            return _read(_FastLoader(text), name)
        except (yaml.YAMLError, ValueError, OverflowError):
            pass  # read again below, for the message and line PyYAML's parser gives
    loader: _Loader | None = None
    try:
        loader = _Loader(text)
        return _read(loader, name)
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise CampaignError(
            f"{name}, line {line}: the character #x{exc.character:02x} is not allowed "
            "(control characters cannot be read)"
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or exc.context or "malformed YAML"
        if exc.problem and exc.context:
            problem += f" ({exc.context})"
        raise CampaignError(f"{name}, line {line}: {problem}") from None
    except yaml.YAMLError as exc:
        raise CampaignError(f"{name}: {' '.join(str(exc).split())}") from None
    except CampaignError:
        raise
    except (ValueError, OverflowError) as exc:  # e.g. "\U99999999" escapes a character
        line = loader.line + 1 if loader is not None else 1
        raise CampaignError(f"{name}, line {line}: unreadable YAML ({exc})") from None
    finally:
        if loader is not None:
            loader.dispose()


#: What libyaml reads otherwise than PyYAML's parser: a tab or a byte-order mark between
#: tokens, a tag other than ``!replace``, a block scalar's header followed by a comment.
_UNLIKE = re.compile(r"[\t\ufeff]|!(?!replace\b)|[|>][-+0-9]*#")


def _fast_enough(text: str) -> bool:
    """Whether libyaml reads ``text`` as PyYAML's parser does (for what it refuses, the
    message is PyYAML's anyway); the text ends a line, where the two end a document alike.

    >>> _fast_enough("hero: {hp: 3}\\n"), _fast_enough("hero: {hp:\\t3}\\n"), _fast_enough("a: b")
    (True, False, False)
    """
    return text.endswith("\n") and _UNLIKE.search(text) is None


def _read(loader: _Plain, name: str) -> YamlDocument:
    """The document ``loader`` reads, checked and located (its errors as raised)."""
    node = loader.get_single_node()
    if node is None:
        return YamlDocument(None, {(): Location(name, 1)}, name)
    _check_plain(loader, node)
    locations: dict[KeyPath, Location] = {(): Location(name, node.start_mark.line + 1)}
    _locate(loader, node, (), name, locations, set())
    return YamlDocument(loader.construct_document(node), locations, name)


def _locate(
    loader: _Plain,
    node: yaml.Node,
    path: KeyPath,
    name: str,
    out: dict[KeyPath, Location],
    active: set[int],
) -> None:
    """Record the line of every key and item below ``node``; reject duplicate keys.

    Runs before construction, which flattens merge keys (``<<``) into the mapping.
    """
    if id(node) in active:  # a recursive alias
        return
    active.add(id(node))
    if isinstance(node, yaml.MappingNode):
        seen: set[Any] = set()
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                merged = (
                    value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
                )
                for source in merged:
                    _locate(loader, source, path, name, out, active)
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                continue
            key = loader.construct_object(key_node)
            line = key_node.start_mark.line + 1
            if key in seen:
                raise CampaignError(
                    f"{name}, line {line}, {format_path((*path, key))}: duplicate key"
                )
            seen.add(key)
            out[(*path, key)] = Location(name, line)
            _locate(loader, value_node, (*path, key), name, out, active)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            out[(*path, index)] = Location(name, item.start_mark.line + 1)
            _locate(loader, item, (*path, index), name, out, active)
    active.discard(id(node))


def load_yaml(path: str | Path) -> YamlDocument:
    """Read and parse a YAML file; unreadable, oversized or non-UTF-8 files are a
    :class:`CampaignError` too."""
    try:
        text = read_text(path, MAX_YAML_BYTES, "file")
    except InputError as exc:
        raise CampaignError(str(exc)) from None
    return parse_yaml(text, str(path))


def deep_merge(base: Any, override: Any) -> Any:
    """``override`` laid over ``base``: mappings merge key by key, anything else replaces.

    A :class:`Replace` mapping (YAML ``!replace``) replaces instead of merging.

    >>> deep_merge({"a": {"x": 1, "y": 2}, "b": [1]}, {"a": {"y": 3}, "b": [2]})
    {'a': {'x': 1, 'y': 3}, 'b': [2]}
    >>> deep_merge({"a": {"x": 1}}, {"a": Replace({"z": 0})})
    {'a': {'z': 0}}
    """
    if isinstance(override, Replace):
        return {key: deep_merge(None, value) for key, value in override.items()}
    if isinstance(base, Mapping) and isinstance(override, Mapping):
        merged = dict(base)
        for key, value in override.items():
            merged[key] = deep_merge(merged.get(key), value)
        return merged
    if isinstance(override, Mapping):
        return {key: deep_merge(None, value) for key, value in override.items()}
    return override


def merge_documents(base: YamlDocument, override: YamlDocument) -> YamlDocument:
    """:func:`deep_merge` of the data, keeping the location each value was last written at."""
    if override.data is None:
        return base
    for doc in (base, override):
        if doc.data is not None and not isinstance(doc.data, Mapping):
            raise doc.error([((), "the file should hold a mapping of keys to values")])
    locations = {**base.locations, **override.locations}
    return YamlDocument(deep_merge(base.data, override.data), locations, override.name)


def validate(model: type[M], document: YamlDocument) -> M:
    """``model`` validated from the document's data, or one :class:`CampaignError` for all errors.

    Errors at the same field are joined; pydantic's type tags (``int``,
    ``literal['melee']``) are left out of the path.
    """
    found, problems = collect(model, document.data)
    if found is None:
        raise document.error(problems)
    return found


def collect(model: type[M], data: Any) -> tuple[M | None, list[tuple[KeyPath, str]]]:
    """``model`` validated from ``data``, or ``None`` and every problem at its path.

    A choice among fixed values that is misspelt names the closest:

    >>> from typing import Literal
    >>> class Place(BaseModel):
    ...     stance: Literal["dodge", "parry"]
    ...     square: str
    >>> _ = Place.model_rebuild(_types_namespace={"Literal": Literal})
    >>> for path, message in collect(Place, {"stance": "Parry"})[1]:
    ...     print(path, message)
    ('stance',) unknown stance 'Parry' (known: dodge, parry); did you mean 'parry'?
    ('square',) Field required
    """
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        problems: dict[KeyPath, list[str]] = {}
        for error in exc.errors():
            loc = tuple(error["loc"])
            inner = error.get("ctx", {}).get("error")
            if isinstance(inner, Problems):
                for path, message in inner.problems:
                    problems.setdefault((*loc, *path), []).append(message)
                continue
            path = _data_path(data, loc, keep_last=error["type"] == "missing")
            message = _message(error, path)
            if message not in problems.setdefault(path, []):
                problems[path].append(message)
        return None, [(p, "; or ".join(m)) for p, m in problems.items()]


def _message(error: Any, path: KeyPath) -> str:
    """Pydantic's message, or for a misspelt choice the known ones and the closest."""
    if error["type"] == "literal_error" and isinstance(error.get("input"), str) and path:
        expected = re.findall(r"'([^']*)'", str(error.get("ctx", {}).get("expected", "")))
        folded = [e.casefold() for e in expected]
        if difflib.get_close_matches(error["input"].casefold(), folded, n=1):
            return unknown_name(str(path[-1]), error["input"], expected)
    message: str = error["msg"]
    return message.removeprefix("Value error, ")


def _data_path(data: Any, loc: KeyPath, *, keep_last: bool) -> KeyPath:
    """The part of a pydantic ``loc`` that exists in ``data`` (plus a missing field's name)."""
    path: list[Any] = []
    node = data
    for index, part in enumerate(loc):
        in_list = (
            isinstance(node, list) and isinstance(part, int) and -len(node) <= part < len(node)
        )
        if in_list or (isinstance(node, Mapping) and part in node):
            node = node[part]
        elif not (keep_last and index == len(loc) - 1):
            continue
        path.append(part)
    return tuple(path)


@cache
def package_data(package: str, files: tuple[str, ...]) -> YamlDocument:
    """The YAML files a ruleset ships in ``<package>/data/``, merged in order into one
    document (cached; documents are never changed in place).

    >>> doc = package_data("fracas.rules.heimr", ("attributes.yaml",))
    >>> sorted(doc.data["attributes"])[:2]
    ['dex', 'emp']
    """
    folder = resources.files(package).joinpath("data")
    where = package.replace(".", "/") + "/data"
    document = YamlDocument({}, {}, where)
    for name in files:
        text = folder.joinpath(name).read_text(encoding="utf-8")
        document = merge_documents(document, parse_yaml(text, f"{where}/{name}"))
    return document
