"""topic_results: what the agreement and adjudication pages derived from each topic, kept

One row per topic and kind (`agreement`, `queue`) with the key it was computed under and the
value, both JSON text, so that every worker process and every restart finds what another
computed (docs/performance.md, "Assessors at once"). Nothing to fill: the pages write the rows.

Revision ID: 0014_topic_results
Revises: 0013_gold_history
Create Date: 2026-11-28 19:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_topic_results"
down_revision: str | None = "0013_gold_history"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "topic_results",
        sa.Column("topic_id", sa.String(length=50), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("stamps", sa.Text(), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["topic_id"],
            ["topics.id"],
            name=op.f("fk_topic_results_topic_id_topics"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("topic_id", "kind", name=op.f("pk_topic_results")),
    )


def downgrade() -> None:
    op.drop_table("topic_results")
