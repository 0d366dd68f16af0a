"""The measured hosts' data drives: how many per host and which drive, as `refarch measure import --drives N
--drive ID` states them.

Revision ID: refarch_0011
Revises: refarch_0010
Create Date: 2026-11-29

Existing profiles get NULL (not said): their disk rates are compared with the first design's drives, and the
calibration section says so.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "refarch_0011"
down_revision: str | None = "refarch_0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("measurement_profiles") as batch:
        batch.add_column(sa.Column("data_drives", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("drive_id", sa.String(length=80), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("measurement_profiles") as batch:
        batch.drop_column("drive_id")
        batch.drop_column("data_drives")
