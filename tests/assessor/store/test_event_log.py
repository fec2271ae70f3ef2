"""The activity log's one writer: a closed set of kinds, each in its table."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from focal.assessor.campaign.results.timing import TIMED_OPERATIONS
from focal.assessor.judging.operations import OPERATIONS
from focal.assessor.store import db
from focal.assessor.store.event_log import EventKind, event_row, log_event, log_view
from focal.assessor.store.models import Event, ViewEvent

from ..conftest import Seeded


def test_an_unknown_kind_is_refused_before_anything_is_written(seeded: Seeded) -> None:
    with db.session_scope(seeded.app) as session:
        with pytest.raises(ValueError, match="'opened' is not a valid EventKind"):
            log_event(session, "opened", assignment_id=seeded.alice)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="view event"):
            event_row(EventKind.SHOWN, assignment_id=seeded.alice)
        with pytest.raises(ValueError, match="not a view event"):
            log_view(
                session, EventKind.NOTE, assignment_id=seeded.alice, article="1001", event_id="e"
            )
        assert session.scalars(select(Event)).all() == []
        assert session.scalars(select(ViewEvent)).all() == []


def test_events_and_views_go_to_their_tables(seeded: Seeded) -> None:
    at = datetime(2024, 5, 1, 10)
    with db.session_scope(seeded.app) as session:
        log_event(
            session, EventKind.NOTE, assignment_id=seeded.alice, article="1001", payload={"a": 1}
        )
        log_view(
            session,
            EventKind.SHOWN,
            assignment_id=seeded.alice,
            article="1001",
            event_id="e1",
            client_time=at,
        )
        session.commit()
        (event,) = session.scalars(select(Event))
        (view,) = session.scalars(select(ViewEvent))
        assert (event.kind, event.article, event.payload) == ("note", "1001", {"a": 1})
        assert (view.kind, view.event_id, view.client_time) == ("shown", "e1", at)
        with pytest.raises(IntegrityError):  # one report per event id
            log_view(
                session, EventKind.LEFT, assignment_id=seeded.alice, article="1001", event_id="e1"
            )


def test_operations_and_timed_kinds_are_kinds_of_the_log() -> None:
    assert {EventKind(op) for op in OPERATIONS} <= set(EventKind)
    assert EventKind.ELEMENT_VALUE in TIMED_OPERATIONS and EventKind.NOTE not in TIMED_OPERATIONS
