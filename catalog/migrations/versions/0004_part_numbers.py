"""Vendor part numbers: a `part_number` (SKU / manufacturer part number) on every part table.

Revision ID: refarch_0004
Revises: refarch_0003
Create Date: 2026-11-23

Procurement orders by the vendor's part number, not by refarch's id. Existing rows get ""
(unknown), never a guess; re-seeding fills the seed's own parts the user never edited.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "refarch_0004"
down_revision: str | None = "refarch_0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PART_TABLES = (
    "cpus", "servers", "drives", "nics", "dimms", "switches", "cables", "racks", "pdus", "licences", "supports",
)


def upgrade() -> None:
    for table in PART_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("part_number", sa.String(80), server_default="", nullable=False))


def downgrade() -> None:
    for table in reversed(PART_TABLES):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("part_number")
