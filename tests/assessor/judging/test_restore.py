"""`restore` (undo): the judgement becomes exactly an earlier state, on SQLite and PostgreSQL.

Article 1001's text (conftest) is "AlphaThe quick brown fox.Jumps over the lazy dog.": the
expected states below are written from that text, not from the server's answers.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from focal.assessor.store import db
from focal.assessor.store.models import Event

from ..conftest import Seeded

ARTICLE = "1001"
TEXT = "AlphaThe quick brown fox.Jumps over the lazy dog."


@pytest.fixture
def post(any_seeded: Seeded) -> Any:
    """POST one operation as alice; answers (status code, JSON)."""
    client: FlaskClient = any_seeded.app.test_client()
    headers = {"Authorization": f"Bearer {any_seeded.tokens['alice']}"}
    url = f"/api/assignments/{any_seeded.alice}/documents/{ARTICLE}/ops"

    def send(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        response = client.post(url, json=body, headers=headers)
        return response.status_code, response.get_json()

    return send


def restore(op_id: str, status: str, passages: list[list[int]], **extra: Any) -> dict[str, Any]:
    exacts = [TEXT[start:end] for start, end in passages]
    fields = {"status": status, "passages": passages, "exacts": exacts, "finished": False}
    return {"op_id": op_id, "op": "restore", **fields, **extra}


def highlight(op_id: str, start: int, end: int) -> dict[str, Any]:
    return {"op_id": op_id, "op": "highlight", "start": start, "end": end, "exact": TEXT[start:end]}


def test_the_fixture_text_is_the_one_the_tests_are_written_for(any_seeded: Seeded) -> None:
    assert any_seeded.text(ARTICLE) == TEXT


def test_not_relevant_goes_back_to_unjudged(any_seeded: Seeded, post: Any) -> None:
    assert post({"op_id": "x", "op": "mark_nonrelevant"})[1]["status"] == "nonrelevant"
    code, state = post(restore("u1", "unjudged", []))
    assert code == 200
    assert state | {"assignment": 0} == {
        "assignment": 0,
        "article": ARTICLE,
        "version": 2,
        "status": "unjudged",
        "passages": [],
        "bep": None,
        "finished": False,
    }
    with db.session_scope(any_seeded.app) as session:
        event = session.scalars(select(Event).where(Event.op_id == "u1")).one()
        assert event.kind == "restore"
        assert event.payload == {
            "op": "restore",
            "status": "unjudged",
            "passages": [],
            "bep": None,
            "finished": False,
            "new_version": 2,
        }


def test_a_finished_state_comes_back_exactly(post: Any) -> None:
    post(highlight("h1", 5, 8))  # "The"
    post(highlight("h2", 25, 30))  # "Jumps"
    post({"op_id": "b", "op": "set_bep", "offset": 26})
    finished = post({"op_id": "f", "op": "finish"})[1]
    post({"op_id": "x", "op": "mark_nonrelevant"})
    fields = {"bep": 26, "finished": True}
    code, state = post(restore("u", "relevant", [[5, 8], [25, 30]], **fields))
    assert code == 200
    assert state == finished | {"version": finished["version"] + 2}
    # ... and back to relevant, not finished, without a BEP (what the finish had filled in).
    code, state = post(restore("u2", "relevant", [[5, 8]]))
    assert (code, state["passages"], state["bep"], state["finished"]) == (
        200,
        [[5, 8]],
        None,
        False,
    )


def test_passages_are_merged_by_atom(post: Any) -> None:
    code, state = post(restore("u", "relevant", [[9, 14], [5, 10], [14, 20]]))
    assert code == 200 and state["passages"] == [[5, 20]]  # "The quick brown"


def test_a_replayed_restore_applies_once_and_an_op_id_cannot_change_meaning(post: Any) -> None:
    post(highlight("h1", 5, 8))
    first = post(restore("u", "unjudged", []))
    post(highlight("h2", 9, 14))
    code, again = post(restore("u", "unjudged", []))
    assert code == 200 and again["passages"] == [[9, 14]]  # the current state, nothing applied
    assert again["version"] == first[1]["version"] + 1
    assert post(highlight("u", 0, 5))[0] == 409


@pytest.mark.parametrize(
    "body,status",
    [
        (restore("r", "relevant", [[5, 8]]) | {"exacts": ["the"]}, 409),  # not the server's text
        (restore("r", "relevant", [[5, 8]]) | {"exacts": None}, 422),  # text to check is missing
        (restore("r", "relevant", [[5, 8]]) | {"exacts": []}, 422),  # not one per passage
        (restore("r", "relevant", []), 422),  # relevant without passages
        (restore("r", "unjudged", [[5, 8]]), 422),
        (restore("r", "unjudged", [], finished=True), 422),
        (restore("r", "nonrelevant", [], finished=False), 422),
        (restore("r", "nonrelevant", [], bep=3, finished=True), 422),
        (restore("r", "relevant", [[5, 8]], bep=len(TEXT)), 422),
        (restore("r", "relevant", [[5, len(TEXT) + 1]]), 422),
        (restore("r", "relevant", [[8, 5]]), 422),
        (restore("r", "maybe", []), 422),
        (restore("r", "relevant", [[5, 8]]) | {"finished": None}, 422),
        (restore("r", "relevant", [[5, True]]), 422),
    ],
)
def test_refused_restores_change_nothing(post: Any, body: dict[str, Any], status: int) -> None:
    before = post(highlight("h", 0, 5))[1]
    code, answer = post(body)
    assert code == status and "error" in answer
    assert post(highlight("h", 0, 5))[1] == before  # a replay shows the unchanged state


def test_a_stale_restore_is_refused(post: Any) -> None:
    post(highlight("h", 0, 5))
    code, answer = post(restore("r", "unjudged", [], version=0))
    assert code == 409 and "stale" in answer["error"]
    assert post(restore("r2", "unjudged", [], version=1))[1]["status"] == "unjudged"
