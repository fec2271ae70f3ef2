"""accounts that can be ended: session epochs, disabled users, token expiry and revocation

`users.session_epoch` (0 for existing users) is compared with the epoch a session cookie
carries, so a log-out, a password change or disabling a user ends sessions on the server;
`users.disabled_at` refuses a user's log-in and tokens; `api_tokens.expires_at` and
`api_tokens.revoked_at` bound a token's life. Every new column is nullable or has a server
default, so a database of any earlier revision upgrades in place.

Revision ID: 0004_accounts
Revises: 0003_text_optional
Create Date: 2026-11-23 17:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_accounts"
down_revision: str | None = "0003_text_optional"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("session_epoch", sa.Integer(), server_default="0", nullable=False)
        )
        batch_op.add_column(sa.Column("disabled_at", sa.DateTime(), nullable=True))
    with op.batch_alter_table("api_tokens", schema=None) as batch_op:
        batch_op.add_column(sa.Column("expires_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("revoked_at", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("api_tokens", schema=None) as batch_op:
        batch_op.drop_column("revoked_at")
        batch_op.drop_column("expires_at")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("disabled_at")
        batch_op.drop_column("session_epoch")
