"""Who assesses what: the topics, the people and the assignments the organiser's pages list
(no Flask).

The organiser's pages (topics, assignments, progress, export, report, agreement, accounts)
read these lists; taking a topic away from an assessor is refused once they have judged any of
its articles, so that no judged work disappears from the web interface (the command line's
`focal assign --remove` deletes it on purpose).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people.assignments import Progress, progress
from focal.assessor.store.models import (
    Assignment,
    Document,
    Judgement,
    Pool,
    PoolEntry,
    Topic,
    User,
)
from focal.pooling.records import natural_key


def topics(session: Session) -> list[Topic]:
    """Every topic, by id (as text)."""
    return list(session.scalars(select(Topic).order_by(Topic.id)))


def topic_ids(session: Session) -> list[str]:
    """Every topic id, as text in order."""
    return list(session.scalars(select(Topic.id).order_by(Topic.id)))


def topics_in_natural_order(session: Session) -> list[Topic]:
    """Every topic, numbers in numeric order (`focal.pooling.records.natural_key`: 2 before 10)."""
    return sorted(session.scalars(select(Topic)), key=lambda topic: natural_key(topic.id))


def topic_ids_in_natural_order(session: Session) -> list[str]:
    """Every topic id, numbers in numeric order."""
    return sorted(session.scalars(select(Topic.id)), key=natural_key)


def topic(session: Session, topic_id: str) -> Topic | None:
    """The topic, None when there is none of this id."""
    return session.get(Topic, topic_id)


def has_topic(session: Session, topic_id: str) -> bool:
    """Whether the topic exists."""
    return topic(session, topic_id) is not None


def document_row(session: Session, article: str) -> Document | None:
    """The article's row, None when the collection has no such article."""
    return session.get(Document, article)


def users(session: Session) -> list[User]:
    """Every account (assessors and organisers), by name."""
    return list(session.scalars(select(User).order_by(User.name)))


def user(session: Session, user_id: int) -> User | None:
    """The account of this id, None when there is none."""
    return session.get(User, user_id)


def has_user(session: Session, name: str) -> bool:
    """Whether an account has this name."""
    return session.scalar(select(User.id).where(User.name == name)) is not None


def assessors(session: Session) -> list[User]:
    """The assessors' accounts, by name."""
    return list(session.scalars(select(User).where(User.role == "assessor").order_by(User.name)))


def assessor_names(session: Session) -> list[str]:
    """The assessors' names, in order."""
    return [user.name for user in assessors(session)]


@dataclass(frozen=True, slots=True)
class TopicRow:
    """A topic with the size of its pool and its assessors' names."""

    topic: Topic
    pool_size: int
    assessors: list[str]


def topic_rows(session: Session) -> list[TopicRow]:
    """Every topic with its pool size (0 before a pool is built) and assessors, by id."""
    sizes = dict(
        session.execute(
            select(Pool.topic_id, func.count(PoolEntry.id)).join(PoolEntry).group_by(Pool.topic_id)
        ).all()
    )
    names: dict[str, list[str]] = {}
    for topic_id, name in session.execute(
        select(Assignment.topic_id, User.name).join(User).order_by(User.name)
    ):
        names.setdefault(topic_id, []).append(name)
    return [TopicRow(t, int(sizes.get(t.id, 0)), names.get(t.id, [])) for t in topics(session)]


def assignments_progress(session: Session) -> list[tuple[Assignment, Progress]]:
    """Every assignment (by topic, then creation) with how far its assessor got."""
    rows = session.scalars(select(Assignment).order_by(Assignment.topic_id, Assignment.id))
    return [(assignment, progress(session, assignment)) for assignment in rows]


class JudgedAssignment(CampaignError):
    """An assignment with judged articles: the web interface does not delete judged work."""

    def __init__(self, assessor: str, topic: str, judged: int) -> None:
        super().__init__(
            f"{assessor} has judged {judged} article(s) of topic {topic}; export them, then "
            "remove the assignment with `focal assign --remove`."
        )
        self.assessor, self.topic, self.judged = assessor, topic, judged


def remove_unjudged_assignment(session: Session, assignment_id: int) -> tuple[str, str]:
    """Delete an assignment none of whose articles is judged yet; the caller commits.

    Returns (topic id, assessor name). LookupError when there is no such assignment,
    JudgedAssignment when an article of it is judged (relevant or not).
    """
    assignment = session.get(Assignment, assignment_id)
    if assignment is None:
        raise LookupError(f"no assignment {assignment_id}")
    judged = session.scalar(
        select(func.count(Judgement.id)).where(
            Judgement.assignment_id == assignment.id, Judgement.status != "unjudged"
        )
    )
    topic, name = assignment.topic_id, assignment.user.name
    if judged:
        raise JudgedAssignment(name, topic, int(judged))
    session.delete(assignment)
    return topic, name
