"""A version number on every part row, for optimistic concurrency.

Revision ID: refarch_0002
Revises: refarch_0001
Create Date: 2026-11-23

Every update and delete states the version it read (`UPDATE ... WHERE id = ? AND version = ?`), so two
people editing the same part cannot overwrite each other silently (`catalog.store`). Existing rows
start at version 1. SQLite adds a NOT NULL column with a default in place, so no table rebuild is needed.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "refarch_0002"
down_revision: str | None = "refarch_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PART_TABLES = ("cpus", "servers", "drives", "nics", "dimms")


def upgrade() -> None:
    for table in PART_TABLES:
        op.add_column(table, sa.Column("version", sa.Integer(), server_default=sa.text("1"), nullable=False))


def downgrade() -> None:
    for table in PART_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("version")
