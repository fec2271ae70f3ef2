"""Hostile requests are answered 400 or 404, never 500: deep JSON, huge ids, NUL bytes."""

from __future__ import annotations

from typing import Any

import pytest

from ..conftest import login


def _alice(seeded: Any) -> tuple[Any, dict[str, str]]:
    client = seeded.app.test_client()
    return client, {"Authorization": f"Bearer {seeded.tokens['alice']}"}


@pytest.mark.parametrize("depth", [100_000, 1_000])
def test_deeply_nested_json_is_a_400(any_seeded: Any, depth: int) -> None:
    client, bearer = _alice(any_seeded)
    for url in (
        f"/api/assignments/{any_seeded.alice}/documents/1001/ops",
        f"/api/assignments/{any_seeded.alice}/keywords",
    ):
        answer = client.post(
            url, data="[" * depth, headers={**bearer, "Content-Type": "application/json"}
        )
        assert answer.status_code == 400, (url, answer.status_code)
        assert "error" in answer.get_json()


@pytest.mark.parametrize(
    "url",
    [
        "/api/assignments/100000000000000000000",
        "/api/assignments/100000000000000000000/documents/1001",
        "/api/assignments/1/documents/10%0001",
        "/api/assignments/1/documents/" + "9" * 300,
        "/assignments/100000000000000000000",
        "/assignments/1/articles/10%0001",
    ],
)
def test_ids_no_column_can_hold_are_a_404(any_seeded: Any, url: str) -> None:
    client, bearer = _alice(any_seeded)
    login(client, "alice")
    assert client.get(url, headers=bearer).status_code == 404
    assert client.get(url).status_code == 404


def test_an_operation_on_a_nul_article_is_a_404(any_seeded: Any) -> None:
    client, bearer = _alice(any_seeded)
    operation = {"op": "mark_nonrelevant", "op_id": "o1"}
    url = f"/api/assignments/{any_seeded.alice}/documents/10%0001/ops"
    assert client.post(url, json=operation, headers=bearer).status_code == 404
