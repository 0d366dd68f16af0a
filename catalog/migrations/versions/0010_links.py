"""Parts of the server's generation: a server's PCIe generation and drive controller line rate, a SAS/SATA drive's
line rate, a NIC's PCIe generation and lanes.

Revision ID: refarch_0010
Revises: refarch_0009
Create Date: 2026-11-29

Existing rows get NULL (unknown), never a guess: an unknown rate is not checked. Re-seeding fills the seed's own
parts the user never edited.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "refarch_0010"
down_revision: str | None = "refarch_0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("servers") as batch:
        batch.add_column(sa.Column("pcie_gen", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("drive_link_gbps", sa.Float(), nullable=True))
    with op.batch_alter_table("drives") as batch:
        batch.add_column(sa.Column("link_gbps", sa.Float(), nullable=True))
    with op.batch_alter_table("nics") as batch:
        batch.add_column(sa.Column("pcie_gen", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("pcie_lanes", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("nics") as batch:
        batch.drop_column("pcie_lanes")
        batch.drop_column("pcie_gen")
    with op.batch_alter_table("drives") as batch:
        batch.drop_column("link_gbps")
    with op.batch_alter_table("servers") as batch:
        batch.drop_column("drive_link_gbps")
        batch.drop_column("pcie_gen")
