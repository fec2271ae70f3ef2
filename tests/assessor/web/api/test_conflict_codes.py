"""Each real conflict answers 409 with its own machine-readable `code` (docs/api.md)."""

from __future__ import annotations

from typing import Any

from ...conftest import Seeded


def _post(seeded: Seeded, body: dict[str, Any]) -> Any:
    return seeded.app.test_client().post(
        f"/api/assignments/{seeded.alice}/documents/1001/ops",
        json=body,
        headers={"Authorization": f"Bearer {seeded.tokens['alice']}"},
    )


def test_each_conflict_has_its_code(seeded: Seeded) -> None:
    text = seeded.text("1001")
    first = {"op_id": "a", "op": "highlight", "start": 0, "end": 5, "exact": text[0:5]}
    assert _post(seeded, first).status_code == 200
    cases = {
        "stale_version": {**first, "op_id": "b", "version": 0},
        "exact_mismatch": {**first, "op_id": "c", "exact": "other"},
        "op_id_reused": {"op_id": "a", "op": "mark_nonrelevant"},
    }
    for code, body in cases.items():
        answer = _post(seeded, body)
        assert (answer.status_code, answer.get_json()["code"]) == (409, code)
    invalid = _post(seeded, {"op_id": "d", "op": "jump"})
    assert (invalid.status_code, invalid.get_json()["code"]) == (422, "invalid_operation")
    missing = seeded.app.test_client().post(
        "/api/assignments/999/documents/1001/ops",
        json=first,
        headers={"Authorization": f"Bearer {seeded.tokens['alice']}"},
    )
    assert (missing.status_code, missing.get_json()["code"]) == (404, "not_found")


def test_contention_that_never_ends_is_a_503_to_retry_not_a_409(
    seeded: Seeded, monkeypatch: Any
) -> None:
    """Only a writer outside Focal's lock could make every attempt lose; the answer says
    `busy` with 503, which the page retries (same op_id), unlike a 409."""
    from focal.assessor.judging import persist

    def always_lose(*_args: Any) -> Any:
        raise persist._LostRace

    monkeypatch.setattr(persist, "_apply_once", always_lose)
    monkeypatch.setattr(persist.time, "sleep", lambda _seconds: None)
    answer = _post(seeded, {"op_id": "z", "op": "mark_nonrelevant"})
    assert (answer.status_code, answer.get_json()["code"]) == (503, "busy")
