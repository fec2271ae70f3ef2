"""The judging order in the assessor (focal.assessor.campaign.pools.ordering), through Flask's test
client: the organiser sets it, "next" follows the assessor's own judgements (and the page's
unsaved one), the pool list marks the suggestion, decisions are logged, a budget ends it."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from focal.assessor.campaign.people.users import add_user, assign_topic
from focal.assessor.campaign.pools.ordering import order_progress, set_order
from focal.assessor.campaign.setup.importing import import_collection
from focal.assessor.store import db, migrate
from focal.assessor.store.models import Event, Pool, PoolEntry, Run, RunResult, Topic
from focal.assessor.web.app import create_app

ARTICLES = ["a", "b", "c", "d", "e", "f"]
# Two runs: r1 ranks a b c, r2 ranks d e f. Pool rank order: a d b e c f.
RUNS = {"r1": ["a", "b", "c"], "r2": ["d", "e", "f"]}
POOL_RANK = ["a", "d", "b", "e", "c", "f"]
PASSWORDS = {"alice": "alice-pw", "bob": "bob-pw", "olga": "olga-pw"}


@dataclass
class Site:
    app: Flask
    assignments: dict[str, int]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    directory = tmp_path / "collection"
    directory.mkdir()
    for name in ARTICLES:
        (directory / f"{name}.xml").write_text(
            f"<article><title>{name.upper()}</title><bdy><p>Text of article {name}.</p></bdy>"
            "</article>",
            encoding="utf-8",
        )
    app = create_app(
        {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'o.sqlite'}", "SECRET_KEY": "t"}
    )
    migrate.upgrade(db.engine_of(app))
    with db.session_scope(app) as session:
        import_collection(session, directory, "test")
        session.add(Topic(id="5", title="letters", description="", narrative=""))
        session.flush()
        pool = Pool(topic_id="5", method="depth", parameters={"size": 3, "order": "article"})
        session.add(pool)
        session.flush()
        for position, article in enumerate(ARTICLES):  # displayed by article id
            rank = POOL_RANK.index(article) + 1
            session.add(
                PoolEntry(pool_id=pool.id, article=article, position=position, pool_rank=rank)
            )
        for name, ranked in RUNS.items():
            run = Run(name=name, file=f"{name}.run", kind="article")
            session.add(run)
            session.flush()
            for rank, article in enumerate(ranked, 1):
                session.add(
                    RunResult(
                        run_id=run.id, topic_id="5", article=article, rank=rank, score=1 / rank
                    )
                )
        for name in ("alice", "bob"):
            add_user(session, name, "assessor", PASSWORDS[name])
        add_user(session, "olga", "organiser", PASSWORDS["olga"])
        ids = {name: assign_topic(session, "5", name).id for name in ("alice", "bob")}
    yield Site(app, ids)
    db.engine_of(app).dispose()


def login(site: Site, name: str) -> tuple[FlaskClient, str]:
    client = site.app.test_client()
    page = client.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert token
    client.post("/login", data={"name": name, "password": PASSWORDS[name],
                                "csrf_token": token.group(1)})  # fmt: skip
    page = client.get("/topics").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert token
    return client, token.group(1)


def judge(client: FlaskClient, token: str, assignment: int, article: str, relevant: bool) -> None:
    url = f"/api/assignments/{assignment}/documents/{article}/ops"
    if relevant:
        op = {"op": "highlight", "start": 1, "end": 5, "exact": "Text"}  # after the title
    else:
        op = {"op": "mark_nonrelevant"}
    response = client.post(
        url, json={"op_id": str(uuid.uuid4()), **op}, headers={"X-CSRF-Token": token}
    )
    assert response.status_code == 200, response.get_data(as_text=True)


def go_next_url(client: FlaskClient, assignment: int, query: str = "") -> str:
    """Where "next" sends the assessor: the article's address with its query string."""
    response = client.get(f"/assignments/{assignment}/next{query}")
    assert response.status_code == 303
    location: str = response.headers["Location"]
    return location


def go_next(client: FlaskClient, assignment: int, query: str = "") -> str:
    return go_next_url(client, assignment, query).rsplit("/", 1)[1].split("?")[0]


def suggestions(site: Site) -> list[Event]:
    with db.session_scope(site.app) as session:
        events = list(session.scalars(select(Event).where(Event.kind == "suggest")))
        session.expunge_all()
    return events


def set_policy(site: Site, policy: str, **options: object) -> None:
    olga, token = login(site, "olga")
    form = {"csrf_token": token, "policy": policy, **{k: str(v) for k, v in options.items()}}
    response = olga.post("/organiser/pools/order", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)


def test_fixed_order_goes_on_in_display_order(site: Site) -> None:
    alice, _ = login(site, "alice")
    assignment = site.assignments["alice"]
    assert go_next(alice, assignment, "?after=b") == "c"
    assert go_next(alice, assignment) == "a"  # no article given: the first unjudged


def test_move_to_front_follows_the_assessors_judgements(site: Site) -> None:
    set_policy(site, "mtf")
    alice, token = login(site, "alice")
    assignment = site.assignments["alice"]
    # Nothing judged: r1 (first run, priority 0) offers a; the pool page marks it.
    page = alice.get(f"/assignments/{assignment}").get_data(as_text=True)
    assert 'data-article="a" data-status="unjudged" data-suggested' in page
    assert "Judge the suggested next article (a)" in page
    assert go_next(alice, assignment) == "a"
    # a relevant: r1 stays in front, b next. a not relevant: r1 drops, r2's d next.
    judge(alice, token, assignment, "a", relevant=True)
    assert go_next(alice, assignment, "?after=a") == "b"
    judge(alice, token, assignment, "b", relevant=False)
    assert go_next(alice, assignment, "?after=b") == "d"
    # Bob's order follows his own judgements only: nothing judged, a first.
    bob, _ = login(site, "bob")
    assert go_next(bob, site.assignments["bob"]) == "a"


def test_the_pages_unsaved_judgement_counts(site: Site) -> None:
    set_policy(site, "mtf")
    alice, _ = login(site, "alice")
    assignment = site.assignments["alice"]
    # The page marked a not relevant and went on before its save arrived: r2's d, not a again.
    assert go_next(alice, assignment, "?after=a&relevant=0") == "d"
    assert go_next(alice, assignment, "?after=a&relevant=1") == "b"
    # Left unjudged (no verdict): the policy would offer a again; the display order goes on.
    assert go_next(alice, assignment, "?after=a") == "b"


def test_asking_writes_nothing_following_is_logged(site: Site) -> None:
    set_policy(site, "ucb", policy_seed=3)
    alice, token = login(site, "alice")
    assignment = site.assignments["alice"]
    # 50 GETs of "next" and of the pages that show the suggestion add no event.
    for _ in range(25):
        assert go_next(alice, assignment) == "a"
        assert alice.get(f"/assignments/{assignment}").status_code == 200
    alice.get("/topics")
    assert suggestions(site) == []
    # The suggestion's article opens marked as followed; its page reports it with a POST.
    url = go_next_url(alice, assignment)
    assert url.endswith("/articles/a?suggested=1")
    page = alice.get(url).get_data(as_text=True)
    follow = f"/assignments/{assignment}/articles/a/followed"
    assert follow in page
    assert alice.post(follow, headers={"X-CSRF-Token": token}).status_code == 204
    # Without the mark (opened from the pool list) the page reports nothing.
    assert follow not in alice.get(f"/assignments/{assignment}/articles/a").get_data(as_text=True)
    olga, olga_token = login(site, "olga")
    go_next(olga, assignment)  # an organiser looking on: not logged, and may not report
    assert olga.post(follow, headers={"X-CSRF-Token": olga_token}).status_code == 404
    # An article the order does not offer now is not logged as followed.
    other = f"/assignments/{assignment}/articles/f/followed"
    assert alice.post(other, headers={"X-CSRF-Token": token}).status_code == 204
    events = suggestions(site)
    assert len(events) == 1
    assert events[0].article == "a" and events[0].payload["policy"] == "ucb"
    assert [arm["run"] for arm in events[0].payload["arms"]] == ["1", "2"]
    with db.session_scope(site.app) as session:
        changes = session.scalars(select(Event).where(Event.kind == "judging_order")).all()
        assert [(e.payload["topic"], e.payload["policy"], e.payload["seed"]) for e in changes] == [
            ("5", "ucb", 3)
        ]


def test_budget_ends_the_suggestions_and_progress_shows_estimates(site: Site) -> None:
    set_policy(site, "thompson", budget=2)
    alice, token = login(site, "alice")
    assignment = site.assignments["alice"]
    judge(alice, token, assignment, "a", relevant=True)
    judge(alice, token, assignment, "d", relevant=False)
    response = alice.get(f"/assignments/{assignment}/next?after=d")
    assert response.headers["Location"].endswith(f"/assignments/{assignment}")
    page = alice.get(f"/assignments/{assignment}").get_data(as_text=True)
    assert "budget of 2 judgements is spent" in page
    with db.session_scope(site.app) as session:
        rows = {row.assessor: row for row in order_progress(session)}
    # Alice: 2 of 6 judged, 1 relevant; the forecast's interval covers its mean within the 4
    # unjudged articles, and waits for more judgements before the page shows it.
    assert (rows["alice"].judged, rows["alice"].relevant) == (2, 1)
    alice_row = rows["alice"]
    assert alice_row.left_low <= alice_row.unjudged_relevant <= alice_row.left_high <= 4
    assert not alice_row.ready
    assert rows["bob"].judged == 0 and rows["bob"].policy == "thompson"


def test_bad_orders_are_refused(site: Site) -> None:
    olga, token = login(site, "olga")
    response = olga.post(
        "/organiser/pools/order",
        data={"csrf_token": token, "policy": "greedy"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 422 and "unknown judging order" in response.get_data(True)
    response = olga.post(
        "/organiser/pools/order",
        data={"csrf_token": token, "policy": "mtf", "budget": "0"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 422
    with db.session_scope(site.app) as session, pytest.raises(ValueError, match="has no pool"):
        set_order(session, "mtf", ["99"])


def test_my_topics_continue_follows_the_order_and_says_what_is_left(site: Site) -> None:
    set_policy(site, "mtf")
    alice, token = login(site, "alice")
    assignment = site.assignments["alice"]
    judge(alice, token, assignment, "a", relevant=False)  # r1 drops: r2's d is offered
    assert go_next(alice, assignment, "?after=a") == "d"
    page = alice.get("/topics").get_data(as_text=True)
    assert f'href="/assignments/{assignment}/articles/d?suggested=1"' in page
    assert "Continue (article 4 of 6)" in page  # d is fourth in display order
    assert "5 of 6 not judged yet" in page
    summary = alice.get(f"/assignments/{assignment}?finished=1").get_data(as_text=True)
    assert "5 of 6 not judged yet" in summary and "is done" not in summary
    assert f'href="/assignments/{assignment}/articles/d?suggested=1"' in summary
