"""The organiser's Report page and the assessment page's view reports."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from focal.assessor.store import db
from focal.assessor.store.models import ViewEvent

from ...conftest import Seeded, double_judge

VIEWS = "/api/assignments/{}/documents/{}/views"


@pytest.fixture
def alice(seeded: Seeded, log_in: Any) -> tuple[FlaskClient, str]:
    client = seeded.app.test_client()
    return client, log_in(client, "alice")


def post_view(client: FlaskClient, csrf: str, url: str, **body: Any) -> Any:
    return client.post(url, json=body, headers={"X-CSRF-Token": csrf})


def test_views_are_stored_once_and_only_for_the_own_assignment(
    seeded: Seeded, alice: tuple[FlaskClient, str], log_in: Any
) -> None:
    client, csrf = alice
    url = VIEWS.format(seeded.alice, "1001")
    shown = {"kind": "shown", "event_id": "e1", "client_time": "2026-11-23T09:00:00Z"}
    first = post_view(client, csrf, url, **shown)
    assert first.status_code == 201 and first.json == {"stored": True}
    again = post_view(client, csrf, url, **shown)  # a retried report
    assert again.status_code == 200 and again.json == {"stored": False}
    assert post_view(client, csrf, url, kind="looked", event_id="e2").status_code == 400
    assert post_view(client, csrf, url, kind="left", event_id="").status_code == 400
    late = post_view(client, csrf, url, kind="left", event_id="e3", client_time="noon")
    assert late.status_code == 400 and "client_time" in late.json["error"]
    # A valid ISO 8601 text whose offset takes it outside the years 1 to 9999 in UTC.
    for edge in ("0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"):
        off = post_view(client, csrf, url, kind="left", event_id="e3", client_time=edge)
        assert off.status_code == 400 and "client_time" in off.json["error"]
    assert (
        post_view(
            client, csrf, VIEWS.format(seeded.alice, "9999"), kind="left", event_id="e4"
        ).status_code
        == 404
    )
    assert client.post(url, json={"kind": "left", "event_id": "e5"}).status_code == 400  # no CSRF
    bob = seeded.app.test_client()
    bob_csrf = log_in(bob, "bob")
    assert post_view(bob, bob_csrf, url, kind="left", event_id="e6").status_code == 404
    with db.session_scope(seeded.app) as session:
        rows = session.execute(
            select(ViewEvent.kind, ViewEvent.event_id, ViewEvent.client_time)
        ).all()
    assert [(kind, event) for kind, event, _time in rows] == [("shown", "e1")]
    assert rows[0][2].isoformat() == "2026-11-23T09:00:00"  # stored as naive UTC


def _config(page: str) -> dict[str, Any]:
    found = re.search(
        r'<script type="application/json" id="focal-config">(.*?)</script>', page, re.S
    )
    assert found is not None
    config: dict[str, Any] = json.loads(found.group(1))
    return config


def test_the_page_reports_views_for_its_assessor_only(
    seeded: Seeded, alice: tuple[FlaskClient, str], log_in: Any
) -> None:
    client, _csrf = alice
    page = client.get(f"/assignments/{seeded.alice}/articles/1001").get_data(as_text=True)
    assert _config(page)["viewsUrl"] == VIEWS.format(seeded.alice, "1001")
    assert '/static/assess/main.js"' in page  # which imports view-events.js (tests/static)
    olga = seeded.app.test_client()
    log_in(olga, "olga")
    read_only = olga.get(f"/assignments/{seeded.alice}/articles/1001").get_data(as_text=True)
    assert _config(read_only)["viewsUrl"] is None


def test_only_organisers_see_the_report(seeded: Seeded, alice: tuple[FlaskClient, str]) -> None:
    client, _csrf = alice
    assert client.get("/organiser/report").status_code == 403
    assert client.get("/organiser/report/times.csv").status_code == 403


def test_the_report_page_and_its_csv(seeded: Seeded, log_in: Any) -> None:
    double_judge(seeded)
    olga = seeded.app.test_client()
    log_in(olga, "olga")
    page = olga.get("/organiser/report").get_data(as_text=True)
    for name in ("times", "passages", "elemental", "bep_distance", "specificity", "too_small"):
        assert f'id="table-{name}"' in page
    # alice: 1001 one passage, 1003 one; bob: 1001 and 1002 one each -> 4 articles with 1
    csv = olga.get("/organiser/report/passages.csv")
    assert csv.status_code == 200 and csv.mimetype == "text/csv"
    assert csv.get_data(as_text=True) == "passages,articles,share\n1,4,1.0\n"
    # One bar (every relevant article has one passage) says nothing the table does not: no chart.
    assert 'id="chart-passages-articles"' not in page
    for chart in page.split("<svg ")[1:]:  # the charts drawn compare two bars or more
        assert chart.split("</svg>")[0].count('<rect class="bar"') >= 2 and "style=" not in chart
    # A contents list links every table; the Method note cites the study by author and year.
    contents = page.split('id="report-contents"')[1].split("</nav>")[0]
    assert contents.count('<a href="#table-') == page.count('<section class="report-table"')
    method = page.split('id="report-method"')[1].split("</section>")[0]
    assert "Piwowarski, Trotman &amp; Lalmas (2008), Table III" in method and "seed" not in page
    one = olga.get("/organiser/report?topic=2").get_data(as_text=True)
    # every table: the analyses, seed 003's Table IV and behaviour, the adjudication events
    assert one.count("Empty: no article has been judged here yet.") == 11
    assert olga.get("/organiser/report?topic=77").status_code == 404
    assert olga.get("/organiser/report/nothing.csv").status_code == 404
    bob = olga.get("/organiser/report/passages.csv?assessor=bob").get_data(as_text=True)
    assert bob == "passages,articles,share\n1,2,1.0\n"


def test_the_report_page_names_its_columns_in_words_and_times_in_minutes(
    seeded: Seeded, log_in: Any
) -> None:
    double_judge(seeded)
    olga = seeded.app.test_client()
    log_in(olga, "olga")
    page = olga.get("/organiser/report").get_data(as_text=True)
    times = page.split('id="table-times"')[1].split("</section>")[0]
    assert ">Time per relevant article</th>" in times and ">relevant_mean_s<" not in times
    assert 'title="mean time from showing a relevant article to leaving it"' in times
    assert "<dt>Time per relevant article</dt>" in times and "(minutes:seconds)" in times
    # Every chart is as wide as the page; the CSV keeps the code names.
    charts = re.findall(r'<svg id="chart-[^"]+" xmlns="http://www.w3.org/2000/svg" ([^>]*)>', page)
    assert charts and all(attributes.startswith('width="100%"') for attributes in charts)
    csv = olga.get("/organiser/report/times.csv").get_data(as_text=True)
    assert csv.startswith("topic,assessor,relevant,relevant_mean_s,")
