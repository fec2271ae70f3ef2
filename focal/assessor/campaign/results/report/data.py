"""What the assessment report reads from the database (no Flask): judgements and elements.

Every assessor's judgements count (a double-judged topic contributes each assessor's work);
`topic` and `assessor` narrow them. Element facts need each relevant article's text: articles
known only by id and length (qrels imported without the collection) are counted and left out
of the element tables.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy import Row, Text, cast, select
from sqlalchemy.orm import Session

from focal.assessor.campaign.results.qrels_export import element_exports
from focal.assessor.store import texts
from focal.assessor.store.models import Base, Document
from focal.evaluation.formats import records
from focal.evaluation.formats.elements.qrels import DerivedElement
from focal.evaluation.formats.records import Qrels
from focal.evaluation.relevance.analytics import elemental_passages


@dataclass(frozen=True, slots=True)
class Judged:
    """One assessor's judged article as a qrels line, with who judged it."""

    assignment: int
    assessor: str
    line: records.Judgement


def judged_articles(
    session: Session,
    topic: str | None = None,
    assessor: str | None = None,
    assignments: Collection[int] | None = None,
) -> list[Judged]:
    """Every judged (relevant or not) article of the chosen assignments: of `topic`, of
    `assessor`, of the `assignments` given by id (every one when none is chosen).

    Read with Core over the tables, passages as their stored JSON text, decoded for relevant
    articles only: at INEX 2010 size (39,031 judgements) the ORM's per-row JSON handling alone
    took over a second, and the driver's decoding of every row's JSON half a second. The
    relevant rows' passages are decoded in one call, as one JSON array of their arrays: the
    same values as a call a row, without the per-call overhead that was most of the decoding.
    """
    rows = _judged_rows(session, topic, assessor, assignments)
    # cast to text: every database hands the JSON as text; a relevant row's non-empty passages
    highlighted = [row[5] for row in rows if row[4] == "relevant" and row[5] and row[5] != "[]"]
    decoded = iter(json.loads("[" + ",".join(highlighted) + "]"))
    out = []
    for assignment, topic_id, name, article, status, stored, bep, length in rows:
        if status != "relevant" or not stored or stored == "[]":  # not among `highlighted`
            line = records.Judgement(topic_id, article, 0, length, None, (), 0)
        else:
            pairs = next(decoded)
            if len(pairs) == 1:  # most relevant articles: one passage
                ((start, end),) = pairs
                passages: tuple[records.Span, ...] = ((start, end),)
                rel = end - start
            else:
                passages = tuple((start, end) for start, end in pairs)
                rel = sum(end - start for start, end in passages)
            if rel and bep is None:
                bep = passages[0][0]
            line = records.Judgement(
                topic_id, article, rel, length, bep if rel else None, passages, 0
            )
        out.append(Judged(assignment, name, line))
    return out


def _judged_rows(
    session: Session,
    topic: str | None,
    assessor: str | None,
    assignments: Collection[int] | None,
) -> Sequence[Row[int, str, str, str, str, str, int | None, int]]:
    """The judged rows of the chosen assignments: assignment id, topic, assessor, article,
    status, passages (as text), best entry point, article length."""
    judgements = Base.metadata.tables["judgements"]
    assignment_rows = Base.metadata.tables["assignments"]
    users = Base.metadata.tables["users"]
    documents = Base.metadata.tables["documents"]
    query = (
        select(
            assignment_rows.c.id,
            assignment_rows.c.topic_id,
            users.c.name,
            judgements.c.article,
            judgements.c.status,
            cast(judgements.c.passages, Text),
            judgements.c.bep,
            documents.c.text_length,
        )
        .select_from(judgements)
        .join(assignment_rows, judgements.c.assignment_id == assignment_rows.c.id)
        .join(users, assignment_rows.c.user_id == users.c.id)
        .join(documents, judgements.c.article == documents.c.id)
        .where(judgements.c.status != "unjudged")
    )
    if topic is not None:
        query = query.where(assignment_rows.c.topic_id == topic)
    if assessor is not None:
        query = query.where(users.c.name == assessor)
    if assignments is not None:
        query = query.where(assignment_rows.c.id.in_(sorted(assignments)))
    return session.execute(query).all()


def qrels_by_assessor(judged: list[Judged]) -> dict[str, Qrels]:
    """assessor -> their judged articles as qrels (topic -> article -> line)."""
    out: dict[str, Qrels] = {}
    for item in judged:
        out.setdefault(item.assessor, {}).setdefault(item.line.topic, {})[item.line.article] = (
            item.line
        )
    return out


@dataclass(slots=True)
class ElementFacts:
    """The element side of the relevant articles that have their text."""

    records: list[DerivedElement] = field(default_factory=list)
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
