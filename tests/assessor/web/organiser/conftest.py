"""The campaign of the kept-results tests (test_kept_results.py, test_stored_results.py) and the
pages they compare: as this process shows them, as another process does, and as computed from
the judgements alone.

Topic 1: alice and bob (tests/assessor/conftest.double_judge): the queue is 1002 (opposite
verdicts) and 1001 (different passages). Topic 2 gets bob as its second assessor here.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import delete

from focal.assessor.campaign.people.users import assign_topic
from focal.assessor.campaign.results import adjudication, agreement_overview
from focal.assessor.judging import judgements
from focal.assessor.store import db
from focal.assessor.store.models import Assignment, TopicResult
from focal.assessor.web.app import create_app

from ...conftest import Seeded, double_judge

_MAKING = threading.Lock()  # (`other_process`)
SHOWN = {
    "/organiser/agreement.csv": None,  # the overview's numbers at full precision
    "/organiser/agreement": "agreement-table",
    "/organiser/adjudicate": "adjudication-topics",
    "/organiser/adjudicate/1": "adjudication-queue",
}
"""Each kept page and the table of it compared (None: the whole answer)."""


@pytest.fixture
def doubled(any_seeded: Seeded) -> Seeded:
    double_judge(any_seeded)
    with db.session_scope(any_seeded.app) as session:
        bob_topic2 = assign_topic(session, "2", "bob")
        alice_topic2 = session.get_one(Assignment, any_seeded.alice_topic2)
        judgements.highlight(session, alice_topic2, "1001", "c1", 5, 25, "The quick brown fox.")
        judgements.mark_nonrelevant(session, bob_topic2, "1001", "c2")
    return any_seeded


def shown(app: Flask, token: str) -> dict[str, str]:
    client: FlaskClient = app.test_client()
    out = {}
    for path, table in SHOWN.items():
        response = client.get(path, headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 200, path
        page = response.get_data(as_text=True)
        found = table and re.search(rf'<table[^>]* id="{table}">.*?</table>', page, re.S)
        assert table is None or found, f"{path} has no table {table}"
        out[path] = found.group(0) if found else page
    return out


def forget(app: Flask) -> None:
    """Remove every result the database keeps (`store.topic_results`)."""
    with db.session_scope(app) as session:
        session.execute(delete(TopicResult))


@pytest.fixture
def other_process(doubled: Seeded) -> Iterator[Callable[[], dict[str, str]]]:
    """The pages as another worker process shows them: a new app on the same database, which
    has kept nothing itself but finds what the database keeps."""
    url = db.engine_of(doubled.app).url.render_as_string(hide_password=False)
    apps: list[Flask] = []

    def pages() -> dict[str, str]:
        # One app made at a time: each is a worker process's, made alone in it, and Werkzeug
        # builds its URL rules with `ast`, which CPython 3.11 does not run safely in two threads
        # at once ("AST constructor recursion depth mismatch"). The pages still race.
        with _MAKING:
            app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE_URL": url})
        apps.append(app)
        return shown(app, doubled.tokens["olga"])

    yield pages
    for app in apps:
        db.engine_of(app).dispose()


@pytest.fixture
def fresh(doubled: Seeded, other_process: Callable[[], dict[str, str]]) -> Callable[[], Any]:
    """The pages as computed from the judgements alone: another process, on a database whose
    kept results were removed first."""

    def pages() -> dict[str, str]:
        forget(doubled.app)
        return other_process()

    return pages


@pytest.fixture
def computed(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[set[str]]]:
    """The topics each computation of the pages was asked for, call by call."""
    calls: dict[str, list[set[str]]] = {"agreement": [], "queue": []}

    def counting(kind: str, compute: Any) -> Any:
        def wrapped(session: Any, pairs: Any) -> Any:
            calls[kind].append(set(pairs))
            return compute(session, pairs)

        return wrapped

    monkeypatch.setattr(
        agreement_overview, "_topic_rows", counting("agreement", agreement_overview._topic_rows)
    )
    monkeypatch.setattr(
        adjudication, "_disagreements", counting("queue", adjudication._disagreements)
    )
    return calls
