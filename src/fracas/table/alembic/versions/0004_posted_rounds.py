"""Posted rounds: a round a table's sides declare through their links, and their posts.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fracas_rounds",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "table_id",
            sa.Integer,
            sa.ForeignKey("fracas_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("defaults", sa.JSON, nullable=False),
        sa.Column("opened", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changes", sa.Integer, nullable=False),
        sa.Column("closing", sa.JSON, nullable=True),
        sa.Column("close_from", sa.Integer, nullable=True),
        sa.Column("closed", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_fracas_rounds_table", "fracas_rounds", ["table_id"])
    op.create_table(
        "fracas_round_posts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "round_id",
            sa.Integer,
            sa.ForeignKey("fracas_rounds.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("side", sa.String(40), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("posted", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("round_id", "side"),
    )


def downgrade() -> None:
    op.drop_table("fracas_round_posts")
    op.drop_index("ix_fracas_rounds_table", "fracas_rounds")
    op.drop_table("fracas_rounds")
