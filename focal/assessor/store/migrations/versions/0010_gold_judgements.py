"""gold_judgements: adjudicated judgements of the articles two assessors disagreed on

Two tables of their own (docs/analytics.md, "Adjudication"), touching no other: the gold
judgements, and the users given a topic to adjudicate (`topic_adjudicators`).

Revision ID: 0010_gold_judgements
Revises: 0009_job_queue
Create Date: 2026-11-26 01:15:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_gold_judgements"
down_revision: str | None = "0009_job_queue"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "gold_judgements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("topic_id", sa.String(length=50), nullable=False),
        sa.Column("article", sa.String(length=200), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("passages", sa.JSON(), nullable=False),
        sa.Column("bep", sa.Integer(), nullable=True),
        sa.Column("decision", sa.String(length=20), nullable=False),
        sa.Column("assessor_a", sa.String(length=100), nullable=False),
        sa.Column("assessor_b", sa.String(length=100), nullable=False),
        sa.Column("decided_by", sa.Integer(), nullable=True),
        sa.Column("decided_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(
            "status IN ('relevant', 'nonrelevant')", name=op.f("ck_gold_judgements_status")
        ),
        sa.CheckConstraint(
            "decision IN ('a', 'b', 'union', 'intersection', 'edited')",
            name=op.f("ck_gold_judgements_decision"),
        ),
        sa.ForeignKeyConstraint(
            ["article"], ["documents.id"], name=op.f("fk_gold_judgements_article_documents")
        ),
        sa.ForeignKeyConstraint(
            ["decided_by"],
            ["users.id"],
            name=op.f("fk_gold_judgements_decided_by_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["topic_id"],
            ["topics.id"],
            name=op.f("fk_gold_judgements_topic_id_topics"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gold_judgements")),
        sa.UniqueConstraint(
            "topic_id", "article", name=op.f("uq_gold_judgements_topic_id_article")
        ),
    )

    op.create_table(
        "topic_adjudicators",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("topic_id", sa.String(length=50), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["topic_id"],
            ["topics.id"],
            name=op.f("fk_topic_adjudicators_topic_id_topics"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_topic_adjudicators_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_topic_adjudicators")),
        sa.UniqueConstraint(
            "topic_id", "user_id", name=op.f("uq_topic_adjudicators_topic_id_user_id")
        ),
    )
    op.create_index(
        op.f("ix_topic_adjudicators_user_id"), "topic_adjudicators", ["user_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_topic_adjudicators_user_id"), table_name="topic_adjudicators")
    op.drop_table("topic_adjudicators")
    op.drop_table("gold_judgements")
