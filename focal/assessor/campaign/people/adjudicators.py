"""Who may adjudicate a topic: every organiser, and the users given that topic to adjudicate.

An adjudicator sees both assessors' judgements of the topic and decides its gold, so an
assessor of a topic is never its adjudicator (they would see the other assessor's work), and an
adjudicator of a topic is not given it to assess (`users.assign_topic` refuses).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people.users import find_user, is_adjudicator
from focal.assessor.store.gold import TopicAdjudicator
from focal.assessor.store.models import Assignment, Topic, User, utcnow
from focal.assessor.store.upserts import insert_absent


def add_adjudicator(session: Session, topic_id: str, name: str) -> None:
    """Let `name` adjudicate `topic_id` (idempotent; not committed)."""
    user = find_user(session, name)
    if session.get(Topic, topic_id) is None:
        raise LookupError(f"no topic {topic_id!r} (import topics first)")
    if user.role == "organiser":
        raise CampaignError(f"{name} is an organiser and adjudicates every topic already")
    assessing = session.scalars(
        select(Assignment.id).where(Assignment.topic_id == topic_id, Assignment.user_id == user.id)
    ).first()
    if assessing is not None:
        raise CampaignError(f"{name} assesses topic {topic_id}, so cannot adjudicate it")
    row = {"topic_id": topic_id, "user_id": user.id, "created_at": utcnow()}
    insert_absent(session, TopicAdjudicator, row, ["topic_id", "user_id"])  # once, if racing


def remove_adjudicator(session: Session, topic_id: str, name: str) -> None:
    """Take adjudicating `topic_id` away from `name` (LookupError when they had not it)."""
    user = find_user(session, name)
    row = session.scalars(
        select(TopicAdjudicator).where(
            TopicAdjudicator.topic_id == topic_id, TopicAdjudicator.user_id == user.id
        )
    ).first()
    if row is None:
        raise LookupError(f"{name} does not adjudicate topic {topic_id}")
    session.delete(row)
    session.flush()


def may_adjudicate(session: Session, user: User, topic_id: str) -> bool:
    """Whether `user` may see and decide the adjudication of `topic_id`."""
    return user.role == "organiser" or is_adjudicator(session, user.id, topic_id)


def adjudicated_topics(session: Session, user: User) -> set[str] | None:
    """The topics `user` adjudicates; None for an organiser (every topic)."""
    if user.role == "organiser":
        return None
    rows = session.scalars(
        select(TopicAdjudicator.topic_id).where(TopicAdjudicator.user_id == user.id)
    )
    return set(rows)
