"""SQL statements per operation: every mouse-up costs this many round trips, so keep it small.

An operation takes the assignment's write lock (BEGIN IMMEDIATE on SQLite, SELECT ... FOR
UPDATE on PostgreSQL: concurrent writes to one judgement queue rather than fail), reads once
(user; then assignment ownership, pool, document, judgement and any earlier use of its op_id in
one SELECT) and writes twice (the judgement, the event).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event

from focal.assessor.store import db

from ..conftest import Seeded

MAX_STATEMENTS_PER_OPERATION = (
    5  # SELECT user, the lock, SELECT context, UPDATE/INSERT judgement, INSERT event
)
MAX_STATEMENTS_PER_REPLAY = 3  # the two SELECTs and the lock: a replay writes nothing


@pytest.fixture
def statements(any_seeded: Seeded) -> Iterator[list[str]]:
    """Every SQL statement the app's engine sends, in order (transaction control aside)."""
    engine = db.engine_of(any_seeded.app)
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        sent.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", record)
    yield sent
    event.remove(engine, "before_cursor_execute", record)


def post_op(seeded: Seeded, body: dict[str, Any]) -> dict[str, Any]:
    response = seeded.app.test_client().post(
        f"/api/assignments/{seeded.alice}/documents/1001/ops",
        json=body,
        headers={"Authorization": f"Bearer {seeded.tokens['alice']}"},
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    state: dict[str, Any] = response.get_json()
    return state


def highlight(seeded: Seeded, op_id: str, start: int, end: int) -> dict[str, Any]:
    body = {"op_id": op_id, "op": "highlight", "start": start, "end": end}
    return post_op(seeded, body | {"exact": seeded.text("1001")[start:end]})


def kinds(statements: list[str]) -> list[str]:
    return [statement.split()[0].upper() for statement in statements]


def test_a_first_and_a_later_highlight_stay_within_the_budget(
    any_seeded: Seeded, statements: list[str]
) -> None:
    first = highlight(any_seeded, "h1", 0, 5)
    assert first["passages"] == [[0, 5]] and first["version"] == 1
    assert len(statements) <= MAX_STATEMENTS_PER_OPERATION, statements
    assert kinds(statements).count("INSERT") == 2  # the first judgement and its event

    statements.clear()
    later = highlight(any_seeded, "h2", 5, 8)  # "The" touches "Alpha": merged
    assert later["passages"] == [[0, 8]] and later["version"] == 2
    assert len(statements) <= MAX_STATEMENTS_PER_OPERATION, statements
    assert kinds(statements).count("UPDATE") == 1 and kinds(statements).count("INSERT") == 1


def test_other_operations_stay_within_the_budget(any_seeded: Seeded, statements: list[str]) -> None:
    highlight(any_seeded, "h1", 10, 20)
    for body in (
        {"op_id": "u1", "op": "unhighlight", "start": 12, "end": 14},
        {"op_id": "b1", "op": "set_bep", "offset": 15},
        {"op_id": "f1", "op": "finish"},
        {"op_id": "n1", "op": "mark_nonrelevant"},
        {"op_id": "r1", "op": "restore", "status": "unjudged", "finished": False},
    ):
        statements.clear()
        post_op(any_seeded, body)
        assert len(statements) <= MAX_STATEMENTS_PER_OPERATION, (body, statements)


def test_a_replay_only_reads(any_seeded: Seeded, statements: list[str]) -> None:
    applied = highlight(any_seeded, "h1", 0, 5)
    statements.clear()
    replayed = highlight(any_seeded, "h1", 0, 5)
    assert replayed == applied
    assert len(statements) <= MAX_STATEMENTS_PER_REPLAY, statements
    assert set(kinds(statements)) <= {"SELECT", "BEGIN"}  # BEGIN IMMEDIATE: the lock
