"""import_jobs on the task queue: queued, cancelled and interrupted jobs, retries, uploads owned

An import job now waits on the task queue (huey) before a worker runs it, may be cancelled,
and is seen as interrupted when the process running it died; it can be retried from what it
keeps (`request`), and the folder of uploaded files it owns (`upload`) is removed when it ends
without keeping them.

Revision ID: 0009_job_queue
Revises: 0008_import_jobs
Create Date: 2026-11-26 00:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_job_queue"
down_revision: str | None = "0008_import_jobs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NEW = "status IN ('queued', 'running', 'done', 'failed', 'cancelled', 'interrupted')"
OLD = "status IN ('running', 'done', 'failed')"


def upgrade() -> None:
    with op.batch_alter_table("import_jobs") as batch:
        batch.drop_constraint("status", type_="check")
        batch.alter_column("status", existing_type=sa.String(length=10), type_=sa.String(length=12))
        batch.add_column(sa.Column("request", sa.Text(), nullable=True))
        batch.add_column(sa.Column("upload", sa.Text(), nullable=True))
        batch.add_column(sa.Column("task_id", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("worker", sa.String(length=300), nullable=True))
        batch.add_column(sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(
            sa.Column("cancel_requested", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.create_check_constraint("status", NEW)


def downgrade() -> None:
    op.execute(
        "UPDATE import_jobs SET status = 'failed' "
        "WHERE status IN ('queued', 'cancelled', 'interrupted')"
    )
    with op.batch_alter_table("import_jobs") as batch:
        batch.drop_constraint("status", type_="check")
        for column in ("cancel_requested", "attempts", "worker", "task_id", "upload", "request"):
            batch.drop_column(column)
        batch.alter_column("status", existing_type=sa.String(length=12), type_=sa.String(length=10))
        batch.create_check_constraint("status", OLD)
