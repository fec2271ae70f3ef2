"""Gold judgements: what an adjudicator decided for an article two assessors disagreed on.

A third judgement set beside the assessors' own (`models.Judgement`), one row per topic and
article, with who decided, when, and how (`decision`: one side's judgement taken whole,
their union or intersection, or edited by hand). The assessors' judgements are never changed
by adjudication. Organisers adjudicate every topic; `TopicAdjudicator` gives one topic to
another user.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Integer, String, UniqueConstraint
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


class TopicAdjudicator(Base):
    """A user who may adjudicate one topic without being an organiser (never its assessor)."""

    __tablename__ = "topic_adjudicators"
    __table_args__ = (UniqueConstraint("topic_id", "user_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    topic_id: Mapped[str] = mapped_column(ForeignKey("topics.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
