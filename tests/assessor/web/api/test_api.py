"""The operations API with Flask's test client, on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask.testing import FlaskClient

ARTICLE = "1001"


def ops_url(assignment: int, article: str = ARTICLE) -> str:
    return f"/api/assignments/{assignment}/documents/{article}/ops"


def bearer(seeded: Any, name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {seeded.tokens[name]}"}


def highlight(seeded: Any, op_id: str, start: int, end: int, **extra: Any) -> dict[str, Any]:
    text = seeded.text(ARTICLE)
    return {
        "op_id": op_id,
        "op": "highlight",
        "start": start,
        "end": end,
        "exact": text[start:end],
        **extra,
    }


def test_a_scripted_session_through_the_api(any_seeded: Any) -> None:
    client = any_seeded.app.test_client()
    headers = bearer(any_seeded, "alice")
    url = ops_url(any_seeded.alice)
    state = client.get(
        f"/api/assignments/{any_seeded.alice}/documents/{ARTICLE}", headers=headers
    ).json
    assert state == {
        "assignment": any_seeded.alice,
        "article": ARTICLE,
        "version": 0,
        "status": "unjudged",
        "passages": [],
        "bep": None,
        "finished": False,
    }
    client.post(url, json=highlight(any_seeded, "1", 0, 5), headers=headers)
    response = client.post(url, json=highlight(any_seeded, "2", 3, 12), headers=headers)
    assert response.status_code == 200
    assert response.json["passages"] == [[0, 12]] and response.json["version"] == 2
    response = client.post(url, json={"op_id": "3", "op": "set_bep", "offset": 4}, headers=headers)
    assert response.json["bep"] == 4
    response = client.post(url, json={"op_id": "4", "op": "finish"}, headers=headers)
    assert response.json["finished"] is True and response.json["status"] == "relevant"
    listing = client.get("/api/assignments", headers=headers).json["assignments"]
    assert [a["topic"] for a in listing] == ["1", "2"]
    assert listing[0]["progress"] == {"pool_size": 3, "judged": 1, "relevant": 1, "finished": 1}
    detail = client.get(f"/api/assignments/{any_seeded.alice}", headers=headers).json
    assert [a["article"] for a in detail["articles"]] == ["1001", "1002", "1003"]
    assert detail["articles"][0]["status"] == "relevant"


def test_replay_returns_the_same_state_without_a_new_version(any_seeded: Any) -> None:
    client = any_seeded.app.test_client()
    headers = bearer(any_seeded, "alice")
    first = client.post(
        ops_url(any_seeded.alice), json=highlight(any_seeded, "r", 0, 5), headers=headers
    )
    again = client.post(
        ops_url(any_seeded.alice), json=highlight(any_seeded, "r", 0, 5), headers=headers
    )
    assert first.json == again.json and again.json["version"] == 1


@pytest.mark.parametrize(
    "body,status",
    [
        ({"op_id": "x", "op": "highlight", "start": 0, "end": 5, "exact": "WRONG"}, 409),
        ({"op_id": "x", "op": "highlight", "start": 0, "end": 99999, "exact": ""}, 422),
        ({"op_id": "x", "op": "jump"}, 422),
        ({"op_id": "x", "op": "finish"}, 422),
    ],
)
def test_refused_operations(any_seeded: Any, body: dict[str, Any], status: int) -> None:
    client = any_seeded.app.test_client()
    response = client.post(
        ops_url(any_seeded.alice), json=body, headers=bearer(any_seeded, "alice")
    )
    assert response.status_code == status and "error" in response.json


def test_stale_version_gets_409(any_seeded: Any) -> None:
    client = any_seeded.app.test_client()
    headers = bearer(any_seeded, "alice")
    client.post(ops_url(any_seeded.alice), json=highlight(any_seeded, "a", 0, 5), headers=headers)
    response = client.post(
        ops_url(any_seeded.alice), json=highlight(any_seeded, "b", 6, 8, version=0), headers=headers
    )
    assert response.status_code == 409 and "stale" in response.json["error"]


def test_an_assessor_cannot_see_or_change_another_assessors_work(any_seeded: Any) -> None:
    client = any_seeded.app.test_client()
    bob = bearer(any_seeded, "bob")
    assert client.get(f"/api/assignments/{any_seeded.alice}", headers=bob).status_code == 404
    assert (
        client.get(
            f"/api/assignments/{any_seeded.alice}/documents/{ARTICLE}", headers=bob
        ).status_code
        == 404
    )
    assert (
        client.post(
            ops_url(any_seeded.alice), json=highlight(any_seeded, "z", 0, 5), headers=bob
        ).status_code
        == 404
    )
    # same topic, separate judgements
    client.post(ops_url(any_seeded.bob), json=highlight(any_seeded, "z", 0, 5), headers=bob)
    alice = client.get(
        f"/api/assignments/{any_seeded.alice}/documents/{ARTICLE}",
        headers=bearer(any_seeded, "alice"),
    )
    assert alice.json["passages"] == []
    # an organiser may read, but not judge
    olga = bearer(any_seeded, "olga")
    assert client.get(f"/api/assignments/{any_seeded.bob}/documents/{ARTICLE}", headers=olga).json[
        "passages"
    ] == [[0, 5]]
    assert (
        client.post(
            ops_url(any_seeded.bob), json=highlight(any_seeded, "o", 0, 5), headers=olga
        ).status_code
        == 404
    )
    assert len(client.get("/api/assignments", headers=olga).json["assignments"]) == 3


def test_anonymous_and_unknown_tokens_get_401(any_seeded: Any) -> None:
    client = any_seeded.app.test_client()
    assert client.get("/api/assignments").status_code == 401
    assert (
        client.get("/api/assignments", headers={"Authorization": "Bearer nope"}).status_code == 401
    )


def test_session_requests_need_the_csrf_token(any_seeded: Any, log_in: Any) -> None:
    client: FlaskClient = any_seeded.app.test_client()
    token = log_in(client, "alice")
    body = highlight(any_seeded, "c1", 0, 5)
    refused = client.post(ops_url(any_seeded.alice), json=body)
    assert refused.status_code == 400 and "CSRF" in refused.json["error"]
    wrong = client.post(ops_url(any_seeded.alice), json=body, headers={"X-CSRF-Token": "x" + token})
    assert wrong.status_code == 400
    accepted = client.post(ops_url(any_seeded.alice), json=body, headers={"X-CSRF-Token": token})
    assert accepted.status_code == 200 and accepted.json["passages"] == [[0, 5]]


def test_keywords(any_seeded: Any) -> None:
    client = any_seeded.app.test_client()
    headers = bearer(any_seeded, "alice")
    url = f"/api/assignments/{any_seeded.alice}/keywords"
    client.post(url, json={"add": " fox "}, headers=headers)
    assert client.post(url, json={"add": "dog"}, headers=headers).json == {
        "keywords": ["dog", "fox"]
    }
    assert client.post(url, json={"remove": "dog"}, headers=headers).json == {"keywords": ["fox"]}
    assert client.post(url, json={"nothing": 1}, headers=headers).status_code == 422
    assert (
        client.get(f"/api/assignments/{any_seeded.bob}/keywords", headers=headers).status_code
        == 404
    )


def test_concurrent_clients_lose_no_highlight(any_seeded: Any) -> None:
    """Ten threads highlight disjoint spans of one article at once; every span must survive."""
    text = any_seeded.text(ARTICLE)
    # Two letters each, a letter in every gap ("Al", "ha", "he", "ui", "br", "wn", "ox", "um",
    # "ov", "th" of "AlphaThe quick brown fox.Jumps over the..."): nothing to trim, nothing to join.
    spans = [
        (0, 2),
        (3, 5),
        (6, 8),
        (10, 12),
        (15, 17),
        (18, 20),
        (22, 24),
        (26, 28),
        (31, 33),
        (36, 38),
    ]
    assert all(text[s:e].isalpha() for s, e in spans)
    assert spans[-1][1] <= len(text)
    errors: list[str] = []

    def worker(number: int) -> None:
        client = any_seeded.app.test_client()
        start, end = spans[number]
        body = {
            "op_id": f"t{number}",
            "op": "highlight",
            "start": start,
            "end": end,
            "exact": text[start:end],
        }
        response = client.post(
            ops_url(any_seeded.alice), json=body, headers=bearer(any_seeded, "alice")
        )
        if response.status_code != 200:
            errors.append(response.get_data(as_text=True))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    state = (
        any_seeded.app.test_client()
        .get(
            f"/api/assignments/{any_seeded.alice}/documents/{ARTICLE}",
            headers=bearer(any_seeded, "alice"),
        )
        .json
    )
    assert state["passages"] == [list(span) for span in spans] and state["version"] == 10
