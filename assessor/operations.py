"""What a client sends and gets back: operations, their validation, states and refusals.

No database here: `assessor.judging` applies operations (and re-exports these names, which is
where callers find them: `judging.Operation`, `judging.Conflict`, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from assessor.passages import Span

OPERATIONS = ("highlight", "unhighlight", "set_bep", "mark_nonrelevant", "finish")


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
