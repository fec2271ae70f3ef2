"""Property-based fuzzing of every route and field (hypothesis), on SQLite and on PostgreSQL:
whatever a client sends, the answer is not a 5xx, its headers can be written on the wire
(Latin-1) and its body can be read to the end (no dropped connection).

Each request goes to one route with mostly valid URL ids, as the user who may use it; each of
its fields is either a value the view accepts (so that the request gets past the first check)
or a hostile one: NUL, lone surrogates (JSON), text outside Latin-1, formula starts, numbers no
column holds.

The campaign fuzzed is in the states the routes branch on (`PREPARED`): topics under an adaptive
judging order (`ucb`, whose untried runs score infinity), and import jobs queued, running on
another host (its heartbeat fresh or stale), interrupted and done, whose ids the job routes get.
and adjudication with a gold decided, then edited by hand (so the pages, decisions and gold
edits meet a gold with a version and a history), beside articles still undecided.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from focal.assessor.campaign.pools import ordering
from focal.assessor.campaign.results import gold_steps
from focal.assessor.store import db
from focal.assessor.store.models import ImportJob, Run, RunResult, utcnow
from focal.assessor.web.app import create_app

from ..conftest import ARTICLES, csrf_of, double_judge, empty_postgres, login, make_test_app, seed

# Every field a view or use case reads (request.form/args and the JSON of the operations,
# view events and keywords), with values it accepts; `unknown` is read by none.
VALID: dict[str, list[Any]] = {
    "name": ["alice", "Ωmega—test", "new user"],
    "password": ["correct horse", "longer password"],
    "confirm": ["longer password"],
    "next": ["/topics"],
    "topic": ["1", "2"],
    "assessor": ["alice", "bob"],
    "assigned": ["1", "0"],
    "mode": ["2005", "2006"],
    "too_small_below": ["10", "2147483648", "1" + "0" * 30],
    "path": ["/article[1]", "/article[1]/bdy[1]", "/tmp"],
    "value": ["?", "1", "2", "E"],
    "flag": ["1"],
    "note": ["=HYPERLINK(1)", "a note"],
    "add": ["fox"],
    "remove": ["fox"],
    "back": ["/topics"],
    "method": ["topn", "depth"],
    "order": ["article", "rank", "random"],
    "depth": ["5", "2147483648"],
    "size": ["5", "1" + "0" * 30],
    "seed": ["0", "2147483648"],
    "role": ["assessor", "organiser"],
    "expires": ["30d", "never", "1e9d"],
    "source": ["path", "upload"],
    "profile": ["generic"],
    "choose": ["1=alice", "1=bob"],
    "with_assessors": ["1"],
    "q": ["fox"],
    "status": ["relevant", "nonrelevant", "unjudged"],
    "sort": ["rank", "article"],
    "flagged": ["1"],
    "raw": ["1"],
    "a": ["alice"],
    "b": ["bob"],
    "op": ["highlight", "mark_nonrelevant", "set_bep", "restore", "finish", "unhighlight"],
    "op_id": ["o1", "o2"],
    "start": [5, 0],
    "end": [25, 10],
    "exact": ["The quick brown fox."],
    "offset": [5],
    "version": [0, 1],
    "client_time": ["2024-05-01T12:00:00+02:00", "0001-01-01T00:00:00+14:00", 0],
    "passages": [[[5, 25]]],
    "exacts": [["The quick brown fox."]],
    "bep": [5],
    "finished": [True, False],
    "kind": ["shown", "left"],
    "event_id": ["e1", "e2"],
    "policy": ["ucb", "thompson", "mtf", "fixed"],
    "policy_seed": ["0", "7", "1" + "0" * 30],
    "budget": ["1", "3", "2147483648"],
    "after": ["1001", "1002", "1003"],
    "relevant": ["1", "0"],
    "suggested": ["1"],
    "decision": ["a", "b", "union", "intersection"],
    "preview": ["a", "union", "intersection"],
    "edit": ["highlight", "unhighlight", "bep"],
    "unknown": ["x"],
}
SKIPPED = {"static", "auth.logout"}  # files on disk; ending the fuzzing client's own session
ORGANISERS = {"organiser", "agreement", "report", "imports", "pools_admin", "accounts", "matrix"}
ORGANISER_VIEWS = {"notes.export", "notes.overview", "twophase.modes", "twophase.set_mode"}

HOSTILE = st.sampled_from(
    ["", "-1", "2147483648", "1" + "0" * 30, "1e999", "NaN", "\x00", "a\x00b", "=1+2",
     "Ωmega—test", "\U0001f600", "../../etc/passwd", "\u202e", "x" * 300]
)  # fmt: skip
TEXT = st.one_of(HOSTILE, st.text(st.characters(codec="utf-8"), max_size=30))
JSON_TEXT = st.one_of(HOSTILE, st.sampled_from(["\ud800", "a\udfffb"]), st.text(max_size=30))
JSON_VALUE = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([2**31, 2**63, 10**30, -(2**64)])
    | st.floats()
    | JSON_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(JSON_TEXT, inner, max_size=3),
    max_leaves=6,
)


def _routes() -> list[tuple[str, str, str]]:
    """(method, rule, endpoint) of every route the fuzzing sends to (of an app on an empty
    in-memory database, built only to read its URL map)."""
    app = create_app({"DATABASE_URL": "sqlite://", "SECRET_KEY": "routes", "TESTING": True})
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint in SKIPPED:
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((method, rule.rule, rule.endpoint))
    return sorted(found)


ROUTES = _routes()
EXAMPLES = int(os.environ.get("FOCAL_FUZZ_EXAMPLES", "30"))  # per route and database


def _url(rule: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        for converter in ("int:", ""):
            rule = rule.replace(f"<{converter}{name}>", quote(value, safe=""))
    return rule


def _user_for(endpoint: str) -> str:
    """Who may use the route (alice, or olga for the organiser's pages)."""
    if endpoint.split(".")[0] in ORGANISERS or endpoint in ORGANISER_VIEWS:
        return "olga"
    return "alice"


def _fields(hostile: st.SearchStrategy[Any], text: bool) -> st.SearchStrategy[dict[str, Any]]:
    """Any of the fields, each with an accepted value or a hostile one."""
    return st.fixed_dictionaries(
        {},
        optional={
            name: st.one_of(st.sampled_from([str(v) if text else v for v in values]), hostile)
            for name, values in VALID.items()
        },
    )


@st.composite
def requests(draw: st.DrawFn, route: tuple[str, str, str], own_ids: list[int]) -> dict[str, Any]:
    """One request to `route`: its URL variables, its user, its fields or JSON body."""
    method, rule, endpoint = route
    ids = st.sampled_from([str(i) for i in own_ids] + ["0", "2147483647"])
    texts = st.one_of(st.sampled_from(["1001", "1", "1003", "times", "rounds"]), TEXT)
    names = ("assignment_id", "user_id", "token_id", "job_id", "article", "topic", "topic_id")
    variables = {name: draw(ids if f"<int:{name}>" in rule else texts) for name in (*names, "name")}
    body: Any = None
    if method == "POST" and "/api/" in rule:
        body = draw(st.one_of(_fields(JSON_VALUE, text=False), JSON_VALUE))
    user = _user_for(endpoint)
    return {
        "method": method,
        "url": _url(rule, variables),
        "fields": draw(_fields(TEXT, text=True)),
        "json": body,
        "user": draw(st.sampled_from([user] * 8 + ["alice", "olga", "anonymous"])),
        "htmx": draw(st.booleans()),
    }


def _send(clients: dict[str, tuple[FlaskClient, str]], request: dict[str, Any]) -> Any:
    client, token = clients[request["user"]]
    headers = {"X-CSRF-Token": token}
    if request["htmx"]:
        headers["HX-Request"] = "true"
    if request["method"] == "GET":
        return client.get(request["url"], query_string=request["fields"], headers=headers)
    if request["json"] is not None:
        raw = json.dumps(request["json"])  # NaN, Infinity and \ud800 escapes as they come
        headers["Content-Type"] = "application/json"
        return client.post(request["url"], data=raw, headers=headers)
    return client.post(request["url"], data={**request["fields"], "csrf_token": token})


def _judging_orders(app: Flask) -> list[int]:
    """Two runs over the pools and the `ucb` order on every topic: `next` and a followed
    suggestion go through arms never tried (an infinite score), which PostgreSQL's JSON refused."""
    with db.session_scope(app) as session:
        for number, order in enumerate((list(ARTICLES), list(reversed(ARTICLES))), start=1):
            run = Run(name=f"fuzz{number}", file=f"fuzz{number}.run", kind="fol")
            session.add(run)
            session.flush()
            for topic in ("1", "2"):
                session.add_all(
                    RunResult(run_id=run.id, topic_id=topic, article=a, rank=r, score=1.0 / r)
                    for r, a in enumerate(order, start=1)
                )
        ordering.set_order(session, "ucb")
    return []


def _import_jobs(app: Flask) -> list[int]:
    """Jobs in every state the job routes branch on; their ids."""
    stale = utcnow() - timedelta(hours=1)
    rows = [
        ImportJob(kind="topics", status="queued", request='{"kind": "topics", "files": []}'),
        ImportJob(kind="runs", status="running", worker="elsewhere.example:41"),
        ImportJob(kind="collection", status="running", worker="elsewhere.example:42",
                  updated_at=stale),
        ImportJob(kind="topics", status="interrupted", request='{"kind": "topics", "files": []}'),
        ImportJob(kind="topics", status="done", message="Imported 2 topics."),
    ]  # fmt: skip
    with db.session_scope(app) as session:
        session.add_all(rows)
        session.flush()
        return [row.id for row in rows]


def _adjudication(app: Flask) -> list[int]:
    """Topic 1's article 1001 decided (the union), then its gold edited by hand: a gold row with
    a version and a history; 1002 and 1003 stay undecided."""
    with db.session_scope(app) as session:
        gold_steps.decide(session, "1", "1001", "union", None, version=0)
        gold_steps.edit_gold(session, "1", "1001", ("highlight", 30, 40), None, version=1)
    return []


PREPARED: list[Callable[[Flask], list[int]]] = [_judging_orders, _import_jobs, _adjudication]
"""The states the fuzzed campaign is put in beyond `seed` and `double_judge`, each giving the
ids the URL variables then draw from (a hook: one builder per family of routes)."""


@dataclass
class Fuzzed:
    """A seeded app on one database, and a logged-in client for each user."""

    clients: dict[str, tuple[FlaskClient, str]]
    own_ids: list[int]


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
def fuzzed(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Fuzzed]:
    """One seeded app per database for every route (the routes change its rows as they go)."""
    tmp_path = tmp_path_factory.mktemp(f"fuzz-{request.param}")
    url = None
    if request.param == "postgresql":
        url = request.getfixturevalue("pg_url")
        empty_postgres(url)
    app = make_test_app(tmp_path, url, config={"RATELIMIT_ENABLED": False})
    seeded = seed(app, tmp_path)
    double_judge(seeded)
    prepared = [found for prepare in PREPARED for found in prepare(app)]
    anonymous = app.test_client()
    clients = {"anonymous": (anonymous, csrf_of(anonymous))}
    for user in ("alice", "olga"):
        client = app.test_client()
        clients[user] = (client, login(client, user))
    yield Fuzzed(clients, [seeded.alice, seeded.alice_topic2, 1, 2, 3, *prepared])
    db.engine_of(app).dispose()


@pytest.mark.parametrize("route", ROUTES, ids=[f"{m} {r}" for m, r, _ in ROUTES])
def test_no_route_answers_a_5xx_or_drops_the_connection(
    fuzzed: Fuzzed, route: tuple[str, str, str]
) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(request=requests(route, fuzzed.own_ids))
    def fuzz(request: dict[str, Any]) -> None:
        answer = _send(fuzzed.clients, request)
        assert answer.status_code < 500, (request, answer.status_code)
        for name, value in answer.headers.items():
            f"{name}: {value}".encode("latin-1")  # what a server writes on the wire
        answer.get_data()  # the whole body can be produced
        answer.close()

    fuzz()
