"""The 2005 two-phase element values of a judgement (seed 003 §3; spec section 4).

A topic is assessed on the 2006 scale (highlighting only) or the 2005 one, where the assessor
also gives each highlighted element an exhaustivity. Element relevance on the 2006 scale is
never stored: it is derived from the passages on demand (`focal.evaluation.relevance.derivation`).
Only what the assessor says in the second phase is stored (`store.models.ElementValueRow`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from focal.assessor.judging import judgements
from focal.assessor.judging.judgements import JudgementState
from focal.assessor.store import texts
from focal.assessor.store.event_log import EventKind, log_event
from focal.assessor.store.models import (
    Assignment,
    ElementValueRow,
    Judgement,
    Topic,
    TopicMode,
    User,
)
from focal.assessor.store.upserts import upsert
from focal.evaluation.formats.bounds import MAX_COUNT
from focal.evaluation.relevance.twophase import (
    Change,
    ElementValue,
    Source,
    TwoPhaseError,
    TwoPhaseState,
    Value,
    start_two_phase,
)
from focal.evaluation.text.document import Document as ParsedDocument

Mode = Literal["2006", "2005"]
MODES: tuple[Mode, ...] = ("2006", "2005")


def topic_mode(session: Session, topic_id: str) -> TopicMode:
    """The topic's mode row (a transient 2006 default when none is stored)."""
    row = session.get(TopicMode, topic_id)
    return row if row is not None else TopicMode(topic_id=topic_id, mode="2006")


def set_topic_mode(
    session: Session, topic_id: str, mode: str, too_small_below: int | None = None
) -> TopicMode:
    """Choose a topic's mode (the organiser's decision); the caller commits."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
    if too_small_below is not None and not 1 <= too_small_below <= MAX_COUNT:
        raise ValueError(
            f"the too-small threshold must be a number of characters from 1 to {MAX_COUNT} "
            "(what its column holds)"
        )
    row = {"topic_id": topic_id, "mode": mode, "too_small_below": too_small_below}
    upsert(session, TopicMode, [row], ["topic_id"])  # inserted once, whoever saves first
    return session.get_one(TopicMode, topic_id)


def topic_modes(session: Session) -> list[tuple[Topic, TopicMode]]:
    """Every topic (by id) with its mode row (a transient 2006 default when none is stored)."""
    stored = {row.topic_id: row for row in session.scalars(select(TopicMode))}
    return [
        (topic, stored.get(topic.id) or TopicMode(topic_id=topic.id, mode="2006"))
        for topic in session.scalars(select(Topic).order_by(Topic.id))
    ]


def _as_value(text: str | None) -> Value | None:
    for value in ("2", "1", "0", "?"):
        if value == text:
            return value
    return None


def _as_source(text: str | None) -> Source | None:
    for source in ("assessor", "propagated", "automatic"):
        if source == text:
            return source
    return None


def load_values(session: Session, assignment_id: int, article: str) -> list[ElementValue]:
    """The stored two-phase state of one article."""
    rows = session.scalars(
        select(ElementValueRow)
        .where(ElementValueRow.assignment_id == assignment_id, ElementValueRow.article == article)
        .order_by(ElementValueRow.id)
    )
    return [
        ElementValue(row.path, _as_value(row.value), _as_source(row.source), row.flag)
        for row in rows
    ]


def save_values(
    session: Session, assignment_id: int, article: str, records: list[ElementValue]
) -> None:
    """Replace the stored two-phase state of one article; the caller commits.

    The rows are inserted or updated (`upserts`), so that two saves of the same article racing
    (two tabs) both succeed, the later one's values kept path by path.
    """
    session.execute(
        delete(ElementValueRow).where(
            ElementValueRow.assignment_id == assignment_id, ElementValueRow.article == article
        )
    )
    rows = [
        {"assignment_id": assignment_id, "article": article, "path": r.path}
        | {"value": r.value, "source": r.source, "flag": r.flag}
        for r in records
    ]
    upsert(session, ElementValueRow, rows, ["assignment_id", "article", "path"])


@dataclass(frozen=True)
class ArticleTwoPhase:
    """What the two-phase screen shows for one article of one assignment."""

    mode: TopicMode
    document: ParsedDocument
    judgement: JudgementState
    state: TwoPhaseState
    changes: tuple[Change, ...]  # what restoring (or the last action) changed


def article_two_phase(session: Session, assignment: Assignment, article: str) -> ArticleTwoPhase:
    """The two-phase state of one article (restored from storage, rules re-applied)."""
    row = judgements.pooled_document(session, assignment, article)  # NotFound when not pooled
    try:
        document = texts.load(row)
    except texts.MissingTextError as error:
        raise judgements.NotFound(str(error)) from error
    judgement = judgements.get_state(session, assignment, article)
    mode = topic_mode(session, assignment.topic_id)
    step = start_two_phase(
        document.elements,
        [(start, end) for start, end in judgement.passages],
        saved=load_values(session, assignment.id, article),
        too_small_below=mode.too_small_below,
    )
    return ArticleTwoPhase(mode, document, judgement, step.state, step.changes)


@dataclass(frozen=True, slots=True)
class ArticleSummary:
    """A relevant article of a 2005 assignment: elements still without a value, flagged ones,
    or why its two-phase state cannot be built (known only by id and length, say)."""

    article: str
    needs_value: int
    flagged: int
    error: str | None


def article_summaries(session: Session, assignment: Assignment) -> list[ArticleSummary]:
    """The assignment's relevant articles, by id, with what each still needs."""
    articles = session.scalars(
        select(Judgement.article)
        .where(Judgement.assignment_id == assignment.id, Judgement.status == "relevant")
        .order_by(Judgement.article)
    )
    rows = []
    for article in articles:
        try:
            state = article_two_phase(session, assignment, article).state
            rows.append(ArticleSummary(article, len(state.needs_value), len(state.flagged), None))
        except judgements.NotFound as error:
            rows.append(ArticleSummary(article, 0, 0, str(error)))
    return rows


def assess_element(
    session: Session, assignment: Assignment, user: User, article: str, path: str, value: str
) -> ArticleTwoPhase:
    """The assessor gives `value` (2, 1, 0, ?, or "clear") to an element; stores and commits.

    Raises `TwoPhaseError` for what the rules refuse (including a topic not in the 2005 mode).
    """
    current = article_two_phase(session, assignment, article)
    if current.mode.mode != "2005":
        raise TwoPhaseError(f"topic {assignment.topic_id} is assessed on the 2006 scale")
    step = current.state.clear(path) if value == "clear" else current.state.assess(path, value)
    save_values(session, assignment.id, article, step.state.records())
    log_event(
        session,
        EventKind.ELEMENT_VALUE,
        assignment_id=assignment.id,
        user_id=user.id,
        article=article,
        payload={
            "path": path,
            "value": value,
            "changes": [[c.path, c.before, c.after, c.rule] for c in step.changes],
        },
    )
    session.commit()
    return replace(current, state=step.state, changes=step.changes)
