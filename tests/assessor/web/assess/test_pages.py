"""The assessor's and organiser's pages through Flask's test client.

A small site is built per test in a temporary SQLite database: three articles (one with astral
characters), one topic pooled over them, assessors alice and bob on that topic, organiser olga.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from focal.assessor.campaign.people.users import add_user, assign_topic
from focal.assessor.campaign.setup.importing import import_collection
from focal.assessor.store import db, migrate
from focal.assessor.store.models import Pool, PoolEntry, Run, RunResult, Topic
from focal.assessor.store.settings import CampaignSettings, save_settings
from focal.assessor.web.app import create_app
from focal.evaluation.text.document import Document

ARTICLES = {
    "a1": "<article><title>Rivers</title><bdy><p>The <it>Danube</it> flows east.</p>"
    "<p>Second paragraph.</p></bdy></article>",
    "a2": "<article><title>Music 𝄞</title><bdy><p>Clef 𝄞 and 😀 here.</p></bdy></article>",
    "a3": '<article><title onclick="evil()">Nothing</title><p style="x">Plain text.</p></article>',
}
PASSWORDS = {"alice": "alice-pw", "bob": "bob-pw", "olga": "olga-pw"}


@dataclass
class Site:
    app: Flask
    directory: Path
    assignments: dict[str, int]

    def document(self, article: str) -> Document:
        return Document.from_file(self.directory / f"{article}.xml")


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    directory = tmp_path / "collection"
    directory.mkdir()
    for name, xml in ARTICLES.items():
        (directory / f"{name}.xml").write_text(xml, encoding="utf-8")
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'pages.sqlite'}",
            "SECRET_KEY": "test",
        }
    )
    migrate.upgrade(db.engine_of(app))
    with db.session_scope(app) as session:
        import_collection(session, directory, "test")
        session.add(
            Topic(
                id="7",
                title="rivers of europe",
                description="Find rivers.",
                narrative="Any river counts.",
            )
        )
        session.flush()
        pool = Pool(topic_id="7", method="manual", parameters={})
        session.add(pool)
        session.flush()
        for position, article in enumerate(["a1", "a2", "a3"]):
            session.add(
                PoolEntry(pool_id=pool.id, article=article, position=position, pool_rank=position)
            )
        run = Run(name="bm25", file="bm25.run", kind="fol")
        session.add(run)
        session.flush()
        session.add(
            RunResult(
                run_id=run.id, topic_id="7", article="a1", rank=1, score=1.0, start=10, length=6
            )
        )
        add_user(session, "alice", "assessor", PASSWORDS["alice"])
        add_user(session, "bob", "assessor", PASSWORDS["bob"])
        add_user(session, "olga", "organiser", PASSWORDS["olga"])
        ids = {name: assign_topic(session, "7", name).id for name in ("alice", "bob")}
    yield Site(app, directory, ids)
    db.engine_of(app).dispose()


def csrf_of(html: str) -> str:
    found = re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    assert found, "page has no CSRF meta tag"
    return found.group(1)


def login(site: Site, name: str) -> tuple[FlaskClient, str]:
    client = site.app.test_client()
    token = csrf_of(client.get("/login").get_data(as_text=True))
    response = client.post(
        "/login", data={"name": name, "password": PASSWORDS[name], "csrf_token": token}
    )
    assert response.status_code == 302
    token = csrf_of(client.get("/topics").get_data(as_text=True))
    return client, token


class DocumentDiv(HTMLParser):
    """Text, attribute names and tags inside `<div id="document">`; the JSON config."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.text: list[str] = []
        self.attributes: set[str] = set()
        self.in_config = False
        self.config = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth:
            self.depth += 1
            self.attributes.update(name for name, _ in attrs)
        elif ("id", "document") in attrs:
            self.depth = 1
        self.in_config = ("id", "focal-config") in attrs

    def handle_endtag(self, tag: str) -> None:
        self.depth = max(0, self.depth - 1)
        self.in_config = False

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.text.append(data)
        if self.in_config:
            self.config += data


def read_article_page(html: str) -> DocumentDiv:
    reader = DocumentDiv()
    reader.feed(html)
    reader.close()
    return reader


def highlight(
    client: FlaskClient, token: str, site: Site, article: str, start: int, end: int
) -> None:
    url = f"/api/assignments/{site.assignments['alice']}/documents/{article}/ops"
    exact = site.document(article).text[start:end]
    op = {"op_id": str(uuid.uuid4()), "op": "highlight", "start": start, "end": end, "exact": exact}
    response = client.post(url, json=op, headers={"X-CSRF-Token": token})
    assert response.status_code == 200, response.get_data(as_text=True)


def test_start_page_sends_each_role_to_its_home(site: Site) -> None:
    anonymous = site.app.test_client().get("/")
    assert anonymous.status_code == 302 and "/login" in anonymous.headers["Location"]
    alice, _ = login(site, "alice")
    assert alice.get("/").headers["Location"].endswith("/topics")
    olga, _ = login(site, "olga")
    assert olga.get("/").headers["Location"].endswith("/organiser/progress")


def test_my_topics_lists_my_assignment_with_progress(site: Site) -> None:
    alice, token = login(site, "alice")
    highlight(alice, token, site, "a1", 4, 10)
    page = alice.get("/topics").get_data(as_text=True)
    assert "rivers of europe" in page
    assert "2 of 3 not judged yet" in page  # a1 highlighted (relevant), a2 and a3 left
    assert "Continue (article 1 of 3)" in page  # a1 has no ✓ yet: the first unfinished
    assert f"/assignments/{site.assignments['alice']}" in page
    assert f'/assignments/{site.assignments["bob"]}"' not in page


def test_pool_page_shows_states_and_htmx_gets_only_the_block(site: Site) -> None:
    alice, token = login(site, "alice")
    highlight(alice, token, site, "a2", 0, 5)
    url = f"/assignments/{site.assignments['alice']}"
    full = alice.get(url)
    html = full.get_data(as_text=True)
    assert "HX-Request" in full.headers["Vary"]
    assert html.startswith("<!doctype html>")
    assert [m for m in re.findall(r'data-article="(a\d)"', html)] == ["a1", "a2", "a3"]
    fragment = alice.get(url + "?status=relevant", headers={"HX-Request": "true"})
    body = fragment.get_data(as_text=True)
    assert "HX-Request" in fragment.headers["Vary"]
    assert "<html" not in body and body.lstrip().startswith('<div id="pool"')
    assert re.findall(r'data-article="(a\d)"', body) == ["a2"]
    # The progress is part of the block, so a swap brings it up to date too; the page is not
    # kept by the browser (the back button after judging must show the new counts).
    assert 'data-judged="1" data-pool-size="3"' in body and "1 of 3 articles judged" in body
    assert full.headers["Cache-Control"] == "no-store"
    assert alice.get("/topics").headers["Cache-Control"] == "no-store"
    # Every htmx link also works as a plain link.
    for tag in re.findall(r"<a [^>]*hx-get=[^>]*>", html):
        assert "href=" in tag


def test_article_page_holds_the_text_verbatim_and_the_topic(site: Site) -> None:
    alice, _ = login(site, "alice")
    for article in ARTICLES:
        response = alice.get(f"/assignments/{site.assignments['alice']}/articles/{article}")
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        reader = read_article_page(html)
        assert "".join(reader.text) == site.document(article).text
        assert reader.attributes <= {"class", "data-path"}
        assert "evil()" not in html
        assert "Find rivers." in html and "Any river counts." in html
        config = json.loads(reader.config)
        assert config["opsUrl"].endswith(f"/documents/{article}/ops")
        assert config["state"]["status"] == "unjudged"
    config = json.loads(
        read_article_page(
            alice.get(f"/assignments/{site.assignments['alice']}/articles/a1").get_data(
                as_text=True
            )
        ).config
    )
    # The runs' outline is off unless the organiser switches it on (assessors blind to systems).
    assert config["runPassages"] == []
    assert config["doneWithoutPassage"] == "ask" and config["followUrl"] is None
    assert config["prevUrl"] is None and config["nextUrl"].endswith("/articles/a2")
    with db.session_scope(site.app) as session:
        save_settings(session, CampaignSettings(runs_outline=True))
    page = alice.get(f"/assignments/{site.assignments['alice']}/articles/a1")
    config = json.loads(read_article_page(page.get_data(as_text=True)).config)
    text = site.document("a1").text
    assert config["runPassages"] == [[10, 16]] and text[10:16] == "Danube"


def test_assessors_see_only_their_own_assignments(site: Site) -> None:
    bob, token = login(site, "bob")
    alice_id = site.assignments["alice"]
    assert bob.get(f"/assignments/{alice_id}").status_code == 404
    assert bob.get(f"/assignments/{alice_id}/articles/a1").status_code == 404
    response = bob.post(f"/assignments/{alice_id}/keywords", data={"add": "x", "csrf_token": token})
    assert response.status_code == 404
    assert bob.get(f"/assignments/{site.assignments['bob']}/articles/nope").status_code == 404
    assert bob.get("/organiser/progress").status_code == 403


def test_organiser_views_an_assessment_read_only(site: Site) -> None:
    olga, _ = login(site, "olga")
    html = olga.get(f"/assignments/{site.assignments['alice']}/articles/a1").get_data(as_text=True)
    assert json.loads(read_article_page(html).config)["opsUrl"] is None
    assert "Read-only" in html


def test_keywords_form_works_with_and_without_htmx(site: Site) -> None:
    alice, token = login(site, "alice")
    url = f"/assignments/{site.assignments['alice']}/keywords"
    plain = alice.post(url, data={"add": "danube", "csrf_token": token, "back": "/topics"})
    assert plain.status_code == 302 and plain.headers["Location"] == "/topics"
    swapped = alice.post(
        url, data={"add": "river", "csrf_token": token}, headers={"HX-Request": "true"}
    )
    body = swapped.get_data(as_text=True)
    assert body.lstrip().startswith('<section id="keywords"')
    assert "danube" in body and "river" in body
    assert alice.post(url, data={"add": "x"}).status_code == 400  # no CSRF token


def test_organiser_assigns_and_unassigns(site: Site) -> None:
    olga, token = login(site, "olga")
    with db.session_scope(site.app) as session:
        add_user(session, "carol", "assessor", "carol-pw")
    assert (
        olga.post("/organiser/assignments", data={"topic": "7", "assessor": "carol"}).status_code
        == 400
    )
    response = olga.post(
        "/organiser/assignments",
        data={"topic": "7", "assessor": "carol", "csrf_token": token},
        headers={"HX-Request": "true"},
    )
    body = response.get_data(as_text=True)
    assert response.status_code == 200 and body.lstrip().startswith('<div id="assignments">')
    assert "carol" in body and "assigned to carol" in body
    refused = olga.post(
        "/organiser/assignments", data={"topic": "99", "assessor": "carol", "csrf_token": token}
    )
    assert refused.status_code == 302  # plain form: redirected, with the error flashed
    assert "no topic" in olga.get("/organiser/assignments").get_data(as_text=True)

    alice, alice_token = login(site, "alice")
    highlight(alice, alice_token, site, "a1", 0, 6)
    kept = olga.post(
        f"/organiser/assignments/{site.assignments['alice']}/delete",
        data={"csrf_token": token},
        headers={"HX-Request": "true"},
    )
    assert kept.status_code == 409 and "has judged 1 article" in kept.get_data(as_text=True)
    removed = olga.post(
        f"/organiser/assignments/{site.assignments['bob']}/delete", data={"csrf_token": token}
    )
    assert removed.status_code == 302
    progress = olga.get("/organiser/progress").get_data(as_text=True)
    assert "alice" in progress and "bob" not in progress.split('<div id="progress"')[1]


def test_organiser_pages_and_export(site: Site) -> None:
    alice, token = login(site, "alice")
    highlight(alice, token, site, "a1", 4, 10)
    highlight(alice, token, site, "a1", 22, 27)
    olga, _ = login(site, "olga")
    topics = olga.get("/organiser/topics").get_data(as_text=True)
    assert "rivers of europe" in topics and "alice, bob" in topics
    assert olga.get("/organiser/export").status_code == 200
    download = olga.get("/organiser/export.qrels?topic=7&assessor=alice")
    assert download.status_code == 200
    assert "attachment" in download.headers["Content-Disposition"]
    length = len(site.document("a1").text)
    # FOL: topic Q0 article rel_chars article_chars bep off:len ...; BEP defaults to 4. The
    # passages lose their edge spaces: "rsThe " 4..10 is 4..9, " east" 22..27 is 23..27.
    expected = f"7 Q0 a1 9 {length} 4 4:5 23:4"
    assert download.get_data(as_text=True).split() == expected.split()
