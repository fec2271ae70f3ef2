"""Assignment queries and keywords (no Flask): what an assessor's pages and the API list."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.store.event_log import EventKind, log_event
from focal.assessor.store.models import (
    Assignment,
    Judgement,
    Keyword,
    Pool,
    PoolEntry,
    User,
)
from focal.assessor.store.upserts import insert_absent


@dataclass(frozen=True, slots=True)
class Progress:
    pool_size: int
    judged: int  # relevant or not relevant
    relevant: int
    finished: int

    def to_json(self) -> dict[str, int]:
        return {
            "pool_size": self.pool_size,
            "judged": self.judged,
            "relevant": self.relevant,
            "finished": self.finished,
        }


def assignments_for(session: Session, user: User) -> list[Assignment]:
    """An assessor's assignments; an organiser sees every assignment."""
    query = select(Assignment).order_by(Assignment.topic_id, Assignment.id)
    if not user.is_organiser:
        query = query.where(Assignment.user_id == user.id)
    return list(session.scalars(query))


def pool_articles(session: Session, topic_id: str) -> list[str]:
    """The pooled articles of a topic in display order (empty when no pool was built)."""
    return list(
        session.scalars(
            select(PoolEntry.article)
            .join(Pool)
            .where(Pool.topic_id == topic_id)
            .order_by(PoolEntry.position)
        )
    )


def judgements_by_article(session: Session, assignment: Assignment) -> dict[str, Judgement]:
    """Every judgement of the assignment, by article."""
    rows = session.scalars(select(Judgement).where(Judgement.assignment_id == assignment.id))
    return {row.article: row for row in rows}


def progress(session: Session, assignment: Assignment) -> Progress:
    """How far the assessor got in the pool of the assignment's topic."""
    return progresses(session, [assignment])[assignment.id]


def progresses(session: Session, rows: Sequence[Assignment]) -> dict[int, Progress]:
    """`progress` of each assignment, by id, in two statements whatever their number (the
    agreement and adjudication pages list every double-judged topic's: docs/performance.md,
    "Assessors at once")."""
    topics = {row.topic_id for row in rows}
    pool_sizes = dict(
        session.execute(
            select(Pool.topic_id, func.count())
            .select_from(PoolEntry)
            .join(Pool)
            .where(Pool.topic_id.in_(topics))
            .group_by(Pool.topic_id)
        ).all()
    )
    counts = {
        assignment_id: (int(judged), int(relevant), int(finished))
        for assignment_id, judged, relevant, finished in session.execute(
            select(
                Judgement.assignment_id,
                func.count(case((Judgement.status != "unjudged", 1))),
                func.count(case((Judgement.status == "relevant", 1))),
                func.count(case((Judgement.finished.is_(True), 1))),
            )
            .where(Judgement.assignment_id.in_([row.id for row in rows]))
            .group_by(Judgement.assignment_id)
        )
    }
    return {
        row.id: Progress(int(pool_sizes.get(row.topic_id, 0)), *counts.get(row.id, (0, 0, 0)))
        for row in rows
    }


def assignment_json(session: Session, assignment: Assignment) -> dict[str, Any]:
    """An assignment as the API lists it."""
    return {
        "id": assignment.id,
        "topic": assignment.topic_id,
        "title": assignment.topic.title,
        "assessor": assignment.user.name,
        "progress": progress(session, assignment).to_json(),
    }


def keywords(session: Session, assignment: Assignment) -> list[str]:
    """The assessor's keywords for this assignment, alphabetically."""
    return list(
        session.scalars(
            select(Keyword.text)
            .where(Keyword.assignment_id == assignment.id)
            .order_by(Keyword.text)
        )
    )


KEYWORD_LENGTH = 200  # the column's length


def add_keyword(session: Session, assignment: Assignment, text: str) -> list[str]:
    """Add a keyword (stripped; empty or duplicate ones are ignored), log it, and commit.

    A keyword longer than the column is refused (CampaignError), never cut: a cut keyword is
    not the one the assessor typed.
    """
    text = text.strip()
    if len(text) > KEYWORD_LENGTH:
        raise CampaignError(
            f"a keyword has at most {KEYWORD_LENGTH} characters (this one has {len(text)})"
        )
    row = {"assignment_id": assignment.id, "text": text}
    # Logged once, by whichever of two racing adds inserted it.
    if text and insert_absent(session, Keyword, row, ["assignment_id", "text"]):
        _log(session, assignment, EventKind.ADD_KEYWORD, text)
    session.commit()
    return keywords(session, assignment)


def remove_keyword(session: Session, assignment: Assignment, text: str) -> list[str]:
    """Remove a keyword (if present), log it, and commit."""
    row = session.scalars(
        select(Keyword).where(Keyword.assignment_id == assignment.id, Keyword.text == text)
    ).first()
    if row is not None:
        session.delete(row)
        _log(session, assignment, EventKind.REMOVE_KEYWORD, text)
    session.commit()
    return keywords(session, assignment)


def _log(session: Session, assignment: Assignment, kind: EventKind, text: str) -> None:
    log_event(
        session,
        kind,
        assignment_id=assignment.id,
        user_id=assignment.user_id,
        payload={"keyword": text},
    )
