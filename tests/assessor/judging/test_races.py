"""Lost races are retried: another request writes between an operation's read and its write.

The interleaving is forced, not hoped for: `judgements.apply` reads the text through its `text_of`
argument after the operation's read, so a `text_of` that applies another operation in a second
session runs exactly in that gap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from assessor.judging import judgements
from assessor.store import db, texts
from assessor.store.models import Assignment, Document, Event, Judgement

from ..conftest import Seeded

ARTICLE = "1001"


@pytest.fixture
def sessions(any_seeded: Seeded) -> Iterator[tuple[Session, Session]]:
    factory = db.session_factory(any_seeded.app)
    with factory() as first, factory() as second:
        yield first, second


def interfering(
    second: Session, assignment_id: int, text: str, span: tuple[int, int]
) -> Callable[[Document], str]:
    """A `text_of` that, the first time only, highlights `span` from another session."""
    calls: list[int] = []

    def text_of(row: Document) -> str:
        if not calls:
            calls.append(1)
            other = second.get(Assignment, assignment_id)
            assert other is not None
            start, end = span
            judgements.highlight(second, other, ARTICLE, "other", start, end, text[start:end])
        return texts.text_of(row)

    return text_of


def highlight_op(text: str, op_id: str, start: int, end: int) -> judgements.Operation:
    return judgements.Operation(
        op_id=op_id, op="highlight", start=start, end=end, exact=text[start:end]
    )


def test_a_judgement_changed_in_between_is_read_again(
    any_seeded: Seeded, sessions: tuple[Session, Session]
) -> None:
    first, second = sessions
    text = any_seeded.text(ARTICLE)
    assignment = first.get(Assignment, any_seeded.alice)
    assert assignment is not None
    judgements.highlight(first, assignment, ARTICLE, "h0", 0, 3, text[0:3])  # version 1
    text_of = interfering(second, any_seeded.alice, text, (20, 25))  # makes version 2
    state = judgements.apply(first, assignment, ARTICLE, highlight_op(text, "h1", 10, 14), text_of)
    assert state.passages == ((0, 3), (10, 14), (20, 25)) and state.version == 3
    assert_stored(first, any_seeded.alice, [[0, 3], [10, 14], [20, 25]], 3, events=3)


def test_a_first_judgement_made_in_between_is_read_again(
    any_seeded: Seeded, sessions: tuple[Session, Session]
) -> None:
    first, second = sessions
    text = any_seeded.text(ARTICLE)
    assignment = first.get(Assignment, any_seeded.alice)
    assert assignment is not None
    text_of = interfering(second, any_seeded.alice, text, (20, 25))  # inserts the judgement
    state = judgements.apply(first, assignment, ARTICLE, highlight_op(text, "h1", 10, 14), text_of)
    assert state.passages == ((10, 14), (20, 25)) and state.version == 2
    assert_stored(first, any_seeded.alice, [[10, 14], [20, 25]], 2, events=2)


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
