"""campaign_settings: the campaign's one row of settings

Whether highlights separated only by whitespace and punctuation merge (the ATOM rule as a person
reads it) and whether assessors see the runs' outline. A table of its own, touching no other;
no row means every default.

Revision ID: 0011_campaign_settings
Revises: 0010_gold_judgements
Create Date: 2026-11-26 00:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_campaign_settings"
down_revision: str | None = "0010_gold_judgements"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "campaign_settings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merge_across_punctuation", sa.Boolean(), nullable=False),
        sa.Column("runs_outline", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_campaign_settings")),
    )


def downgrade() -> None:
    op.drop_table("campaign_settings")
