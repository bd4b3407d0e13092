"""Whether a table's player pages show the odds of their own attacks: the game master
turns it on per table (off by default), kept in the store for every process.

Revision ID: 0011_player_odds
Revises: 0010_name_report
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_player_odds"
down_revision = "0010_name_report"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("fracas_tables") as batch:
        batch.add_column(sa.Column("player_odds", sa.Boolean(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("fracas_tables") as batch:
        batch.drop_column("player_odds")
