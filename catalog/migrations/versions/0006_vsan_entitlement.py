"""vSphere editions record the raw vSAN capacity they include per licensed core (0: none).

Revision ID: refarch_0006
Revises: refarch_0005
Create Date: 2026-11-27

Existing rows get NULL (not recorded), never a guess: a design on vSAN then asks to confirm the edition's
entitlement. Re-seeding fills the seed's own licences the user never edited.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "refarch_0006"
down_revision: str | None = "refarch_0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("licences") as batch:
        batch.add_column(sa.Column("vsan_gib_per_core", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("licences") as batch:
        batch.drop_column("vsan_gib_per_core")
