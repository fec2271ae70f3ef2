"""Role changes and disabling on the Users page through Flask's test client: organisers only,
CSRF checked, an `account` event each, a disabled user cannot log in, and the last organiser who
can log in keeps the role (focal.assessor.campaign.people.account_changes)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from focal.assessor.campaign.people.users import add_user
from focal.assessor.store import db
from focal.assessor.store.models import Event, User

from ...conftest import PASSWORD, csrf_of, login, make_test_app

HTMX = {"HX-Request": "true"}


@pytest.fixture
def app(tmp_path: Path, migrated_sqlite: Path) -> Iterator[Flask]:
    """olga organises; alice and bob assess."""
    application = make_test_app(tmp_path, template=migrated_sqlite)
    with db.session_scope(application) as session:
        for name, role in (("olga", "organiser"), ("alice", "assessor"), ("bob", "assessor")):
            add_user(session, name, role, PASSWORD)
    yield application
    db.engine_of(application).dispose()


def user_id(app: Flask, name: str) -> int:
    with db.session_scope(app) as session:
        found = session.scalars(select(User.id).where(User.name == name)).one()
        return int(found)


def state(app: Flask, name: str) -> tuple[str, bool]:
    with db.session_scope(app) as session:
        user = session.scalars(select(User).where(User.name == name)).one()
        return user.role, user.disabled_at is None


def events(app: Flask) -> list[dict[str, Any]]:
    with db.session_scope(app) as session:
        rows = session.scalars(select(Event).where(Event.kind == "account").order_by(Event.id))
        return [dict(row.payload) for row in rows]


def can_log_in(app: Flask, name: str) -> bool:
    client = app.test_client()
    token = csrf_of(client)
    answer = client.post("/login", data={"name": name, "password": PASSWORD, "csrf_token": token})
    return answer.status_code == 302


def test_an_organiser_changes_a_role_and_disables_a_user(app: Flask) -> None:
    client = app.test_client()
    token = login(client, "olga")
    bob, alice = user_id(app, "bob"), user_id(app, "alice")
    answer = client.post(
        f"/organiser/users/{bob}/role",
        data={"role": "organiser", "csrf_token": token},
        headers=HTMX,
    )
    assert answer.status_code == 200 and "bob is now organiser" in answer.get_data(as_text=True)
    assert state(app, "bob") == ("organiser", True)
    answer = client.post(
        f"/organiser/users/{alice}/access", data={"enabled": "0", "csrf_token": token}
    )
    assert answer.status_code == 303  # without htmx: the message flashed after a redirect
    assert state(app, "alice") == ("assessor", False) and not can_log_in(app, "alice")
    assert events(app) == [
        {"user": "bob", "change": "role", "before": "assessor", "after": "organiser"},
        {"user": "alice", "change": "log-in", "before": "enabled", "after": "disabled"},
    ]
    client.post(f"/organiser/users/{alice}/access", data={"enabled": "1", "csrf_token": token})
    assert state(app, "alice") == ("assessor", True) and can_log_in(app, "alice")


def test_the_last_organiser_is_neither_demoted_nor_disabled(app: Flask) -> None:
    client = app.test_client()
    token = login(client, "olga")
    olga = user_id(app, "olga")
    for path, data in (("role", {"role": "assessor"}), ("access", {"enabled": "0"})):
        answer = client.post(
            f"/organiser/users/{olga}/{path}", data={**data, "csrf_token": token}, headers=HTMX
        )
        assert answer.status_code == 422
        assert "olga is the last organiser who can log in" in answer.get_data(as_text=True)
    assert state(app, "olga") == ("organiser", True) and events(app) == []
    # With a second organiser, the first may step down.
    client.post(
        f"/organiser/users/{user_id(app, 'bob')}/role",
        data={"role": "organiser", "csrf_token": token},
    )
    answer = client.post(
        f"/organiser/users/{olga}/role", data={"role": "assessor", "csrf_token": token}
    )
    assert answer.status_code == 303 and state(app, "olga") == ("assessor", True)


@pytest.mark.parametrize("path", ["role", "access"])
def test_changes_need_an_organiser_and_the_csrf_token(app: Flask, path: str) -> None:
    target = user_id(app, "bob")
    data = {"role": "organiser", "enabled": "0"}
    olga = app.test_client()
    login(olga, "olga")
    assert olga.post(f"/organiser/users/{target}/{path}", data=data).status_code == 400
    alice = app.test_client()
    token = login(alice, "alice")
    answer = alice.post(f"/organiser/users/{target}/{path}", data={**data, "csrf_token": token})
    assert answer.status_code == 403
    assert state(app, "bob") == ("assessor", True) and events(app) == []


def test_an_unknown_role_is_refused_with_the_expected_ones(app: Flask) -> None:
    client = app.test_client()
    token = login(client, "olga")
    answer = client.post(
        f"/organiser/users/{user_id(app, 'bob')}/role",
        data={"role": "admin", "csrf_token": token},
        headers=HTMX,
    )
    assert answer.status_code == 422
    assert "role: expected assessor or organiser, not &#39;admin&#39;" in answer.get_data(
        as_text=True
    )
