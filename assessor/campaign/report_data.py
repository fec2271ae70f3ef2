"""What the assessment report reads from the database (no Flask): judgements and elements.

Every assessor's judgements count (a double-judged topic contributes each assessor's work);
`topic` and `assessor` narrow them. Element facts need each relevant article's text: articles
known only by id and length (qrels imported without the collection) are counted and left out
of the element tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from assessor.campaign.qrels_export import element_exports
from assessor.store import texts
from assessor.store.models import Assignment, Document, Judgement, User
from evaluation.formats.exports import ElementRecord
from evaluation.formats.records import Judgement as QrelsLine
from evaluation.relevance.analytics import elemental_passages


@dataclass(frozen=True, slots=True)
class Judged:
    """One assessor's judged article as a qrels line, with who judged it."""

    assignment: int
    assessor: str
    line: QrelsLine


def judged_articles(
    session: Session, topic: str | None = None, assessor: str | None = None
) -> list[Judged]:
    """Every judged (relevant or not) article of the chosen assignments."""
    query = (
        select(
            Assignment.id,
            Assignment.topic_id,
            User.name,
            Judgement.article,
            Judgement.status,
            Judgement.passages,
            Judgement.bep,
            Document.text_length,
        )
        .join(Assignment, Judgement.assignment_id == Assignment.id)
        .join(User, Assignment.user_id == User.id)
        .join(Document, Judgement.article == Document.id)
        .where(Judgement.status != "unjudged")
    )
    if topic is not None:
        query = query.where(Assignment.topic_id == topic)
    if assessor is not None:
        query = query.where(User.name == assessor)
    out = []
    for assignment, topic_id, name, article, status, stored, bep, length in session.execute(query):
        passages = tuple((start, end) for start, end in stored) if status == "relevant" else ()
        rel = sum(end - start for start, end in passages)
        relevant = rel > 0
        if relevant and bep is None:
            bep = passages[0][0]
        line = QrelsLine(topic_id, article, rel, length, bep if relevant else None, passages, 0)
        out.append(Judged(assignment, name, line))
    return out


@dataclass(slots=True)
class ElementFacts:
    """The element side of the relevant articles that have their text."""

    records: list[ElementRecord] = field(default_factory=list)
    elemental: dict[str, int] = field(default_factory=dict)  # topic -> elemental passages
    passages: dict[str, int] = field(default_factory=dict)  # topic -> passages looked at
    without_text: int = 0  # relevant articles whose text is not in the database


def element_facts(session: Session, judged: list[Judged]) -> ElementFacts:
    """Element records and elemental passages of every relevant judged article with text."""
    facts = ElementFacts()
    relevant = [item for item in judged if item.line.relevant]
    if not relevant:
        return facts
    wanted = {item.line.article for item in relevant}
    documents: Mapping[str, Document] = {
        row.id: row
        for row in session.scalars(select(Document).where(Document.file.is_not(None)))
        if row.id in wanted and row.has_text
    }
    by_assignment: dict[int, list[Judged]] = {}
    for item in relevant:
        if item.line.article not in documents:
            facts.without_text += 1
            continue
        by_assignment.setdefault(item.assignment, []).append(item)
    for items in by_assignment.values():
        topic, name = items[0].line.topic, items[0].assessor
        qrels = {topic: {item.line.article: item.line for item in items}}
        records, _scales = element_exports(session, qrels, topic, name, all_elements=False)
        for record in records:
            facts.records.extend(record.elements)
        for item in items:
            parsed = texts.load(documents[item.line.article])
            count = elemental_passages(item.line, parsed.elements)
            facts.elemental[topic] = facts.elemental.get(topic, 0) + count
            facts.passages[topic] = facts.passages.get(topic, 0) + len(item.line.passages)
    return facts
