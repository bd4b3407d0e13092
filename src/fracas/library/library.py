"""A game master's library in the store: battlefields and encounters, ready to play.

A battlefield is a name, a ruleset and its document: the keys of an encounter file that
describe its ground (:mod:`fracas.library.kinds`). An encounter names a campaign (of
:mod:`fracas.ledger`), a battlefield of the library (or none) and holds the rest of an
encounter file: the combatants and where they stand. Everything stored has passed the
ruleset's own check; a change that does not is refused with every mistake at its path
(:class:`Invalid`), and nothing is changed. Each change is one transaction, checked
against the version it was made from, so two editors cannot overwrite each other.

>>> from fracas.table.store import Store
>>> library = Library(Store.open("sqlite://"))
>>> field = library.create_battlefield("hall", "heimr")
>>> field.document
{'battlefield': {'columns': 3, 'rows': 3}}
>>> try:
...     library.save_battlefield("hall", {"battlefield": {"columns": 2}}, field.version)
... except Invalid as err:
...     print(err)
battlefield.columns: Input should be greater than or equal to 3
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import PurePath
from typing import Any, Protocol

import yaml
from sqlalchemy import JSON, DateTime, Integer, String, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from fracas.library.kinds import KINDS, battlefield_file_model, problems
from fracas.rules import find, ids
from fracas.table.encounterfile import EncounterFile
from fracas.table.store import (
    MAX_NAME,
    Base,
    ConflictError,
    Store,
    StoreError,
    aware,
    check_name,
)
from fracas.table.table import Table
from fracas.yamlfile import (
    KeyPath,
    YamlDocument,
    format_path,
    parse_yaml,
    unknown_name,
    validate,
)

__all__ = [
    "BattlefieldRecord",
    "Campaigns",
    "EncounterRecord",
    "Invalid",
    "Library",
    "LibraryError",
    "dump_yaml",
]

#: The keys of an encounter file that the library keeps beside the combatants.
ENCOUNTER_TOP = ("ruleset", "title", "campaign")


class LibraryError(StoreError):
    """Something a person can act on: an unknown name, a taken one, a ruleset without maps."""


class Invalid(LibraryError):
    """A document the ruleset refuses; ``problems`` holds every mistake at its path."""

    def __init__(self, found: Sequence[tuple[KeyPath, str]]) -> None:
        self.problems = list(found)
        super().__init__("\n".join(f"{format_path(p) or 'file'}: {m}" for p, m in self.problems))


class Campaigns(Protocol):
    """Where campaigns come from (:class:`fracas.ledger.Ledger`)."""

    def document(self, name: str, at: Any = None) -> dict[str, Any]: ...

    def start_encounter(
        self, campaign: str, table_name: str, encounter: Mapping[str, Any], seed: int | None = None
    ) -> Table: ...


class PreparedBattlefieldRow(Base):
    __tablename__ = "fracas_battlefields"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(MAX_NAME), unique=True)
    ruleset: Mapped[str] = mapped_column(String(40))
    title: Mapped[str] = mapped_column(String(200), default="")
    campaign: Mapped[str] = mapped_column(String(MAX_NAME), default="")
    document: Mapped[Any] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    changed: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PreparedEncounterRow(Base):
    __tablename__ = "fracas_encounters"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(MAX_NAME), unique=True)
    ruleset: Mapped[str] = mapped_column(String(40))
    title: Mapped[str] = mapped_column(String(200), default="")
    campaign: Mapped[str] = mapped_column(String(MAX_NAME), default="")
    battlefield: Mapped[str] = mapped_column(String(MAX_NAME), default="")
    document: Mapped[Any] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    changed: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class BattlefieldRecord:
    """A battlefield of the library; ``campaign`` gives its presets ("": the shipped ones)."""

    name: str
    ruleset: str
    title: str
    campaign: str
    document: dict[str, Any]
    version: int
    changed: datetime


@dataclass(frozen=True)
class EncounterRecord:
    """An encounter of the library: its campaign, battlefield and the rest of its file."""

    name: str
    ruleset: str
    title: str
    campaign: str
    battlefield: str
    document: dict[str, Any]
    version: int
    changed: datetime


def _field(row: PreparedBattlefieldRow) -> BattlefieldRecord:
    return BattlefieldRecord(
        row.name,
        row.ruleset,
        row.title,
        row.campaign,
        row.document,
        row.version,
        aware(row.changed),
    )


def _encounter(row: PreparedEncounterRow) -> EncounterRecord:
    return EncounterRecord(
        row.name,
        row.ruleset,
        row.title,
        row.campaign,
        row.battlefield,
        row.document,
        row.version,
        aware(row.changed),
    )


def dump_yaml(data: Mapping[str, Any]) -> str:
    """A file's content as YAML, keys in their order, short lists and mappings inline.

    >>> field = {"columns": 3, "squares": {"B2": {"name": "hall"}}}
    >>> print(dump_yaml({"ruleset": "heimr", "battlefield": field}), end="")
    ruleset: heimr
    battlefield:
      columns: 3
      squares:
        B2: {name: hall}
    """
    return yaml.safe_dump(
        dict(data), sort_keys=False, allow_unicode=True, default_flow_style=None, width=100
    )


def name_from_file(filename: str) -> str:
    """A library name from a file's name: its stem, with anything else than letters,
    digits, ``-``, ``_`` and ``.`` turned into ``-``.

    >>> name_from_file("C:/maps/Castle wall.yaml")
    'Castle-wall'
    """
    stem = PurePath(filename.replace("\\", "/")).stem
    return re.sub(r"[^A-Za-z0-9_.-]", "-", stem).strip(".")[:MAX_NAME] or "imported"


class Library:
    """The battlefields and encounters of one store."""

    def __init__(self, store: Store, campaigns: Campaigns | None = None) -> None:
        self.store = store
        self.campaigns = campaigns

    # -- battlefields -----------------------------------------------------------------

    def battlefields(self, ruleset: str | None = None) -> list[BattlefieldRecord]:
        """Every battlefield (of ``ruleset``, when given), by name."""
        with self.store.session() as s:
            query = select(PreparedBattlefieldRow).order_by(PreparedBattlefieldRow.name)
            if ruleset is not None:
                query = query.where(PreparedBattlefieldRow.ruleset == ruleset)
            return [_field(r) for r in s.scalars(query)]

    def battlefield(self, name: str) -> BattlefieldRecord:
        with self.store.session() as s:
            return _field(self._field_row(s, name))

    def _field_row(self, s: Session, name: str) -> PreparedBattlefieldRow:
        row = s.scalars(
            select(PreparedBattlefieldRow).where(PreparedBattlefieldRow.name == name)
        ).first()
        if row is None:
            names = s.scalars(select(PreparedBattlefieldRow.name)).all()
            raise LibraryError(unknown_name("battlefield", name[:40], names))
        return row

    def campaign_document(self, campaign: str) -> dict[str, Any]:
        """The campaign's content ("" : none, the shipped tables)."""
        if not campaign:
            return {}
        if self.campaigns is None:
            raise LibraryError(f"no campaigns here to find {campaign!r} in")
        try:
            return self.campaigns.document(campaign)
        except (KeyError, ValueError) as err:
            raise LibraryError(str(err).strip("'\"")) from None

    @staticmethod
    def ruleset_with_map(ruleset: str) -> None:
        """:class:`LibraryError` unless ``ruleset`` is known and has battlefields."""
        if ruleset not in ids():
            raise LibraryError(unknown_name("ruleset", ruleset, ids()))
        if ruleset not in KINDS:
            raise LibraryError(f"a {ruleset} encounter has no battlefield: its fights need none")

    def check_battlefield(
        self, ruleset: str, document: Mapping[str, Any], campaign: str = ""
    ) -> list[tuple[KeyPath, str]]:
        """Every mistake in a battlefield of ``ruleset`` (with ``campaign``'s presets)."""
        self.ruleset_with_map(ruleset)
        return problems(ruleset, document, self.campaign_document(campaign))

    def create_battlefield(
        self,
        name: str,
        ruleset: str,
        title: str = "",
        document: Mapping[str, Any] | None = None,
        campaign: str = "",
    ) -> BattlefieldRecord:
        """A new battlefield (a plain one of its kind if no ``document``); :class:`Invalid`
        with every mistake, :class:`LibraryError` if the name is taken."""
        name = check_name(name, "battlefield")
        self.ruleset_with_map(ruleset)
        doc = dict(document) if document is not None else KINDS[ruleset].empty()
        found = self.check_battlefield(ruleset, doc, campaign)
        if found:
            raise Invalid(found)
        row = PreparedBattlefieldRow(
            name=name,
            ruleset=ruleset,
            title=title[:200],
            campaign=campaign,
            document=doc,
            version=0,
            changed=datetime.now(UTC),
        )
        try:
            with self.store.session() as s:
                s.add(row)
        except IntegrityError:
            raise LibraryError(f"there is already a battlefield called {name!r}") from None
        return self.battlefield(name)

    def save_battlefield(
        self,
        name: str,
        document: Mapping[str, Any],
        version: int,
        title: str | None = None,
        campaign: str | None = None,
    ) -> BattlefieldRecord:
        """The battlefield changed to ``document`` if it is still at ``version``
        (:class:`~fracas.table.store.ConflictError` otherwise) and the ruleset accepts it
        (:class:`Invalid` otherwise); nothing changes on any error."""
        record = self.battlefield(name)
        campaign = record.campaign if campaign is None else campaign
        found = self.check_battlefield(record.ruleset, document, campaign)
        if found:
            raise Invalid(found)
        values: dict[str, Any] = {
            "document": dict(document),
            "version": version + 1,
            "campaign": campaign,
            "changed": datetime.now(UTC),
        }
        if title is not None:
            values["title"] = title[:200]
        with self.store.session() as s:
            done = s.execute(
                update(PreparedBattlefieldRow)
                .where(
                    PreparedBattlefieldRow.name == name, PreparedBattlefieldRow.version == version
                )
                .values(**values)
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise ConflictError(
                    f"the battlefield {name!r} was changed meanwhile (another page?): reload it"
                )
        return self.battlefield(name)

    def delete_battlefield(self, name: str) -> None:
        with self.store.session() as s:
            row = self._field_row(s, name)
            used = s.scalars(
                select(PreparedEncounterRow.name).where(PreparedEncounterRow.battlefield == name)
            ).all()
            if used:
                raise LibraryError(
                    f"the battlefield {name!r} is used by the encounters {', '.join(used)}"
                )
            s.delete(row)

    def battlefield_file(self, name: str) -> dict[str, Any]:
        """The battlefield as the file the terminal reads its keys from."""
        record = self.battlefield(name)
        data: dict[str, Any] = {"ruleset": record.ruleset}
        if record.title:
            data["title"] = record.title
        data.update(record.document)
        return data

    def export_battlefield(self, name: str) -> str:
        return dump_yaml(self.battlefield_file(name))

    def read_battlefield(
        self, text: str, filename: str, campaign: str = ""
    ) -> tuple[str, str, dict[str, Any]]:
        """The ruleset, title and document of a battlefield file (or of an encounter
        file's battlefield); :class:`~fracas.yamlfile.CampaignError` names each mistake
        by file, line and field."""
        doc = parse_yaml(text, filename)
        data = doc.data
        if not isinstance(data, dict):
            raise doc.error(
                [((), "the file should hold a mapping: ruleset, title and the battlefield")]
            )
        ruleset = data.get("ruleset")
        if not isinstance(ruleset, str) or ruleset not in ids():
            raise doc.error([(("ruleset",), unknown_name("ruleset", str(ruleset), ids()))])
        if ruleset not in KINDS:
            raise doc.error([(("ruleset",), f"a {ruleset} encounter has no battlefield")])
        kind = KINDS[ruleset]
        if "combatants" in data or "campaign" in data:  # an encounter file: its ground only
            keep = ("ruleset", "title", *kind.keys, *kind.aliases)
            data = {k: v for k, v in data.items() if k in keep}
        for alias, key in kind.aliases.items():  # another name of a key (Heimr's grid)
            if alias in data:
                value = data.pop(alias)
                if isinstance(value, dict):
                    data[key] = {**value, **(data.get(key) or {})}
        spec = validate(
            battlefield_file_model(ruleset), YamlDocument(data, doc.locations, doc.name)
        )
        document = {k: data[k] for k in kind.keys if k in data}
        found = problems(ruleset, document, self.campaign_document(campaign))
        if found:
            raise doc.error(found)
        return ruleset, str(getattr(spec, "title", "") or ""), document

    def import_battlefield(
        self, text: str, filename: str, name: str | None = None, campaign: str = ""
    ) -> BattlefieldRecord:
        """A new battlefield from a file's text (YAML or JSON)."""
        ruleset, title, document = self.read_battlefield(text, filename, campaign)
        return self.create_battlefield(
            name or name_from_file(filename), ruleset, title, document, campaign
        )

    # -- encounters -------------------------------------------------------------------

    def encounters(self) -> list[EncounterRecord]:
        with self.store.session() as s:
            return [
                _encounter(r)
                for r in s.scalars(select(PreparedEncounterRow).order_by(PreparedEncounterRow.name))
            ]

    def encounter(self, name: str) -> EncounterRecord:
        with self.store.session() as s:
            return _encounter(self._encounter_row(s, name))

    def _encounter_row(self, s: Session, name: str) -> PreparedEncounterRow:
        row = s.scalars(
            select(PreparedEncounterRow).where(PreparedEncounterRow.name == name)
        ).first()
        if row is None:
            names = s.scalars(select(PreparedEncounterRow.name)).all()
            raise LibraryError(unknown_name("encounter", name[:40], names))
        return row

    def setup(
        self, ruleset: str, campaign: str, battlefield: str, document: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The setup an encounter starts from: the battlefield's keys, the document's
        and the campaign's content."""
        ground: dict[str, Any] = {}
        if battlefield:
            record = self.battlefield(battlefield)
            if record.ruleset != ruleset:
                raise LibraryError(
                    f"the battlefield {battlefield!r} is for {record.ruleset}, not {ruleset}"
                )
            ground = record.document
        extra = {k: v for k, v in document.items() if k not in ENCOUNTER_TOP}
        return {**ground, **extra, "campaign": self.campaign_document(campaign)}

    def check_encounter(
        self, ruleset: str, campaign: str, battlefield: str, document: Mapping[str, Any]
    ) -> list[tuple[KeyPath, str]]:
        """Every mistake in an encounter, at its path in ``document`` (a mistake of the
        battlefield at the battlefield's path; of the campaign at ``campaign``)."""
        if ruleset not in ids():
            return [(("ruleset",), unknown_name("ruleset", ruleset, ids()))]
        if not campaign:
            return [(("campaign",), "choose the campaign whose characters fight")]
        try:
            setup = self.setup(ruleset, campaign, battlefield, document)
        except LibraryError as err:
            return [(("battlefield" if battlefield else "campaign",), str(err))]
        return find(ruleset).setup_problems(setup)

    def save_encounter(
        self,
        name: str,
        ruleset: str,
        campaign: str,
        battlefield: str,
        document: Mapping[str, Any],
        title: str = "",
        version: int | None = None,
    ) -> EncounterRecord:
        """A new encounter (``version`` ``None``) or a change to one at ``version``;
        :class:`Invalid` with every mistake, and nothing stored, if the ruleset refuses it."""
        name = check_name(name, "encounter")
        doc = {k: v for k, v in document.items() if k not in ENCOUNTER_TOP}
        found = self.check_encounter(ruleset, campaign, battlefield, doc)
        if found:
            raise Invalid(found)
        values: dict[str, Any] = {
            "ruleset": ruleset,
            "title": title[:200],
            "campaign": campaign,
            "battlefield": battlefield,
            "document": doc,
            "changed": datetime.now(UTC),
        }
        try:
            with self.store.session() as s:
                if version is None:
                    s.add(PreparedEncounterRow(name=name, version=0, **values))
                else:
                    done = s.execute(
                        update(PreparedEncounterRow)
                        .where(
                            PreparedEncounterRow.name == name,
                            PreparedEncounterRow.version == version,
                        )
                        .values(version=version + 1, **values)
                    )
                    if done.rowcount != 1:  # type: ignore[attr-defined]
                        raise ConflictError(
                            f"the encounter {name!r} was changed meanwhile (another page?): "
                            "reload it"
                        )
        except IntegrityError:
            raise LibraryError(f"there is already an encounter called {name!r}") from None
        return self.encounter(name)

    def delete_encounter(self, name: str) -> None:
        with self.store.session() as s:
            self._encounter_row(s, name)
            s.execute(delete(PreparedEncounterRow).where(PreparedEncounterRow.name == name))

    def encounter_file(self, name: str, campaign_file: str | None = None) -> dict[str, Any]:
        """The encounter as the file ``fracas play`` reads: its battlefield written in,
        and ``campaign`` naming the campaign's file (``<campaign>.yaml`` by default)."""
        record = self.encounter(name)
        data: dict[str, Any] = {"ruleset": record.ruleset}
        if record.title:
            data["title"] = record.title
        data["campaign"] = campaign_file or f"{record.campaign}.yaml"
        if record.battlefield:
            data.update(self.battlefield(record.battlefield).document)
        data.update(record.document)
        return data

    def export_encounter(self, name: str, campaign_file: str | None = None) -> str:
        return dump_yaml(self.encounter_file(name, campaign_file))

    def import_encounter(
        self, text: str, filename: str, campaign: str, name: str | None = None
    ) -> EncounterRecord:
        """A new encounter from an encounter file's text, its characters from ``campaign``
        (the file's own ``campaign`` key names files, which the library does not read).
        Its battlefield, if it has one, becomes a battlefield of the library of the same
        name. Mistakes are named by file, line and field."""
        doc = parse_yaml(text, filename)
        spec = validate(EncounterFile, doc)
        data: dict[str, Any] = dict(doc.data)
        if spec.ruleset not in ids():
            raise doc.error([(("ruleset",), unknown_name("ruleset", spec.ruleset, ids()))])
        name = check_name(name or name_from_file(filename))
        kind = KINDS.get(spec.ruleset)
        ground_keys = (*kind.keys, "grid") if kind is not None else ()
        rest = {k: v for k, v in data.items() if k not in ENCOUNTER_TOP and k not in ground_keys}
        ground = {k: v for k, v in data.items() if k in ground_keys}
        battlefield = ""
        if ground:
            _, _, ground_doc = self.read_battlefield(text, filename, campaign)
        try:
            setup = {
                **(ground_doc if ground else {}),
                **rest,
                "campaign": self.campaign_document(campaign),
            }
        except LibraryError as err:
            raise doc.error([(("campaign",), str(err))]) from None
        found = [
            (p, m) for p, m in find(spec.ruleset).setup_problems(setup) if p[:1] != ("campaign",)
        ]
        if found:
            raise doc.error(found)
        if ground:
            battlefield = name
            self.create_battlefield(name, spec.ruleset, spec.title, ground_doc, campaign)
        try:
            return self.save_encounter(name, spec.ruleset, campaign, battlefield, rest, spec.title)
        except LibraryError:
            if battlefield:
                self.delete_battlefield(battlefield)
            raise

    def start(self, name: str, table: str, seed: int | None = None) -> Table:
        """A live table ``table`` from the encounter, started by the campaigns' keeper
        (:meth:`fracas.ledger.Ledger.start_encounter`: its characters as they stand now);
        a :class:`ValueError` says what is wrong (the name is taken, a character changed
        or left the campaign since)."""
        record = self.encounter(name)
        table = check_name(table)
        if self.campaigns is None:
            raise LibraryError(f"no campaigns here to find {record.campaign!r} in")
        encounter = self.encounter_file(name)
        del encounter["campaign"]
        encounter["title"] = record.title or name
        return self.campaigns.start_encounter(record.campaign, table, encounter, seed)
