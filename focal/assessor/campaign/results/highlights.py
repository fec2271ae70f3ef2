"""Each assessor's judgement of an article as the side-by-side pages show it (no Flask): one
article of a topic (`article_highlights`), or every article of many topics' compared pairs at
once (`pair_highlights`, what the adjudication queues are built from).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import Text, cast, select
from sqlalchemy.orm import Session

from focal.assessor.campaign.results.topic_cache import Pair
from focal.assessor.store.models import Assignment, Judgement, User


@dataclass(frozen=True, slots=True)
class Highlights:
    """One assessor's judgement of one article, for the side-by-side view."""

    assessor: str
    status: str  # unjudged | relevant | nonrelevant
    passages: list[tuple[int, int]]
    bep: int | None


def article_highlights(session: Session, topic: str, article: str) -> list[Highlights]:
    """Every assessor of `topic` with their judgement of `article` (by assessor name)."""
    rows = session.execute(
        select(User.name, Judgement)
        .select_from(Assignment)
        .join(User, Assignment.user_id == User.id)
        .outerjoin(
            Judgement,
            (Judgement.assignment_id == Assignment.id) & (Judgement.article == article),
        )
        .where(Assignment.topic_id == topic)
        .order_by(User.name)
    )
    out = []
    for name, judgement in rows:
        if judgement is None:
            out.append(Highlights(name, "unjudged", [], None))
        else:
            out.append(_highlights(name, judgement.status, judgement.passages, judgement.bep))
    return out


def _highlights(name: str, status: str, passages: list[list[int]], bep: int | None) -> Highlights:
    return Highlights(name, status, [(start, end) for start, end in passages], bep)


_Row = tuple[str, str, int | None]
"""A judgement row as read: status, passages as the stored JSON text, BEP."""


def pair_highlights(
    session: Session, pairs: Mapping[str, Pair], identical: bool = True
) -> dict[str, dict[str, tuple[Highlights, Highlights]]]:
    """`article_highlights` of the two compared assessors of each topic of `pairs`, for every
    article either has a judgement row of, by topic and article: one statement for them all
    (one per article took seconds for a topic of 757 articles at INEX 2010 size, and one per
    topic a second for 52 topics: docs/performance.md, "Assessors at once").

    Without `identical`, the articles whose two rows hold the same status, passages and BEP are
    left out (no disagreement: the adjudication queues), and never decoded: most articles of a
    campaign, and most of the time of building them.
    """
    sides = {
        assignment: (topic, side)
        for topic, pair in pairs.items()
        for side, assignment in enumerate(pair.assignments)
    }
    if not sides:
        return {}
    rows = session.execute(
        select(
            Judgement.assignment_id,
            Judgement.article,
            Judgement.status,
            cast(Judgement.passages, Text),  # decoded below: faster than the driver's JSON
            Judgement.bep,
        ).where(Judgement.assignment_id.in_(sorted(sides)))
    )
    judged: dict[str, dict[str, list[_Row | None]]] = {topic: {} for topic in pairs}
    for assignment, article, status, stored, bep in rows:
        topic, side = sides[assignment]
        judged[topic].setdefault(article, [None, None])[side] = (status, stored, bep)
    out: dict[str, dict[str, tuple[Highlights, Highlights]]] = {}
    for topic, by_article in judged.items():
        name_a, name_b = pairs[topic].names
        out[topic] = {
            article: (_side(name_a, row_a), _side(name_b, row_b))
            for article, (row_a, row_b) in by_article.items()
            if identical or row_a != row_b
        }
    return out


def _side(name: str, row: _Row | None) -> Highlights:
    if row is None:
        return Highlights(name, "unjudged", [], None)
    status, stored, bep = row
    # cast to text: every database hands the JSON as text, and most judgements have none
    passages = [] if stored == "[]" else json.loads(stored)
    return _highlights(name, status, passages, bep)
