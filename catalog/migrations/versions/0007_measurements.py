"""Measurement profiles: gpcheckperf, pgbench and HammerDB output imported under a name, with provenance.

Revision ID: refarch_0007
Revises: refarch_0006
Create Date: 2026-11-29

Two new tables; nothing existing changes. Each file keeps the tool's text as written, so a later refarch reads
it again with its own parser.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "refarch_0007"
down_revision: str | None = "refarch_0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "measurement_profiles",
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("server_id", sa.String(length=80), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_measurement_profiles")),
    )
    op.create_table(
        "measurement_files",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("profile", sa.String(length=80), nullable=False),
        sa.Column("file_name", sa.String(length=255), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("measured_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("hosts", sa.Text(), server_default="", nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["profile"], ["measurement_profiles.name"],
                                name=op.f("fk_measurement_files_profile_measurement_profiles"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_measurement_files")),
    )
    op.create_index(op.f("ix_measurement_files_profile"), "measurement_files", ["profile"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_measurement_files_profile"), table_name="measurement_files")
    op.drop_table("measurement_files")
    op.drop_table("measurement_profiles")
