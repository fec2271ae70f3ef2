"""Log-in pages, sessions, bearer tokens on pages, and CSRF on forms."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from focal.assessor.web.auth import organiser_required


def test_login_sets_a_protected_session_cookie_and_redirects_to_next(
    seeded: Any, csrf: Any
) -> None:
    client = seeded.app.test_client()
    token = csrf(client)
    response = client.post(
        "/login",
        data={"name": "alice", "password": "correct horse", "csrf_token": token, "next": "/x?y=1"},
    )
    assert response.status_code == 302 and response.headers["Location"] == "/x?y=1"
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert client.get("/api/assignments").status_code == 200


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "javascript:x"])
def test_next_never_leaves_the_site(seeded: Any, csrf: Any, target: str) -> None:
    client = seeded.app.test_client()
    data = {
        "name": "alice",
        "password": "correct horse",
        "csrf_token": csrf(client),
        "next": target,
    }
    assert client.post("/login", data=data).headers["Location"] == "/"


def test_wrong_password_and_unknown_user_are_refused_alike(seeded: Any, csrf: Any) -> None:
    client = seeded.app.test_client()
    for name, password in (("alice", "wrong"), ("nobody", "correct horse")):
        data = {"name": name, "password": password, "csrf_token": csrf(client)}
        response = client.post("/login", data=data)
        assert response.status_code == 401 and "Unknown name or wrong password" in response.text
    assert client.get("/api/assignments").status_code == 401


def test_login_and_logout_forms_need_the_csrf_token(seeded: Any, log_in: Any) -> None:
    client = seeded.app.test_client()
    refused = client.post("/login", data={"name": "alice", "password": "correct horse"})
    assert refused.status_code == 400
    log_in(client, "alice")
    assert client.post("/logout").status_code == 400
    assert client.get("/api/assignments").status_code == 200


def test_logout_ends_the_session(seeded: Any, log_in: Any) -> None:
    client = seeded.app.test_client()
    token = log_in(client, "alice")
    assert client.post("/logout", data={"csrf_token": token}).status_code == 302
    assert client.get("/api/assignments").status_code == 401


def test_pages_redirect_anonymous_users_and_accept_bearer_tokens(seeded: Any) -> None:
    app: Flask = seeded.app

    @app.get("/organiser-only-probe")
    @organiser_required
    def probe() -> str:
        return "ok"

    client = app.test_client()
    anonymous = client.get("/organiser-only-probe")
    assert anonymous.status_code == 302 and "/login?next=" in anonymous.headers["Location"]
    alice = client.get(
        "/organiser-only-probe", headers={"Authorization": f"Bearer {seeded.tokens['alice']}"}
    )
    assert alice.status_code == 403
    olga = client.get(
        "/organiser-only-probe", headers={"Authorization": f"Bearer {seeded.tokens['olga']}"}
    )
    assert olga.status_code == 200 and olga.text == "ok"
    # a bearer-authenticated POST needs no CSRF token
    response = client.post(
        f"/api/assignments/{seeded.alice}/keywords",
        json={"add": "fox"},
        headers={"Authorization": f"Bearer {seeded.tokens['alice']}"},
    )
    assert response.status_code == 200
