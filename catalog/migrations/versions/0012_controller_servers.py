"""The servers a storage controller is made for: a vendor's front controller or boot module fits one platform's
servers (a Dell PERC H965i Front DC-MHS the 17th-generation R670 and R770), a standard PCIe adapter any server.

Revision ID: refarch_0012
Revises: refarch_0011
Create Date: 2026-11-29

Existing rows get "" (not known), never a guess: the sizing then takes the vendor's card and says its fit is not
stated. Re-seeding fills the seed's own controllers the user never edited.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "refarch_0012"
down_revision: str | None = "refarch_0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("controllers") as batch:
        batch.add_column(sa.Column("servers", sa.String(500), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("controllers") as batch:
        batch.drop_column("servers")
