"""Dice mode per table: rolled by fracas, or typed in from physical dice, kept in the
store so that every server process and the terminal see the same.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("fracas_tables") as batch:
        batch.add_column(
            sa.Column("dice_mode", sa.String(10), nullable=False, server_default="rolled")
        )


def downgrade() -> None:
    with op.batch_alter_table("fracas_tables") as batch:
        batch.drop_column("dice_mode")
