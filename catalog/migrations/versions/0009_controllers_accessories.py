"""What a quotable BOM needs around a server: storage controllers / HBAs and accessories (rails, power cords,
installation services), each with the common part columns and its vendor part number.

Revision ID: refarch_0009
Revises: refarch_0008
Create Date: 2026-11-29

Existing catalogs get the two empty tables; `refarch catalog seed` (or the first start) brings the bundled rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "refarch_0009"
down_revision: str | None = "refarch_0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _part_columns() -> list[sa.Column[Any]]:
    return [
        sa.Column("id", sa.String(80), nullable=False),
        sa.Column("vendor", sa.String(200), nullable=False),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("part_number", sa.String(80), server_default="", nullable=False),
        sa.Column("price", sa.Numeric(14, 4, asdecimal=False), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("price_as_of", sa.Date(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("price_basis", sa.String(16), server_default="list", nullable=False),
        sa.Column("user_edited", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("version", sa.Integer(), server_default=sa.text("1"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "controllers", *_part_columns(),
        sa.Column("interfaces", sa.String(200), nullable=False),
        sa.Column("raid_levels", sa.String(200), server_default="", nullable=False),
        sa.Column("max_drives", sa.Integer(), nullable=False),
        sa.Column("applies_to", sa.String(200), nullable=False),
        sa.Column("watts", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_controllers"),
    )
    op.create_table(
        "accessories", *_part_columns(),
        sa.Column("use", sa.String(16), nullable=False),
        sa.Column("applies_to", sa.String(200), nullable=False),
        sa.Column("rack_u", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("amps", sa.Float(), server_default=sa.text("0"), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_accessories"),
    )


def downgrade() -> None:
    op.drop_table("accessories")
    op.drop_table("controllers")
