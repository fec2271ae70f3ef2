"""Event payloads are JSON every database and every reader accepts: each kind is written to
SQLite and PostgreSQL and read back as stored text by a strict parser; a NaN or infinity is
refused before anything is written, and a `ucb` arm not tried yet is stored as null with a
reason."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from sqlalchemy import String, cast, func, select
from sqlalchemy.exc import StatementError
from sqlalchemy.orm import Session

from focal.assessor.campaign.pools import ordering
from focal.assessor.store import db
from focal.assessor.store.event_log import (
    VIEW_KINDS,
    EventKind,
    NonFiniteNumber,
    event_row,
    log_event,
    log_events,
    payload_of,
)
from focal.assessor.store.models import Assignment, Event, Pool, Run, RunResult

from ..conftest import ARTICLES, Seeded


def _strict(text: str) -> Any:
    """JSON as RFC 8259 has it: NaN, Infinity and -Infinity are errors, not numbers."""

    def refuse(constant: str) -> Any:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def _stored_payloads(session: Session) -> dict[str, Any]:
    """Each event's payload as the database returns its text, parsed strictly, by kind."""
    rows = session.execute(select(Event.kind, cast(Event.payload, String)).order_by(Event.id))
    return {kind: _strict(text) for kind, text in rows}


def _ucb_topic(session: Session, assignment: Assignment) -> None:
    """Two runs over topic 1's pool, and the `ucb` order: no arm has been tried yet."""
    for number, order in enumerate((list(ARTICLES), list(reversed(ARTICLES))), start=1):
        run = Run(name=f"run{number}", file=f"run{number}.txt", kind="article")
        session.add(run)
        session.flush()
        session.add_all(
            RunResult(
                run_id=run.id, topic_id=assignment.topic_id, article=article, rank=rank, score=1.0
            )
            for rank, article in enumerate(order, start=1)
        )
    ordering.set_order(session, "ucb", [assignment.topic_id])


def test_every_event_kind_is_stored_as_strict_json(any_seeded: Seeded) -> None:
    kinds = [kind for kind in EventKind if kind not in VIEW_KINDS]
    with db.session_scope(any_seeded.app) as session:
        assignment = session.get_one(Assignment, any_seeded.alice)
        _ucb_topic(session, assignment)  # writes the judging_order event
        choice = ordering.suggestion(session, assignment)
        assert choice is not None and choice.article is not None
        assert any(math.isinf(arm.score) for arm in choice.arms)  # what PostgreSQL refused
        ordering.log_suggestion(session, assignment, choice)
        written = {EventKind.JUDGING_ORDER, EventKind.SUGGEST}
        for number, kind in enumerate(k for k in kinds if k not in written):
            payload = {"kind": kind.value, "values": (1, 2.5, None, True), "nested": {"n": -0.0}}
            log_event(
                session,
                kind,
                assignment_id=any_seeded.alice,
                article="1001",
                op_id=f"op{number}",
                payload=payload,
            )
    with db.session_factory(any_seeded.app)() as session:
        stored = _stored_payloads(session)
    assert set(stored) == {kind.value for kind in kinds}
    assert stored[EventKind.NOTE]["values"] == [1, 2.5, None, True]
    arms = stored[EventKind.SUGGEST]["arms"]
    untried = [arm for arm in arms if arm["pulls"] == 0]
    assert untried and all(
        arm["score"] is None and arm["score_reason"] == "not tried yet" for arm in untried
    )
    assert stored[EventKind.JUDGING_ORDER]["policy"] == "ucb"


@pytest.mark.parametrize("bad", [math.inf, -math.inf, math.nan])
def test_a_non_finite_number_is_refused_naming_its_key(any_seeded: Seeded, bad: float) -> None:
    payload = {"arms": [{"run": "r", "score": 1.0}, {"run": "s", "score": bad}]}
    with db.session_scope(any_seeded.app) as session:
        with pytest.raises(NonFiniteNumber, match=r"payload\.arms\[1\]\.score is"):
            log_event(session, EventKind.NOTE, assignment_id=any_seeded.alice, payload=payload)
        with pytest.raises(NonFiniteNumber):
            log_events(session, [event_row(EventKind.IMPORT, assignment_id=None, payload=payload)])
        assert session.scalar(select(func.count()).select_from(Event)) == 0


def test_json_columns_outside_the_log_are_strict_too(any_seeded: Seeded) -> None:
    """The engines write every JSON column strictly: a pool's parameters holding NaN are an
    error on SQLite as on PostgreSQL, not text that other readers reject."""
    with db.session_factory(any_seeded.app)() as session:
        pool = session.scalars(select(Pool)).first()
        assert pool is not None
        pool.parameters = {"budget": math.nan}
        # SQLAlchemy wraps the serialiser's error on SQLite; psycopg raises it as it is.
        with pytest.raises((ValueError, StatementError), match="not JSON compliant"):
            session.commit()


def test_payloads_become_plain_json_values() -> None:
    numpy = pytest.importorskip("numpy")
    given = {"t": (1, 2), 3: numpy.float64(0.5), "n": numpy.int64(7)}
    assert payload_of(given) == {"t": [1, 2], "3": 0.5, "n": 7}
    assert payload_of(None) == {}
    with pytest.raises(TypeError, match=r"payload\.s is a set"):
        payload_of({"s": {1}})
