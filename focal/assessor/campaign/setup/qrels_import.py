"""Existing FOL qrels become one assessor's judgements (`focal import qrels FILE`).

So that old campaigns can be adjudicated, compared and re-exported. In one transaction (all or
nothing), with bulk inserts:

- the assessor (a token-less, password-less ``assessor`` user; default name: the file's stem),
  the topics (empty texts, filled by a later `focal import topics`) and the assignments are
  created when missing;
- an article not in the database is stored by id and length only (in a placeholder
  collection, with ``file`` and ``text_sha256`` NULL): the collection may be absent, and a
  later `focal import collection` fills in the file when its text has that length. An article
  that IS in the database must have the qrels' length, else the line is refused;
- a topic without a pool gets one (method ``qrels``) holding its judged articles in file order, so
  the assessor screens can show them;
- each line becomes a finished judgement (``relevant`` with its passages merged by H-Rule ATOM
  and its BEP, or ``nonrelevant``), version 1, with one ``import`` event in the log;
- an assessor who already judged one of the articles for that topic is refused (import under
  another name), so nothing is overwritten.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from focal.assessor.campaign.setup.importing import PLACEHOLDER_COLLECTION
from focal.assessor.store.event_log import EventKind, event_row, log_events
from focal.assessor.store.models import (
    Assignment,
    Base,
    Collection,
    Document,
    Judgement,
    Pool,
    PoolEntry,
    Topic,
    User,
    utcnow,
)
from focal.evaluation.errors import FormatError
from focal.evaluation.formats import records
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.formats.records import Qrels, merge_passages

BATCH = 5000


@dataclass(frozen=True)
class ImportSummary:
    assessor: str
    topics: int
    new_topics: int
    judgements: int
    relevant: int
    new_documents: int


def _bulk(session: Session, model: type[Base], rows: Iterable[dict[str, object]]) -> None:
    """Core executemany inserts in batches (the ORM's per-row bookkeeping is 5x slower here)."""
    table = Base.metadata.tables[model.__tablename__]
    batch: list[dict[str, object]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= BATCH:
            session.execute(insert(table), batch)
            batch = []
    if batch:
        session.execute(insert(table), batch)


def _user(session: Session, name: str) -> User:
    user = session.scalars(select(User).where(User.name == name)).first()
    if user is None:
        user = User(name=name, role="assessor", password_hash=None)
        session.add(user)
        session.flush()
    return user


def _placeholder_collection(session: Session) -> int:
    query = select(Collection.id).where(Collection.name == PLACEHOLDER_COLLECTION)
    found = session.scalars(query).first()
    if found is not None:
        return found
    collection = Collection(name=PLACEHOLDER_COLLECTION, directory="")
    session.add(collection)
    session.flush()
    return collection.id


def _check_lengths(session: Session, name: str, lines: list[records.Judgement]) -> set[str]:
    """The articles already stored; refuses a line whose length disagrees with the document."""
    known = {row[0]: row[1] for row in session.execute(select(Document.id, Document.text_length))}
    for line in lines:
        length = known.get(line.article)
        if length is not None and length != line.article_chars:
            raise FormatError(
                name,
                line.line,
                f"article {line.article} has {length} characters in the database, "
                f"the qrels say {line.article_chars}",
            )
    return set(known)


def _create_topics(session: Session, topics: Iterable[str]) -> list[str]:
    """Stores the topics not yet in the database (empty texts); returns them."""
    existing = set(session.scalars(select(Topic.id)))
    new_topics = [topic for topic in topics if topic not in existing]
    _bulk(session, Topic, ({"id": t, "ct_no": None, "title": ""} for t in new_topics))
    return new_topics


def _create_documents(
    session: Session, lines: list[records.Judgement], known: set[str]
) -> dict[str, int]:
    """Stores each unknown article by id and length, in the placeholder collection."""
    new_documents: dict[str, int] = {}
    for line in lines:
        if line.article not in known:
            new_documents.setdefault(line.article, line.article_chars)
    if new_documents:
        collection_id = _placeholder_collection(session)
        _bulk(
            session,
            Document,
            (
                {
                    "id": article,
                    "collection_id": collection_id,
                    "file": None,
                    "text_length": length,
                    "text_sha256": None,
                }
                for article, length in new_documents.items()
            ),
        )
    return new_documents


def _create_pools(session: Session, qrels: Qrels, name: str, now: datetime) -> None:
    """Gives each topic without a pool one (method ``qrels``): its judged articles in file order."""
    pooled = set(session.scalars(select(Pool.topic_id)))
    for topic, articles in qrels.items():
        if topic not in pooled:
            pool = Pool(topic_id=topic, method="qrels", parameters={"file": name}, created_at=now)
            session.add(pool)
            session.flush()
            _bulk(
                session,
                PoolEntry,
                (
                    {"pool_id": pool.id, "article": article, "position": i, "pool_rank": i + 1}
                    for i, article in enumerate(articles)
                ),
            )


def _assignments(
    session: Session, topics: Iterable[str], user_id: int, now: datetime
) -> dict[str, int]:
    """The user's assignment id for each topic, created where missing."""
    assignments: dict[str, int] = {
        row[0]: row[1]
        for row in session.execute(
            select(Assignment.topic_id, Assignment.id).where(Assignment.user_id == user_id)
        )
    }
    for topic in topics:
        if topic not in assignments:
            row = Assignment(topic_id=topic, user_id=user_id, created_at=now)
            session.add(row)
            session.flush()
            assignments[topic] = row.id
    return assignments


def _refuse_rejudging(
    session: Session, name: str, user: User, lines: list[records.Judgement]
) -> None:
    """Refuses the first line whose article the assessor already judged: nothing is overwritten."""
    judged = {
        (row[0], row[1])
        for row in session.execute(
            select(Assignment.topic_id, Judgement.article)
            .join(Assignment, Judgement.assignment_id == Assignment.id)
            .where(Assignment.user_id == user.id)
        )
    }
    for line in lines:
        if (line.topic, line.article) in judged:
            raise FormatError(
                name,
                line.line,
                f"{user.name} already judged article {line.article} of topic {line.topic}; "
                "import under another --assessor name",
            )


def _judgement_rows(
    lines: list[records.Judgement], assignments: dict[str, int], now: datetime
) -> Iterable[dict[str, object]]:
    """Each line as a finished judgement, version 1 (passages merged by H-Rule ATOM)."""
    for line in lines:
        passages = [[s, e] for s, e in merge_passages(line.passages)]
        yield {
            "assignment_id": assignments[line.topic],
            "article": line.article,
            "status": "relevant" if line.rel_chars > 0 else "nonrelevant",
            "passages": passages,
            "bep": line.bep if line.rel_chars > 0 else None,
            "finished": True,
            "version": 1,
            "updated_at": now,
        }


def _event_rows(
    lines: list[records.Judgement],
    assignments: dict[str, int],
    user_id: int,
    name: str,
    now: datetime,
) -> Iterable[dict[str, object]]:
    """Each line's ``import`` event, carrying the line as the file gave it."""
    for line in lines:
        yield event_row(
            EventKind.IMPORT,
            assignment_id=assignments[line.topic],
            user_id=user_id,
            article=line.article,
            op_id=f"import:{name}:{line.line}",
            payload={
                "file": name,
                "line": line.line,
                "rel_chars": line.rel_chars,
                "bep": line.bep,
                "passages": [list(p) for p in line.passages],
            },
            server_time=now,
        )


def import_qrels(session: Session, path: str | Path, assessor: str | None = None) -> ImportSummary:
    """Load FOL qrels as the judgements of `assessor`; the caller commits (or rolls back)."""
    name = str(path)
    qrels = read_qrels(path)  # FormatError with file:line on a bad line
    lines = [line for articles in qrels.values() for line in articles.values()]
    assessor_name = assessor or Path(path).stem
    known = _check_lengths(session, name, lines)
    user = _user(session, assessor_name)
    new_topics = _create_topics(session, qrels)
    new_documents = _create_documents(session, lines, known)
    now = utcnow()
    _create_pools(session, qrels, name, now)
    assignments = _assignments(session, qrels, user.id, now)
    _refuse_rejudging(session, name, user, lines)
    _bulk(session, Judgement, _judgement_rows(lines, assignments, now))
    log_events(session, _event_rows(lines, assignments, user.id, name, now), BATCH)
    session.flush()
    return ImportSummary(
        assessor=assessor_name,
        topics=len(qrels),
        new_topics=len(new_topics),
        judgements=len(lines),
        relevant=sum(1 for line in lines if line.rel_chars > 0),
        new_documents=len(new_documents),
    )
