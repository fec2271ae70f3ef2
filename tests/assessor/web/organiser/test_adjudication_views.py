"""The adjudication pages on topic 1 (alice and bob: tests/assessor/conftest.double_judge).

alice: 1001 relevant [5, 25) BEP 5, 1002 not relevant; bob: 1001 relevant [9, 35) BEP 12,
1002 relevant [4, 10). The queue is 1002 (opposite verdicts) then 1001.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient
from sqlalchemy import select

from focal.assessor.campaign.people.users import add_user
from focal.assessor.cli import support
from focal.assessor.cli.main import main
from focal.assessor.store import db
from focal.assessor.store.gold import GoldJudgement

from ...conftest import PASSWORD, Seeded, double_judge

PAGES = (
    "/organiser/adjudicate",
    "/organiser/adjudicate/1",
    "/organiser/adjudicate/1/1001",
)


@pytest.fixture
def doubled(seeded: Seeded) -> Seeded:
    double_judge(seeded)
    return seeded


@pytest.fixture
def olga(doubled: Seeded, log_in: Any) -> FlaskClient:
    client = doubled.app.test_client()
    client.environ_base["HTTP_X_CSRF_TOKEN"] = log_in(client, "olga")
    return client


@pytest.mark.parametrize("path", PAGES)
def test_assessors_never_see_the_adjudication(doubled: Seeded, log_in: Any, path: str) -> None:
    client = doubled.app.test_client()
    assert client.get(path).status_code == 302  # to the log-in page
    token = log_in(client, "alice")
    assert client.get(path).status_code == 403
    refused = client.post(path, data={"decision": "a", "csrf_token": token})
    assert refused.status_code in (403, 405)
    with db.session_scope(doubled.app) as session:
        assert session.scalars(select(GoldJudgement)).first() is None


def test_the_queue_shows_disagreements_in_order_with_progress(olga: FlaskClient) -> None:
    page = olga.get("/organiser/adjudicate/1").get_data(as_text=True)
    assert re.findall(r'/organiser/adjudicate/1/(\d+)">\d+</a></td>\s*<td>([\d.]+)', page) == [
        ("1002", "1.00"),
        ("1001", "0.47"),  # 1 − 16/30 = 0.4667
    ]
    assert "0 of 2 decided" in page
    assert 'id="next-disagreement" href="/organiser/adjudicate/1/1002"' in page
    overview = olga.get("/organiser/adjudicate").get_data(as_text=True)
    assert "<td>0 / 2</td>" in overview and "alice and bob" in overview


def test_the_article_page_describes_both_sides_in_words(olga: FlaskClient) -> None:
    page = " ".join(olga.get("/organiser/adjudicate/1/1001").get_data(as_text=True).split())
    # 1001's text: "Alpha" [0,5) "The quick brown fox." [5,25) "Jumps over the lazy dog." [25,49)
    assert "alice</mark>: relevant, 1 passage; best entry point before “The quick brown" in page
    assert "bob</mark>: relevant, 1 passage; best entry point before “ck brown fox." in page
    assert 'id="overlay"' in page and "Not decided yet." in page
    assert page.count('name="preview"') == 4 and 'id="confirm-decision"' not in page


def test_deciding_moves_on_and_records_the_gold(olga: FlaskClient, doubled: Seeded) -> None:
    first = olga.post("/organiser/adjudicate/1/1002", data={"decision": "b", "version": "0"})
    assert first.status_code == 302 and first.location.endswith("/organiser/adjudicate/1/1001")
    page = html.unescape(" ".join(olga.get("/organiser/adjudicate/1/1002").text.split()))
    assert "bob's judgement: relevant, 1 passage(s); best entry point before “Second" in page
    assert "Decided by olga," in page and 'id="gold-overlay"' in page
    last = olga.post("/organiser/adjudicate/1/1001", data={"decision": "union", "version": "0"})
    assert last.status_code == 302 and last.location.endswith("/organiser/adjudicate/1")
    assert "2 of 2 decided" in olga.get("/organiser/adjudicate/1").get_data(as_text=True)
    with db.session_scope(doubled.app) as session:
        rows = session.scalars(select(GoldJudgement).order_by(GoldJudgement.article)).all()
        assert [(r.article, r.decision, r.passages) for r in rows] == [
            ("1001", "union", [[5, 35]]),
            ("1002", "b", [[4, 10]]),
        ]


def test_bad_requests_are_4xx(olga: FlaskClient) -> None:
    refused = olga.post("/organiser/adjudicate/1/1001", data={"decision": "both", "version": "0"})
    assert refused.status_code == 422
    assert "unknown decision" in refused.get_data(as_text=True)
    for version in ("", "-1", "x", "9" * 30):
        unversioned = olga.post(
            "/organiser/adjudicate/1/1001", data={"decision": "a", "version": version}
        )
        assert unversioned.status_code == 422 and "expected the version" in unversioned.text
    assert olga.get("/organiser/adjudicate/2").status_code == 404  # judged once
    assert olga.get("/organiser/adjudicate/9/1001").status_code == 404
    assert olga.get("/organiser/adjudicate/1/nope").status_code == 404
    assert (
        olga.post(
            "/organiser/adjudicate/1/1003", data={"decision": "a", "version": "0"}
        ).status_code
        == 422
    )


def test_the_gold_is_edited_through_json(olga: FlaskClient, doubled: Seeded) -> None:
    url = "/organiser/adjudicate/1/1001/gold"
    answer = olga.post(url, json={"edit": "highlight", "start": 5, "end": 25})
    assert answer.status_code == 200
    assert answer.json == {
        "status": "relevant",
        "passages": [[5, 25]],
        "bep": 5,
        "decision": "edited",
        "version": 1,
    }
    moved = olga.post(url, json={"edit": "bep", "start": 12, "version": 1, "op_id": "m"})
    assert moved.status_code == 200 and moved.json is not None and moved.json["bep"] == 12
    again = olga.post(url, json={"edit": "bep", "start": 12, "version": 1, "op_id": "m"})
    assert again.status_code == 200 and again.json == moved.json  # applied once: version 2
    stale = olga.post(url, json={"edit": "highlight", "start": 30, "end": 40, "version": 1})
    assert stale.status_code == 409 and stale.json is not None
    assert stale.json["code"] == "stale_version" and "changed since" in stale.json["error"]
    for body in (
        {"edit": "bep", "start": 12, "op_id": 7},
        {"edit": "bep", "start": 12, "version": -1},
    ):
        assert olga.post(url, json=body).status_code == 422
    for body in ({"edit": "highlight", "start": "5", "end": 9}, {"start": 1}, [1, 2]):
        refused = olga.post(url, json=body)
        assert refused.status_code == 422 and "integer offsets" in refused.json["error"]
    outside = olga.post(url, json={"edit": "highlight", "start": 40, "end": 99})
    assert outside.status_code == 422 and "not a range" in outside.json["error"]
    page = html.unescape(" ".join(olga.get("/organiser/adjudicate/1/1001").text.split()))
    assert "edited by hand: relevant, 1 passage(s); best entry point before “ck brown" in page
    assert 'data-url="/organiser/adjudicate/1/1001/gold"' in page


def test_assessors_cannot_edit_the_gold(doubled: Seeded, log_in: Any) -> None:
    client = doubled.app.test_client()
    token = log_in(client, "bob")
    body = {"edit": "highlight", "start": 0, "end": 5}
    refused = client.post(
        "/organiser/adjudicate/1/1001/gold", json=body, headers={"X-CSRF-Token": token}
    )
    assert refused.status_code == 403
    with db.session_scope(doubled.app) as session:
        assert session.scalars(select(GoldJudgement)).first() is None


def test_an_adjudicator_of_a_topic_adjudicates_it_and_nothing_else(
    doubled: Seeded, log_in: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(support, "make_app", lambda migrated=True: doubled.app)
    with db.session_scope(doubled.app) as session:
        add_user(session, "carol", "assessor", PASSWORD)
        session.commit()
    refused = CliRunner().invoke(main, ["assign", "1", "alice", "--adjudicator"])
    assert refused.exit_code == 2 and "alice assesses topic 1, so cannot adjudicate it" in (
        refused.output
    )
    given = CliRunner().invoke(main, ["assign", "1", "carol", "--adjudicator"])
    assert given.exit_code == 0 and "carol adjudicates topic 1" in given.output
    again = CliRunner().invoke(main, ["assign", "1", "carol"])  # now carol may not assess it
    assert again.exit_code == 2 and "carol adjudicates topic 1, so cannot assess it" in again.output

    carol = doubled.app.test_client()
    carol.environ_base["HTTP_X_CSRF_TOKEN"] = log_in(carol, "carol")
    home = carol.get("/organiser/adjudicate").text
    assert '<a href="/organiser/adjudicate">Adjudication</a>' in home  # in carol's nav
    assert "/organiser/adjudicate/1" in home and "<td>0 / 2</td>" in home
    decided = carol.post("/organiser/adjudicate/1/1002", data={"decision": "a", "version": "0"})
    assert decided.status_code == 302
    for path in ("/organiser/adjudicate/2", "/organiser/agreement", "/organiser/agreement/1"):
        assert carol.get(path).status_code == 403, path
    with db.session_scope(doubled.app) as session:
        row = session.scalars(select(GoldJudgement)).one()
        assert (row.article, row.decision) == ("1002", "a")

    taken = CliRunner().invoke(main, ["assign", "1", "carol", "--adjudicator", "--remove"])
    assert taken.exit_code == 0 and "carol no longer adjudicates topic 1" in taken.output
    assert carol.get("/organiser/adjudicate/1").status_code == 403
    assert carol.get("/organiser/adjudicate").status_code == 403
    assert "Adjudication</a>" not in carol.get("/topics").text


def test_the_preview_shows_the_gold_and_warns_before_a_relevant_article_turns_not_relevant(
    olga: FlaskClient, doubled: Seeded
) -> None:
    # 1002: alice not relevant, bob relevant [4, 10): alice's judgement drops bob's passage
    page = " ".join(olga.get("/organiser/adjudicate/1/1002?preview=a").text.split())
    assert 'id="preview"' in page and 'id="confirm-decision"' in page
    assert "The gold would be not relevant, 0 passage(s) of 0 characters" in page
    assert "bob judged article 1002 relevant: this gold makes it not relevant." in page
    assert 'name="version" value="0"' in page
    kept = " ".join(olga.get("/organiser/adjudicate/1/1002?preview=b").text.split())
    assert "The gold would be relevant, 1 passage(s) of 6 characters" in kept
    assert 'id="preview-warning"' not in kept
    # previewing stores nothing; an unknown preview shows no preview
    assert 'id="preview"' not in olga.get("/organiser/adjudicate/1/1002?preview=x").text
    with db.session_scope(doubled.app) as session:
        assert session.scalars(select(GoldJudgement)).first() is None


def test_the_confirmation_names_the_assessor_and_the_queue_shows_edited_gold(
    olga: FlaskClient,
) -> None:
    decided = olga.post(
        "/organiser/adjudicate/1/1002", data={"decision": "a", "version": "0"},
        follow_redirects=True,
    )  # fmt: skip
    assert "Article 1002 decided: alice&#39;s judgement." in decided.text
    url = "/organiser/adjudicate/1/1001/gold"
    assert olga.post(url, json={"edit": "highlight", "start": 5, "end": 12}).status_code == 200
    queue = " ".join(olga.get("/organiser/adjudicate/1").text.split())
    assert "<td>edited by hand: relevant, 1 passage (7 characters)</td>" in queue
    assert "<td>alice&#39;s judgement: not relevant</td>" in queue
    replacing = " ".join(olga.get("/organiser/adjudicate/1/1001?preview=a").text.split())
    assert "Saving replaces the gold as it is now (edited by hand: relevant, 1 passage" in replacing


def test_every_step_is_in_the_history_on_the_page_and_in_the_report(
    olga: FlaskClient, doubled: Seeded
) -> None:
    url = "/organiser/adjudicate/1/1001"
    assert olga.post(url, data={"decision": "union", "version": "0"}).status_code == 302
    assert olga.post(f"{url}/gold", json={"edit": "unhighlight", "start": 5, "end": 9}).json
    page = html.unescape(" ".join(olga.get(url).text.split()))
    history = page[page.index('id="gold-history"') :]
    assert "decided: every passage of either (union)" in history
    assert "took out characters 5–9" in history
    # before the union nothing; the union [5, 35) = 30 characters; then [9, 35) = 26
    assert re.findall(r"<td>olga</td><td>[^<]+</td> <td>([^<]+)</td><td>([^<]+)</td>", history) == [
        ("none", "relevant, 1 passage (30 characters)"),
        ("relevant, 1 passage (30 characters)", "relevant, 1 passage (26 characters)"),
    ]
    report = olga.get("/organiser/report/adjudication.csv")
    assert report.status_code == 200
    lines = report.text.splitlines()
    assert lines[0].split(",")[:4] == ["topic", "article", "assessors", "decision"]
    assert [line.split(",")[3] for line in lines[1:]] == ["union", "unhighlight"]


def test_the_export_page_offers_the_adjudicated_qrels(
    olga: FlaskClient, doubled: Seeded, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = olga.get("/organiser/export").text
    assert 'id="export-adjudicated"' in page and 'name="adjudicated" value="1"' in page
    assert (
        olga.post(
            "/organiser/adjudicate/1/1001", data={"decision": "b", "version": "0"}
        ).status_code
        == 302
    )
    monkeypatch.setattr(support, "make_app", lambda migrated=True: doubled.app)
    command = CliRunner().invoke(main, ["export-qrels", "--adjudicated"])
    assert command.exit_code == 0, command.output
    downloaded = olga.get("/organiser/export.qrels?adjudicated=1")
    assert downloaded.status_code == 200 and downloaded.text == command.stdout
    assert "focal-adjudicated.qrels" in downloaded.headers["Content-Disposition"]
    # the organiser's API: the same URL with a token
    bearer = {"Authorization": f"Bearer {doubled.tokens['olga']}"}
    by_token = doubled.app.test_client().get("/organiser/export.qrels?adjudicated=1&topic=1",
                                             headers=bearer)  # fmt: skip
    assert by_token.status_code == 200 and by_token.text == command.stdout  # topic 2: nothing
    refused = olga.get("/organiser/export.qrels?adjudicated=1&assessor=alice")
    assert refused.status_code == 422 and "--adjudicated writes FOL qrels" in html.unescape(
        refused.text
    )
    # the adjudication pages link to it
    assert "/organiser/export#adjudicated" in olga.get("/organiser/adjudicate").text
    assert "/organiser/export#adjudicated" in olga.get("/organiser/adjudicate/1/1001").text
