"""Applying an operation: one read, the rule, Core writes, one commit (no Flask).

The rules are in `focal.assessor.judging.judgements`'s docstring; callers use `judgements.apply` /
`judgements.apply_as` (re-exported there). Speed matters here: every mouse-up of every assessor
ends in this code, so an operation costs one SELECT, an INSERT or UPDATE of the judgement and
an INSERT of the event (tests/assessor/judging/test_statements.py keeps it so), after one lock.

Writes to one assignment's judgements are serialised, so that a valid operation is never
refused because another request changed the same judgement at the same moment: on SQLite the
transaction begins with `BEGIN IMMEDIATE` (the database's write lock, waited for up to the busy
timeout), on PostgreSQL with `SELECT ... FOR UPDATE` of the assignment row (one assessor's
operations queue behind each other; other assessors' do not), before the operation's read. The
optimistic version check on the UPDATE stays as a safety net, with bounded retries.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import and_, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.sql import Executable

from focal.assessor.judging.operations import (
    Busy,
    Conflict,
    JudgementState,
    NotFound,
    Operation,
    not_in_pool,
)
from focal.assessor.judging.rules import Draft, change
from focal.assessor.store import texts
from focal.assessor.store.event_log import EventKind, log_event
from focal.assessor.store.models import (
    Assignment,
    Base,
    Document,
    Event,
    Judgement,
    Pool,
    PoolEntry,
    User,
    utcnow,
)
from focal.assessor.store.settings import SETTINGS_ID, CampaignSettingsRow

RETRIES = 8

# The campaign's setting, read with the rest (no row: NULL, the default, on).
_MERGE_ACROSS_PUNCTUATION = (
    select(CampaignSettingsRow.merge_across_punctuation)
    .where(CampaignSettingsRow.id == SETTINGS_ID)
    .scalar_subquery()
)

# Everything an operation reads, in one round trip: that the user owns the assignment and the
# article is in its topic's pool, the document, the judgement (if any), and the event of an
# op_id already applied (if any; it may name another article). No row: see `_not_found`.
_OPERATION_CONTEXT = (
    select(
        Document,
        Judgement.id,
        Judgement.status,
        Judgement.passages,
        Judgement.bep,
        Judgement.finished,
        Judgement.version,
        Event.article,
        Event.kind,
        _MERGE_ACROSS_PUNCTUATION,
    )
    .select_from(Assignment)
    .join(Pool, Pool.topic_id == Assignment.topic_id)
    .join(PoolEntry, PoolEntry.pool_id == Pool.id)
    .join(Document, Document.id == PoolEntry.article)
    .outerjoin(
        Judgement,
        and_(Judgement.assignment_id == Assignment.id, Judgement.article == PoolEntry.article),
    )
    .outerjoin(Event, and_(Event.assignment_id == Assignment.id, Event.op_id == bindparam("op_id")))
    .where(
        Assignment.id == bindparam("assignment_id"),
        Assignment.user_id == bindparam("user_id"),
        PoolEntry.article == bindparam("article"),
    )
)
# The writes are Core statements: the ORM's unit of work cost more than the rest of an
# operation. The UPDATE checks the version that was read (optimistic locking, as the
# mapper's version_id_col does for ORM writers): no row updated means another request won.
_JUDGEMENTS = Base.metadata.tables[Judgement.__tablename__]
_INSERT_JUDGEMENT = insert(_JUDGEMENTS)
_UPDATE_JUDGEMENT = update(_JUDGEMENTS).where(
    _JUDGEMENTS.c.id == bindparam("judgement_id"),
    _JUDGEMENTS.c.version == bindparam("read_version"),
)


def apply(
    session: Session,
    assignment: Assignment,
    article: str,
    operation: Operation,
    text_of: Callable[[Document], str] = texts.text_of,
) -> JudgementState:
    """Apply `operation` (once) in its own transaction, commit, and return the new state."""
    return _apply(session, assignment.id, assignment.user_id, article, operation, text_of)


def apply_as(
    session: Session,
    assignment_id: int,
    user: User,
    article: str,
    operation: Operation,
    text_of: Callable[[Document], str] = texts.text_of,
) -> JudgementState:
    """`apply` for `user`, who must be the assignment's assessor (else NotFound).

    What the API calls: the ownership check is part of the operation's one read.
    """
    return _apply(session, assignment_id, user.id, article, operation, text_of)


class _LostRace(Exception):
    """Another request changed the judgement between this one's read and its write."""


_LOCK_ASSIGNMENT = (
    select(Assignment.id).where(Assignment.id == bindparam("assignment_id")).with_for_update()
)


def _lock(session: Session, assignment_id: int) -> None:
    """Take the lock that serialises writes to the assignment's judgements (see above)."""
    serialise_writes(session, _LOCK_ASSIGNMENT, {"assignment_id": assignment_id})


def serialise_writes(session: Session, lock: Executable, parameters: dict[str, Any]) -> None:
    """Begin a transaction that holds a write lock before it reads: on SQLite `BEGIN IMMEDIATE`
    (the database's write lock), elsewhere `lock`, a `SELECT ... FOR UPDATE` of the row that
    orders the writes (the gold edits use it too: `judging.gold_edits`)."""
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        raw = connection.connection.dbapi_connection
        if raw is not None and not raw.in_transaction:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        return
    connection.execute(lock, parameters)


def _apply(
    session: Session,
    assignment_id: int,
    user_id: int,
    article: str,
    operation: Operation,
    text_of: Callable[[Document], str],
) -> JudgementState:
    for attempt in range(RETRIES):
        try:
            _lock(session, assignment_id)
            state = _apply_once(session, assignment_id, user_id, article, operation, text_of)
            session.commit()
            return state
        except (_LostRace, IntegrityError):
            session.rollback()  # another request won the race: look again
            # After a random pause: racers that retry at once race again (ten clients on one
            # judgement lost eight times in a row now and then on PostgreSQL).
            time.sleep(random.uniform(0, min(0.05, 0.002 * 2**attempt)))
        except BaseException:
            session.rollback()
            raise
    # Only reachable if something outside Focal's lock writes judgements (a script): 503, as
    # the operation itself was valid and a retry with the same op_id is safe.
    raise Busy("the judgement is being changed outside Focal's lock; send the operation again")


def _not_found(session: Session, assignment_id: int, user_id: int, article: str) -> NotFound:
    """Why an operation's read found nothing (the error path may take another query)."""
    assignment = session.get(Assignment, assignment_id)
    if assignment is None or assignment.user_id != user_id:
        return NotFound(f"no assignment {assignment_id}")
    return not_in_pool(assignment.topic_id, article)


def _apply_once(
    session: Session,
    assignment_id: int,
    user_id: int,
    article: str,
    operation: Operation,
    text_of: Callable[[Document], str],
) -> JudgementState:
    parameters = {
        "assignment_id": assignment_id,
        "user_id": user_id,
        "article": article,
        "op_id": operation.op_id,
    }
    found = session.execute(_OPERATION_CONTEXT, parameters).first()
    if found is None:
        raise _not_found(session, assignment_id, user_id, article)
    (
        document,
        judgement_id,
        status,
        passages,
        bep,
        finished,
        version,
        done_article,
        done_kind,
        across_punctuation,
    ) = found
    draft = (
        Draft(None, "unjudged", [], None, False, 0)
        if judgement_id is None
        else Draft(judgement_id, status, passages, bep, finished, version)
    )
    if done_kind is not None:  # a replay: answer the current state, change nothing
        if done_article != article or done_kind != operation.op:
            raise Conflict(
                f"op_id {operation.op_id} was already used for another operation", "op_id_reused"
            )
        return _state(assignment_id, article, draft)
    if operation.version is not None and operation.version != draft.version:
        raise Conflict(
            f"stale version {operation.version}: the judgement is at version {draft.version}",
            "stale_version",
        )
    read_version = draft.version
    change(draft, operation, document, text_of, across_punctuation=across_punctuation is not False)
    draft.version += 1
    now = utcnow()
    values = {
        "status": draft.status,
        "passages": draft.passages,
        "bep": draft.bep,
        "finished": draft.finished,
        "version": draft.version,
        "updated_at": now,
    }
    connection = session.connection()
    if draft.id is None:  # a concurrent first judgement breaks the unique (assignment, article)
        connection.execute(
            _INSERT_JUDGEMENT, {**values, "assignment_id": assignment_id, "article": article}
        )
    else:
        written = connection.execute(
            _UPDATE_JUDGEMENT, {**values, "judgement_id": draft.id, "read_version": read_version}
        )
        if written.rowcount != 1:
            raise _LostRace
        # The session may hold this judgement as an ORM object (sessions keep objects after a
        # commit): make it reload rather than show the state before this write.
        stale = session.identity_map.get(session.identity_key(Judgement, draft.id))
        if stale is not None:
            session.expire(stale)
    log_event(
        session,
        EventKind(operation.op),
        assignment_id=assignment_id,
        user_id=user_id,
        article=article,
        op_id=operation.op_id,  # unique per assignment: a concurrent replay loses here
        payload={**operation.payload(), "new_version": draft.version},
        server_time=now,
        client_time=operation.client_time,
    )
    return _state(assignment_id, article, draft)


def _state(assignment_id: int, article: str, draft: Draft) -> JudgementState:
    passages = tuple((start, end) for start, end in draft.passages)
    return JudgementState(
        assignment_id, article, draft.version, draft.status, passages, draft.bep, draft.finished
    )
