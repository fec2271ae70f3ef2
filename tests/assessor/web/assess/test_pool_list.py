"""The pool list through Flask's test client: titles, states, flags, filters, sorting, search.

Alice's topic 1 (tests/assessor/conftest.py): 1001 "Zebra crossing" unjudged and flagged,
1002 "alpine lakes" not relevant, 1003 without a title (shown by its id) relevant with a note.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import event

from focal.assessor.campaign.people.notes import save_note
from focal.assessor.campaign.pools.listing import pool_list
from focal.assessor.judging import judgements
from focal.assessor.store import db
from focal.assessor.store.models import Assignment, Document, Pool, PoolEntry

from ...conftest import Seeded

TITLES = {"1001": "Zebra crossing", "1002": "alpine lakes", "1003": None}


@pytest.fixture
def judged(seeded: Seeded) -> Seeded:
    with db.session_scope(seeded.app) as session:
        for article, title in TITLES.items():
            session.get_one(Document, article).title = title
        alice = session.get_one(Assignment, seeded.alice)
        judgements.mark_nonrelevant(session, alice, "1002", "o1")
        judgements.highlight(session, alice, "1003", "o2", 5, 11, "Astral")
        save_note(session, alice, "1001", True, "")
        save_note(session, alice, "1003", False, "why not")
    return seeded


def listed(client: FlaskClient, url: str) -> list[str]:
    response = client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="pool"')
    return re.findall(r'<tr data-article="(\d+)"', body)


@contextmanager
def statements(seeded: Seeded) -> Iterator[list[str]]:
    """The SQL statements run on the app's engine meanwhile."""
    seen: list[str] = []

    def record(*args: Any) -> None:
        seen.append(args[2])

    engine = db.engine_of(seeded.app)
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def test_the_list_shows_titles_states_flags_and_what_is_left(judged: Seeded, log_in: Any) -> None:
    alice = judged.app.test_client()
    log_in(alice, "alice")
    page = alice.get(f"/assignments/{judged.alice}").get_data(as_text=True)
    assert ">Zebra crossing</a>" in page and ">alpine lakes</a>" in page
    assert ">1003</a>" in page  # no title: the id
    assert '<tr data-article="1001" data-status="unjudged" data-flagged>' in page
    assert '<span class="state state-flagged">flagged</span>' in page
    assert 'data-left="1"' in page and "1 left to judge" in page and "1 flagged" in page
    assert 'name="q"' in page and 'name="sort"' in page and 'value="flagged"' in page


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", ["1001", "1002", "1003"]),
        ("?status=unjudged", ["1001"]),
        ("?status=relevant", ["1003"]),
        ("?status=nonrelevant", ["1002"]),
        ("?status=flagged", ["1001"]),
        ("?status=bogus&sort=bogus", ["1001", "1002", "1003"]),
        ("?sort=title", ["1003", "1002", "1001"]),  # "1003", "alpine lakes", "Zebra crossing"
        ("?sort=state", ["1001", "1003", "1002"]),  # unjudged, relevant, not relevant
        ("?q=ALPINE", ["1002"]),  # titles, any case
        ("?q=03", ["1003"]),  # ids
        ("?q=%20zebra%20%20crossing", ["1001"]),  # spaces collapsed
        ("?q=lakes&status=relevant", []),
        ("?q=100&sort=title&status=all", ["1003", "1002", "1001"]),
    ],
)
def test_filters_sorting_and_search(
    judged: Seeded, log_in: Any, query: str, expected: list[str]
) -> None:
    alice = judged.app.test_client()
    log_in(alice, "alice")
    assert listed(alice, f"/assignments/{judged.alice}{query}") == expected


def test_an_empty_search_result_says_so(judged: Seeded, log_in: Any) -> None:
    alice = judged.app.test_client()
    log_in(alice, "alice")
    body = alice.get(f"/assignments/{judged.alice}?q=nothing").get_data(as_text=True)
    assert "No article matches this search." in body and "0 of 3 articles shown" in body


def test_a_pool_of_1500_articles_is_read_in_one_query(judged: Seeded, log_in: Any) -> None:
    with db.session_scope(judged.app) as session:
        collection = session.get_one(Document, "1001").collection_id
        pool = session.query(Pool).filter_by(topic_id="2").one()
        for number in range(1500):
            article = f"9{number:04d}"
            session.add(
                Document(
                    id=article,
                    collection_id=collection,
                    file=None,  # never read: the list needs no file
                    text_length=10,
                    title=f"Article {number}",
                )
            )
            pool.entries.append(PoolEntry(article=article, position=10 + number, pool_rank=1))
    with db.session_scope(judged.app) as session:
        assignment = session.get_one(Assignment, judged.alice_topic2)
        with statements(judged) as seen:
            rows = pool_list(session, assignment).rows
        assert len(rows) == 1503 and len(seen) == 1
    alice = judged.app.test_client()
    log_in(alice, "alice")
    with statements(judged) as seen:
        shown = listed(alice, f"/assignments/{judged.alice_topic2}?sort=title&q=article%2014")
    assert shown[:3] == ["90014", "90140", "91400"] and len(shown) == 111  # 14, 14x, 14xx
    assert len(seen) < 15  # a handful for the user, assignment and progress: none per article
