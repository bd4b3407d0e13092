"""The campaign's books: campaigns in the store, every change to them an entry.

A campaign is a campaign file's content (as the terminal reads it) and a list of entries
(a character added or edited, an XP award, a training, an encounter concluded...). Each
entry is stored in its own transaction; the campaign's *head* says how many are in play,
so undo and redo move it, and an entry made after an undo drops the undone ones (as a
table's actions do). A sheet is never stored as it stands: :meth:`Ledger.standing` folds
the entries in play over the file's characters with the rules' own functions, up to any
date.

>>> from fracas.table.store import Store
>>> ledger = Ledger(Store.open("sqlite://"))
>>> ledger.create("ford", "heimr", title="The ford")
>>> [(c.name, c.ruleset, c.title) for c in ledger.campaigns()]
[('ford', 'heimr', 'The ford')]
>>> ledger.document("ford")
{'characters': {}}
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from fracas import names
from fracas.ledger.books import books, ruleset_ids
from fracas.ledger.encounters import carried_out, character_keys, lay_carried, xp_gained
from fracas.ledger.entries import LedgerError, Rules, Standing, apply
from fracas.ledger.rows import CampaignRow, EncounterRow, EntryRow
from fracas.names import normal
from fracas.rules import find
from fracas.table.store import (
    ConflictError,
    Store,
    StoreError,
    TableRow,
    aware,
    utc_now,
)
from fracas.table.store import check_name as store_check_name
from fracas.table.table import Table
from fracas.yamlfile import (
    CampaignError,
    Replace,
    YamlDocument,
    format_path,
    load_yaml,
    parse_yaml,
)

__all__ = ["CampaignInfo", "Entry", "Ledger", "LedgerError"]

#: The most entries a campaign holds (each one is folded to show a sheet).
MAX_ENTRIES = 5_000


@dataclass(frozen=True)
class CampaignInfo:
    """A campaign as listed: its name, ruleset and title, how many entries are in play."""

    name: str
    ruleset: str
    title: str
    head: int = 0
    changed: datetime | None = None


@dataclass(frozen=True)
class Entry:
    """One entry of a campaign's log; ``active`` is false once undone."""

    seq: int
    kind: str
    character: str | None
    payload: dict[str, Any]
    recorded: datetime
    effective: datetime
    active: bool


def check_name(name: str, others: Iterable[str] = ()) -> str:
    """A campaign name in NFKC form: 1 to 80 letters, digits, ``-``, ``_`` or ``.``, not
    starting ``.``, of one script, not looking like one of ``others``."""
    try:
        return store_check_name(name, "campaign", others)
    except StoreError as err:
        raise LedgerError(str(err)) from None


# -- the document as the store keeps it: YAML text (int keys and ``!replace`` kept) ------------


def to_json(data: Mapping[str, Any]) -> dict[str, str]:
    """A campaign document as the store's JSON column keeps it: its YAML text, so that
    what JSON cannot hold (numbers as keys, ``!replace`` mappings) survives."""
    return {"yaml": dump_yaml(data)}


def from_json(value: Any) -> dict[str, Any]:
    """The inverse of :func:`to_json` (a fresh copy each time)."""
    return copy.deepcopy(_parsed(str(value["yaml"])))


@lru_cache(maxsize=16)
def _parsed(text: str) -> dict[str, Any]:
    # Campaign documents never change once stored: each is parsed once per process.
    return dict(parse_yaml(text, "campaign").data or {})


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True  # a person reads the export: every value written out


def _represent_replace(dumper: yaml.SafeDumper, data: Replace) -> yaml.Node:
    return dumper.represent_mapping("!replace", dict(data))


_Dumper.add_representer(Replace, _represent_replace)


def dump_yaml(document: Mapping[str, Any]) -> str:
    """A campaign document as YAML that :func:`fracas.yamlfile.parse_yaml` reads back."""
    return yaml.dump(dict(document), Dumper=_Dumper, sort_keys=False, allow_unicode=True)


class Ledger:
    """Every campaign in one store, and their entries."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- campaigns ---------------------------------------------------------------------------

    def campaigns(self) -> list[CampaignInfo]:
        with self.store.session() as s:
            rows = s.scalars(select(CampaignRow).order_by(CampaignRow.name)).all()
            return [
                CampaignInfo(r.name, r.ruleset, r.title, r.head, aware(r.changed)) for r in rows
            ]

    def info(self, name: str) -> CampaignInfo:
        with self.store.session() as s:
            r = self._row(s, name)
            return CampaignInfo(r.name, r.ruleset, r.title, r.head, aware(r.changed))

    def create(
        self,
        name: str,
        ruleset: str,
        document: Mapping[str, Any] | None = None,
        title: str = "",
    ) -> None:
        """A new campaign from a campaign file's content (checked by the ruleset)."""
        with self.store.session() as s:
            name = check_name(name, list(s.scalars(select(CampaignRow.name))))
        if ruleset not in ruleset_ids():
            raise LedgerError(f"unknown ruleset {ruleset!r}: known are {', '.join(ruleset_ids())}")
        data = dict(document or {})
        self._check(ruleset, YamlDocument(data, {}, "campaign"))
        title = title or str(data.get("title") or "")
        now = utc_now()
        try:
            with self.store.session() as s:
                s.add(
                    CampaignRow(
                        name=name,
                        title=title[:200],
                        ruleset=ruleset,
                        document=to_json(data),
                        head=0,
                        version=0,
                        created=now,
                        changed=now,
                    )
                )
        except IntegrityError:
            raise LedgerError(f"there is already a campaign called {name!r}") from None

    def import_file(
        self, name: str, path: str | Path, ruleset: str | None = None, title: str = ""
    ) -> str:
        """A new campaign from a campaign YAML file; its ruleset (found by which ruleset's
        check accepts the file, when not given). Mistakes name the file, line and field."""
        return self.import_document(name, load_yaml(path), ruleset, title)

    def import_document(
        self, name: str, document: YamlDocument, ruleset: str | None = None, title: str = ""
    ) -> str:
        """As :meth:`import_file`, from a document already read (an upload)."""
        if document.data is not None and not isinstance(document.data, Mapping):
            raise document.error([((), "the file should hold a mapping of keys to values")])
        if ruleset is None:
            ruleset = self._detect(document)
        else:
            self._check(ruleset, document)
        self.create(name, ruleset, document.data or {}, title)
        return ruleset

    def _detect(self, document: YamlDocument) -> str:
        accepted: list[str] = []
        errors: dict[str, str] = {}
        for ruleset in ruleset_ids():
            try:
                self._check(ruleset, document)
                accepted.append(ruleset)
            except (CampaignError, LedgerError) as err:
                errors[ruleset] = str(err)
        if len(accepted) == 1:
            return accepted[0]
        if accepted:
            raise LedgerError(
                f"{document.name} suits the rulesets {', '.join(accepted)}: name one (--ruleset)"
            )
        # the ruleset whose complaint is shortest is the likeliest one meant
        closest = min(errors, key=lambda r: errors[r].count("\n"))
        raise CampaignError(
            f"{errors[closest]}\n(read as a {closest} campaign; --ruleset names another)"
        )

    @staticmethod
    def _check(ruleset: str, document: YamlDocument) -> None:
        characters = document.data.get("characters") if isinstance(document.data, Mapping) else None
        if isinstance(characters, Mapping):  # keys of one script, none looking like another
            keys: list[str] = []
            for key in (k for k in characters if isinstance(k, str)):
                try:
                    names.check(key, "character", keys)
                except names.NameError_ as err:
                    raise LedgerError(f"{document.name}, characters: {err}") from None
                keys.append(key)
        try:
            find(ruleset).check_campaign(document)
        except CampaignError:
            raise
        except Exception as err:  # some rulesets report their campaigns as EngineError
            raise LedgerError(f"{document.name}: {err}") from None

    def delete(self, name: str) -> None:
        with self.store.session() as s:
            s.delete(self._row(s, name))

    def document(self, name: str, at: datetime | None = None) -> dict[str, Any]:
        """The campaign file's content with the characters as they stand at ``at`` (now,
        when ``None``): what an encounter setup's ``campaign`` key takes."""
        data, standing = self._fold(name, at)
        return {**copy.deepcopy(data), "characters": standing.characters}

    def export(self, name: str, character: str | None = None) -> str:
        """The campaign as it stands now, as YAML the terminal reads back; with
        ``character``, a campaign file holding that character alone (an encounter lays
        it over the campaign's own: ``campaign: [campaign.yaml, ylva.yaml]``)."""
        if character is not None:
            return dump_yaml({"characters": {character: self.sheet(name, character)}})
        return dump_yaml(self.document(name))

    def standing(self, name: str, at: datetime | None = None) -> Standing:
        """Sheets, carried conditions and XP leftovers at ``at`` (now, when ``None``)."""
        return self._fold(name, at)[1]

    def sheet(self, campaign: str, character: str, at: datetime | None = None) -> dict[str, Any]:
        """A character's sheet as it stood at ``at``."""
        standing = self.standing(campaign, at)
        if character not in standing.characters:
            known = ", ".join(sorted(standing.characters)) or "none"
            when = f" on {at:%Y-%m-%d %H:%M}" if at else ""
            raise LedgerError(f"no character {character!r} in {campaign}{when} (known: {known})")
        return standing.characters[character]

    def summary(self, campaign: str, sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
        """What the ruleset shows of a sheet beyond its fields (heimr-classic: what
        charisma, wealth and weapons give, HC-CAMP-1, HC-ARM-1); empty if nothing."""
        rules = self.rules(campaign)
        show = getattr(rules.books.own, "summary", None)
        if show is None:
            return []
        try:
            found: list[tuple[str, str]] = show(rules.campaign, sheet)
        except ValueError:
            return []  # a sheet the ruleset cannot read has nothing more to show
        return found

    def rules(self, name: str) -> Rules:
        with self.store.session() as s:
            row = self._row(s, name)
            return Rules(books(row.ruleset), from_json(row.document))

    # -- entries -------------------------------------------------------------------------------

    def entries(self, name: str) -> list[Entry]:
        """The campaign's log, undone entries included (``active`` false)."""
        with self.store.session() as s:
            row = self._row(s, name)
            rows = s.scalars(
                select(EntryRow).where(EntryRow.campaign_id == row.id).order_by(EntryRow.seq)
            ).all()
            return [_entry(r, r.seq <= row.head) for r in rows]

    def record(
        self,
        name: str,
        kind: str,
        character: str | None = None,
        payload: Mapping[str, Any] | None = None,
        effective: datetime | None = None,
        *,
        concludes: int | None = None,
    ) -> Entry:
        """Check an entry against the books as they stand and store it in one transaction
        (dropping any undone entries); :class:`LedgerError` if the rules refuse it.
        ``concludes`` names the table (by id) a ``conclude`` entry ends, marked with it."""
        payload = dict(copy.deepcopy(payload or {}))
        now = utc_now()
        effective = aware(effective) if effective else now
        with self.store.session() as s:
            row = self._row(s, name)
            version, head = row.version, row.head
            data = from_json(row.document)
        standing = self._fold_rows(name, data, None)[1]
        rules = Rules(books(row.ruleset), data)
        last = self._last_effective(name)
        if last is not None and effective < last:
            raise LedgerError(
                f"the date {effective:%Y-%m-%d %H:%M} is before the last entry's "
                f"({last:%Y-%m-%d %H:%M}): entries are dated in order"
            )
        if kind == "upkeep" and payload.get("what") in ("month", "hero"):
            payload.setdefault("month", f"{effective:%Y-%m}")  # HC-CAMP-1: the entry's month
        apply(rules, standing, kind, character, payload)
        if head >= MAX_ENTRIES:
            raise LedgerError(f"a campaign holds at most {MAX_ENTRIES} entries")
        with self.store.session() as s:
            claimed = self._claim(s, name, version)
            seq = head + 1
            s.execute(
                delete(EntryRow).where(EntryRow.campaign_id == claimed.id, EntryRow.seq >= seq)
            )
            entry = EntryRow(
                campaign_id=claimed.id,
                seq=seq,
                kind=kind,
                character=character,
                payload=payload,
                recorded=now,
                effective=effective,
            )
            s.add(entry)
            claimed.head, claimed.changed = seq, now
            if concludes is not None:
                s.execute(
                    update(EncounterRow)
                    .where(EncounterRow.table_id == concludes)
                    .values(concluded=seq)
                )
            s.flush()
            return _entry(entry, True)

    def undo(self, name: str) -> Entry:
        """Take the last entry in play out of play; it can be redone."""
        with self.store.session() as s:
            row = self._row(s, name)
            if row.head == 0:
                raise LedgerError(f"nothing to undo in {name}")
            entry = self._entry_at(s, row.id, row.head)
            self._move(s, row, row.head - 1)
            return _entry(entry, False)

    def redo(self, name: str) -> Entry:
        """Put back the last entry undone."""
        with self.store.session() as s:
            row = self._row(s, name)
            count = s.scalar(
                select(func.count()).select_from(EntryRow).where(EntryRow.campaign_id == row.id)
            )
            if row.head >= (count or 0):
                raise LedgerError(f"nothing to redo in {name}")
            entry = self._entry_at(s, row.id, row.head + 1)
            self._move(s, row, row.head + 1)
            return _entry(entry, True)

    # -- encounters -----------------------------------------------------------------------------

    def start_encounter(
        self,
        campaign: str,
        table_name: str,
        encounter: Mapping[str, Any],
        seed: int | None = None,
    ) -> Table:
        """A new table from the campaign's characters as they stand now (and what they
        carried out of earlier encounters) plus the encounter's own keys, as an encounter
        file gives them (``combatants``, ``grid``...); the table is linked to the campaign."""
        info = self.info(campaign)
        spec = dict(copy.deepcopy(dict(encounter)))
        ruleset_id = str(spec.pop("ruleset", info.ruleset))
        if ruleset_id != info.ruleset:
            raise LedgerError(f"{campaign} is a {info.ruleset} campaign, not {ruleset_id}")
        if "campaign" in spec:
            raise LedgerError("the encounter's campaign comes from the books: leave out 'campaign'")
        title = str(spec.pop("title", "") or table_name)
        setup: dict[str, Any] = {**spec, "campaign": self.document(campaign)}
        problems = lay_carried(setup, self.standing(campaign).carried)
        ruleset = find(info.ruleset)
        problems += ruleset.setup_problems(setup)
        if problems:
            raise LedgerError(_listed("the encounter", problems), problems)

        def link(s: Session, table_id: int) -> None:
            row = self._row(s, campaign)
            s.add(EncounterRow(campaign_id=row.id, table_id=table_id, started=utc_now()))

        # The table and its link to the campaign are one transaction: both, or neither.
        return Table.start(self.store, table_name, ruleset, setup, title, seed, then=link)

    def encounter(self, table_name: str) -> tuple[str, int | None] | None:
        """The campaign a table was started from and the entry that concluded it (``None``
        while it is not concluded, or its conclusion was undone); ``None`` if not linked."""
        with self.store.session() as s:
            found = s.execute(
                select(CampaignRow, EncounterRow)
                .join(EncounterRow, EncounterRow.campaign_id == CampaignRow.id)
                .join(TableRow, TableRow.id == EncounterRow.table_id)
                .where(TableRow.name == table_name)
            ).first()
            if found is None:
                return None
            campaign, link = found
            seq = link.concluded
            if seq is not None:
                entry = s.scalars(
                    select(EntryRow).where(EntryRow.campaign_id == campaign.id, EntryRow.seq == seq)
                ).first()
                still = (
                    entry is not None
                    and seq <= campaign.head
                    and entry.kind == "conclude"
                    and (entry.payload or {}).get("table") == table_name
                )
                seq = seq if still else None
            return campaign.name, seq

    def conclusion(
        self, table_name: str, award: Mapping[str, Any] | None = None, carry: bool = True
    ) -> tuple[str, dict[str, Any]]:
        """What concluding a table would record: its campaign and the entry's payload."""
        linked = self.encounter(table_name)
        if linked is None:
            raise LedgerError(f"the table {table_name!r} was not started from a campaign")
        campaign, concluded = linked
        if concluded is not None:
            raise LedgerError(f"the table {table_name} is already concluded (entry {concluded})")
        try:
            table = Table.resume(self.store, table_name)
        except StoreError as err:
            raise LedgerError(str(err)) from None
        setup = self.store.table(table_name).setup
        keys = character_keys(setup)
        fresh, final = table.ruleset.start(setup), table.encounter.state
        ruleset = self.info(campaign).ruleset
        payload: dict[str, Any] = {"table": table_name}
        if award is None:
            gained, leftovers = xp_gained(ruleset, fresh, final, keys)
            payload.update(xp=gained, leftovers=leftovers)
        elif "characters" in award:
            payload["award"] = dict(award)
        else:
            xp = award.get("xp", award)
            if not isinstance(xp, Mapping):
                raise LedgerError("the award is {character: XP} or {xp, group, characters}")
            payload["xp"] = {str(k): _whole(v, f"XP of {k}") for k, v in xp.items()}
        payload["carry"] = carried_out(ruleset, fresh, final, keys) if carry else {}
        return campaign, payload

    def conclude(
        self, table_name: str, award: Mapping[str, Any] | None = None, carry: bool = True
    ) -> Entry:
        """End an encounter in the books, as the GM confirms it: the XP the encounter's
        ``award`` verb gave (``award=None``) or the GM's own numbers (``{character: xp}``,
        or ``{xp, group, characters}`` divided by H-XP-1), and, with ``carry``, what each
        character carries out (hit points, fatigue, wounds...) into the next encounter."""
        campaign, payload = self.conclusion(table_name, award, carry)
        table_id = self.store.table(table_name).id
        return self.record(campaign, "conclude", None, payload, concludes=table_id)

    # -- helpers -------------------------------------------------------------------------------

    def _fold(self, name: str, at: datetime | None) -> tuple[dict[str, Any], Standing]:
        with self.store.session() as s:
            data = from_json(self._row(s, name).document)
        return self._fold_rows(name, data, at)

    def _fold_rows(
        self, name: str, data: dict[str, Any], at: datetime | None
    ) -> tuple[dict[str, Any], Standing]:
        rules = Rules(books(self.info(name).ruleset), data, replaying=True)
        characters = {str(k): dict(v) for k, v in (data.get("characters") or {}).items()}
        standing = Standing(characters=copy.deepcopy(characters))
        for entry in self.entries(name):
            if not entry.active:
                break
            if at is not None and entry.effective > aware(at):
                break
            try:
                apply(rules, standing, entry.kind, entry.character, entry.payload, in_place=True)
            except LedgerError as err:
                raise LedgerError(
                    f"entry {entry.seq} ({entry.kind}) no longer applies: {err}"
                ) from None
        base = {k: v for k, v in data.items() if k != "characters"}
        return base, standing

    def _last_effective(self, name: str) -> datetime | None:
        active = [e for e in self.entries(name) if e.active]
        return active[-1].effective if active else None

    @staticmethod
    def _row(s: Session, name: str) -> CampaignRow:
        name = normal(name)  # kept in NFKC form (check_name)
        row = s.scalars(select(CampaignRow).where(CampaignRow.name == name)).first()
        if row is None:
            names = list(s.scalars(select(CampaignRow.name)))
            known = f" (campaigns: {', '.join(sorted(names)[:10])})" if names else ""
            raise LedgerError(f"no campaign called {name[:40]!r}{known}")
        return row

    @staticmethod
    def _entry_at(s: Session, campaign_id: int, seq: int) -> EntryRow:
        entry = s.scalars(
            select(EntryRow).where(EntryRow.campaign_id == campaign_id, EntryRow.seq == seq)
        ).one()
        return entry

    def _claim(self, s: Session, name: str, version: int) -> CampaignRow:
        """Take the campaign for one change: only if nobody changed it since it was read."""
        bumped = s.execute(
            update(CampaignRow)
            .where(CampaignRow.name == name, CampaignRow.version == version)
            .values(version=version + 1)
        )
        if bumped.rowcount != 1:  # type: ignore[attr-defined]
            raise ConflictError(f"the campaign {name} was changed meanwhile: try again")
        return self._row(s, name)

    def _move(self, s: Session, row: CampaignRow, head: int) -> None:
        claimed = self._claim(s, row.name, row.version)
        claimed.head, claimed.changed = head, utc_now()


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise LedgerError(f"{what} should be a whole number, at least 0, not {value!r}")
    return value


def _listed(what: str, problems: list[tuple[Any, str]]) -> str:
    return f"{what}: " + "; ".join(f"{format_path(p)}: {m}" if p else m for p, m in problems)


def _entry(row: EntryRow, active: bool) -> Entry:
    return Entry(
        row.seq,
        row.kind,
        row.character,
        dict(row.payload or {}),
        aware(row.recorded),
        aware(row.effective),
        active,
    )
