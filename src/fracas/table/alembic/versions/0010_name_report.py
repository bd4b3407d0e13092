"""Names that :mod:`fracas.names` refuses today (two scripts, not in NFKC form, looking
like another), reported to the log as the store is upgraded; nothing is renamed.

Revision ID: 0010_name_report
Revises: 0009_roll_owners
"""

from __future__ import annotations

import logging

from alembic import op

from fracas.table.namecheck import report

revision = "0010_name_report"
down_revision = "0009_roll_owners"
branch_labels = None
depends_on = None

log = logging.getLogger("fracas.store")


def upgrade() -> None:
    found = report(op.get_bind())
    for line in found:
        log.warning("name to rename by hand: %s", line)
    if found:
        log.warning("%d stored names would be refused today; none was renamed", len(found))


def downgrade() -> None:
    pass  # the report changed nothing
