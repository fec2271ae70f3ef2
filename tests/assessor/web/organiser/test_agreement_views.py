"""The organiser's double-judging pages: who may see them, and the numbers they show."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from flask.testing import FlaskClient

from focal.assessor.campaign.results.agreement import assessors_table
from focal.assessor.store import db
from focal.assessor.store.models import Document
from focal.evaluation.cli.agreement import write_tsv

from ...conftest import Seeded, double_judge

ORGANISER_PAGES = (
    "/organiser/double",
    "/organiser/agreement",
    "/organiser/agreement.csv",
    "/organiser/agreement/1",
    "/organiser/agreement/1/table.csv",
    "/organiser/agreement/1/articles/1001",
)


@pytest.fixture
def doubled(seeded: Seeded) -> Seeded:
    double_judge(seeded)
    return seeded


@pytest.fixture
def olga(doubled: Seeded, log_in: Any) -> FlaskClient:
    client = doubled.app.test_client()
    log_in(client, "olga")
    return client


@pytest.mark.parametrize("path", ORGANISER_PAGES)
def test_only_organisers_see_the_agreement(doubled: Seeded, log_in: Any, path: str) -> None:
    client = doubled.app.test_client()
    assert client.get(path).status_code == 302  # to the log-in page
    log_in(client, "alice")
    assert client.get(path).status_code == 403


def test_an_assessor_never_sees_the_other_assessment(doubled: Seeded, log_in: Any) -> None:
    client = doubled.app.test_client()
    log_in(client, "bob")
    assert client.get(f"/assignments/{doubled.bob}/articles/1001").status_code == 200
    assert client.get(f"/assignments/{doubled.alice}/articles/1001").status_code == 404
    assert client.get(f"/assignments/{doubled.alice}").status_code == 404


def test_the_csv_holds_the_numbers_of_focal_agreement(doubled: Seeded, olga: FlaskClient) -> None:
    with db.session_scope(doubled.app) as session:
        table = assessors_table(session, "alice", "bob")
    tsv = io.StringIO()
    write_tsv(table, tsv)
    for path in ("/organiser/agreement.csv", "/organiser/agreement/1/table.csv"):
        response = olga.get(path)
        assert response.status_code == 200 and response.mimetype == "text/csv"
        assert response.get_data(as_text=True).replace(",", "\t") == tsv.getvalue()


def test_the_overview_shows_the_table_and_the_plot(olga: FlaskClient) -> None:
    page = olga.get("/organiser/agreement").get_data(as_text=True)
    # topic 1 (worked in tests/assessor/cli/test_agreement.py): ∩/∪ = 16/42 = 0.3810
    row = re.search(r'<a href="/organiser/agreement/1">1</a></td>(.*?)</tr>', page, re.S)
    assert row is not None
    cells = dict(re.findall(r'<td data-column="(\w+)">([^<]*)</td>', row.group(1)))
    expected = "2 2 1 0.3333 0.0000 26 32 16 0.6154 0.5000 0.3810"
    columns = "docs_a docs_b docs_both docs_agreement kappa chars_a chars_b chars_both"
    columns += " both_over_a both_over_b both_over_union"
    assert [cells[column] for column in columns.split()] == expected.split()
    bar = re.search(r'<rect class="bar"[^>]*data-label="1" data-value="([^"]+)"', page)
    assert bar is not None and float(bar.group(1)) == pytest.approx(16 / 42)
    assert "style=" not in page.split('<svg id="union-chart"')[1].split("</svg>")[0]


def test_the_topic_page_lists_each_article(olga: FlaskClient) -> None:
    page = olga.get("/organiser/agreement/1").get_data(as_text=True)
    assert "alice (A) and bob (B)" in page
    assert 'data-column="spec_within_0.9"' in page  # the texts are there: element level shown
    rows = re.findall(r'articles/(\d+)\?a=alice&amp;b=bob">\d+</a></td>(.*?)</tr>', page, re.S)
    statuses = {article: re.findall(r'class="state state-(\w+)"', cells) for article, cells in rows}
    assert statuses == {
        "1001": ["relevant", "relevant"],
        "1002": ["nonrelevant", "relevant"],
        "1003": ["relevant", "unjudged"],
    }


def test_a_relevant_article_without_text_leaves_the_passage_level_alone(
    doubled: Seeded, olga: FlaskClient
) -> None:
    """1002 (relevant for bob) becomes known only by id and length: the element level is not
    shown, and every passage-level number stays what it was."""

    def measures(page: str) -> dict[str, str]:
        return dict(
            re.findall(r'<tr data-column="([^"]+)"><th scope="row">[^<]*</th><td>([^<]*)', page)
        )

    with_text = measures(olga.get("/organiser/agreement/1").get_data(as_text=True))
    with db.session_scope(doubled.app) as session:
        session.get_one(Document, "1002").text_sha256 = None
    page = olga.get("/organiser/agreement/1").get_data(as_text=True)
    assert "Element-level agreement needs every relevant article's text" in page
    without_text = measures(page)
    assert "spec_within_0.9" in with_text and "spec_within_0.9" not in without_text
    assert without_text == {column: with_text[column] for column in without_text}
    assert "alpha_u" in without_text and "char_f1" in without_text


class _Overlay(HTMLParser):
    """Collects the text inside #overlay and the text of each kind of mark."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.text: list[str] = []
        self.marks: list[tuple[str | None, str]] = []  # (class of the mark or None, text)
        self.beps: list[str] = []
        self._mark: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if attributes.get("id") == "overlay":
            self.depth = 1
        elif self.depth:
            self.depth += 1
            if tag == "mark":
                self._mark = attributes.get("class")
            if "bep" in (attributes.get("class") or "").split():
                self.beps.append(attributes.get("class") or "")

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1
            if tag == "mark":
                self._mark = None

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.text.append(data)
            self.marks.append((self._mark, data))


def test_the_overlay_shows_both_assessors_text_and_beps(doubled: Seeded, olga: FlaskClient) -> None:
    page = olga.get("/organiser/agreement/1/articles/1001")
    assert page.status_code == 200
    parser = _Overlay()
    parser.feed(page.get_data(as_text=True))
    # the page holds exactly the article's text, and nothing else, inside #overlay
    assert "".join(parser.text) == doubled.text("1001")
    # alice [5, 25), bob [9, 35): alice alone "The ", both "quick brown fox.", bob "Jumps over"
    # (marks are cut at element boundaries and BEPs: adjacent ones of one kind are joined here)
    joined: list[tuple[str | None, str]] = []
    for kind, text in parser.marks:
        if joined and joined[-1][0] == kind:
            joined[-1] = (kind, joined[-1][1] + text)
        else:
            joined.append((kind, text))
    assert joined == [
        (None, "Alpha"),
        ("by-a", "The "),
        ("by-both", "quick brown fox."),
        ("by-b", "Jumps over"),
        (None, " the lazy dog."),
    ]
    assert parser.beps == ["bep bep-a", "bep bep-b"]  # at 5 (alice) and 12 (bob)


def test_a_second_assessor_is_added_from_the_double_judging_page(
    doubled: Seeded, olga: FlaskClient, csrf: Any
) -> None:
    token = csrf(olga)
    before = olga.get("/organiser/double").get_data(as_text=True)
    row = '<th scope="rowgroup" rowspan="2">2: topic 2</th>'
    assert row not in before  # topic 2 has one assessor, alice
    added = olga.post(
        "/organiser/double", data={"topic": "2", "assessor": "bob", "csrf_token": token}
    )
    assert added.status_code == 302
    page = olga.get("/organiser/double").get_data(as_text=True)
    assert row in page and "Topic 2 assigned to bob as well." in page
    # progress of both assessors of topic 1: alice judged 3 of 3 articles, bob 2
    assert re.search(r">alice</a></td>\s*<td>3 / 3</td>", page)
    assert re.search(r">bob</a></td>\s*<td>2 / 3</td>", page)
    refused = olga.post(
        "/organiser/double",
        data={"topic": "2", "assessor": "olga", "csrf_token": token},
        headers={"HX-Request": "true"},
    )
    assert refused.status_code == 422
    assert "olga is an organiser, not an assessor" in refused.get_data(as_text=True)
