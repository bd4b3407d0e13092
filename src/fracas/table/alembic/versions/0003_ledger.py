"""The campaign ledger: campaigns, their entries (undoable by a head), their encounters.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fracas_campaigns",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False, unique=True),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("document", sa.JSON, nullable=False),
        sa.Column("head", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changed", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "fracas_ledger_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "campaign_id",
            sa.Integer,
            sa.ForeignKey("fracas_campaigns.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("character", sa.String(80), nullable=True),
        sa.Column("payload", sa.JSON, nullable=False),
        sa.Column("recorded", sa.DateTime(timezone=True), nullable=False),
        sa.Column("effective", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("campaign_id", "seq"),
    )
    op.create_table(
        "fracas_campaign_encounters",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "campaign_id",
            sa.Integer,
            sa.ForeignKey("fracas_campaigns.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "table_id",
            sa.Integer,
            sa.ForeignKey("fracas_tables.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
        sa.Column("concluded", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("fracas_campaign_encounters")
    op.drop_table("fracas_ledger_entries")
    op.drop_table("fracas_campaigns")
