"""Adjudication under concurrency, through a real threaded HTTP server on SQLite and PostgreSQL.

Topic 1 is judged by alice and bob (tests/assessor/conftest.double_judge); olga (organiser) and
carol (given topic 1 to adjudicate) adjudicate it, each through a browser session (cookie and
CSRF token) and through an API token. Every request is its own HTTP connection, sent together
after a barrier.
"""

from __future__ import annotations

import http.client
import itertools
import json
import re
import threading
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urlencode

import pytest
from sqlalchemy import func, select
from werkzeug.serving import BaseWSGIServer, make_server

from focal.assessor.campaign.people.adjudicators import add_adjudicator
from focal.assessor.campaign.people.users import add_user, issue_token
from focal.assessor.store import db
from focal.assessor.store.gold import GoldEvent, GoldJudgement
from focal.assessor.store.models import User

from ...conftest import PASSWORD, Seeded, double_judge

pytestmark = pytest.mark.slow

EDITS = 24
ROUNDS = 10
ARTICLE = "1001"  # 49 characters long
GOLD = f"/organiser/adjudicate/1/{ARTICLE}/gold"


@dataclass(frozen=True)
class Identity:
    """How a client proves who it is: HTTP headers (a cookie and CSRF token, or a bearer)."""

    who: str
    headers: dict[str, str]


@pytest.fixture
def server(any_seeded: Seeded) -> Iterator[BaseWSGIServer]:
    """Topic 1 double-judged, carol its adjudicator, the app behind werkzeug's threaded server."""
    double_judge(any_seeded)
    with db.session_scope(any_seeded.app) as session:
        add_user(session, "carol", "assessor", PASSWORD)
        session.flush()
        add_adjudicator(session, "1", "carol")
    served = make_server("127.0.0.1", 0, any_seeded.app, threaded=True)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    try:
        yield served
    finally:
        served.shutdown()
        thread.join(timeout=30)


def _request(
    port: int, method: str, path: str, headers: dict[str, str], body: str | None = None
) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read().decode()
    finally:
        connection.close()


def _browser_session(port: int, name: str) -> Identity:
    """Log `name` in as a browser does: the log-in page's cookie and CSRF token, then POST."""
    status, headers, page = _request(port, "GET", "/login", {})
    cookie = headers["Set-Cookie"].split(";", 1)[0]
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert status == 200 and found is not None
    form = {"name": name, "password": PASSWORD, "csrf_token": found.group(1)}
    sent = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    status, headers, _ = _request(port, "POST", "/login", sent, urlencode(form))
    assert status == 302, status
    cookie = headers["Set-Cookie"].split(";", 1)[0]  # the session begun by logging in
    status, _, page = _request(port, "GET", "/organiser/adjudicate", {"Cookie": cookie})
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
    assert status == 200 and token is not None
    return Identity(f"{name} (session)", {"Cookie": cookie, "X-CSRF-Token": token.group(1)})


def _identities(seeded: Seeded, port: int) -> list[Identity]:
    with db.session_scope(seeded.app) as session:
        carol = session.scalars(select(User).where(User.name == "carol")).one()
        carol_token = issue_token(session, carol)
    bearers = {"olga": seeded.tokens["olga"], "carol": carol_token}
    return [
        *(_browser_session(port, name) for name in ("olga", "carol")),
        *(Identity(f"{name} (token)", {"Authorization": f"Bearer {token}"})
          for name, token in bearers.items()),
    ]  # fmt: skip


def _edit(port: int, identity: Identity, body: dict[str, object]) -> tuple[int, str]:
    headers = {**identity.headers, "Content-Type": "application/json"}
    status, _, text = _request(port, "POST", GOLD, headers, json.dumps(body))
    return status, text


def _together(count: int, send: object) -> list[tuple[int, str]]:
    """`send(i)` for i < count, on `count` threads released at once."""
    barrier = threading.Barrier(count)

    def released(index: int) -> tuple[int, str]:
        barrier.wait()
        return send(index)  # type: ignore[operator,no-any-return]

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(released, range(count)))


def test_concurrent_gold_edits_of_separate_ranges_are_all_kept(
    any_seeded: Seeded, server: BaseWSGIServer
) -> None:
    port = server.server_port
    identities = _identities(any_seeded, port)
    for round_ in range(ROUNDS):
        # Clear the gold, then 24 one-character ranges with a character between each two (they
        # never touch, so each stays its own passage), shifted by one every other round.
        clear = {"edit": "unhighlight", "start": 0, "end": 49, "op_id": uuid.uuid4().hex}
        assert _edit(port, identities[round_ % 4], clear)[0] == 200
        ranges = [(2 * i + round_ % 2, 2 * i + round_ % 2 + 1) for i in range(EDITS)]

        def send(i: int, ranges: list[tuple[int, int]] = ranges) -> tuple[int, str]:
            start, end = ranges[i]
            body = {"edit": "highlight", "start": start, "end": end, "op_id": uuid.uuid4().hex}
            return _edit(port, identities[i % len(identities)], body)

        answers = _together(EDITS, send)
        statuses = Counter(status for status, _ in answers)
        assert statuses == {200: EDITS}, (round_, statuses, answers)
        with db.session_scope(any_seeded.app) as session:
            gold = session.scalars(select(GoldJudgement)).one()
            kept = {(start, end) for start, end in gold.passages}
            missing = [span for span in ranges if span not in kept]
            assert missing == [], f"round {round_}: {len(missing)} acknowledged edits lost"
            assert sorted(kept) == ranges
            # every round: the clearing step and the 24 edits, one version each
            assert gold.version == (round_ + 1) * (EDITS + 1)
    with db.session_scope(any_seeded.app) as session:
        events = session.scalars(select(GoldEvent).order_by(GoldEvent.id)).all()
        assert len(events) == ROUNDS * (EDITS + 1)
        assert [event.version for event in events] == list(range(1, len(events) + 1))
        # each step's "previous" is the gold the step before it left
        for before, after in itertools.pairwise(events):
            assert after.previous == before.gold
        assert {event.user_name for event in events} == {"olga", "carol"}


def test_an_edit_sent_twice_is_applied_once(any_seeded: Seeded, server: BaseWSGIServer) -> None:
    port = server.server_port
    olga = _identities(any_seeded, port)[0]
    body = {"edit": "highlight", "start": 5, "end": 9, "op_id": "once"}
    answers = _together(8, lambda _: _edit(port, olga, body))
    assert [status for status, _ in answers] == [200] * 8
    assert {json.loads(text)["version"] for _, text in answers} == {1}
    reused = _edit(port, olga, {**body, "edit": "unhighlight"})
    assert reused[0] == 409 and json.loads(reused[1])["code"] == "op_id_reused"
    with db.session_scope(any_seeded.app) as session:
        assert session.scalar(select(func.count()).select_from(GoldEvent)) == 1


def _decide(port: int, identity: Identity, decision: str, version: int) -> tuple[int, str]:
    headers = {**identity.headers, "Content-Type": "application/x-www-form-urlencoded"}
    form = {"decision": decision, "version": str(version), "op_id": uuid.uuid4().hex}
    status, _, text = _request(port, "POST", f"/organiser/adjudicate/1/{ARTICLE}", headers,
                               urlencode(form))  # fmt: skip
    return status, text


def test_concurrent_first_decisions_one_wins_the_others_are_stale(
    any_seeded: Seeded, server: BaseWSGIServer
) -> None:
    """Twelve decisions of the undecided article, each made on a page that showed no gold: one
    is stored, the eleven others are refused as stale (409), none answers 500."""
    port = server.server_port
    identities = _identities(any_seeded, port)
    decisions = ("a", "b", "union", "intersection")
    answers = _together(12, lambda i: _decide(port, identities[i % 4], decisions[i % 4], 0))
    assert Counter(status for status, _ in answers) == {302: 1, 409: 11}
    refused = next(text for status, text in answers if status == 409)
    assert "changed since you opened it" in refused
    with db.session_scope(any_seeded.app) as session:
        gold = session.scalars(select(GoldJudgement)).one()
        assert gold.version == 1
        assert session.scalar(select(func.count()).select_from(GoldEvent)) == 1
    # the refusal shows the gold as it is now
    words = " ".join(refused.split())
    assert re.search(r"Decided by (olga|carol),", words) and 'id="gold-history"' in refused


def test_a_stale_tab_cannot_replace_newer_hand_edits(
    any_seeded: Seeded, server: BaseWSGIServer
) -> None:
    """Olga opens the page (version 0); carol then edits the gold by hand; olga's decision from
    the old page is refused and carol's edit stays."""
    port = server.server_port
    olga, carol = _identities(any_seeded, port)[:2]
    status, _, page = _request(
        port, "GET", f"/organiser/adjudicate/1/{ARTICLE}?preview=b", olga.headers
    )
    shown = re.search(r'name="version" value="(\d+)"', page)
    assert status == 200 and shown is not None and shown.group(1) == "0"
    edit = {"edit": "highlight", "start": 0, "end": 5, "op_id": uuid.uuid4().hex}
    assert _edit(port, carol, edit)[0] == 200
    status, text = _decide(port, olga, "b", int(shown.group(1)))
    assert status == 409 and "changed since you opened it" in text
    assert "edited by hand: relevant, 1 passage(s)" in " ".join(text.split())
    with db.session_scope(any_seeded.app) as session:
        gold = session.scalars(select(GoldJudgement)).one()
        assert (gold.decision, gold.passages, gold.version) == ("edited", [[0, 5]], 1)
    # with the version the page now shows, the decision is taken
    assert _decide(port, olga, "b", 1)[0] == 302
