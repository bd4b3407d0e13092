"""Alembic's environment for the store: migrations run on the connection the store hands
over (``config.attributes["connection"]``), never on a URL read from a file."""

from __future__ import annotations

from alembic import context

from fracas.table.store import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    compare_type=True,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
