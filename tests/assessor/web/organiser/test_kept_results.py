"""What the agreement and adjudication pages keep per topic (`campaign.results.topic_cache`) is
never shown stale: after a judgement changes, every page shows what a process that kept nothing
computes, and only the changed topic is computed again.

Topic 1: alice and bob (tests/assessor/conftest.double_judge): the queue is 1002 (opposite
verdicts) and 1001 (different passages). Topic 2 gets bob as its second assessor here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from focal.assessor.campaign.people.users import assign_topic
from focal.assessor.campaign.results import adjudication, agreement_overview
from focal.assessor.judging import judgements
from focal.assessor.store import db
from focal.assessor.store.models import Assignment
from focal.assessor.web.app import create_app

from ...conftest import Seeded, double_judge

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


def _shown(app: Flask, token: str) -> dict[str, str]:
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


@pytest.fixture
def fresh(doubled: Seeded) -> Iterator[Callable[[], dict[str, str]]]:
    """The pages as an app that has kept nothing shows them: a new app on the same database,
    as another worker process would be."""
    url = db.engine_of(doubled.app).url.render_as_string(hide_password=False)
    apps: list[Flask] = []

    def pages() -> dict[str, str]:
        app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE_URL": url})
        apps.append(app)
        return _shown(app, doubled.tokens["olga"])

    yield pages
    for app in apps:
        db.engine_of(app).dispose()


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


def test_a_changed_judgement_changes_every_page_and_only_its_topic_is_computed(
    doubled: Seeded, fresh: Callable[[], dict[str, str]], computed: dict[str, list[set[str]]]
) -> None:
    token = doubled.tokens["olga"]
    before = _shown(doubled.app, token)
    assert before == fresh()
    assert "<td>0 / 2</td>" in before["/organiser/adjudicate"]
    assert computed["agreement"][0] == {"1", "2"} and computed["queue"][0] == {"1", "2"}
    for calls in computed.values():
        calls.clear()
    assert _shown(doubled.app, token) == before
    assert computed == {"agreement": [], "queue": []}, "nothing changed, nothing computed"

    with db.session_scope(doubled.app) as session:  # bob now agrees with alice on 1002
        judgements.mark_nonrelevant(session, session.get_one(Assignment, doubled.bob), "1002", "b9")
    after = _shown(doubled.app, token)
    assert computed == {"agreement": [{"1"}], "queue": [{"1"}]}
    assert after == fresh()
    assert all(after[path] != before[path] for path in SHOWN), "every page shows the change"
    assert "<td>0 / 1</td>" in after["/organiser/adjudicate"]
    assert "/organiser/adjudicate/1/1002" not in after["/organiser/adjudicate/1"]


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_write_racing_the_computation_is_never_kept_stale(
    doubled: Seeded,
    fresh: Callable[[], dict[str, str]],
    monkeypatch: pytest.MonkeyPatch,
    when: str,
) -> None:
    """Another assessor's write commits while a page computes, `before` or `after` it reads the
    judgements (after it read the stamps, before it keeps what it computed): the race a
    concurrent writer makes. The next page shows the write."""
    token = doubled.tokens["olga"]
    before = fresh()  # the app under test has kept nothing yet
    writes = {  # what bob does while each computation runs, once: both change the pages
        "agreement": lambda session, bob: judgements.highlight(
            session, bob, "1002", "b8", 10, 24, " article text."
        ),
        "queue": lambda session, bob: judgements.mark_nonrelevant(session, bob, "1002", "b9"),
    }

    def racing(kind: str, read: Any) -> Any:
        def write() -> None:
            if kind in writes:
                with db.session_scope(doubled.app) as other:
                    writes.pop(kind)(other, other.get_one(Assignment, doubled.bob))

        def wrapped(session: Any, *args: Any, **kwargs: Any) -> Any:
            if when == "before":
                write()
            found = read(session, *args, **kwargs)
            if when == "after":
                write()
            return found

        return wrapped

    monkeypatch.setattr(
        agreement_overview,
        "judged_articles",
        racing("agreement", agreement_overview.judged_articles),
    )
    monkeypatch.setattr(
        adjudication, "pair_highlights", racing("queue", adjudication.pair_highlights)
    )
    _shown(doubled.app, token)  # computes every topic, a write racing each computation
    assert not writes, "both computations raced a write"
    monkeypatch.undo()
    after = _shown(doubled.app, token)
    assert after == fresh()
    assert after["/organiser/agreement.csv"] != before["/organiser/agreement.csv"]
    assert after["/organiser/adjudicate/1"] != before["/organiser/adjudicate/1"]
