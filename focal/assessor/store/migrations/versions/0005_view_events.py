"""view_events: when the assessment page showed an article and when its assessor left it

The assessment analytics (spec section 10; seed 003 §5.1, Table III) time each article from
its first display to its last operation. A table of its own, touching no other.

Revision ID: 0005_view_events
Revises: 0004_accounts
Create Date: 2026-11-23 17:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_view_events"
down_revision: str | None = "0004_accounts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "view_events",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("assignment_id", sa.Integer(), nullable=False),
        sa.Column("article", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("event_id", sa.String(length=100), nullable=False),
        sa.Column("server_time", sa.DateTime(), nullable=False),
        sa.Column("client_time", sa.DateTime(), nullable=True),
        sa.CheckConstraint("kind IN ('shown', 'left')", name=op.f("ck_view_events_kind")),
        sa.ForeignKeyConstraint(
            ["assignment_id"],
            ["assignments.id"],
            name=op.f("fk_view_events_assignment_id_assignments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_view_events")),
        sa.UniqueConstraint(
            "assignment_id", "event_id", name=op.f("uq_view_events_assignment_id_event_id")
        ),
    )
    with op.batch_alter_table("view_events", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_view_events_assignment_id"), ["assignment_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("view_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_view_events_assignment_id"))
    op.drop_table("view_events")
