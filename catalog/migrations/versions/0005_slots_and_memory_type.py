"""Parts that fit: a server's PCIe add-in slots and DRAM generation, a DIMM's generation.

Revision ID: refarch_0005
Revises: refarch_0004
Create Date: 2026-11-25

Existing rows get NULL (unknown), never a guess: an unknown slot count is not checked and an unknown
server generation takes any DIMM. Re-seeding fills the seed's own parts the user never edited.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "refarch_0005"
down_revision: str | None = "refarch_0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("servers") as batch:
        batch.add_column(sa.Column("pcie_slots", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("memory_type", sa.String(8), nullable=True))
    with op.batch_alter_table("dimms") as batch:
        batch.add_column(sa.Column("memory_type", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("dimms") as batch:
        batch.drop_column("memory_type")
    with op.batch_alter_table("servers") as batch:
        batch.drop_column("memory_type")
        batch.drop_column("pcie_slots")
