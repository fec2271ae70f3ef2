"""Every assessor's judgements in one file, and who judged which topic (the export page).

FOL qrels hold one line per topic and article, so a topic judged by two assessors cannot be
written as plain qrels without choosing one of them (`qrels_export`). This module writes all of
them instead, in FOL qrels with an assessor column: the second column, which FOL qrels fill
with the constant `Q0` (as TREC qrels fill their iteration column), carries the assessor's
name, so that each line reads

    topic assessor article rel_chars article_chars [bep start:length ...]

ordered by topic, then assessor, then article (natural order). Filtering the lines of one
assessor and putting `Q0` back gives exactly what `focal export-qrels --assessor NAME` writes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from focal.assessor.campaign.results.qrels_export import ExportError
from focal.assessor.campaign.results.report.data import judged_articles, qrels_by_assessor
from focal.assessor.store.models import Assignment, Judgement, Topic, User
from focal.evaluation.formats.fol.qrels import write_qrels
from focal.pooling.records import natural_key


def qrels_with_assessors_text(session: Session, topic: str | None = None) -> str:
    """Every assessor's judged articles as FOL qrels with the assessor in column two."""
    by_assessor = qrels_by_assessor(judged_articles(session, topic))
    for name in by_assessor:
        if not name or any(character.isspace() for character in name):
            raise ExportError(
                f"assessor {name!r} has whitespace in the name, which a column cannot hold; "
                "export that assessor's qrels on their own"
            )
    topics = sorted({t for qrels in by_assessor.values() for t in qrels}, key=natural_key)
    out = io.StringIO()
    for topic_id in topics:
        for name in sorted(by_assessor):
            articles = by_assessor[name].get(topic_id)
            if not articles:
                continue
            buffer = io.StringIO()
            write_qrels({topic_id: dict(sorted(articles.items(), key=_article_key))}, buffer)
            for line in buffer.getvalue().splitlines():
                head, _q0, rest = line.split(" ", 2)
                out.write(f"{head} {name} {rest}\n")
    return out.getvalue()


def _article_key(item: tuple[str, object]) -> tuple[object, ...]:
    return natural_key(item[0])


@dataclass(frozen=True, slots=True)
class TopicAssessors:
    """A topic of the export page: its assessors and how many articles each has judged."""

    topic: Topic
    judged: dict[str, int]  # assessor -> judged articles (0 for an assessor without any yet)

    @property
    def double(self) -> bool:
        return sum(1 for count in self.judged.values() if count > 0) > 1


def topic_assessors(session: Session) -> list[TopicAssessors]:
    """Every topic with its assessors and their judged counts, topics in natural order."""
    counts = {
        (topic_id, name): count
        for topic_id, name, count in session.execute(
            select(Assignment.topic_id, User.name, func.count(Judgement.id))
            .join(User, Assignment.user_id == User.id)
            .outerjoin(
                Judgement,
                (Judgement.assignment_id == Assignment.id) & (Judgement.status != "unjudged"),
            )
            .group_by(Assignment.topic_id, User.name)
        )
    }
    rows = []
    for topic in sorted(session.scalars(select(Topic)), key=lambda t: natural_key(t.id)):
        judged = {name: count for (t, name), count in sorted(counts.items()) if t == topic.id}
        rows.append(TopicAssessors(topic, judged))
    return rows
