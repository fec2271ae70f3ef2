"""Judging use cases: operations on one assessor's judgement of one article (no Flask).

Every operation has a client-chosen `op_id`, unique per assignment: replaying it returns the
current state without applying it again. An operation is applied in one transaction that updates
the judgement (bumping `version`), appends an `Event`, and commits; the new state is returned.
Rules (docs/assessor.md):
- highlight `[start, end)` with `exact` == the text there; overlapping/touching passages merge,
  as do passages separated only by whitespace and punctuation (campaign setting); passage ends
  lose their whitespace; a selection of whitespace only is refused.
  An unjudged or not-relevant article becomes relevant.
- unhighlight `[start, end)` removes that text from the passages, splitting them; removing the
  last passage makes the article unjudged again (and clears the BEP).
- set_bep `offset`: only on a relevant article, anywhere in its text.
- mark_nonrelevant: clears passages and BEP.
- finish: marks the judgement finished; a relevant article without a BEP gets the suggested one
  (the start of its first passage). Finishing an unjudged article is refused.
- restore (undo): the judgement becomes exactly the state sent (status, passages with their
  `exacts`, BEP, finished), if the other operations could have reached it (`judging.rules`).
Concurrent writers are serialised by a version check on UPDATE: a lost race is retried.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from focal.assessor.judging.operations import (
    OPERATIONS,
    Conflict,
    InvalidOperation,
    JudgementState,
    JudgingError,
    NotFound,
    Operation,
    not_in_pool,
)
from focal.assessor.judging.persist import RETRIES, apply, apply_as
from focal.assessor.store.models import (
    Assignment,
    Document,
    Judgement,
    Pool,
    PoolEntry,
    User,
)

__all__ = [
    "OPERATIONS",
    "RETRIES",
    "Conflict",
    "InvalidOperation",
    "JudgementState",
    "JudgingError",
    "NotFound",
    "Operation",
    "apply",
    "apply_as",
    "finish",
    "get_state",
    "highlight",
    "mark_nonrelevant",
    "own_assignment",
    "pooled_document",
    "run_operation",
    "set_bep",
    "state_of",
    "unhighlight",
    "visible_assignment",
]


def state_of(judgement: Judgement) -> JudgementState:
    return JudgementState(
        judgement.assignment_id,
        judgement.article,
        judgement.version,
        judgement.status,
        tuple((start, end) for start, end in judgement.passages),
        judgement.bep,
        judgement.finished,
    )


def visible_assignment(session: Session, assignment_id: int, user: User) -> Assignment:
    """The assignment if `user` may see it: its assessor, or any organiser (else NotFound)."""
    assignment = session.get(Assignment, assignment_id)
    if assignment is None or (assignment.user_id != user.id and not user.is_organiser):
        raise NotFound(f"no assignment {assignment_id}")
    return assignment


def own_assignment(session: Session, assignment_id: int, user: User) -> Assignment:
    """The assignment if `user` is its assessor (only they may judge in it; else NotFound)."""
    assignment = session.get(Assignment, assignment_id)
    if assignment is None or assignment.user_id != user.id:
        raise NotFound(f"no assignment {assignment_id}")
    return assignment


# Statements built once (bound per call): building a select costs more than running it here.
_POOLED_DOCUMENT = (
    select(Document)
    .join(PoolEntry, PoolEntry.article == Document.id)
    .join(Pool, Pool.id == PoolEntry.pool_id)
    .where(Pool.topic_id == bindparam("topic_id"), Document.id == bindparam("article"))
)


def pooled_document(session: Session, assignment: Assignment, article: str) -> Document:
    """The article if it is in the pool of the assignment's topic (else NotFound)."""
    document = session.scalars(
        _POOLED_DOCUMENT, {"topic_id": assignment.topic_id, "article": article}
    ).first()
    if document is None:
        raise not_in_pool(assignment.topic_id, article)
    return document


def get_state(session: Session, assignment: Assignment, article: str) -> JudgementState:
    """The current state (an unjudged version-0 state when nothing was done yet)."""
    pooled_document(session, assignment, article)
    return pooled_state(session, assignment, article)


def pooled_state(session: Session, assignment: Assignment, article: str) -> JudgementState:
    """`get_state` of an article the caller has found in the pool already (`pooled_document`):
    the article screen asks for both, and every statement saved counts under load
    (docs/performance.md, "Assessors at once")."""
    judgement = _judgement(session, assignment.id, article)
    if judgement is None:
        return JudgementState(assignment.id, article, 0, "unjudged", (), None, False)
    return state_of(judgement)


def _judgement(session: Session, assignment_id: int, article: str) -> Judgement | None:
    return session.scalars(
        select(Judgement).where(
            Judgement.assignment_id == assignment_id, Judgement.article == article
        )
    ).first()


def run_operation(
    session: Session, assignment: Assignment, article: str, op: str, op_id: str, **fields: Any
) -> JudgementState:
    """Shorthand for scripts and tests: `run_operation(s, a, "123", "highlight", "op-1", ...)`."""
    return apply(session, assignment, article, Operation(op_id=op_id, op=op, **fields))


def highlight(
    session: Session,
    assignment: Assignment,
    article: str,
    op_id: str,
    start: int,
    end: int,
    exact: str,
) -> JudgementState:
    """Highlight `[start, end)` whose text is `exact`."""
    fields = {"start": start, "end": end, "exact": exact}
    return run_operation(session, assignment, article, "highlight", op_id, **fields)


def unhighlight(
    session: Session, assignment: Assignment, article: str, op_id: str, start: int, end: int
) -> JudgementState:
    """Remove `[start, end)` from the passages."""
    return run_operation(session, assignment, article, "unhighlight", op_id, start=start, end=end)


def set_bep(
    session: Session, assignment: Assignment, article: str, op_id: str, offset: int
) -> JudgementState:
    """Set the best entry point."""
    return run_operation(session, assignment, article, "set_bep", op_id, offset=offset)


def mark_nonrelevant(
    session: Session, assignment: Assignment, article: str, op_id: str
) -> JudgementState:
    """Judge the article not relevant (clears passages and BEP)."""
    return run_operation(session, assignment, article, "mark_nonrelevant", op_id)


def finish(session: Session, assignment: Assignment, article: str, op_id: str) -> JudgementState:
    """Confirm the judgement (a relevant article without BEP gets its first passage's start)."""
    return run_operation(session, assignment, article, "finish", op_id)
