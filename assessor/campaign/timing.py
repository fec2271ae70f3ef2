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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

from sqlalchemy import select
from sqlalchemy.orm import Session

from assessor.store.models import Assignment, Event, Judgement, User, ViewEvent

IDLE_SECONDS = 600.0
TIMED_OPERATIONS = (
    "highlight",
    "unhighlight",
    "set_bep",
    "mark_nonrelevant",
    "finish",
    "restore",
    "element-value",
)
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


def _moment(client: datetime | None, server: datetime) -> datetime:
    return client if client is not None else server


def topic_times(
    session: Session,
    topic: str | None = None,
    assessor: str | None = None,
    idle: float = IDLE_SECONDS,
) -> list[TopicTime]:
    """The timed articles of every assignment (or those of `topic` / `assessor`)."""
    query = select(Assignment.id, Assignment.topic_id, User.name).join(User)
    if topic is not None:
        query = query.where(Assignment.topic_id == topic)
    if assessor is not None:
        query = query.where(User.name == assessor)
    assignments = {row[0]: (row[1], row[2]) for row in session.execute(query)}
    if not assignments:
        return []
    wanted = list(assignments)
    events: dict[tuple[int, str], list[tuple[datetime, str]]] = defaultdict(list)
    for assignment_id, article, kind, client, server in session.execute(
        select(
            ViewEvent.assignment_id,
            ViewEvent.article,
            ViewEvent.kind,
            ViewEvent.client_time,
            ViewEvent.server_time,
        ).where(ViewEvent.assignment_id.in_(wanted))
    ):
        events[(assignment_id, article)].append((_moment(client, server), kind))
    for event_assignment, event_article, client, server in session.execute(
        select(Event.assignment_id, Event.article, Event.client_time, Event.server_time).where(
            Event.assignment_id.in_(wanted),
            Event.article.is_not(None),
            Event.kind.in_(TIMED_OPERATIONS),
        )
    ):
        if event_assignment is not None and event_article is not None:
            events[(event_assignment, event_article)].append((_moment(client, server), "op"))
    if not events:
        return []
    status = {
        (row[0], row[1]): row[2]
        for row in session.execute(
            select(Judgement.assignment_id, Judgement.article, Judgement.status).where(
                Judgement.assignment_id.in_(wanted)
            )
        )
    }
    return _per_assignment(assignments, events, status, idle)


def _per_assignment(
    assignments: dict[int, tuple[str, str]],
    events: dict[tuple[int, str], list[tuple[datetime, str]]],
    status: dict[tuple[int, str], str],
    idle: float,
) -> list[TopicTime]:
    rows: dict[int, tuple[list[float], list[float], list[ArticleTime]]] = {}
    for (assignment_id, article), timeline in events.items():
        timed = article_time(timeline, idle)
        verdict = status.get((assignment_id, article), "unjudged")
        if timed is None or verdict == "unjudged":
            continue
        relevant, nonrelevant, all_times = rows.setdefault(assignment_id, ([], [], []))
        (relevant if verdict == "relevant" else nonrelevant).append(timed.seconds)
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
