"""The GM's access: what the server keeps between starts (the GM token's hash) and the
GM's sessions (each id kept as a hash, with its CSRF token).

Revision ID: 0007_gm_access
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_gm_access"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fracas_server",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(400), nullable=False),
        sa.Column("changed", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "fracas_gm_sessions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("id_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("fracas_gm_sessions")
    op.drop_table("fracas_server")
