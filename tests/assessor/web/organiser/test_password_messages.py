"""The Users page says what a password change did, and what it says is true: the same password
again ends nothing (the API token still answers); a new one ends sessions and revokes tokens."""

from __future__ import annotations

from typing import Any

from focal.assessor.store import db
from focal.assessor.store.models import User

from ...conftest import PASSWORD, login


def _reset(seeded: Any, password: str) -> tuple[str, int, int]:
    """The message of resetting alice's password, and then the status of her API token and of
    her session."""
    alice = seeded.app.test_client()
    login(alice, "alice")
    client = seeded.app.test_client()
    token = login(client, "olga")
    with db.session_scope(seeded.app) as session:
        alice_id = session.query(User).filter_by(name="alice").one().id
    answer = client.post(
        f"/organiser/users/{alice_id}/password",
        data={"csrf_token": token, "password": password},
        headers={"HX-Request": "true"},
    )
    bearer = {"Authorization": f"Bearer {seeded.tokens['alice']}"}
    token_status = seeded.app.test_client().get("/api/assignments", headers=bearer).status_code
    session_status = alice.get("/api/assignments").status_code
    return answer.get_data(as_text=True), token_status, session_status


def test_the_same_password_again_says_that_nothing_changed_and_nothing_did(seeded: Any) -> None:
    message, token_status, session_status = _reset(seeded, PASSWORD)
    assert "alice already has this password: nothing changed" in message
    assert "revoked" not in message
    assert (token_status, session_status) == (200, 200)


def test_a_new_password_says_how_many_tokens_were_revoked_and_they_were(seeded: Any) -> None:
    message, token_status, session_status = _reset(seeded, "another long password")
    assert "New password for alice: sessions ended, 1 API token revoked." in message
    assert (token_status, session_status) == (401, 401)
