"""Judgements as qrels, and the element records of judged articles: what every export reads
(`exporting` writes them in the format asked for, for `focal export-qrels` and the Export page).

Every judged article is exported (spec section 2): relevant ones with their best entry point and
passages, not relevant ones as `topic Q0 article 0 length`; a relevant judgement without a BEP
gets the suggested one (the start of its first passage); unjudged articles are left out. A topic
judged by two assessors needs a choice (one qrels line per topic and article): `assessor=` for
every topic, or `choices` topic by topic; otherwise `SeveralAssessors` says which topic and who.
Every assessor's judgements at once, with an assessor column, are `qrels_assessors`' format.

The writers are the pure ones of `focal.evaluation.formats.exports`. Element relevance (spec section
4) is derived from the stored passages with each document's element table; on a topic assessed in
the 2005 mode the exhaustivity is the assessor's stored two-phase value
(`focal.assessor.judging.elements`), with the topic's automatic too-small threshold applied the same
way the screen applies it.
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Collection, Mapping

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.judging.elements import load_values, topic_mode
from focal.assessor.store import texts
from focal.assessor.store.models import Assignment, Document, Judgement, User
from focal.evaluation.formats import exports, records
from focal.evaluation.formats.fol.qrels import write_qrels
from focal.evaluation.formats.records import Qrels
from focal.evaluation.relevance.element_export import article_elements
from focal.evaluation.relevance.twophase import start_two_phase
from focal.evaluation.text.document import Document as ParsedDocument
from focal.pooling.records import natural_key


class ExportError(CampaignError):
    """An export that cannot be written as asked (e.g. an unknown assessor)."""


class SeveralAssessors(ExportError):
    """A topic judged by more than one assessor, with no choice made for it.

    The message names the CLI's options; a web page words its own from `topic` and `names`.
    """

    def __init__(self, topic: str, names: list[str]) -> None:
        self.topic = topic
        self.names = names
        super().__init__(
            f"topic {topic} was judged by {', '.join(names)}: choose one with --assessor NAME "
            f"or --choose {topic}=NAME, or write every assessor's judgements with --with-assessors"
        )


def check_assessors(
    session: Session, assessor: str | None, choices: Mapping[str, str] | None = None
) -> None:
    """ExportError naming an assessor that is no assessor, or a choice for a topic it lacks."""
    known = set(session.scalars(select(User.name).where(User.role == "assessor")))
    for name in [assessor] if assessor is not None else []:
        if name not in known:
            raise ExportError(
                f"no assessor {name!r} (assessors: {', '.join(sorted(known)) or 'none'})"
            )
    for topic_id, name in (choices or {}).items():
        assigned = sorted(
            session.scalars(
                select(User.name).join(Assignment).where(Assignment.topic_id == topic_id)
            )
        )
        if name not in assigned:
            raise ExportError(
                f"no assessor {name!r} for topic {topic_id} "
                f"(its assessors: {', '.join(assigned) or 'none'})"
            )


def collect_qrels(
    session: Session,
    topic: str | None = None,
    assessor: str | None = None,
    choices: Mapping[str, str] | None = None,
) -> Qrels:
    """The judged articles as qrels, topics and articles in natural order.

    `choices` (topic -> assessor) picks the assessor of those topics, `assessor` that of every
    other topic; ExportError names an unknown assessor instead of writing nothing.
    """
    check_assessors(session, assessor, choices)
    chosen = dict(choices or {})
    query = (
        select(Judgement, Assignment.topic_id, User.name, Document.text_length)
        .join(Assignment, Judgement.assignment_id == Assignment.id)
        .join(User, Assignment.user_id == User.id)
        .join(Document, Judgement.article == Document.id)
        .where(Judgement.status != "unjudged")
    )
    if topic is not None:
        query = query.where(Assignment.topic_id == topic)
    lines: dict[str, dict[str, records.Judgement]] = defaultdict(dict)
    assessors: dict[str, set[str]] = defaultdict(set)
    for judgement, topic_id, user_name, length in session.execute(query):
        wanted = chosen.get(topic_id, assessor)
        if wanted is not None and user_name != wanted:
            continue
        assessors[topic_id].add(user_name)
        passages = tuple((start, end) for start, end in judgement.passages)
        relevant = judgement.status == "relevant" and bool(passages)
        bep = judgement.bep if judgement.bep is not None else (passages[0][0] if passages else None)
        lines[topic_id][judgement.article] = records.Judgement(
            topic=topic_id,
            article=judgement.article,
            rel_chars=sum(end - start for start, end in passages) if relevant else 0,
            article_chars=length,
            bep=bep if relevant else None,
            passages=passages if relevant else (),
            line=0,
        )
    for topic_id in sorted(assessors, key=natural_key):
        if len(assessors[topic_id]) > 1:
            raise SeveralAssessors(topic_id, sorted(assessors[topic_id]))
    return {
        topic_id: {
            article: lines[topic_id][article]
            for article in sorted(lines[topic_id], key=natural_key)
        }
        for topic_id in sorted(lines, key=natural_key)
    }


def qrels_text(qrels: Qrels) -> str:
    """The qrels as FOL text."""
    buffer = io.StringIO()
    write_qrels(qrels, buffer)
    return buffer.getvalue()


def judged_documents(session: Session, qrels: Qrels) -> dict[str, Document]:
    """The stored documents of the articles in `qrels`, by id (their texts, when known, are
    what element relevance and offsets in other units are computed from)."""
    wanted = sorted({article for articles in qrels.values() for article in articles})
    # By id, a thousand at a time (within every database's limit of bound parameters): reading
    # the whole collection for one topic's articles took seconds at INEX 2010 size.
    found: dict[str, Document] = {}
    for start in range(0, len(wanted), 1000):
        chunk = wanted[start : start + 1000]
        found.update(
            (row.id, row) for row in session.scalars(select(Document).where(Document.id.in_(chunk)))
        )
    return found


def _parsed(row: Document | None, article: str, topic: str, what: str) -> ParsedDocument:
    if row is None or not row.has_text:
        raise ExportError(
            f"{what} needs the text of article {article} (topic {topic}), which is known only "
            "by id and length; import its collection first"
        )
    return texts.load(row)


def _assignments(
    session: Session,
    topic: str | None,
    assessor: str | None,
    choices: Mapping[str, str],
    topics: Collection[str],
) -> dict[tuple[str, str], int]:
    """(topic, article) -> the assignment whose judgement was exported, for `topic` or else
    for `topics` (those of the qrels: reading the whole campaign's judgements for one topic's
    agreement took half a second at INEX 2010 size, docs/performance.md)."""
    query = (
        select(Assignment.topic_id, Judgement.article, Assignment.id, User.name)
        .join(Assignment, Judgement.assignment_id == Assignment.id)
        .join(User, Assignment.user_id == User.id)
        .where(Judgement.status != "unjudged")
    )
    if topic is not None:
        query = query.where(Assignment.topic_id == topic)
    else:
        query = query.where(Assignment.topic_id.in_(sorted(topics)))
    return {
        (topic_id, article): assignment_id
        for topic_id, article, assignment_id, name in session.execute(query)
        if choices.get(topic_id, assessor) in (None, name)
    }


def element_exports(
    session: Session,
    qrels: Qrels,
    topic: str | None,
    assessor: str | None,
    all_elements: bool,
    choices: Mapping[str, str] | None = None,
) -> tuple[list[exports.ArticleElements], dict[str, str]]:
    """The element records of every judged article, and each topic's scale."""
    documents = judged_documents(session, qrels)
    assignments = _assignments(session, topic, assessor, choices or {}, qrels.keys())
    scales: dict[str, str] = {}
    articles = []
    for topic_id, lines in qrels.items():
        mode = topic_mode(session, topic_id)
        scales[topic_id] = mode.mode
        for article, line in lines.items():
            parsed = _parsed(documents.get(article), article, topic_id, "--format elements")
            values: Mapping[str, str] | None = None
            if mode.mode == "2005":
                saved = load_values(session, assignments[(topic_id, article)], article)
                state = start_two_phase(
                    parsed.elements,
                    line.passages,
                    saved=saved,
                    too_small_below=mode.too_small_below,
                ).state
                values = state.exhaustivity()
            articles.append(
                article_elements(
                    line,
                    parsed.elements,
                    text_length=len(parsed.text),
                    exhaustivity=values,
                    all_elements=all_elements,
                )
            )
    return articles, scales
