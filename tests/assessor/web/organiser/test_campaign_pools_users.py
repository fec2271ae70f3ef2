"""The organiser's Pools, Users and Matrix pages through Flask's test client.

Pools are built from the demo material imported with the CLI's functions (the page must call
the same `build_pools`); users, tokens and assignments are checked in the rows they write.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from focal.assessor.campaign.people.users import add_user, check_password
from focal.assessor.campaign.setup.importing import import_collection, import_runs, import_topics
from focal.assessor.judging import judgements
from focal.assessor.store import db
from focal.assessor.store.models import ApiToken, Assignment, Pool, PoolEntry, User

from ....conftest import DEMO
from ...conftest import PASSWORD, login, make_test_app


@pytest.fixture
def demo_app(tmp_path: Path, migrated_sqlite: Path) -> Iterator[Flask]:
    """The demo's collection, topics and runs, no pools; olga organises, alice assesses."""
    app = make_test_app(tmp_path, template=migrated_sqlite)
    with db.session_scope(app) as session:
        import_collection(session, DEMO / "collection", "demo")
        import_topics(session, DEMO / "topics.xml")
        import_runs(session, sorted((DEMO / "runs").glob("*.run")))
        add_user(session, "olga", "organiser", PASSWORD)
        add_user(session, "alice", "assessor", PASSWORD)
    yield app
    db.engine_of(app).dispose()


@pytest.fixture
def olga(demo_app: Flask) -> tuple[FlaskClient, str]:
    client = demo_app.test_client()
    return client, login(client, "olga")


HTMX = {"HX-Request": "true"}


def rows(app: Flask, query: Any) -> list[Any]:
    with db.session_scope(app) as session:
        return list(session.execute(query).all())


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/organiser/pools"),
        ("post", "/organiser/pools"),
        ("get", "/organiser/settings"),
        ("post", "/organiser/settings"),
        ("get", "/organiser/users"),
        ("post", "/organiser/users"),
        ("post", "/organiser/users/1/password"),
        ("post", "/organiser/users/1/tokens"),
        ("post", "/organiser/users/1/tokens/1/revoke"),
        ("get", "/organiser/matrix"),
        ("post", "/organiser/matrix"),
    ],
)
def test_assessors_get_403(demo_app: Flask, method: str, url: str) -> None:
    alice = demo_app.test_client()
    token = login(alice, "alice")
    answer = getattr(alice, method)(url, data={"csrf_token": token} if method == "post" else None)
    assert answer.status_code == 403


@pytest.mark.parametrize(
    "url",
    [
        "/organiser/pools",
        "/organiser/users",
        "/organiser/matrix",
        "/organiser/users/1/tokens",
        "/organiser/users/1/password",
        "/organiser/users/1/tokens/1/revoke",
    ],
)
def test_posts_without_the_csrf_token_are_refused(olga: tuple[FlaskClient, str], url: str) -> None:
    client, _token = olga
    data = {"name": "mallory", "role": "organiser", "password": "x" * 12, "topic": "9001"}
    assert client.post(url, data={**data, "assessor": "alice", "assigned": "1"}).status_code == 400
    app = client.application
    assert rows(app, select(User.name).where(User.name == "mallory")) == []
    assert rows(app, select(Pool.id)) == [] and rows(app, select(ApiToken.id)) == []


def test_pools_built_with_chosen_topics_and_their_statistics(olga: tuple[FlaskClient, str]) -> None:
    client, token = olga
    form = {"csrf_token": token, "method": "depth", "depth": "3", "order": "rank", "seed": "0"}
    answer = client.post("/organiser/pools", data={**form, "topic": ["9001", "9002"]}, headers=HTMX)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    page = answer.get_data(as_text=True)
    assert "Pooled 2 topic(s)" in page
    pools = rows(client.application, select(Pool.topic_id, Pool.method, Pool.parameters))
    assert sorted((t, m, p["size"], p["order"]) for t, m, p in pools) == [
        ("9001", "depth", 3, "rank"),
        ("9002", "depth", 3, "rank"),
    ]
    sizes = dict(
        rows(
            client.application,
            select(Pool.topic_id, func.count(PoolEntry.id)).join(PoolEntry).group_by(Pool.topic_id),
        )
    )
    stats = client.get("/organiser/pools").get_data(as_text=True)
    assert 'id="pool-runs"' in stats and "<td>bm25-elements-k2</td>" in stats
    assert f"<tr><td>9001</td><td>{sizes['9001']}</td><td>4</td>" in stats  # 4 runs read
    assert "<td>9003</td>" not in stats.split('id="pool-topics"')[1]


def test_a_pool_form_error_is_shown_and_writes_nothing(olga: tuple[FlaskClient, str]) -> None:
    client, token = olga
    answer = client.post(
        "/organiser/pools", data={"csrf_token": token, "method": "depth"}, headers=HTMX
    )
    assert answer.status_code == 422
    assert "the depth method needs its depth K" in answer.get_data(as_text=True)
    plain = client.post("/organiser/pools", data={"csrf_token": token, "size": "zero"})
    assert plain.status_code == 303
    assert "size: expected a whole number" in client.get("/organiser/pools").get_data(as_text=True)
    assert rows(client.application, select(Pool.id)) == []


def test_users_are_added_with_the_password_rule(olga: tuple[FlaskClient, str]) -> None:
    client, token = olga
    page = client.get("/organiser/users").get_data(as_text=True)
    assert "Password (8 characters at least)" in page
    short = {"csrf_token": token, "name": "ann", "role": "assessor", "password": "short"}
    answer = client.post("/organiser/users", data=short, headers=HTMX)
    assert answer.status_code == 422
    assert "at least 8 characters" in answer.get_data(as_text=True)
    assert rows(client.application, select(User.id).where(User.name == "ann")) == []
    good = {**short, "password": "ann's password"}
    assert client.post("/organiser/users", data=good, headers=HTMX).status_code == 200
    again = client.post("/organiser/users", data=good, headers=HTMX)
    assert again.status_code == 422 and "exists already" in again.get_data(as_text=True)
    ann = client.application.test_client()
    login(ann, "ann", "ann's password")
    assert ann.get("/topics").status_code == 200


def test_a_password_reset_and_tokens_shown_once_then_revoked(olga: tuple[FlaskClient, str]) -> None:
    client, token = olga
    app = client.application
    (alice_id,) = rows(app, select(User.id).where(User.name == "alice"))[0]
    made = client.post(f"/organiser/users/{alice_id}/tokens", data={"csrf_token": token})
    assert made.status_code == 200
    secret = made.get_data(as_text=True).split("<output>")[1].split("</output>")[0]
    assert secret.startswith("focal_")
    assert secret not in client.get("/organiser/users").get_data(as_text=True)  # shown once
    bearer = app.test_client()
    assert (
        bearer.get("/api/assignments", headers={"Authorization": f"Bearer {secret}"}).status_code
        == 200
    )
    (token_id,) = rows(app, select(ApiToken.id))[0]
    revoked = client.post(
        f"/organiser/users/{alice_id}/tokens/{token_id}/revoke",
        data={"csrf_token": token},
        headers=HTMX,
    )
    assert f"Token {token_id} of alice revoked." in revoked.get_data(as_text=True)
    assert (
        bearer.get("/api/assignments", headers={"Authorization": f"Bearer {secret}"}).status_code
        == 401
    )
    bad = client.post(
        f"/organiser/users/{alice_id}/tokens",
        data={"csrf_token": token, "expires": "soon"},
        headers=HTMX,
    )
    assert bad.status_code == 422 and "expected a number of days or hours" in bad.get_data(
        as_text=True
    )

    reset = client.post(
        f"/organiser/users/{alice_id}/password",
        data={"csrf_token": token, "password": "a new password"},
        headers=HTMX,
    )
    assert "sessions ended, 0 API tokens revoked" in reset.get_data(as_text=True)
    with db.session_scope(app) as session:
        assert check_password(session.get_one(User, alice_id), "a new password")


def test_the_matrix_ticks_two_assessors_and_refuses_to_drop_judged_work(
    olga: tuple[FlaskClient, str],
) -> None:
    client, token = olga
    app = client.application
    with db.session_scope(app) as session:
        add_user(session, "bob", "assessor", PASSWORD)
    client.post("/organiser/pools", data={"csrf_token": token, "size": "5", "topic": "9001"})
    for name in ("alice", "bob"):
        tick = {"csrf_token": token, "topic": "9001", "assessor": name, "assigned": "1"}
        answer = client.post("/organiser/matrix", data=tick, headers=HTMX)
        assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert page.count('aria-pressed="true"') == 2 and "(2 assessors)" in page
    assigned = rows(app, select(User.name).join(Assignment).where(Assignment.topic_id == "9001"))
    assert sorted(name for (name,) in assigned) == ["alice", "bob"]

    with db.session_scope(app) as session:
        alice = session.scalars(select(Assignment).join(User).where(User.name == "alice")).one()
        article = session.scalars(select(PoolEntry.article)).first()
        assert article is not None
        judgements.mark_nonrelevant(session, alice, article, "op-1")
    page = client.get("/organiser/matrix").get_data(as_text=True)
    assert "1 / 5" in page  # alice's cell and column: judged / pool size
    untick = {"csrf_token": token, "topic": "9001", "assessor": "alice", "assigned": "0"}
    refused = client.post("/organiser/matrix", data=untick, headers=HTMX)
    assert refused.status_code == 422
    assert "alice has judged 1 article(s) of topic 9001" in refused.get_data(as_text=True)
    dropped = client.post("/organiser/matrix", data={**untick, "assessor": "bob"})
    assert dropped.status_code == 303
    assigned = rows(app, select(User.name).join(Assignment).where(Assignment.topic_id == "9001"))
    assert [name for (name,) in assigned] == ["alice"]


def test_a_rebuild_of_existing_pools_is_previewed_and_asked_for(
    olga: tuple[FlaskClient, str],
) -> None:
    client, token = olga
    app = client.application
    first = {"csrf_token": token, "method": "topn", "size": "5", "order": "rank", "seed": "3"}
    assert client.post("/organiser/pools", data=first, headers=HTMX).status_code == 200
    stored = rows(app, select(Pool.topic_id, PoolEntry.article).join(PoolEntry))
    page = client.get("/organiser/pools").get_data(as_text=True)
    # The form opens with the stored settings, not the defaults.
    assert 'id="pool-size" name="size" type="number" min="1" value="5"' in page
    assert (
        '<option value="rank" selected>' in page
        and 'name="seed" type="number" min="0" value="3"' in page
    )
    # A second click with nothing ticked (every topic) only shows what would change.
    again = {**first, "size": "3"}
    answer = client.post("/organiser/pools", data=again, headers=HTMX).get_data(as_text=True)
    pools = len(rows(app, select(Pool.id)))
    assert f"Rebuild {pools} pool(s) that assessors may be judging?" in answer
    assert "every topic (none was ticked)" in answer
    # 5 articles now, 3 after, 0 added, 2 removed, 0 of them judged (worked from n = 5 -> 3).
    assert "<td>9001</td><td>5</td><td>3</td><td>0</td><td>2</td><td>0</td>" in answer
    assert rows(app, select(Pool.topic_id, PoolEntry.article).join(PoolEntry)) == stored
    confirmed = client.post("/organiser/pools", data={**again, "confirm": "1"}, headers=HTMX)
    assert f"Pooled {pools} topic(s)" in confirmed.get_data(as_text=True)
    size = select(func.count(PoolEntry.id)).join(Pool).where(Pool.topic_id == "9001")
    assert rows(app, size) == [(3,)]


def test_the_settings_page_stores_the_two_switches(olga: tuple[FlaskClient, str]) -> None:
    from focal.assessor.store.settings import CampaignSettings, read_settings

    client, token = olga
    page = client.get("/organiser/settings").get_data(as_text=True)
    assert 'name="merge_across_punctuation" value="1" checked' in page
    assert 'name="runs_outline" value="1">' in page  # off by default: assessors blind to runs
    assert 'name="done_without_passage" value="ask" checked' in page
    answer = client.post(
        "/organiser/settings", data={"csrf_token": token, "merge_across_punctuation": "1"}
    )
    assert answer.status_code == 303
    with db.session_scope(client.application) as session:
        assert read_settings(session) == CampaignSettings(True, runs_outline=False)
    assert client.post("/organiser/settings", data={}).status_code == 400  # no CSRF token
