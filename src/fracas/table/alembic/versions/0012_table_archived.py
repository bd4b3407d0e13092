"""When a table was archived: the game master puts a table away without deleting it
(its pages and links open nothing until it is restored); ``NULL`` for a table in play.

Revision ID: 0012_table_archived
Revises: 0011_player_odds
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_table_archived"
down_revision = "0011_player_odds"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("fracas_tables") as batch:
        batch.add_column(sa.Column("archived", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("fracas_tables") as batch:
        batch.drop_column("archived")
