"""Typed dice asked of the side that owns each roll: the action waiting for a roll
(kept with its table, so that any server process can complete it), the pages open by
side (so that a roll is not asked of a side nobody watches), and the table's choice of
who throws a roll whose side is away (the game master types it, or fracas rolls it) and
after how long.

Revision ID: 0009_roll_owners
Revises: 0008_ruleset_version
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_roll_owners"
down_revision = "0008_ruleset_version"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("fracas_tables") as batch:
        batch.add_column(
            sa.Column("roll_fallback", sa.String(10), nullable=False, server_default="gm")
        )
        batch.add_column(sa.Column("roll_wait", sa.Integer, nullable=False, server_default="60"))
    op.create_table(
        "fracas_pending",
        sa.Column(
            "table_id",
            sa.Integer,
            sa.ForeignKey("fracas_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("token", sa.String(40), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("asked", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "fracas_presence",
        sa.Column(
            "table_id",
            sa.Integer,
            sa.ForeignKey("fracas_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("side", sa.String(40), primary_key=True),
        sa.Column("holder", sa.String(40), primary_key=True),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("fracas_presence")
    op.drop_table("fracas_pending")
    with op.batch_alter_table("fracas_tables") as batch:
        batch.drop_column("roll_wait")
        batch.drop_column("roll_fallback")
