"""Every case of the second hostile-input probe is a 4xx with a message, on SQLite and on
PostgreSQL: non-ASCII CSRF tokens, client times pushed out of range by their offset, lone
surrogates and NUL characters, thresholds no column holds, large bodies, and downloads named
outside Latin-1."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from focal.assessor.campaign.people import notes
from focal.assessor.store import db
from focal.assessor.store.models import Assignment, User

from ..conftest import login

MIB = 1024**2


def _client(seeded: Any, name: str = "alice") -> tuple[FlaskClient, str]:
    client = seeded.app.test_client()
    return client, login(client, name)


def _post_json(client: FlaskClient, url: str, raw: str, token: str) -> Any:
    """POST `raw` JSON text as it is (so that escapes such as \\ud800 reach the server)."""
    headers = {"Content-Type": "application/json", "X-CSRF-Token": token}
    return client.post(url, data=raw.encode(), headers=headers)


@pytest.mark.parametrize("token", ["é" * 43, "\u2603", "x\u00ff"])
def test_a_non_ascii_csrf_token_is_a_400(any_seeded: Any, token: str) -> None:
    client, _ = _client(any_seeded)
    url = f"/assignments/{any_seeded.alice}/keywords"
    assert client.post(url, data={"add": "fox", "csrf_token": token}).status_code == 400
    api = f"/api/assignments/{any_seeded.alice}/keywords"
    answer = client.post(api, json={"add": "fox"}, headers={"X-CSRF-Token": token})
    assert answer.status_code == 400 and "CSRF" in answer.get_json()["error"]


@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_a_client_time_out_of_range_after_its_offset_is_a_400(any_seeded: Any, moment: str) -> None:
    client, token = _client(any_seeded)
    base = f"/api/assignments/{any_seeded.alice}/documents/1001"
    operation = {"op": "mark_nonrelevant", "op_id": "t1", "client_time": moment}
    answer = client.post(f"{base}/ops", json=operation, headers={"X-CSRF-Token": token})
    assert answer.status_code == 422 and "client_time" in answer.get_json()["error"]
    event = {"kind": "shown", "event_id": "e1", "client_time": moment}
    answer = client.post(f"{base}/views", json=event, headers={"X-CSRF-Token": token})
    assert answer.status_code == 400 and "client_time" in answer.get_json()["error"]


@pytest.mark.parametrize("text", ["\\ud800", "a\\udfffb", "\\u0000", "x\\u0000y"])
def test_lone_surrogates_and_nul_in_json_are_a_400(any_seeded: Any, text: str) -> None:
    client, token = _client(any_seeded)
    base = f"/api/assignments/{any_seeded.alice}"
    bodies = {
        f"{base}/documents/1001/ops": f'{{"op": "mark_nonrelevant", "op_id": "{text}"}}',
        f"{base}/documents/1001/views": f'{{"kind": "shown", "event_id": "{text}"}}',
        f"{base}/keywords": f'{{"add": "{text}"}}',
    }
    for url, raw in bodies.items():
        answer = _post_json(client, url, raw, token)
        assert answer.status_code == 400, (url, answer.status_code)
        assert "body" in answer.get_json()["error"]


@pytest.mark.parametrize("raw", ["NaN", "Infinity", "-Infinity", "1e999", str(2**64)])
def test_json_numbers_no_column_holds_are_a_400(any_seeded: Any, raw: str) -> None:
    client, token = _client(any_seeded)
    url = f"/api/assignments/{any_seeded.alice}/documents/1001/ops"
    body = f'{{"op": "highlight", "op_id": "n1", "start": {raw}, "end": 5, "exact": "x"}}'
    assert _post_json(client, url, body, token).status_code == 400


def test_nul_in_any_form_or_query_field_is_a_400_before_the_database(any_seeded: Any) -> None:
    # Log-in name (before authentication), then the organiser's forms and filters.
    anonymous = any_seeded.app.test_client()
    csrf = login(any_seeded.app.test_client(), "bob")  # only to have the page's form working
    del csrf
    page = anonymous.get("/login")
    assert page.status_code == 200
    answer = anonymous.post("/login", data={"name": "ali\x00ce", "password": "x"})
    assert answer.status_code == 400 and b"NUL character" in answer.data
    client, token = _client(any_seeded, "olga")
    forms = {
        "/organiser/assignments": {"topic": "1\x00", "assessor": "bob"},
        "/organiser/matrix": {"topic": "1", "assessor": "b\x00b", "assigned": "1"},
        "/organiser/double": {"topic": "1", "assessor": "\x00"},
        "/organiser/users": {"name": "n\x00", "role": "assessor", "password": "p" * 12},
        "/twophase/modes/1": {"mode": "2005\x00", "too_small_below": ""},
    }
    for url, form in forms.items():
        assert client.post(url, data={**form, "csrf_token": token}).status_code == 400, url
    for url in (
        "/organiser/report?topic=1%00",
        "/organiser/report/times.csv?assessor=a%00",
        "/organiser/export.qrels?assessor=%00",
        "/organiser/export.notes?topic=%00",
        "/organiser/notes?topic=1%00",
        "/organiser/progress?x%00=1",
    ):
        assert client.get(url).status_code == 400, url
    alice, token = _client(any_seeded)
    keyword = {"add": "f\x00x", "csrf_token": token}
    assert alice.post(f"/assignments/{any_seeded.alice}/keywords", data=keyword).status_code == 400


@pytest.mark.parametrize("threshold", [str(2**31), str(10**30)])
@pytest.mark.parametrize("htmx", [False, True])
def test_a_threshold_no_column_holds_is_refused_with_a_message(
    any_seeded: Any, threshold: str, htmx: bool
) -> None:
    client, token = _client(any_seeded, "olga")
    headers = {"HX-Request": "true"} if htmx else {}
    form = {"mode": "2005", "too_small_below": threshold, "csrf_token": token}
    answer = client.post("/twophase/modes/1", data=form, headers=headers)
    assert answer.status_code == 303
    page = client.get("/twophase/modes").get_data(as_text=True)
    assert "from 1 to 2147483647" in page


@pytest.mark.parametrize(
    "url",
    [
        "/login",
        "/api/assignments/{a}/documents/1001/ops",
        "/api/assignments/{a}/keywords",
        "/assignments/{a}/articles/1001/note",
        "/assignments/{a}/keywords",
    ],
)
def test_bodies_over_the_form_and_json_limit_are_a_413(seeded: Any, url: str) -> None:
    client, token = _client(seeded)
    target = url.format(a=seeded.alice)
    body = json.dumps({"op": "mark_nonrelevant", "op_id": "big", "exact": "x" * (5 * MIB)})
    headers = {"Content-Type": "application/json", "X-CSRF-Token": token}
    assert client.post(target, data=body, headers=headers).status_code == 413
    form = {"note": "n" * (5 * MIB), "add": "k", "csrf_token": token}
    assert client.post(target, data=form).status_code == 413
    with db.session_scope(seeded.app) as session:
        assert notes.note_rows(session) == []


def test_uploads_still_take_large_bodies(seeded: Any) -> None:
    from io import BytesIO

    from .organiser.test_campaign_imports import outcome, post

    seeded.app.config["BODY_LIMIT"] = 10_000  # small enough that the upload is over it
    client, token = _client(seeded, "olga")
    big = b"<topics>" + b" " * 100_000 + b"</topics>"
    answer = post(client, token, "/organiser/import/topics", files=[(BytesIO(big), "t.xml")])
    assert answer.status_code != 413
    status, html = outcome(client, answer)
    assert status == "failed" and "topic" in html  # read whole, then refused for its content


def _rename(seeded: Any, user: str, name: str) -> None:
    with db.session_scope(seeded.app) as session:
        row = session.query(User).filter_by(name=user).one()
        row.name = name


def test_downloads_named_outside_latin_1_carry_an_rfc_6266_name(any_seeded: Any) -> None:
    from ..conftest import double_judge

    double_judge(any_seeded)
    _rename(any_seeded, "alice", "Ωmega—test")
    client, _ = _client(any_seeded, "olga")
    with db.session_scope(any_seeded.app) as session:
        assert session.get(Assignment, any_seeded.alice) is not None
    for url in (
        "/organiser/export.qrels?assessor=Ωmega—test",
        "/organiser/export.notes?assessor=Ωmega—test",
        "/organiser/report/times.csv?assessor=Ωmega—test",
        "/organiser/agreement.csv",
    ):
        answer = client.get(url)
        assert answer.status_code == 200, url
        header = answer.headers["Content-Disposition"]
        header.encode("latin-1")  # what the server writes on the wire
        assert "filename*=UTF-8''" in header, header
        if "Ωmega" in url:
            assert "%CE%A9mega_test" in header
