"""Gold judgements: what an adjudicator decided for an article two assessors disagreed on.

A third judgement set beside the assessors' own (`models.Judgement`), one row per topic and
article, with who decided, when, and how (`decision`: one side's judgement taken whole,
their union or intersection, or edited by hand). The assessors' judgements are never changed
by adjudication. Organisers adjudicate every topic; `TopicAdjudicator` gives one topic to
another user.

Every decision and every hand edit is also a `GoldEvent`: who, what, when, the gold before and
after, and the version it made. The gold row's `version` counts its changes (0: no row), so a
decision taken on a page that showed an older version is refused rather than replacing newer
edits (`focal.assessor.judging.gold_edits`; docs/analytics.md, "Adjudication").
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from focal.assessor.store.base import Base, utcnow

DECISIONS = ("a", "b", "union", "intersection")
"""How a gold judgement is made of the two sides: a's or b's taken whole, or the two combined."""
EDITED = "edited"
"""The decision of a gold judgement edited by hand (highlighted, unhighlighted, its BEP moved)."""


class GoldJudgement(Base):
    """The adjudicated judgement of one article of one topic."""

    __tablename__ = "gold_judgements"
    __table_args__ = (
        UniqueConstraint("topic_id", "article"),
        CheckConstraint("status IN ('relevant', 'nonrelevant')", name="status"),
        CheckConstraint(
            "decision IN ('a', 'b', 'union', 'intersection', 'edited')", name="decision"
        ),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    topic_id: Mapped[str] = mapped_column(ForeignKey("topics.id", ondelete="CASCADE"))
    article: Mapped[str] = mapped_column(ForeignKey("documents.id"))
    status: Mapped[str] = mapped_column(String(20))
    passages: Mapped[list[list[int]]] = mapped_column(default=list)
    bep: Mapped[int | None] = mapped_column(Integer)
    decision: Mapped[str] = mapped_column(String(20))
    assessor_a: Mapped[str] = mapped_column(String(100))  # the two compared, by name
    assessor_b: Mapped[str] = mapped_column(String(100))
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    decided_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")


GOLD_EDITS = ("highlight", "unhighlight", "bep")
"""The hand edits of a gold judgement: add characters, take them out, move its BEP."""
ACTIONS = (*DECISIONS, *GOLD_EDITS)
"""What a `GoldEvent` records: a decision (`DECISIONS`) or a hand edit (`GOLD_EDITS`)."""


class GoldEvent(Base):
    """One step of an article's adjudication: a decision or a hand edit of its gold.

    `op_id` makes a step idempotent (sent twice, applied once); `previous` is the gold before
    (null for the first step) and `gold` after it, each `{status, passages, bep, decision}`;
    `user_name` keeps who acted when the account is later removed.
    """

    __tablename__ = "gold_events"
    __table_args__ = (
        UniqueConstraint("topic_id", "article", "op_id"),
        CheckConstraint(
            "action IN ('a', 'b', 'union', 'intersection', 'highlight', 'unhighlight', 'bep')",
            name="action",
        ),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    topic_id: Mapped[str] = mapped_column(ForeignKey("topics.id", ondelete="CASCADE"))
    article: Mapped[str] = mapped_column(ForeignKey("documents.id"))
    op_id: Mapped[str] = mapped_column(String(100))
    action: Mapped[str] = mapped_column(String(20))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    previous: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    gold: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    user_name: Mapped[str | None] = mapped_column(String(100))
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class TopicAdjudicator(Base):
    """A user who may adjudicate one topic without being an organiser (never its assessor)."""

    __tablename__ = "topic_adjudicators"
    __table_args__ = (UniqueConstraint("topic_id", "user_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    topic_id: Mapped[str] = mapped_column(ForeignKey("topics.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
