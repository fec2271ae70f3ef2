"""An assessor's flag ("unsure") and note per article: saving, reading, and the organisers' list.

The flag says "I am not sure of this judgement, look at it"; the note says why, or anything
else the organisers should know about the article (docs/assessor.md, "Flags and notes"). Only
the assignment's assessor writes (the views check it with `judgements.own_assignment`); every
save is also appended to the event log (kind `note`), like keywords. A note longer than
`NOTE_LENGTH` is refused, never cut: a cut note is not what the assessor wrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.judging.judgements import pooled_document
from focal.assessor.store.event_log import EventKind, log_event
from focal.assessor.store.models import (
    NOTE_LENGTH,
    ArticleNote,
    Assignment,
    Document,
    Judgement,
    Topic,
    User,
    utcnow,
)
from focal.assessor.store.upserts import upsert
from focal.pooling.records import natural_key

# Characters a note may hold besides printable text: tab and line ends (others, NUL first,
# are refused: PostgreSQL cannot store NUL in text, and the others are invisible).
ALLOWED_CONTROLS = frozenset("\t\n")


@dataclass(frozen=True, slots=True)
class NoteState:
    """What the article page shows: the flag, the note, and when they were last saved."""

    flag: bool = False
    note: str = ""
    updated_at: datetime | None = None


def note_of(session: Session, assignment: Assignment, article: str) -> NoteState:
    """The assignment's flag and note for `article` (an empty state when there is none)."""
    row = _row(session, assignment.id, article)
    if row is None:
        return NoteState()
    return NoteState(row.flag, row.note, row.updated_at)


def clean_note(text: str) -> str:
    """The note as stored: line ends made `\\n`, surrounding whitespace removed, checked.

    CampaignError when it is longer than `NOTE_LENGTH` or holds a control character.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if len(text) > NOTE_LENGTH:
        raise CampaignError(
            f"a note has at most {NOTE_LENGTH} characters (this one has {len(text)}); "
            "shorten it and save again"
        )
    for character in text:
        if (ord(character) < 0x20 or 0x7F <= ord(character) < 0xA0) and (
            character not in ALLOWED_CONTROLS
        ):
            raise CampaignError(
                f"a note cannot hold the control character U+{ord(character):04X}; remove it"
            )
    return text


def save_note(
    session: Session, assignment: Assignment, article: str, flag: bool, note: str
) -> NoteState:
    """Store the flag and note of a pooled article, log it, and commit.

    NotFound (judging) for an article outside the topic's pool; CampaignError for a note that
    cannot be stored (nothing is written then). No flag and an empty note delete the row.
    """
    pooled_document(session, assignment, article)
    text = clean_note(note)
    if not flag and not text:
        row = _row(session, assignment.id, article)
        if row is not None:
            session.delete(row)
    else:  # a first save racing another (two tabs) inserts the row once
        values = {"assignment_id": assignment.id, "article": article, "flag": flag}
        values |= {"note": text, "updated_at": utcnow()}
        upsert(session, ArticleNote, [values], ["assignment_id", "article"])
    log_event(
        session,
        EventKind.NOTE,
        assignment_id=assignment.id,
        user_id=assignment.user_id,
        article=article,
        payload={"flag": flag, "note": text},
    )
    session.commit()
    return note_of(session, assignment, article)


def _row(session: Session, assignment_id: int, article: str) -> ArticleNote | None:
    return session.scalars(
        select(ArticleNote).where(
            ArticleNote.assignment_id == assignment_id, ArticleNote.article == article
        )
    ).first()


@dataclass(frozen=True, slots=True)
class NoteRow:
    """One article's flag and note by one assessor, with what the organisers need beside it."""

    topic: str
    topic_title: str
    article: str
    title: str | None
    assessor: str
    assignment_id: int
    status: str  # the assessor's judgement: unjudged, relevant or nonrelevant
    flag: bool
    note: str
    updated_at: datetime


def note_rows(
    session: Session, topic: str | None = None, assessor: str | None = None
) -> list[NoteRow]:
    """Every stored flag or note (of `topic`, of `assessor`), by topic, article and assessor."""
    query = (
        select(
            ArticleNote,
            Assignment.topic_id,
            Topic.title,
            Document.title,
            User.name,
            Judgement.status,
        )
        .join(Assignment, ArticleNote.assignment_id == Assignment.id)
        .join(Topic, Assignment.topic_id == Topic.id)
        .join(User, Assignment.user_id == User.id)
        .outerjoin(Document, Document.id == ArticleNote.article)
        .outerjoin(
            Judgement,
            (Judgement.assignment_id == ArticleNote.assignment_id)
            & (Judgement.article == ArticleNote.article),
        )
    )
    if topic is not None:
        query = query.where(Assignment.topic_id == topic)
    if assessor is not None:
        query = query.where(User.name == assessor)
    rows = [
        NoteRow(
            topic=topic_id,
            topic_title=topic_title,
            article=row.article,
            title=title,
            assessor=name,
            assignment_id=row.assignment_id,
            status=status or "unjudged",
            flag=row.flag,
            note=row.note,
            updated_at=row.updated_at,
        )
        for row, topic_id, topic_title, title, name, status in session.execute(query)
    ]
    rows.sort(key=lambda r: (natural_key(r.topic), natural_key(r.article), r.assessor))
    return rows
