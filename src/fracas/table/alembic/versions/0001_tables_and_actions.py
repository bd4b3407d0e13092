"""Tables and their actions.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fracas_tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False, unique=True),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("setup", sa.JSON, nullable=False),
        sa.Column("dice", sa.JSON, nullable=True),
        sa.Column("head", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changed", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "fracas_actions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "table_id",
            sa.Integer,
            sa.ForeignKey("fracas_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("entry", sa.JSON, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "ply"),
    )


def downgrade() -> None:
    op.drop_table("fracas_actions")
    op.drop_table("fracas_tables")
