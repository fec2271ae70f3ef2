"""articles known only by id and length: documents.file and text_sha256 may be NULL

`focal import qrels` without the collection used to store such articles with `file = ""` and
`text_sha256 = ""`; those placeholders become NULL (and back on downgrade).

Revision ID: 0003_text_optional
Revises: 0002_elements
Create Date: 2026-11-22 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_text_optional"
down_revision: str | None = "0002_elements"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # On SQLite this re-creates `documents`, which other tables refer to:
    # `focal.assessor.store.migrate` switches foreign-key enforcement off around the migration (and
    # checks them afterwards).
    with op.batch_alter_table("documents", schema=None) as batch_op:
        batch_op.alter_column("file", existing_type=sa.Text(), nullable=True)
        batch_op.alter_column("text_sha256", existing_type=sa.String(length=64), nullable=True)
    op.execute("UPDATE documents SET file = NULL, text_sha256 = NULL WHERE file = ''")


def downgrade() -> None:
    op.execute(
        "UPDATE documents SET file = COALESCE(file, ''), "
        "text_sha256 = COALESCE(text_sha256, '') WHERE file IS NULL OR text_sha256 IS NULL"
    )
    with op.batch_alter_table("documents", schema=None) as batch_op:
        batch_op.alter_column("text_sha256", existing_type=sa.String(length=64), nullable=False)
        batch_op.alter_column("file", existing_type=sa.Text(), nullable=False)
