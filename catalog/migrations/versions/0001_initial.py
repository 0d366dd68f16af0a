"""Initial catalog schema: one table per part kind, and catalog_meta.

Revision ID: refarch_0001
Revises:
Create Date: 2025-01-01

Revision ids carry the `refarch_` prefix so that a database migrated by another
Alembic application is recognised as "not a refarch catalog" rather than "too new".
Frozen: the schema of record is `catalog/orm.py`; later changes get new revisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "refarch_0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _part_columns() -> list[sa.Column[Any]]:
    return [
        sa.Column("id", sa.String(80), nullable=False),
        sa.Column("vendor", sa.String(200), nullable=False),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("price", sa.Numeric(14, 4, asdecimal=False), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("price_as_of", sa.Date(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("user_edited", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    ]


def _part_table(name: str, *columns: sa.Column[Any] | sa.Constraint) -> None:
    op.create_table(name, *_part_columns(), *columns, sa.PrimaryKeyConstraint("id", name=f"pk_{name}"))


def upgrade() -> None:
    _part_table(
        "cpus",
        sa.Column("cores", sa.Integer(), nullable=False),
        sa.Column("threads", sa.Integer(), nullable=False),
        sa.Column("base_ghz", sa.Float(), nullable=False),
        sa.Column("tdp_w", sa.Float(), nullable=False),
    )
    _part_table(
        "servers",
        sa.Column("form_factor", sa.String(200), nullable=False),
        sa.Column("rack_u", sa.Integer(), nullable=False),
        sa.Column("sockets", sa.Integer(), nullable=False),
        sa.Column("cpu_id", sa.String(80), nullable=False),
        sa.Column("numa_nodes_per_socket", sa.Integer(), nullable=False),
        sa.Column("memory_gib", sa.Integer(), nullable=False),
        sa.Column("dimm_slots", sa.Integer(), nullable=False),
        sa.Column("data_bays", sa.Integer(), nullable=False),
        sa.Column("data_bay_form_factor", sa.String(16), nullable=False),
        sa.Column("os_drives", sa.Integer(), nullable=False),
        sa.Column("psu_w", sa.Float(), nullable=False),
        sa.Column("idle_w", sa.Float(), nullable=False),
        sa.Column("max_w", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["cpu_id"], ["cpus.id"], name="fk_servers_cpu_id_cpus", ondelete="RESTRICT"),
    )
    op.create_index("ix_servers_cpu_id", "servers", ["cpu_id"])
    _part_table(
        "drives",
        sa.Column("interface", sa.String(16), nullable=False),
        sa.Column("form_factor", sa.String(16), nullable=False),
        sa.Column("capacity_tb", sa.Float(), nullable=False),
        sa.Column("seq_read_mb_s", sa.Float(), nullable=False),
        sa.Column("seq_write_mb_s", sa.Float(), nullable=False),
        sa.Column("random_read_iops", sa.Float(), nullable=False),
        sa.Column("random_write_iops", sa.Float(), nullable=False),
        sa.Column("watts", sa.Float(), nullable=False),
    )
    _part_table(
        "nics",
        sa.Column("ports", sa.Integer(), nullable=False),
        sa.Column("speed_gbps", sa.Float(), nullable=False),
        sa.Column("watts", sa.Float(), nullable=False),
    )
    _part_table(
        "dimms",
        sa.Column("size_gib", sa.Integer(), nullable=False),
        sa.Column("speed_mt_s", sa.Integer(), nullable=False),
    )
    op.create_table(
        "catalog_meta",
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("value", sa.String(500), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_catalog_meta"),
    )


def downgrade() -> None:
    for table in ("catalog_meta", "dimms", "nics", "drives", "servers", "cpus"):
        op.drop_table(table)
