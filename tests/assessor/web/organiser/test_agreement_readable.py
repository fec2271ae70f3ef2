"""The agreement pages read in words: column headings with definitions, best entry points
described, time in m:ss, and a link to the next disagreement (topic 1: alice and bob, as in
tests/assessor/conftest.double_judge; 1001 and 1002 disagree, 1003 is alice's alone)."""

from __future__ import annotations

import doctest
import html
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from focal.assessor.web.views.organiser import agreement as agreement_views

from ...conftest import Seeded, double_judge


@pytest.fixture
def olga(seeded: Seeded, log_in: Any) -> FlaskClient:
    double_judge(seeded)
    client = seeded.app.test_client()
    log_in(client, "olga")
    return client


def words(client: FlaskClient, path: str) -> str:
    return html.unescape(" ".join(client.get(path).get_data(as_text=True).split()))


def test_headings_are_words_with_definitions(olga: FlaskClient) -> None:
    page = words(olga, "/organiser/agreement")
    assert '" data-column="alpha_u">Unitizing α_U</th>' in page and "<code>" not in page
    assert "<dt>Character F1</dt><dd>2 × characters both" in page
    # The headline numbers come first, right after the topic
    headers = re.findall(r'<th scope="col" title="[^"]*" data-column="(\w+)">', page)
    assert headers[:3] == ["topic", "char_f1", "alpha_u"]
    assert "the largest disagreement a passage can have" in page  # one-sided articles


def test_the_article_page_describes_beps_and_links_the_next_disagreement(
    olga: FlaskClient,
) -> None:
    page = words(olga, "/organiser/agreement/1/articles/1001")
    # alice's BEP at 5, bob's at 12 of "Alpha" "The quick brown fox." "Jumps over the lazy dog."
    assert "best entry point before “The quick brown fox.Jumps over…” (character 5 of 49)" in page
    assert 'id="next-disagreement" href="/organiser/agreement/1/articles/1002?a=alice&b=bob"' in (
        page.replace("&amp;", "&")
    )
    last = words(olga, "/organiser/agreement/1/articles/1002")
    assert "articles/1001?" in last  # wraps round; 1003 is judged by alice only


def test_the_topic_page_gives_time_in_minutes(olga: FlaskClient) -> None:
    page = words(olga, "/organiser/agreement/1")
    # the judging operations of double_judge come within a second: 0:00 each
    assert "alice: 0:00 on 3 timed article(s), 0:00 each on average (m:ss)" in page
    assert "<td>yes</td>" in page


def test_docstrings() -> None:
    result = doctest.testmod(agreement_views)
    assert result.attempted > 0 and result.failed == 0


def test_gamma_is_added_on_the_topic_page_when_asked(olga: FlaskClient) -> None:
    pytest.importorskip("pygamma_agreement", reason="the optional extra focal[gamma] is absent")
    plain = words(olga, "/organiser/agreement/1")
    assert 'id="gamma-link"' in plain and 'data-column="gamma"' not in plain
    asked = words(olga, "/organiser/agreement/1?gamma=1")
    found = re.search(r'<tr data-column="gamma"><th scope="row">γ</th><td>([-0-9.]+)</td>', asked)
    assert found is not None and -1 <= float(found.group(1)) <= 1
