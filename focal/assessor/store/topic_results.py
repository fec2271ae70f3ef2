"""Per-topic results of the agreement and adjudication pages, kept for every worker process.

What those pages derived from one double-judged topic is kept in the database, so that every
worker process, and every process after a restart, finds it.

A derived value, never a state of the campaign: one row per topic and kind (`agreement`: the
overview's row and α_U data; `queue`: the adjudication queue without its gold), holding the
key it was computed under (the format, Focal's version, the compared pair and the two
assignments' stamps, as `campaign.results.topic_cache` writes them) and the value as JSON text.
A row whose key differs from the page's is ignored and replaced; deleting a topic deletes its
rows; deleting every row loses nothing but time. docs/performance.md, "Assessors at once", says
why a page view (a GET) may write these rows.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from focal.assessor.store.base import Base


class TopicResult(Base):
    """One topic's value of one kind, with the key it was computed under (both JSON text)."""

    __tablename__ = "topic_results"
    topic_id: Mapped[str] = mapped_column(
        ForeignKey("topics.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    stamps: Mapped[str] = mapped_column(Text)
    value: Mapped[str] = mapped_column(Text)
