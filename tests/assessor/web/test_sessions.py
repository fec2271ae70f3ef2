"""Access that can be ended on the server: log-out, new passwords, disabled users, token expiry
and revocation, the log-in rate limit, and the keyword form's `back` redirect."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest
from flask.testing import FlaskClient

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people.users import (
    add_user,
    disable_user,
    enable_user,
    find_user,
    issue_token,
    parse_lifetime,
    revoke_tokens,
)
from focal.assessor.store import db
from focal.assessor.store.models import ApiToken, utcnow

from ..conftest import PASSWORD, csrf_of, login


def _copy_cookie(source: FlaskClient, target: FlaskClient) -> None:
    cookie = source.get_cookie("session")
    assert cookie is not None
    target.set_cookie("session", cookie.value)


def _with_token(client: FlaskClient, token: str) -> int:
    """The status of an API request carrying `token`."""
    return client.get("/api/assignments", headers={"Authorization": f"Bearer {token}"}).status_code


def test_a_session_cookie_copied_before_log_out_is_worthless_after_it(seeded: Any) -> None:
    client = seeded.app.test_client()
    token = login(client, "alice")
    thief = seeded.app.test_client()
    _copy_cookie(client, thief)
    assert thief.get("/api/assignments").status_code == 200  # the copy works while logged in
    client.post("/logout", data={"csrf_token": token})
    assert thief.get("/api/assignments").status_code == 401
    keyword = {"add": "stolen"}
    answer = thief.post(
        f"/api/assignments/{seeded.alice}/keywords", json=keyword, headers={"X-CSRF-Token": token}
    )
    assert answer.status_code in (400, 401)  # the session is gone: no CSRF token, no user
    with db.session_scope(seeded.app) as session:
        from focal.assessor.store.models import Keyword

        assert session.query(Keyword).count() == 0
    login(client, "alice")  # a new log-in works again
    assert client.get("/api/assignments").status_code == 200


def test_a_new_password_ends_sessions_and_tokens(seeded: Any) -> None:
    client = seeded.app.test_client()
    login(client, "alice")
    with db.session_scope(seeded.app) as session:
        add_user(session, "alice", "assessor", "another password")
    assert client.get("/api/assignments").status_code == 401
    assert _with_token(client, seeded.tokens["alice"]) == 401
    assert _with_token(client, seeded.tokens["bob"]) == 200
    login(client, "alice", "another password")
    assert client.get("/api/assignments").status_code == 200


def test_a_disabled_user_can_neither_log_in_nor_use_a_session_or_token(seeded: Any) -> None:
    client = seeded.app.test_client()
    login(client, "alice")
    with db.session_scope(seeded.app) as session:
        disable_user(session, find_user(session, "alice"))
    assert client.get("/api/assignments").status_code == 401
    assert _with_token(client, seeded.tokens["alice"]) == 401
    data = {"name": "alice", "password": PASSWORD, "csrf_token": csrf_of(client)}
    assert client.post("/login", data=data).status_code == 401
    with db.session_scope(seeded.app) as session:
        enable_user(find_user(session, "alice"))
    login(client, "alice")
    # Enabling lets the user log in again; the tokens revoked on disabling stay revoked.
    assert _with_token(client, seeded.tokens["alice"]) == 401


def test_an_expired_token_is_refused(seeded: Any) -> None:
    with db.session_scope(seeded.app) as session:
        alice = find_user(session, "alice")
        lasting = issue_token(session, alice, timedelta(days=30))
        expired = issue_token(session, alice, timedelta(hours=1))
        session.flush()
        record = session.query(ApiToken).order_by(ApiToken.id.desc()).first()
        assert record is not None
        record.expires_at = utcnow() - timedelta(seconds=1)  # an hour has passed
    client = seeded.app.test_client()
    assert _with_token(client, lasting) == 200
    assert _with_token(client, expired) == 401


def test_one_token_can_be_revoked_and_then_all(seeded: Any) -> None:
    with db.session_scope(seeded.app) as session:
        alice = find_user(session, "alice")
        second = issue_token(session, alice)
        session.flush()
        first_id = session.query(ApiToken.id).filter_by(user_id=alice.id).order_by(ApiToken.id)
        first = first_id.first()
        assert first is not None
        assert revoke_tokens(session, alice, first[0]) == 1
        with pytest.raises(LookupError):
            revoke_tokens(session, alice, first[0])  # already revoked
    client = seeded.app.test_client()
    assert _with_token(client, seeded.tokens["alice"]) == 401
    assert _with_token(client, second) == 200
    with db.session_scope(seeded.app) as session:
        assert revoke_tokens(session, find_user(session, "alice")) == 1
    assert _with_token(client, second) == 401


@pytest.mark.parametrize(
    ("text", "expected"),
    [("30d", timedelta(days=30)), ("12h", timedelta(hours=12)), ("never", None)],
)
def test_lifetimes_are_days_hours_or_never(text: str, expected: timedelta | None) -> None:
    assert parse_lifetime(text) == expected


@pytest.mark.parametrize("text", ["", "30", "0d", "-1d", "30m", "1e9d"])
def test_other_lifetimes_are_refused(text: str) -> None:
    with pytest.raises(CampaignError):
        parse_lifetime(text)


def test_wrong_passwords_are_limited_per_name_with_retry_after_and_logged(
    seeded: Any, caplog: pytest.LogCaptureFixture
) -> None:
    seeded.app.config["LOGIN_LIMIT_PER_NAME"] = "3 per 15 minutes"
    client = seeded.app.test_client()
    token = csrf_of(client)
    wrong = {"name": "alice", "password": "wrong", "csrf_token": token}
    assert [client.post("/login", data=wrong).status_code for _ in range(3)] == [401] * 3
    with caplog.at_level(logging.WARNING, logger="focal.assessor.web.rate_limits"):
        refused = client.post("/login", data={**wrong, "password": PASSWORD})
    assert refused.status_code == 429  # even the right password, once the limit is reached
    assert int(refused.headers["Retry-After"]) > 0
    assert "alice" in caplog.text and "too many" in caplog.text
    # Another name from the same address is not held up by alice's limit.
    other = client.post("/login", data={"name": "bob", "password": PASSWORD, "csrf_token": token})
    assert other.status_code == 302


def test_right_passwords_do_not_count_towards_the_limit(seeded: Any) -> None:
    seeded.app.config["LOGIN_LIMIT_PER_NAME"] = "2 per 15 minutes"
    for _ in range(5):
        login(seeded.app.test_client(), "alice")


def test_log_in_attempts_are_limited_per_address(seeded: Any) -> None:
    seeded.app.config["LOGIN_LIMIT_PER_ADDRESS"] = "4 per 15 minutes"
    client = seeded.app.test_client()
    token = csrf_of(client)
    answers = [
        client.post(
            "/login", data={"name": f"nobody{i}", "password": "x", "csrf_token": token}
        ).status_code
        for i in range(5)
    ]
    assert answers == [401, 401, 401, 401, 429]


@pytest.mark.parametrize(
    "back",
    ["/\t/evil.example", "//evil.example", "/\\evil.example", "https://evil.example/", "/\n/x"],
)
def test_the_keyword_form_never_redirects_off_the_site(seeded: Any, back: str) -> None:
    client = seeded.app.test_client()
    token = login(client, "alice")
    answer = client.post(
        f"/assignments/{seeded.alice}/keywords",
        data={"add": "fox", "back": back, "csrf_token": token},
    )
    assert answer.status_code == 302
    assert answer.headers["Location"] == f"/assignments/{seeded.alice}"


def test_the_keyword_form_keeps_a_path_of_the_site(seeded: Any) -> None:
    client = seeded.app.test_client()
    token = login(client, "alice")
    back = f"/assignments/{seeded.alice}/articles/1001"
    answer = client.post(
        f"/assignments/{seeded.alice}/keywords",
        data={"add": "fox", "back": back, "csrf_token": token},
    )
    assert answer.headers["Location"] == back


def test_a_keyword_over_200_characters_is_refused_not_cut(seeded: Any) -> None:
    client = seeded.app.test_client()
    token = login(client, "alice")
    url = f"/api/assignments/{seeded.alice}/keywords"
    headers = {"X-CSRF-Token": token}
    answer = client.post(url, json={"add": "k" * 201}, headers=headers)
    assert answer.status_code == 422 and "200" in answer.get_json()["error"]
    page = client.post(
        f"/assignments/{seeded.alice}/keywords", data={"add": "k" * 201, "csrf_token": token}
    )
    assert page.status_code == 400
    assert client.post(url, json={"add": "k" * 200}, headers=headers).get_json() == {
        "keywords": ["k" * 200]
    }


def test_behind_a_trusted_proxy_each_client_address_has_its_own_limit(
    tmp_path: Any, migrated_sqlite: Any
) -> None:
    from ..conftest import make_test_app, seed

    settings = {"TRUSTED_PROXIES": 1, "LOGIN_LIMIT_PER_ADDRESS": "2 per 15 minutes"}
    app = make_test_app(tmp_path, template=migrated_sqlite, config=settings)
    seed(app, tmp_path)
    client = app.test_client()
    token = csrf_of(client)

    def attempt(address: str) -> int:
        data = {"name": "nobody", "password": "x", "csrf_token": token}
        return client.post("/login", data=data, headers={"X-Forwarded-For": address}).status_code

    assert [attempt("10.0.0.1") for _ in range(3)] == [401, 401, 429]
    assert attempt("10.0.0.2") == 401  # another client behind the same proxy


def test_saving_the_same_password_again_ends_nothing(seeded: Any) -> None:
    client = seeded.app.test_client()
    login(client, "alice")
    with db.session_scope(seeded.app) as session:
        add_user(session, "alice", "assessor", PASSWORD)  # `focal demo` run again does this
    assert client.get("/api/assignments").status_code == 200
    assert _with_token(client, seeded.tokens["alice"]) == 200
