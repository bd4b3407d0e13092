"""The ledger's rows in the store: campaigns, their entries, and the tables they started.

Alembic owns the columns (revision ``0003``); the JSON inside them is a campaign file's
content (``document``) and each entry's payload, in the shapes :mod:`fracas.ledger.entries`
reads.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from fracas.table.store import MAX_NAME, Base

__all__ = ["CampaignRow", "EncounterRow", "EntryRow"]


class CampaignRow(Base):
    __tablename__ = "fracas_campaigns"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(MAX_NAME), unique=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    ruleset: Mapped[str] = mapped_column(String(40))
    document: Mapped[Any] = mapped_column(JSON)
    head: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    changed: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EntryRow(Base):
    __tablename__ = "fracas_ledger_entries"
    __table_args__ = (UniqueConstraint("campaign_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("fracas_campaigns.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(40))
    character: Mapped[str | None] = mapped_column(String(MAX_NAME), nullable=True)
    payload: Mapped[Any] = mapped_column(JSON)
    recorded: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    effective: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EncounterRow(Base):
    __tablename__ = "fracas_campaign_encounters"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("fracas_campaigns.id", ondelete="CASCADE"))
    table_id: Mapped[int] = mapped_column(
        ForeignKey("fracas_tables.id", ondelete="CASCADE"), unique=True
    )
    started: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    concluded: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the entry's seq
