"""gold_history: a version on each gold judgement and every adjudication step kept

`gold_judgements.version` counts the changes of a gold judgement (1 for every existing row), so
that a decision taken on a page that showed an older gold is refused; `gold_events` keeps each
decision and hand edit with who, when, the gold before and after (docs/analytics.md,
"Adjudication"). Gold decided before this revision has no history: it begins here.

Revision ID: 0013_gold_history
Revises: 0012_done_without_passage
Create Date: 2026-11-28 13:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_gold_history"
down_revision: str | None = "0012_done_without_passage"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("gold_judgements", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), server_default="1", nullable=False))
    op.create_table(
        "gold_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("topic_id", sa.String(length=50), nullable=False),
        sa.Column("article", sa.String(length=200), nullable=False),
        sa.Column("op_id", sa.String(length=100), nullable=False),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("previous", sa.JSON(), nullable=True),
        sa.Column("gold", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("user_name", sa.String(length=100), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(
            "action IN ('a', 'b', 'union', 'intersection', 'highlight', 'unhighlight', 'bep')",
            name=op.f("ck_gold_events_action"),
        ),
        sa.ForeignKeyConstraint(
            ["article"], ["documents.id"], name=op.f("fk_gold_events_article_documents")
        ),
        sa.ForeignKeyConstraint(
            ["topic_id"],
            ["topics.id"],
            name=op.f("fk_gold_events_topic_id_topics"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_gold_events_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gold_events")),
        sa.UniqueConstraint(
            "topic_id", "article", "op_id", name=op.f("uq_gold_events_topic_id_article_op_id")
        ),
    )


def downgrade() -> None:
    op.drop_table("gold_events")
    with op.batch_alter_table("gold_judgements", schema=None) as batch_op:
        batch_op.drop_column("version")
