"""collections.display_profile: how the assessment screen presents a collection's XML

A display profile (focal/assessor/campaign/setup/profiles.py, docs/profiles.md) maps tags and
attributes to
a presentation; presentation only, the text and offsets stay those of spec section 1. The column
is nullable: existing collections keep NULL, which means "detect the profile from each
document's root element", so a database of any earlier revision upgrades in place.

Revision ID: 0006_display_profiles
Revises: 0005_view_events
Create Date: 2026-11-24 13:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_display_profiles"
down_revision: str | None = "0005_view_events"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("collections", schema=None) as batch_op:
        batch_op.add_column(sa.Column("display_profile", sa.String(length=50), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("collections", schema=None) as batch_op:
        batch_op.drop_column("display_profile")
