"""Commercial catalog: price basis on every part, network/rack/power/software/support kinds, exchange rates.

Revision ID: refarch_0003
Revises: refarch_0002
Create Date: 2026-11-23

`price_basis` says whether a price is a list price, a quote or an estimate; existing rows
whose source says "estimate" become estimates, the rest list prices (as the file format
reads a row without the column).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "refarch_0003"
down_revision: str | None = "refarch_0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_TABLES = ("cpus", "servers", "drives", "nics", "dimms")
NEW_TABLES = ("switches", "cables", "racks", "pdus", "licences", "supports")


def _part_columns() -> list[sa.Column[Any]]:
    return [
        sa.Column("id", sa.String(80), nullable=False),
        sa.Column("vendor", sa.String(200), nullable=False),
        sa.Column("model", sa.String(200), nullable=False),
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


def _part_table(name: str, *columns: sa.Column[Any]) -> None:
    op.create_table(name, *_part_columns(), *columns, sa.PrimaryKeyConstraint("id", name=f"pk_{name}"))


def upgrade() -> None:
    for table in OLD_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("price_basis", sa.String(16), server_default="list", nullable=False))
        op.execute(
            sa.text(f"UPDATE {table} SET price_basis = 'estimate' WHERE lower(source) LIKE '%estimate%'")
        )
    _part_table(
        "switches",
        sa.Column("ports", sa.Integer(), nullable=False),
        sa.Column("speed_gbps", sa.Float(), nullable=False),
        sa.Column("uplink_ports", sa.Integer(), nullable=False),
        sa.Column("uplink_speed_gbps", sa.Float(), nullable=False),
        sa.Column("rack_u", sa.Integer(), nullable=False),
        sa.Column("watts", sa.Float(), nullable=False),
    )
    _part_table(
        "cables",
        sa.Column("medium", sa.String(16), nullable=False),
        sa.Column("speed_gbps", sa.Float(), nullable=False),
        sa.Column("reach_m", sa.Float(), nullable=False),
        sa.Column("watts", sa.Float(), nullable=False),
    )
    _part_table(
        "racks",
        sa.Column("rack_u", sa.Integer(), nullable=False),
        sa.Column("max_kw", sa.Float(), nullable=False),
    )
    _part_table(
        "pdus",
        sa.Column("outlets", sa.Integer(), nullable=False),
        sa.Column("max_kw", sa.Float(), nullable=False),
        sa.Column("rack_u", sa.Integer(), nullable=False),
    )
    _part_table(
        "licences",
        sa.Column("metric", sa.String(16), nullable=False),
        sa.Column("term", sa.String(16), nullable=False),
        sa.Column("applies_to", sa.String(16), nullable=False),
        sa.Column("min_cores_per_cpu", sa.Integer(), nullable=False),
        sa.Column("min_units", sa.Integer(), nullable=False),
    )
    _part_table(
        "supports",
        sa.Column("basis", sa.String(16), nullable=False),
        sa.Column("pct_of_hardware", sa.Float(), nullable=False),
        sa.Column("applies_to", sa.String(200), nullable=False),
    )
    op.create_table(
        "exchange_rates",
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("usd_per_unit", sa.Numeric(18, 8, asdecimal=False), nullable=False),
        sa.Column("as_of", sa.Date(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("user_edited", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.PrimaryKeyConstraint("currency", name="pk_exchange_rates"),
    )


def downgrade() -> None:
    op.drop_table("exchange_rates")
    for table in reversed(NEW_TABLES):
        op.drop_table(table)
    for table in OLD_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("price_basis")
