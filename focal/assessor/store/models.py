"""The assessor's database: typed SQLAlchemy 2 models.

`Mapped[X]` columns are NOT NULL, `Mapped[X | None]` nullable. Constraint names follow the
MetaData naming convention so that Alembic migrations name them the same on every backend.
Article and topic ids are the strings of the files (INEX article numbers, topic ids).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from focal.assessor.store.activity import NOTE_LENGTH as NOTE_LENGTH
from focal.assessor.store.activity import ArticleNote as ArticleNote
from focal.assessor.store.activity import ImportJob as ImportJob
from focal.assessor.store.activity import ViewEvent as ViewEvent
from focal.assessor.store.base import NAMING_CONVENTION as NAMING_CONVENTION
from focal.assessor.store.base import Base as Base
from focal.assessor.store.base import utcnow as utcnow
from focal.assessor.store.gold import GoldEvent as GoldEvent
from focal.assessor.store.gold import GoldJudgement as GoldJudgement
from focal.assessor.store.gold import TopicAdjudicator as TopicAdjudicator
from focal.assessor.store.settings import CampaignSettingsRow as CampaignSettingsRow
from focal.assessor.store.topic_results import TopicResult as TopicResult

ROLES = ("assessor", "organiser")
STATUSES = ("unjudged", "relevant", "nonrelevant")
TITLE_LENGTH = 300  # documents.title: longer titles are cut (with an ellipsis) on import


class Collection(Base):
    """A directory of XML files imported in one transaction."""

    __tablename__ = "collections"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    directory: Mapped[str] = mapped_column(Text)
    imported_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    # How the assessment screen presents its XML (focal/assessor/campaign/setup/profiles.py); NULL:
    # detected
    # from each document's root element.
    display_profile: Mapped[str | None] = mapped_column(String(50))
    documents: Mapped[list[Document]] = relationship(back_populates="collection")


class Document(Base):
    """An article: its text is re-read from `file` when needed and checked against the hash.

    An article known only by id and length (`focal import qrels` without its collection) has
    neither file nor hash (both NULL) until `focal import collection` supplies the file.
    """

    __tablename__ = "documents"
    id: Mapped[str] = mapped_column(String(200), primary_key=True)  # file stem
    collection_id: Mapped[int] = mapped_column(ForeignKey("collections.id", ondelete="CASCADE"))
    file: Mapped[str | None] = mapped_column(Text)  # absolute path; None: no text yet
    text_length: Mapped[int] = mapped_column(Integer)  # code points
    text_sha256: Mapped[str | None] = mapped_column(String(64))  # of the UTF-8 text
    title: Mapped[str | None] = mapped_column(String(TITLE_LENGTH))  # None: no title found
    collection: Mapped[Collection] = relationship(back_populates="documents")

    @property
    def has_text(self) -> bool:
        """False for an article known only by id and length."""
        return self.file is not None and self.text_sha256 is not None


class Topic(Base):
    __tablename__ = "topics"
    id: Mapped[str] = mapped_column(String(50), primary_key=True)
    ct_no: Mapped[str | None] = mapped_column(String(50))
    title: Mapped[str] = mapped_column(Text)
    castitle: Mapped[str] = mapped_column(Text, default="")
    phrasetitle: Mapped[str] = mapped_column(Text, default="")
    description: Mapped[str] = mapped_column(Text, default="")
    narrative: Mapped[str] = mapped_column(Text, default="")


class Run(Base):
    """A submitted run; all its results are stored (pooling needs the full rankings)."""

    __tablename__ = "runs"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)  # the run-id column
    file: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(20))  # fol | element | article
    imported_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class RunResult(Base):
    __tablename__ = "run_results"
    __table_args__ = (Index("ix_run_results_topic_article", "topic_id", "article"),)
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    topic_id: Mapped[str] = mapped_column(String(50))
    article: Mapped[str] = mapped_column(String(200))
    rank: Mapped[int] = mapped_column(Integer)  # 1-based order within the topic
    score: Mapped[float] = mapped_column(Float)
    start: Mapped[int | None] = mapped_column(Integer)  # FOL offset, code points
    length: Mapped[int | None] = mapped_column(Integer)
    path: Mapped[str | None] = mapped_column(Text)  # element results


class Pool(Base):
    """The articles of one topic to assess, in display order; rebuilding replaces it."""

    __tablename__ = "pools"
    id: Mapped[int] = mapped_column(primary_key=True)
    topic_id: Mapped[str] = mapped_column(ForeignKey("topics.id", ondelete="CASCADE"), unique=True)
    method: Mapped[str] = mapped_column(String(50))
    parameters: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    topic: Mapped[Topic] = relationship()
    entries: Mapped[list[PoolEntry]] = relationship(
        back_populates="pool", order_by="PoolEntry.position", cascade="all, delete-orphan"
    )


class PoolEntry(Base):
    __tablename__ = "pool_entries"
    __table_args__ = (
        UniqueConstraint("pool_id", "article"),
        UniqueConstraint("pool_id", "position"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    pool_id: Mapped[int] = mapped_column(ForeignKey("pools.id", ondelete="CASCADE"))
    article: Mapped[str] = mapped_column(ForeignKey("documents.id"))
    position: Mapped[int] = mapped_column(Integer)  # 0-based display order
    pool_rank: Mapped[int] = mapped_column(Integer)  # order in which pooling added it
    pool: Mapped[Pool] = relationship(back_populates="entries")


class User(Base):
    __tablename__ = "users"
    __table_args__ = (CheckConstraint("role IN ('assessor', 'organiser')", name="role"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    password_hash: Mapped[str | None] = mapped_column(String(300))  # None: token-only user
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    # Sessions carry the epoch they began in; raising it (log-out, password change, disabling)
    # ends every session begun before, on the server, whatever cookie a client still holds.
    session_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime)  # None: may log in

    @property
    def is_organiser(self) -> bool:
        return self.role == "organiser"


class ApiToken(Base):
    """A bearer token; only its SHA-256 is stored (tokens are long and random)."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime)  # None: never
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime)  # None: not revoked
    user: Mapped[User] = relationship()


class Assignment(Base):
    """A topic given to an assessor (a topic may have two assessors)."""

    __tablename__ = "assignments"
    __table_args__ = (UniqueConstraint("topic_id", "user_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    topic_id: Mapped[str] = mapped_column(ForeignKey("topics.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    topic: Mapped[Topic] = relationship()
    user: Mapped[User] = relationship()


class Judgement(Base):
    """One assessor's judgement of one article; `version` is bumped by every applied operation.

    `passages` is a sorted list of disjoint, non-touching `[start, end]` pairs (code points).
    The ORM checks `version` on UPDATE, so concurrent writers cannot lose each other's work.
    """

    __tablename__ = "judgements"
    __table_args__ = (
        UniqueConstraint("assignment_id", "article"),
        CheckConstraint("status IN ('unjudged', 'relevant', 'nonrelevant')", name="status"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignments.id", ondelete="CASCADE"))
    article: Mapped[str] = mapped_column(ForeignKey("documents.id"))
    status: Mapped[str] = mapped_column(String(20), default="unjudged")
    passages: Mapped[list[list[int]]] = mapped_column(default=list)
    bep: Mapped[int | None] = mapped_column(Integer)
    finished: Mapped[bool] = mapped_column(default=False)
    version: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    __mapper_args__ = {  # noqa: RUF012 (SQLAlchemy reads it once, at class creation)
        "version_id_col": version,
        "version_id_generator": False,
    }


class Keyword(Base):
    """A word or phrase the assessor wants highlighted in every article of the assignment."""

    __tablename__ = "keywords"
    __table_args__ = (UniqueConstraint("assignment_id", "text"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignments.id", ondelete="CASCADE"))
    text: Mapped[str] = mapped_column(String(200))


class Event(Base):
    """The append-only log of every action; operations are unique per assignment by `op_id`."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("assignment_id", "op_id"),)
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    assignment_id: Mapped[int | None] = mapped_column(
        ForeignKey("assignments.id", ondelete="SET NULL"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    article: Mapped[str | None] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(50))
    op_id: Mapped[str | None] = mapped_column(String(100))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    server_time: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    client_time: Mapped[datetime | None] = mapped_column(DateTime)


class TopicMode(Base):
    """How a topic is assessed: highlighting only (2006, default) or two-phase (2005)."""

    __tablename__ = "topic_modes"
    __table_args__ = (CheckConstraint("mode IN ('2006', '2005')", name="mode"),)
    topic_id: Mapped[str] = mapped_column(
        ForeignKey("topics.id", ondelete="CASCADE"), primary_key=True
    )
    mode: Mapped[str] = mapped_column(String(10), default="2006")
    too_small_below: Mapped[int | None] = mapped_column(Integer)  # automatic `?`; None: off


class ElementValueRow(Base):
    """One element's 2005 exhaustivity (or GAIN flag) in one assessor's judgement of an article.

    Element relevance on the 2006 scale is never stored: it is derived from the passages on
    demand (`focal.evaluation.relevance.derivation`); only the 2005 second phase's values are.
    """

    __tablename__ = "element_values"
    __table_args__ = (
        UniqueConstraint("assignment_id", "article", "path"),
        CheckConstraint("value IS NULL OR value IN ('2', '1', '0', '?')", name="value"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(
        ForeignKey("assignments.id", ondelete="CASCADE"), index=True
    )
    article: Mapped[str] = mapped_column(String(200))
    path: Mapped[str] = mapped_column(Text)
    value: Mapped[str | None] = mapped_column(String(1))
    source: Mapped[str | None] = mapped_column(String(20))
    flag: Mapped[str | None] = mapped_column(Text)
