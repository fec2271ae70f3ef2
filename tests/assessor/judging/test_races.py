"""Concurrent operations on one judgement are serialised: none is refused, none is lost.

Before an operation reads, it takes the assignment's write lock (`BEGIN IMMEDIATE` on SQLite,
`SELECT ... FOR UPDATE` of the assignment on PostgreSQL), so requests that change the same
judgement at once queue instead of racing: each one reads the state the previous one wrote.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from focal.assessor.judging import judgements
from focal.assessor.store import db
from focal.assessor.store.models import Assignment, Event, Judgement

from ..conftest import Seeded

ARTICLE = "1001"


@pytest.fixture
def sessions(any_seeded: Seeded) -> Iterator[tuple[Session, Session]]:
    factory = db.session_factory(any_seeded.app)
    with factory() as first, factory() as second:
        yield first, second


def highlight_op(text: str, op_id: str, start: int, end: int) -> judgements.Operation:
    return judgements.Operation(
        op_id=op_id, op="highlight", start=start, end=end, exact=text[start:end]
    )


THREADS = 8
OPERATIONS = 12  # per thread


def test_simultaneous_highlights_of_one_judgement_all_apply(any_seeded: Seeded) -> None:
    """8 sessions x 12 one-character highlights of one judgement, all at once: every one
    applies (no 409, no 503), the version counts them all, and the stored passages are the
    merge of every highlighted character (worked out below from the set of positions)."""
    text = any_seeded.text(ARTICLE)
    factory = db.session_factory(any_seeded.app)
    start = threading.Barrier(THREADS)
    failures: list[BaseException] = []
    # Letters 7 apart ("T", "c", "n", "u", "e", "l", "g"): no whitespace to trim and letters in
    # every gap, so the merge is plain ATOM.
    positions = [(7 * i + 5) % len(text) for i in range(THREADS * OPERATIONS)]

    def assessor_tab(tab: int) -> None:
        with factory() as session:
            assignment = session.get(Assignment, any_seeded.alice)
            assert assignment is not None
            start.wait()
            for step in range(OPERATIONS):
                at = positions[tab * OPERATIONS + step]
                operation = highlight_op(text, f"t{tab}-{step}", at, at + 1)
                try:
                    judgements.apply(session, assignment, ARTICLE, operation)
                except BaseException as error:
                    failures.append(error)

    threads = [threading.Thread(target=assessor_tab, args=(tab,)) for tab in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    total = THREADS * OPERATIONS
    # Touching one-character spans merge (ATOM): runs of consecutive positions become passages.
    merged: list[list[int]] = []
    for at in sorted(set(positions)):
        if merged and merged[-1][1] == at:
            merged[-1][1] = at + 1
        else:
            merged.append([at, at + 1])
    with factory() as session:
        assert_stored(session, any_seeded.alice, merged, total, events=total)


def assert_stored(
    session: Session, assignment_id: int, passages: list[list[int]], version: int, events: int
) -> None:
    session.expire_all()
    judgement = session.scalars(
        select(Judgement).where(Judgement.assignment_id == assignment_id)
    ).one()
    assert (judgement.passages, judgement.version) == (passages, version)
    logged = select(func.count()).select_from(Event).where(Event.assignment_id == assignment_id)
    assert session.scalar(logged) == events


def test_a_session_holding_the_judgement_sees_the_new_state(any_seeded: Seeded) -> None:
    """Sessions keep their objects after a commit; an applied operation must not leave them old."""
    text = any_seeded.text(ARTICLE)
    with db.session_factory(any_seeded.app)() as session:
        assignment = session.get(Assignment, any_seeded.alice)
        assert assignment is not None
        judgements.highlight(session, assignment, ARTICLE, "h0", 0, 3, text[0:3])
        held: Any = session.scalars(select(Judgement)).one()  # now in the identity map
        assert held.version == 1
        judgements.highlight(session, assignment, ARTICLE, "h1", 3, 6, text[3:6])
        assert (held.version, held.passages) == (2, [[0, 6]])
        assert judgements.get_state(session, assignment, ARTICLE).passages == ((0, 6),)
