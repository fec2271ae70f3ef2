"""What a client sends and gets back: operations, their validation, states and refusals.

No database access here (the kinds of operation are the log's, `store.event_log`):
`focal.assessor.judging.judgements` applies operations (and re-exports these names,
which is where callers find them: `judgements.Operation`, `judgements.Conflict`, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from focal.assessor.judging.spans import Span
from focal.assessor.store.event_log import OPERATION_KINDS

OPERATIONS = tuple(kind.value for kind in OPERATION_KINDS)
STATUSES = ("unjudged", "relevant", "nonrelevant")


class JudgingError(Exception):
    """An operation that was not applied; `status` is the HTTP status the API answers with and
    `code` a machine-readable reason (docs/api.md lists them)."""

    status = 422
    code = "invalid_operation"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class NotFound(JudgingError):
    status = 404
    code = "not_found"


class Conflict(JudgingError):
    """A real conflict: `stale_version`, `exact_mismatch`, `op_id_reused` or `text_missing`."""

    status = 409
    code = "conflict"


class Busy(JudgingError):
    """A valid operation not applied for contention; sending it again (same op_id) is safe."""

    status = 503
    code = "busy"


class InvalidOperation(JudgingError):
    status = 422


def not_in_pool(topic_id: str, article: str) -> NotFound:
    """The refusal of an article that is not in the topic's pool."""
    return NotFound(f"article {article} is not in the pool of topic {topic_id}")


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
    # `restore` only: the whole judgement to go back to (undo), `exacts` one text per passage.
    status: str | None = None
    passages: tuple[Span, ...] | None = None
    exacts: tuple[str, ...] | None = None
    bep: int | None = None
    finished: bool | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Operation:
        """Validate a JSON operation (raises InvalidOperation naming the bad field)."""
        op_id = data.get("op_id")
        if not isinstance(op_id, str) or not 0 < len(op_id) <= 100:
            raise InvalidOperation("op_id must be a string of 1 to 100 characters")
        op = data.get("op")
        if op not in OPERATIONS:
            raise InvalidOperation(f"op must be one of {', '.join(OPERATIONS)}")
        start, end, offset, version = (
            _optional_int(data, name) for name in ("start", "end", "offset", "version")
        )
        exact = data.get("exact")
        if exact is not None and not isinstance(exact, str):
            raise InvalidOperation("exact must be a string")
        operation = cls(
            op_id,
            op,
            start,
            end,
            exact,
            offset,
            version,
            parse_client_time(data.get("client_time")),
        )
        return _with_restored_state(operation, data) if op == "restore" else operation

    def payload(self) -> dict[str, Any]:
        """What the event log keeps: the offsets suffice to replay (`exact` is only checked)."""
        fields: dict[str, Any] = {"start": self.start, "end": self.end, "offset": self.offset}
        fields["version"] = self.version
        kept = {k: v for k, v in fields.items() if v is not None}
        if self.op == "restore":  # the whole state, BEP included when it is none
            passages = [[start, end] for start, end in self.passages or ()]
            kept |= {"status": self.status, "passages": passages, "bep": self.bep}
            kept["finished"] = self.finished
        return {"op": self.op, **kept}


def _with_restored_state(operation: Operation, data: Mapping[str, Any]) -> Operation:
    """The fields of `restore`: `status`, `passages`, `exacts`, `bep`, `finished` (shape only;
    whether they fit the article and each other is checked where the text is known)."""
    status = data.get("status")
    if status not in STATUSES:
        raise InvalidOperation(f"status must be one of {', '.join(STATUSES)}")
    raw_passages = data.get("passages", [])
    if not isinstance(raw_passages, list) or not all(
        isinstance(pair, list) and len(pair) == 2 and all(_is_int(x) for x in pair)
        for pair in raw_passages
    ):
        raise InvalidOperation("passages must be a list of [start, end] integer pairs")
    exacts = data.get("exacts")
    if exacts is not None and (
        not isinstance(exacts, list)
        or not all(isinstance(x, str) for x in exacts)
        or len(exacts) != len(raw_passages)
    ):
        raise InvalidOperation("exacts must be a list of strings, one per passage")
    finished = data.get("finished")
    if not isinstance(finished, bool):
        raise InvalidOperation("finished must be true or false")
    return replace(
        operation,
        status=status,
        passages=tuple((start, end) for start, end in raw_passages),
        exacts=None if exacts is None else tuple(exacts),
        bep=_optional_int(data, "bep"),
        finished=finished,
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _optional_int(data: Mapping[str, Any], name: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOperation(f"{name} must be an integer")
    return value


def parse_client_time(value: object) -> datetime | None:
    """A browser's `client_time` (ISO 8601 or milliseconds since the epoch) as naive UTC; None
    when absent. The operations and the view reports (spec section 10) both carry one.

    InvalidOperation for anything else, including a moment that is not a UTC date once its
    offset is applied (`0001-01-01T00:00:00+14:00` is before year 1):

    >>> parse_client_time("2024-05-01T12:00:00+02:00"), parse_client_time(0)
    (datetime.datetime(2024, 5, 1, 10, 0), datetime.datetime(1970, 1, 1, 0, 0))
    """
    if value is None:
        return None
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            moment = datetime.fromtimestamp(value / 1000, UTC)
        elif isinstance(value, str):
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        else:
            raise ValueError(value)
        if moment.tzinfo is not None:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
    except (ValueError, OverflowError, OSError) as error:
        raise InvalidOperation("client_time must be ISO 8601 or milliseconds") from error
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
