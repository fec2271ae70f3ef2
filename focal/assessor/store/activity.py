"""Tables of what happens around the judgements: articles viewed, notes left, imports run.

They sit beside the judgements (focal/assessor/store/models.py re-exports them, so that the schema
is whole wherever the models are imported): view events time assessments (spec section 10), notes
and flags carry an assessor's doubts to the organiser, import jobs report an import's progress.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from focal.assessor.store.base import Base, utcnow

NOTE_LENGTH = 2000  # article_notes.note: longer notes are refused, never cut


class ViewEvent(Base):
    """An article shown to or left by its assessor on the assessment page (spec section 10).

    The page reports each with a random `event_id` (a retried report is stored once) and the
    browser's clock; with the operations of `Event`, they time each article's assessment.
    """

    __tablename__ = "view_events"
    __table_args__ = (
        UniqueConstraint("assignment_id", "event_id"),
        CheckConstraint("kind IN ('shown', 'left')", name="kind"),
    )
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    assignment_id: Mapped[int] = mapped_column(
        ForeignKey("assignments.id", ondelete="CASCADE"), index=True
    )
    article: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(10))
    event_id: Mapped[str] = mapped_column(String(100))
    server_time: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    client_time: Mapped[datetime | None] = mapped_column(DateTime)


class ArticleNote(Base):
    """An assessor's flag ("unsure") and free-text note about one article of an assignment.

    Only the assignment's assessor writes it; organisers read it (their flagged-articles page,
    the notes export). A row with neither flag nor note is deleted rather than kept empty.
    """

    __tablename__ = "article_notes"
    __table_args__ = (UniqueConstraint("assignment_id", "article"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignments.id", ondelete="CASCADE"))
    article: Mapped[str] = mapped_column(String(200))
    flag: Mapped[bool] = mapped_column(default=False)
    note: Mapped[str] = mapped_column(String(NOTE_LENGTH), default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


JOB_STATUSES = ("queued", "running", "done", "failed", "cancelled", "interrupted")


class ImportJob(Base):
    """An import the organiser's Import page runs on the task queue, and how far it got.

    The row is the only shared state: whichever server process answers the page's poll reads
    it (several gunicorn workers, a separate queue worker). `stage` says what the import is
    doing, `done` of `total` counts files read; `message` is the result or the importer's
    error. `request` is what to import (JSON, `campaign.setup.import_requests`), so that a job
    can run in another process and be retried; `worker` names the process running it
    (`host:pid`), so that a job whose process died is seen as `interrupted`; `upload` is the
    folder of uploaded files it owns, removed when the job ends without keeping them.
    """

    __tablename__ = "import_jobs"
    __table_args__ = (
        CheckConstraint(
            "status IN ('queued', 'running', 'done', 'failed', 'cancelled', 'interrupted')",
            name="status",
        ),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))  # collection | topics | runs
    status: Mapped[str] = mapped_column(String(12), default="queued")
    stage: Mapped[str] = mapped_column(Text, default="")
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int | None] = mapped_column(Integer)
    message: Mapped[str] = mapped_column(Text, default="")
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    started_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime)
    request: Mapped[str | None] = mapped_column(Text)
    upload: Mapped[str | None] = mapped_column(Text)
    task_id: Mapped[str | None] = mapped_column(String(64))
    worker: Mapped[str | None] = mapped_column(String(300))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    cancel_requested: Mapped[bool] = mapped_column(default=False)
