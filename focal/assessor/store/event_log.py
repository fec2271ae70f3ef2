"""The one writer of the activity log: every event an assessment leaves (spec section 10).

Two tables hold the log: `events` (judging operations, 2005 element values, notes, keywords,
imported judgements) and `view_events` (an article shown to or left by its assessor). Every
row is written here with a kind from `EventKind`, so that the timing analytics
(`campaign.results.timing`) and the replay check of operations read a closed set of kinds; an
unknown kind is a ValueError before anything is written.

Rows go in as Core inserts on the session's connection: an operation's event costs one
INSERT (tests/assessor/judging/test_statements.py), and a qrels import writes thousands.

Payloads are JSON that every database and every reader accepts (RFC 8259): `payload_of` is the
one place an event's payload becomes its stored value, and it refuses a NaN or infinite number
with the key that held it, before anything is written. A writer whose number may be undefined
stores null and says why beside it (a `ucb` arm not tried yet has no score:
`campaign.pools.ordering.log_suggestion`).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, TypedDict, Unpack

from sqlalchemy import insert
from sqlalchemy.orm import Session

from focal.assessor.store.models import Base, Event, ViewEvent, utcnow


class EventKind(enum.StrEnum):
    """What an event records; the values are the stored `kind` strings."""

    HIGHLIGHT = "highlight"
    UNHIGHLIGHT = "unhighlight"
    SET_BEP = "set_bep"
    MARK_NONRELEVANT = "mark_nonrelevant"
    FINISH = "finish"
    RESTORE = "restore"
    ELEMENT_VALUE = "element-value"  # a 2005 two-phase value (seed 003 §5.2)
    NOTE = "note"
    ADD_KEYWORD = "add_keyword"
    REMOVE_KEYWORD = "remove_keyword"
    IMPORT = "import"  # a judgement read from a qrels file
    SUGGEST = "suggest"  # the judging order offered an article (focal.pooling.ordering)
    JUDGING_ORDER = "judging_order"  # an organiser set a topic's judging order
    ACCOUNT = "account"  # an organiser changed a user's role, or disabled or enabled a user
    SHOWN = "shown"  # view events: the page showed the article
    LEFT = "left"  # ... or the assessor left it


OPERATION_KINDS = (
    EventKind.HIGHLIGHT,
    EventKind.UNHIGHLIGHT,
    EventKind.SET_BEP,
    EventKind.MARK_NONRELEVANT,
    EventKind.FINISH,
    EventKind.RESTORE,
)
"""The judging operations of the API (`judging.operations.Operation.op`)."""
VIEW_KINDS = (EventKind.SHOWN, EventKind.LEFT)
"""The kinds stored in `view_events`; every other kind goes to `events`."""

_INSERT_EVENT = insert(Base.metadata.tables[Event.__tablename__])
_INSERT_VIEW = insert(Base.metadata.tables[ViewEvent.__tablename__])


class EventFields(TypedDict, total=False):
    """What an event may carry besides its kind and assignment (every field may be left out)."""

    user_id: int | None
    article: str | None
    op_id: str | None
    payload: Mapping[str, Any] | None
    server_time: datetime | None
    client_time: datetime | None


class NonFiniteNumber(ValueError):
    """A payload held a NaN or infinite number, which PostgreSQL's JSON and strict readers
    refuse."""


def payload_of(payload: Mapping[str, Any] | None) -> dict[str, Any]:
    """`payload` as it is stored: plain dicts, lists, strings, finite numbers, booleans, None.

    Tuples become lists and mapping keys strings (as JSON has them); NonFiniteNumber names the
    first NaN or infinity (`arms[0].score`), so that the writer stores null with a reason.
    """
    return _json_value(dict(payload or {}), "payload")  # type: ignore[no-any-return]


def _json_value(value: Any, where: str) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, str | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NonFiniteNumber(
                f"{where} is {value}, which JSON cannot hold: store null and say why beside it"
            )
        return value
    if isinstance(value, Mapping):
        return {str(key): _json_value(item, f"{where}.{key}") for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_json_value(item, f"{where}[{index}]") for index, item in enumerate(value)]
    number = getattr(value, "item", None)  # a numpy scalar: its Python value
    if callable(number):
        return _json_value(number(), where)
    raise TypeError(f"{where} is a {type(value).__name__}, which an event payload cannot hold")


def event_row(
    kind: EventKind, *, assignment_id: int | None, **fields: Unpack[EventFields]
) -> dict[str, Any]:
    """The `events` row of one event; ValueError for a kind outside `EventKind` or a view kind
    (those have their own table, `log_view`), NonFiniteNumber for a payload JSON cannot hold."""
    checked = EventKind(kind)
    if checked in VIEW_KINDS:
        raise ValueError(f"{checked} is a view event: write it with log_view")
    return {
        "assignment_id": assignment_id,
        "user_id": fields.get("user_id"),
        "article": fields.get("article"),
        "kind": checked.value,
        "op_id": fields.get("op_id"),
        "payload": payload_of(fields.get("payload")),
        "server_time": fields.get("server_time") or utcnow(),
        "client_time": fields.get("client_time"),
    }


def log_event(
    session: Session, kind: EventKind, *, assignment_id: int | None, **fields: Unpack[EventFields]
) -> None:
    """Append one event to `events` in the session's transaction (not committed).

    An `op_id` already used in the assignment is an IntegrityError: operations are applied
    once.
    """
    row = event_row(kind, assignment_id=assignment_id, **fields)
    session.connection().execute(_INSERT_EVENT, row)


def log_events(session: Session, rows: Iterable[dict[str, Any]], batch: int = 5000) -> None:
    """Append many `event_row` rows, `batch` at a time (executemany)."""
    chunk: list[dict[str, Any]] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) >= batch:
            session.connection().execute(_INSERT_EVENT, chunk)
            chunk = []
    if chunk:
        session.connection().execute(_INSERT_EVENT, chunk)


def log_view(
    session: Session,
    kind: EventKind,
    *,
    assignment_id: int,
    article: str,
    event_id: str,
    client_time: datetime | None = None,
) -> None:
    """Append one `shown`/`left` report to `view_events` (not committed); ValueError for
    another kind, IntegrityError for an `event_id` already stored for the assignment."""
    checked = EventKind(kind)
    if checked not in VIEW_KINDS:
        raise ValueError(f"{checked} is not a view event: write it with log_event")
    session.connection().execute(
        _INSERT_VIEW,
        {
            "assignment_id": assignment_id,
            "article": article,
            "kind": checked.value,
            "event_id": event_id,
            "server_time": utcnow(),
            "client_time": client_time,
        },
    )
