"""The 2005 two-phase screen and the organiser's per-topic mode."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from focal.assessor.judging import judgements
from focal.assessor.judging.elements import ElementValueRow, TopicMode
from focal.assessor.store import db
from focal.assessor.store.models import Assignment, Event

from ...conftest import Seeded

# Article 1001 (conftest): "Alpha" [0,5) | p1 "The quick brown fox." [5,25) |
# p2 "Jumps " + b "over" [31,35) + " the lazy dog." [25,49). Highlight [20,35) " fox.Jumps over".
A = "/article[1]"
BDY, TITLE = f"{A}/bdy[1]", f"{A}/title[1]"
P1, P2, B = f"{BDY}/p[1]", f"{BDY}/p[2]", f"{BDY}/p[2]/b[1]"
HX = {"HX-Request": "true"}


@pytest.fixture
def highlighted(seeded: Seeded) -> Seeded:
    text = seeded.text("1001")
    with db.session_scope(seeded.app) as session:
        assignment = session.get(Assignment, seeded.alice)
        assert assignment is not None
        judgements.highlight(session, assignment, "1001", "op-1", 20, 35, text[20:35])
    return seeded


@pytest.fixture
def client(highlighted: Seeded) -> FlaskClient:
    return highlighted.app.test_client()


def page_of(seeded: Seeded) -> str:
    return f"/twophase/assignments/{seeded.alice}/1001"


def rows(html: str) -> dict[str, str]:
    """path -> value shown in the element table."""
    return dict(re.findall(r'data-path="([^"]+)" data-value="([^"]*)"', html))


def set_mode(client: FlaskClient, csrf: str, topic: str, mode: str, threshold: str = "") -> Any:
    data = {"mode": mode, "too_small_below": threshold, "csrf_token": csrf}
    return client.post(f"/twophase/modes/{topic}", data=data)


def give(client: FlaskClient, seeded: Seeded, csrf: str, path: str, value: str) -> Any:
    data = {"path": path, "value": value, "csrf_token": csrf}
    return client.post(page_of(seeded), data=data, headers=HX)


def test_organiser_chooses_the_mode_per_topic(
    highlighted: Seeded, client: FlaskClient, log_in: Any
) -> None:
    csrf = log_in(client, "olga")
    page = client.get("/twophase/modes").get_data(as_text=True)
    assert 'data-topic="1" data-mode="2006"' in page and 'data-topic="2" data-mode="2006"' in page
    response = set_mode(client, csrf, "1", "2005", "10")
    assert response.status_code == 303
    page = client.get("/twophase/modes").get_data(as_text=True)
    assert 'data-topic="1" data-mode="2005"' in page and 'value="10"' in page
    with db.session_scope(highlighted.app) as session:
        row = session.get(TopicMode, "1")
        assert row is not None and (row.mode, row.too_small_below) == ("2005", 10)
    assert set_mode(client, csrf, "1", "2004").status_code == 303  # refused, flashed
    assert "mode must be one of 2006, 2005" in client.get("/twophase/modes").get_data(as_text=True)
    assert set_mode(client, csrf, "404", "2005").status_code == 404


def test_assessors_cannot_choose_modes(
    highlighted: Seeded, client: FlaskClient, log_in: Any
) -> None:
    csrf = log_in(client, "alice")
    assert client.get("/twophase/modes").status_code == 403
    assert set_mode(client, csrf, "1", "2005").status_code == 403


def test_on_the_2006_scale_the_screen_is_read_only(
    highlighted: Seeded, client: FlaskClient, log_in: Any
) -> None:
    csrf = log_in(client, "alice")
    page = client.get(page_of(highlighted)).get_data(as_text=True)
    assert "uses the 2006 scale" in page
    assert rows(page) == {A: "", BDY: "", P1: "", P2: "", B: ""}  # title has no highlight
    assert 'name="value"' not in page
    response = give(client, highlighted, csrf, P2, "2")
    assert response.status_code == 422 and "assessed on the 2006 scale" in response.get_data(
        as_text=True
    )


def test_giving_values_applies_the_rules_and_stores_them(
    highlighted: Seeded, client: FlaskClient, log_in: Any
) -> None:
    organiser = highlighted.app.test_client()
    set_mode(organiser, log_in(organiser, "olga"), "1", "2005")
    csrf = log_in(client, "alice")
    page = client.get(page_of(highlighted)).get_data(as_text=True)
    assert 'data-count="5"' in page and 'name="value"' in page

    response = give(client, highlighted, csrf, P2, "2")
    fragment = response.get_data(as_text=True)
    assert response.status_code == 200 and fragment.lstrip().startswith('<div id="twophase"')
    assert rows(fragment) == {A: "2", BDY: "2", P1: "", P2: "2", B: ""}  # 2 propagates up
    assert "2 propagates to ancestors" in fragment and 'data-count="2"' in fragment

    fragment = give(client, highlighted, csrf, P2, "?").get_data(as_text=True)
    assert rows(fragment) == {A: "2", BDY: "2", P1: "", P2: "?", B: "?"}  # ? propagates down

    fragment = give(client, highlighted, csrf, P1, "1").get_data(as_text=True)
    fragment = give(client, highlighted, csrf, BDY, "0").get_data(as_text=True)
    # GAIN: p1 (1) is more exhaustive than bdy (0): bdy, the ancestor, is reset and flagged
    assert rows(fragment)[BDY] == ""
    assert "S-Rule GAIN: /article[1]/bdy[1]/p[1] is 1, more exhaustive than 0" in fragment
    assert "1 element(s) flagged for re-assessment" in fragment

    with db.session_scope(highlighted.app) as session:
        stored = {
            row.path: (row.value, row.source, row.flag is not None)
            for row in session.scalars(select(ElementValueRow))
        }
        kinds = session.scalars(select(Event.kind).where(Event.kind == "element-value")).all()
    assert stored == {
        A: ("2", "propagated", False),
        BDY: (None, None, True),
        P1: ("1", "assessor", False),
        P2: ("?", "assessor", False),
        B: ("?", "propagated", False),
    }
    assert len(kinds) == 4


def test_rules_refuse_with_422_and_a_message(
    highlighted: Seeded, client: FlaskClient, log_in: Any
) -> None:
    organiser = highlighted.app.test_client()
    set_mode(organiser, log_in(organiser, "olga"), "1", "2005")
    csrf = log_in(client, "alice")
    response = give(client, highlighted, csrf, TITLE, "1")
    assert response.status_code == 422
    assert "C-Rule ONLY: /article[1]/title[1] contains no highlighted text" in response.get_data(
        as_text=True
    )
    assert give(client, highlighted, csrf, P1, "5").status_code == 422


def test_automatic_too_small_and_plain_form_posts(
    highlighted: Seeded, client: FlaskClient, log_in: Any
) -> None:
    organiser = highlighted.app.test_client()
    set_mode(organiser, log_in(organiser, "olga"), "1", "2005", "10")
    csrf = log_in(client, "alice")
    page = client.get(page_of(highlighted)).get_data(as_text=True)
    assert rows(page)[B] == "?" and "(automatic)" in page  # b has 4 characters, under 10
    response = client.post(
        page_of(highlighted), data={"path": P1, "value": "0", "csrf_token": csrf}
    )
    assert response.status_code == 303 and response.headers["Location"].endswith(
        page_of(highlighted)
    )
    assert rows(client.get(page_of(highlighted)).get_data(as_text=True))[P1] == "0"


def test_who_may_see_and_change(highlighted: Seeded, client: FlaskClient, log_in: Any) -> None:
    organiser = highlighted.app.test_client()
    set_mode(organiser, log_in(organiser, "olga"), "1", "2005")
    page = organiser.get(page_of(highlighted)).get_data(as_text=True)
    assert 'name="value"' not in page and P2 in page  # organisers look, read-only
    csrf = log_in(client, "bob")
    assert client.get(page_of(highlighted)).status_code == 404
    assert give(client, highlighted, csrf, P2, "2").status_code == 404
    assert client.get(f"/twophase/assignments/{highlighted.alice}/nothere").status_code in (
        403,
        404,
    )


def test_assignment_overview_counts_what_is_missing(
    highlighted: Seeded, client: FlaskClient, log_in: Any
) -> None:
    organiser = highlighted.app.test_client()
    set_mode(organiser, log_in(organiser, "olga"), "1", "2005")
    csrf = log_in(client, "alice")
    give(client, highlighted, csrf, B, "2")  # b, p2, bdy, article get 2: p1 is missing
    page = client.get(f"/twophase/assignments/{highlighted.alice}").get_data(as_text=True)
    assert re.search(
        r'data-article="1001">\s*<td><a [^>]+>1001</a></td>\s*<td>1</td>\s*<td>0</td>', page
    )
    assert "(2005 scale)" in page


def test_the_assessor_finds_the_two_phase_screen_in_the_2005_mode_only(
    highlighted: Seeded, client: FlaskClient, log_in: Any
) -> None:
    organiser = highlighted.app.test_client()
    organiser_csrf = log_in(organiser, "olga")
    assert 'href="/twophase/modes"' in organiser.get("/organiser/progress").get_data(as_text=True)
    log_in(client, "alice")
    article = f"/assignments/{highlighted.alice}/articles/1001"
    link = f'href="{page_of(highlighted)}"'
    pool_link = f'href="/twophase/assignments/{highlighted.alice}"'
    assert link not in client.get(article).get_data(as_text=True)
    assert pool_link not in client.get(f"/assignments/{highlighted.alice}").get_data(as_text=True)
    set_mode(organiser, organiser_csrf, "1", "2005")
    page = client.get(article).get_data(as_text=True)
    assert link in page and '"twoPhaseUrl": "' + page_of(highlighted) + '"' in page
    assert pool_link in client.get(f"/assignments/{highlighted.alice}").get_data(as_text=True)
    back = f'href="/assignments/{highlighted.alice}/articles/1001"'
    assert back in client.get(page_of(highlighted)).get_data(as_text=True)


def test_propagation_meeting_an_assessor_value_shows_the_gain_flag(
    highlighted: Seeded, client: FlaskClient, log_in: Any
) -> None:
    """Seed 003 §4.2.2: bdy given 1, then its paragraph 2: "2 propagates to ancestors" does not
    overwrite the assessor's 1; bdy is reset and the page shows it flagged for re-assessment."""
    organiser = highlighted.app.test_client()
    set_mode(organiser, log_in(organiser, "olga"), "1", "2005")
    csrf = log_in(client, "alice")
    give(client, highlighted, csrf, BDY, "1")
    fragment = give(client, highlighted, csrf, P1, "2").get_data(as_text=True)
    assert rows(fragment)[BDY] == "" and rows(fragment)[A] == "2" and rows(fragment)[P1] == "2"
    assert "S-Rule GAIN: /article[1]/bdy[1]/p[1] is 2, more exhaustive than 1" in fragment
    assert 'class="flag" role="note"' in fragment
    assert "1 element(s) flagged for re-assessment" in fragment
