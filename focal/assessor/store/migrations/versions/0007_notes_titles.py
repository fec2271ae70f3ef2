"""article_notes (an assessor's flag and note per article) and documents.title

An assessor may flag an article as "unsure" and write a note about it; organisers read them
and export them with the qrels. The pool list shows each article's title, taken from its file
by `focal import collection` (NULL until then, and for articles without a title element).

Revision ID: 0007_notes_titles
Revises: 0006_display_profiles
Create Date: 2026-11-24 13:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_notes_titles"
down_revision: str | None = "0006_display_profiles"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "article_notes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("assignment_id", sa.Integer(), nullable=False),
        sa.Column("article", sa.String(length=200), nullable=False),
        sa.Column("flag", sa.Boolean(), nullable=False),
        sa.Column("note", sa.String(length=2000), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["assignment_id"],
            ["assignments.id"],
            name=op.f("fk_article_notes_assignment_id_assignments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_article_notes")),
        sa.UniqueConstraint(
            "assignment_id", "article", name=op.f("uq_article_notes_assignment_id_article")
        ),
    )
    # A nullable column is added in place on SQLite too (no table copy).
    with op.batch_alter_table("documents", schema=None) as batch_op:
        batch_op.add_column(sa.Column("title", sa.String(length=300), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("documents", schema=None) as batch_op:
        batch_op.drop_column("title")
    op.drop_table("article_notes")
