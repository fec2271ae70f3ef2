"""The exports of `focal export-qrels --format fol|elements|trec` from the database.

The judged articles are collected by `assessor.export.collect_qrels` (one assessor per topic);
the writers are the pure ones of `evaluation.formats.exports`. Element relevance is derived from
the stored passages with each document's element table; on a topic assessed in the 2005 mode the
exhaustivity is the assessor's stored two-phase value (`assessor.elements`), with the topic's
automatic too-small threshold applied the same way the screen applies it.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from assessor import texts
from assessor.elements import load_values, topic_mode
from assessor.export import ExportError, collect_qrels
from assessor.models import Assignment, Document, Judgement, User
from evaluation.documents import Document as ParsedDocument
from evaluation.formats import exports
from evaluation.formats.records import Qrels
from evaluation.twophase import start_two_phase

Format = Literal["fol", "elements", "trec"]
FORMATS: tuple[Format, ...] = ("fol", "elements", "trec")


def _documents(session: Session, qrels: Qrels) -> dict[str, Document]:
    wanted = {article for articles in qrels.values() for article in articles}
    return {row.id: row for row in session.scalars(select(Document)) if row.id in wanted}


def _parsed(row: Document | None, article: str, topic: str, what: str) -> ParsedDocument:
    if row is None or not row.has_text:
        raise ExportError(
            f"{what} needs the text of article {article} (topic {topic}), which is known only "
            "by id and length; import its collection first"
        )
    return texts.load(row)


def _assignments(
    session: Session, topic: str | None, assessor: str | None
) -> dict[tuple[str, str], int]:
    """(topic, article) -> the assignment whose judgement was exported."""
    query = (
        select(Assignment.topic_id, Judgement.article, Assignment.id)
        .join(Assignment, Judgement.assignment_id == Assignment.id)
        .join(User, Assignment.user_id == User.id)
        .where(Judgement.status != "unjudged")
    )
    if topic is not None:
        query = query.where(Assignment.topic_id == topic)
    if assessor is not None:
        query = query.where(User.name == assessor)
    return {(row[0], row[1]): row[2] for row in session.execute(query)}


def element_exports(
    session: Session, qrels: Qrels, topic: str | None, assessor: str | None, all_elements: bool
) -> tuple[list[exports.ArticleElements], dict[str, str]]:
    """The element records of every judged article, and each topic's scale."""
    documents = _documents(session, qrels)
    assignments = _assignments(session, topic, assessor)
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
                exports.article_elements(
                    line,
                    parsed.elements,
                    text_length=len(parsed.text),
                    exhaustivity=values,
                    all_elements=all_elements,
                )
            )
    return articles, scales


def export_text(
    session: Session,
    *,
    format_: str = "fol",
    topic: str | None = None,
    assessor: str | None = None,
    xml: bool = False,
    offset_unit: str = "codepoint",
    graded: bool = False,
    all_elements: bool = False,
) -> str:
    """The export as text; ExportError (one line for the CLI) when it cannot be written."""
    if format_ not in FORMATS:
        raise ExportError(f"--format must be one of {', '.join(FORMATS)}")
    if offset_unit not in exports.OFFSET_UNITS:
        raise ExportError(f"--offset-unit must be one of {', '.join(exports.OFFSET_UNITS)}")
    if offset_unit != "codepoint" and format_ != "fol":
        raise ExportError("--offset-unit applies to --format fol only (the others hold no offsets)")
    if xml and format_ != "elements":
        raise ExportError("--xml applies to --format elements only")
    if graded and format_ != "trec":
        raise ExportError("--graded applies to --format trec only")
    if all_elements and format_ != "elements":
        raise ExportError("--all-elements applies to --format elements only")
    qrels = collect_qrels(session, topic, assessor)
    out = io.StringIO()
    try:
        if format_ == "fol":
            documents = _documents(session, qrels) if offset_unit != "codepoint" else {}

            def text_of(article: str) -> str | None:
                row = documents.get(article)
                return None if row is None or not row.has_text else texts.text_of(row)

            unit = next(u for u in exports.OFFSET_UNITS if u == offset_unit)
            exports.write_fol(qrels, out, offset_unit=unit, text_of=text_of)
        elif format_ == "trec":
            exports.write_trec(qrels, out, graded=graded)
        else:
            articles, scales = element_exports(session, qrels, topic, assessor, all_elements)
            if xml:
                exports.write_assessments_xml(articles, out, scale=scales)
            else:
                exports.write_elements(articles, out)
    except exports.ExportError as error:
        raise ExportError(str(error)) from error
    return out.getvalue()
