"""Alembic environment for the catalog.

refarch runs migrations itself (`catalog.migrate.ensure_schema`) and hands over a
connection inside its own transaction, so a failed upgrade rolls back as a whole.
For development (e.g. autogenerating a revision) without such a connection, the
URL comes from the `sqlalchemy.url` option, else `$REFARCH_DB` or the default file.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from catalog.engine import create_catalog_engine, default_url, parse_url
from catalog.orm import Base


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by rebuilding them
        compare_type=True,
        transactional_ddl=True,
        transaction_per_migration=False,  # all revisions in one transaction: all or nothing
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url") or default_url()
    engine = create_catalog_engine(parse_url(url), foreign_keys=False)
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit("the catalog migrations run online only")
run_migrations_online()
