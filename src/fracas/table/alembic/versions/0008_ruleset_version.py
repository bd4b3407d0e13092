"""The version of the rules each table was made with, so that a table whose ruleset has
since changed its major version says so instead of replaying under other rules (tables
made before keep none, and open as before).

Revision ID: 0008_ruleset_version
Revises: 0007_gm_access
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_ruleset_version"
down_revision = "0007_gm_access"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("fracas_tables") as batch:
        batch.add_column(sa.Column("ruleset_version", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("fracas_tables") as batch:
        batch.drop_column("ruleset_version")
