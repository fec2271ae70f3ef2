"""Judging use cases: operations on one assessor's judgement of one article (no Flask).

Every operation has a client-chosen `op_id`, unique per assignment: replaying it returns the
current state without applying it again. An operation is applied in one transaction that updates
the judgement (bumping `version`), appends an `Event`, and commits; the new state is returned.
Rules (docs/assessor.md):
- highlight `[start, end)` with `exact` == the text there; overlapping/touching passages merge.
  An unjudged or not-relevant article becomes relevant.
- unhighlight `[start, end)` removes that text from the passages, splitting them; removing the
  last passage makes the article unjudged again (and clears the BEP).
- set_bep `offset`: only on a relevant article, anywhere in its text.
- mark_nonrelevant: clears passages and BEP.
- finish: marks the judgement finished; a relevant article without a BEP gets the suggested one
  (the start of its first passage). Finishing an unjudged article is refused.
Concurrent writers are serialised by the ORM's version check: a lost race is retried.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from assessor import texts
from assessor.models import Assignment, Document, Event, Judgement, Pool, PoolEntry, User, utcnow
from assessor.passages import Span, add_span, remove_span

OPERATIONS = ("highlight", "unhighlight", "set_bep", "mark_nonrelevant", "finish")
RETRIES = 8


class JudgingError(Exception):
    """An operation that was not applied; `status` is the HTTP status the API answers with."""

    status = 422


class NotFound(JudgingError):
    status = 404


class Conflict(JudgingError):
    """Stale version, text mismatch, or an op_id reused for another operation."""

    status = 409


class InvalidOperation(JudgingError):
    status = 422


@dataclass(frozen=True, slots=True)
class Operation:
    op_id: str
    op: str
    start: int | None = None
    end: int | None = None
    exact: str | None = None
    offset: int | None = None
    version: int | None = None  # the version the client saw; refused when stale
    client_time: datetime | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Operation:
        """Validate a JSON operation (raises InvalidOperation naming the bad field)."""
        op_id = data.get("op_id")
        if not isinstance(op_id, str) or not 0 < len(op_id) <= 100:
            raise InvalidOperation("op_id must be a string of 1 to 100 characters")
        op = data.get("op")
        if op not in OPERATIONS:
            raise InvalidOperation(f"op must be one of {', '.join(OPERATIONS)}")
        ints = {name: _optional_int(data, name) for name in ("start", "end", "offset", "version")}
        exact = data.get("exact")
        if exact is not None and not isinstance(exact, str):
            raise InvalidOperation("exact must be a string")
        return cls(op_id, op, exact=exact, client_time=_client_time(data), **ints)

    def payload(self) -> dict[str, Any]:
        """What the event log keeps: the offsets suffice to replay (`exact` is only checked)."""
        fields = {"start": self.start, "end": self.end, "offset": self.offset}
        fields["version"] = self.version
        return {"op": self.op, **{k: v for k, v in fields.items() if v is not None}}


def _optional_int(data: Mapping[str, Any], name: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOperation(f"{name} must be an integer")
    return value


def _client_time(data: Mapping[str, Any]) -> datetime | None:
    """`client_time`: ISO 8601 or milliseconds since the epoch; stored as naive UTC."""
    value = data.get("client_time")
    try:
        if value is None:
            return None
        if isinstance(value, int | float) and not isinstance(value, bool):
            moment = datetime.fromtimestamp(value / 1000, UTC)
        elif isinstance(value, str):
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        else:
            raise ValueError(value)
    except (ValueError, OverflowError, OSError) as error:
        raise InvalidOperation("client_time must be ISO 8601 or milliseconds") from error
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment


@dataclass(frozen=True, slots=True)
class JudgementState:
    assignment: int
    article: str
    version: int
    status: str
    passages: tuple[Span, ...]
    bep: int | None
    finished: bool

    def to_json(self) -> dict[str, Any]:
        """The state JSON of the API and the page."""
        return {
            "assignment": self.assignment,
            "article": self.article,
            "version": self.version,
            "status": self.status,
            "passages": [[start, end] for start, end in self.passages],
            "bep": self.bep,
            "finished": self.finished,
        }


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


def pooled_document(session: Session, assignment: Assignment, article: str) -> Document:
    """The article if it is in the pool of the assignment's topic (else NotFound)."""
    in_pool = session.scalar(
        select(PoolEntry.id)
        .join(Pool)
        .where(Pool.topic_id == assignment.topic_id, PoolEntry.article == article)
    )
    document = session.get(Document, article) if in_pool is not None else None
    if document is None:
        raise NotFound(f"article {article} is not in the pool of topic {assignment.topic_id}")
    return document


def get_state(session: Session, assignment: Assignment, article: str) -> JudgementState:
    """The current state (an unjudged version-0 state when nothing was done yet)."""
    pooled_document(session, assignment, article)
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


def apply(
    session: Session,
    assignment: Assignment,
    article: str,
    operation: Operation,
    text_of: Callable[[Document], str] = texts.text_of,
) -> JudgementState:
    """Apply `operation` (once) in its own transaction, commit, and return the new state."""
    for _attempt in range(RETRIES):
        try:
            state = _apply_once(session, assignment, article, operation, text_of)
            session.commit()
            return state
        except (StaleDataError, IntegrityError):
            session.rollback()  # another request won the race: look again
        except BaseException:
            session.rollback()
            raise
    raise Conflict("the judgement is being changed by another request; try again")


def _apply_once(
    session: Session,
    assignment: Assignment,
    article: str,
    operation: Operation,
    text_of: Callable[[Document], str],
) -> JudgementState:
    assignment_id, user_id = assignment.id, assignment.user_id
    document = pooled_document(session, assignment, article)
    previous = session.scalars(
        select(Event).where(Event.assignment_id == assignment_id, Event.op_id == operation.op_id)
    ).first()
    if previous is not None:
        if previous.article != article or previous.kind != operation.op:
            raise Conflict(f"op_id {operation.op_id} was already used for another operation")
        return get_state(session, assignment, article)
    judgement = _judgement(session, assignment_id, article)
    if judgement is None:
        judgement = Judgement(
            assignment_id=assignment_id, article=article, status="unjudged", passages=[], version=0
        )
    if operation.version is not None and operation.version != judgement.version:
        raise Conflict(
            f"stale version {operation.version}: the judgement is at version {judgement.version}"
        )
    _change(judgement, operation, document, text_of)
    judgement.version += 1
    judgement.updated_at = utcnow()
    session.add(judgement)
    session.add(
        Event(
            assignment_id=assignment_id,
            user_id=user_id,
            article=article,
            kind=operation.op,
            op_id=operation.op_id,
            payload={**operation.payload(), "new_version": judgement.version},
            client_time=operation.client_time,
        )
    )
    session.flush()
    return state_of(judgement)


def _change(
    judgement: Judgement,
    operation: Operation,
    document: Document,
    text_of: Callable[[Document], str],
) -> None:
    """Apply the operation's rule to `judgement` in memory (raises before changing anything)."""
    passages: list[Span] = [(start, end) for start, end in judgement.passages]
    if operation.op in ("highlight", "unhighlight"):
        start, end = _checked_span(operation, document, text_of)
        if operation.op == "highlight":
            passages = add_span(passages, start, end)
            judgement.status = "relevant"
        else:
            passages = remove_span(passages, start, end)
            if not passages:
                judgement.status, judgement.bep = "unjudged", None
        judgement.passages = [[s, e] for s, e in passages]
        judgement.finished = False
    elif operation.op == "set_bep":
        offset = operation.offset
        if offset is None or not 0 <= offset < document.text_length:
            raise InvalidOperation(f"offset must be in [0, {document.text_length})")
        if judgement.status != "relevant":
            raise InvalidOperation("a best entry point needs a relevant article: highlight first")
        judgement.bep = offset
    elif operation.op == "mark_nonrelevant":
        judgement.status, judgement.passages, judgement.bep = "nonrelevant", [], None
        judgement.finished = True
    else:  # finish
        if judgement.status == "unjudged":
            raise InvalidOperation("nothing to finish: highlight a passage or mark not relevant")
        if judgement.status == "relevant" and judgement.bep is None:
            judgement.bep = passages[0][0]
        judgement.finished = True


def _checked_span(
    operation: Operation, document: Document, text_of: Callable[[Document], str]
) -> Span:
    start, end = operation.start, operation.end
    if start is None or end is None or not 0 <= start < end <= document.text_length:
        raise InvalidOperation(
            f"start and end must satisfy 0 <= start < end <= {document.text_length}"
        )
    if operation.op == "highlight" and operation.exact is None:
        raise InvalidOperation("highlight needs `exact`, the selected text")
    if operation.exact is not None:
        try:
            actual = text_of(document)[start:end]
        except texts.MissingTextError as error:
            raise Conflict(str(error)) from error
        if actual != operation.exact:
            raise Conflict(
                f"exact does not match the text at [{start}, {end}): "
                f"the server has {actual[:40]!r}, the client sent {operation.exact[:40]!r}"
            )
    return start, end


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
