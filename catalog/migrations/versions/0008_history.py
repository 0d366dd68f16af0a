"""The catalog's history: every write (edit, import, quote, rate, revert) as a change set with who, when and the
source file, and each row it changed with its fields before and after.

Revision ID: refarch_0008
Revises: refarch_0007
Create Date: 2026-11-29

Existing catalogs start with an empty history: what happened before the upgrade was never recorded.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "refarch_0008"
down_revision: str | None = "refarch_0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "change_sets",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("who", sa.String(200), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("source", sa.Text(), nullable=True),
        sa.Column("reverts", sa.Integer(), nullable=True),
        sa.Column("reverted_by", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_change_sets")),
    )
    op.create_index(op.f("ix_change_sets_at"), "change_sets", ["at"])
    op.create_table(
        "row_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("change_set_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("row_id", sa.String(80), nullable=False),
        sa.Column("before", sa.Text(), nullable=True),
        sa.Column("after", sa.Text(), nullable=True),
        sa.Column("version_after", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["change_set_id"], ["change_sets.id"], ondelete="CASCADE",
                                name=op.f("fk_row_changes_change_set_id_change_sets")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_row_changes")),
    )
    op.create_index(op.f("ix_row_changes_change_set_id"), "row_changes", ["change_set_id"])
    op.create_index(op.f("ix_row_changes_row_id"), "row_changes", ["row_id"])


def downgrade() -> None:
    op.drop_table("row_changes")
    op.drop_table("change_sets")
