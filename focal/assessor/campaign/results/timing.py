"""How long assessing took (spec section 10; seed 003 §5.1.1, Table III).

An article's assessment time runs from its first display (a `shown` view event) to its last
operation (a judging operation or a 2005 element value in the `Event` log), in the browser's
clock when the event carries it, else the server's. Within that stretch:

- time after a `left` event (tab hidden, page closed) until the next event is off screen and
  not counted;
- any other pause between two consecutive events longer than `idle` seconds (default 600) is an
  idle gap: left out of the time, and counted and summed in the report (`idle_gaps`,
  `idle_s`), so an assessor who walked away does not make an article look slow.

An article never operated on (shown only) has no assessment time; one judged without any view
event (imported, or judged through the API) is timed from its first operation. Imported
judgements (`import` events) are not timed at all.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

from sqlalchemy import ColumnElement, String, select, type_coerce
from sqlalchemy.orm import Session

from focal.assessor.store.event_log import OPERATION_KINDS, EventKind
from focal.assessor.store.models import Base

IDLE_SECONDS = 600.0
TIMED_OPERATIONS = tuple(kind.value for kind in (*OPERATION_KINDS, EventKind.ELEMENT_VALUE))
_ORDER = {"shown": 0, "op": 1, "left": 2}  # at one instant: shown, then operations, then left


@dataclass(frozen=True, slots=True)
class ArticleTime:
    """The assessment time of one article by one assessor."""

    seconds: float
    idle_gaps: int
    idle_seconds: float


def article_time(
    events: Iterable[tuple[datetime, str]], idle: float = IDLE_SECONDS
) -> ArticleTime | None:
    """The time of one article from its events `(time, kind)`, kind `shown`, `left` or `op`.

    None when there is no operation.

    >>> from datetime import datetime as t
    >>> article_time([(t(2026, 1, 1, 9, 0, 0), "shown"), (t(2026, 1, 1, 9, 0, 30), "op")])
    ArticleTime(seconds=30.0, idle_gaps=0, idle_seconds=0.0)
    """
    timeline = sorted(events, key=lambda event: (event[0], _ORDER[event[1]]))
    operations = [moment for moment, kind in timeline if kind == "op"]
    if not operations:
        return None
    end = operations[-1]
    shown = [moment for moment, kind in timeline if kind == "shown"]
    start = min([*shown[:1], operations[0]])
    window = [event for event in timeline if start <= event[0] <= end]
    seconds = idle_seconds = 0.0
    gaps = 0
    for (before, kind), (after, _next) in pairwise(window):
        gap = (after - before).total_seconds()
        if kind == "left":
            continue  # off screen until the next event
        if gap > idle:
            gaps += 1
            idle_seconds += gap
        else:
            seconds += gap
    return ArticleTime(seconds, gaps, idle_seconds)


@dataclass(frozen=True, slots=True)
class TopicTime:
    """One assessor's timed articles of one topic (a row of Table III)."""

    topic: str
    assessor: str
    relevant: list[float]  # seconds per relevant article
    nonrelevant: list[float]
    idle_gaps: int
    idle_seconds: float

    @property
    def seconds(self) -> float:
        return sum(self.relevant) + sum(self.nonrelevant)


def _moment(client: datetime | str | None, server: datetime | str) -> datetime:
    """The event's time: the browser's when known (text on SQLite, datetime on PostgreSQL)."""
    value = client if client is not None else server
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def topic_times(
    session: Session,
    topic: str | None = None,
    assessor: str | None = None,
    idle: float = IDLE_SECONDS,
    relevant: Mapping[tuple[int, str], bool] | None = None,
) -> list[TopicTime]:
    """The timed articles of every assignment (or those of `topic` / `assessor`).

    `relevant` maps (assignment, article) of every judged article to its verdict when the
    caller has read them already (else they are read here). The rows are read with Core and
    their times as text on SQLite: at INEX 2010 size (117,000 events) the ORM and the
    DateTime type's parsing took most of the time.
    """
    assignments = _assignments(session, topic, assessor)
    if not assignments:
        return []
    wanted = list(assignments)
    events = _timelines(session, wanted)
    if not events:
        return []
    if relevant is None:
        relevant = _verdicts(session, wanted)
    return _per_assignment(assignments, events, relevant, idle)


def _assignments(
    session: Session, topic: str | None, assessor: str | None
) -> dict[int, tuple[str, str]]:
    """Assignment id -> (topic, assessor name), of `topic` and `assessor` when given."""
    tables = Base.metadata.tables
    assignments_t, users_t = tables["assignments"], tables["users"]
    query = select(assignments_t.c.id, assignments_t.c.topic_id, users_t.c.name).join(
        users_t, assignments_t.c.user_id == users_t.c.id
    )
    if topic is not None:
        query = query.where(assignments_t.c.topic_id == topic)
    if assessor is not None:
        query = query.where(users_t.c.name == assessor)
    return {row[0]: (row[1], row[2]) for row in session.execute(query).all()}


def _timelines(
    session: Session, wanted: list[int]
) -> dict[tuple[int, str], list[tuple[datetime, str]]]:
    """(assignment, article) -> its events for `article_time`: the view events by their kind,
    the timed operations of the log as `op`."""
    tables = Base.metadata.tables
    events: dict[tuple[int, str], list[tuple[datetime, str]]] = defaultdict(list)
    views, log = tables["view_events"], tables["events"]
    for assignment_id, article, kind, client, server in session.execute(
        select(
            views.c.assignment_id,
            views.c.article,
            views.c.kind,
            _raw(views.c.client_time),
            _raw(views.c.server_time),
        ).where(views.c.assignment_id.in_(wanted))
    ).all():
        events[(assignment_id, article)].append((_moment(client, server), kind))
    for assignment_id, article, client, server in session.execute(
        select(
            log.c.assignment_id, log.c.article, _raw(log.c.client_time), _raw(log.c.server_time)
        ).where(
            log.c.assignment_id.in_(wanted),
            log.c.article.is_not(None),
            log.c.kind.in_(TIMED_OPERATIONS),
        )
    ).all():
        events[(assignment_id, article)].append((_moment(client, server), "op"))
    return events


def _verdicts(session: Session, wanted: list[int]) -> dict[tuple[int, str], bool]:
    """(assignment, article) -> relevant?, for every judged article of the assignments."""
    judgements = Base.metadata.tables["judgements"]
    return {
        (row[0], row[1]): row[2] == "relevant"
        for row in session.execute(
            select(judgements.c.assignment_id, judgements.c.article, judgements.c.status)
            .where(judgements.c.assignment_id.in_(wanted))
            .where(judgements.c.status != "unjudged")
        ).all()
    }


def _raw(column: ColumnElement[Any]) -> ColumnElement[Any]:
    """A DateTime column without SQLAlchemy's per-row parsing (see `_moment`)."""
    return type_coerce(column, String)


def _per_assignment(
    assignments: dict[int, tuple[str, str]],
    events: dict[tuple[int, str], list[tuple[datetime, str]]],
    verdicts: Mapping[tuple[int, str], bool],
    idle: float,
) -> list[TopicTime]:
    rows: dict[int, tuple[list[float], list[float], list[ArticleTime]]] = {}
    for key, timeline in events.items():
        verdict = verdicts.get(key)
        if verdict is None or key[0] not in assignments:
            continue  # not judged (or not chosen)
        timed = article_time(timeline, idle)
        if timed is None:
            continue
        relevant, nonrelevant, all_times = rows.setdefault(key[0], ([], [], []))
        (relevant if verdict else nonrelevant).append(timed.seconds)
        all_times.append(timed)
    out = []
    for assignment_id, (relevant, nonrelevant, times) in rows.items():
        topic, name = assignments[assignment_id]
        gaps = sum(t.idle_gaps for t in times)
        out.append(
            TopicTime(topic, name, relevant, nonrelevant, gaps, sum(t.idle_seconds for t in times))
        )
    return out


def mean(values: Sequence[float]) -> float | None:
    """The mean, None for no values."""
    return sum(values) / len(values) if values else None
