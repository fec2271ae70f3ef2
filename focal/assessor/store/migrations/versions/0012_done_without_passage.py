"""campaign_settings.done_without_passage: what "Done" does on an article with no passage

"ask" (the default): the article screen asks whether to mark the article not relevant;
"not_relevant": Done marks it not relevant at once (docs/assessing.md, "Done"). Existing rows
get the default.

Revision ID: 0012_done_without_passage
Revises: 0011_campaign_settings
Create Date: 2026-11-28 13:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_done_without_passage"
down_revision: str | None = "0011_campaign_settings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("campaign_settings") as batch:
        batch.add_column(
            sa.Column(
                "done_without_passage",
                sa.String(length=20),
                nullable=False,
                server_default="ask",
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("campaign_settings") as batch:
        batch.drop_column("done_without_passage")
