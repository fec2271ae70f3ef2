"""Topic assessment modes and the 2005 two-phase element values (seed 003; spec section 4)

Revision ID: 0002_elements
Revises: 0001
Create Date: 2026-11-21 12:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_elements"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "topic_modes",
        sa.Column("topic_id", sa.String(length=50), nullable=False),
        sa.Column("mode", sa.String(length=10), nullable=False),
        sa.Column("too_small_below", sa.Integer(), nullable=True),
        sa.CheckConstraint("mode IN ('2006', '2005')", name=op.f("ck_topic_modes_mode")),
        sa.ForeignKeyConstraint(
            ["topic_id"],
            ["topics.id"],
            name=op.f("fk_topic_modes_topic_id_topics"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("topic_id", name=op.f("pk_topic_modes")),
    )
    op.create_table(
        "element_values",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("assignment_id", sa.Integer(), nullable=False),
        sa.Column("article", sa.String(length=200), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("value", sa.String(length=1), nullable=True),
        sa.Column("source", sa.String(length=20), nullable=True),
        sa.Column("flag", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "value IS NULL OR value IN ('2', '1', '0', '?')", name=op.f("ck_element_values_value")
        ),
        sa.ForeignKeyConstraint(
            ["assignment_id"],
            ["assignments.id"],
            name=op.f("fk_element_values_assignment_id_assignments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_element_values")),
        sa.UniqueConstraint(
            "assignment_id",
            "article",
            "path",
            name=op.f("uq_element_values_assignment_id_article_path"),
        ),
    )
    with op.batch_alter_table("element_values", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_element_values_assignment_id"), ["assignment_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("element_values", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_element_values_assignment_id"))
    op.drop_table("element_values")
    op.drop_table("topic_modes")
