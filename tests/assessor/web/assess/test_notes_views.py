"""Flags and notes through Flask's test client: who may write, CSRF, errors that keep the text.

The site is tests/assessor/conftest.py's `seeded` one: alice and bob assess topic 1 (articles
1001-1003), olga is the organiser.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import select

from focal.assessor.store import db
from focal.assessor.store.models import NOTE_LENGTH, ArticleNote, Event

from ...conftest import Seeded

HTMX = {"HX-Request": "true"}


def note_url(assignment: int, article: str = "1001") -> str:
    return f"/assignments/{assignment}/articles/{article}/note"


def stored(seeded: Seeded) -> list[tuple[int, str, bool, str]]:
    with db.session_scope(seeded.app) as session:
        rows = session.scalars(select(ArticleNote).order_by(ArticleNote.id))
        return [(row.assignment_id, row.article, row.flag, row.note) for row in rows]


def client_of(seeded: Seeded, log_in: Any, name: str) -> tuple[FlaskClient, str]:
    client = seeded.app.test_client()
    return client, log_in(client, name)


def test_the_assessor_saves_a_flag_and_note_and_sees_them_on_the_article_page(
    seeded: Seeded, log_in: Any
) -> None:
    alice, token = client_of(seeded, log_in, "alice")
    text = "Only the second paragraph?\r\nAsk <b>olga</b>."
    response = alice.post(
        note_url(seeded.alice),
        data={"flag": "1", "note": text, "csrf_token": token},
        headers=HTMX,
    )
    assert response.status_code == 200
    fragment = response.get_data(as_text=True)
    assert fragment.lstrip().startswith('<section id="notes"') and "<html" not in fragment
    assert "Saved." in fragment and 'data-flagged="true"' in fragment
    assert "Ask &lt;b&gt;olga&lt;/b&gt;." in fragment  # escaped, never markup
    assert stored(seeded) == [
        (seeded.alice, "1001", True, "Only the second paragraph?\nAsk <b>olga</b>.")
    ]
    page = alice.get(f"/assignments/{seeded.alice}/articles/1001").get_data(as_text=True)
    assert 'id="note-flag" checked' in page and "Ask &lt;b&gt;olga&lt;/b&gt;.</textarea>" in page
    assert "/static/assess/main.js" in page  # which imports notes.js (tests/static)
    with db.session_scope(seeded.app) as session:
        kinds = list(session.scalars(select(Event.kind).where(Event.article == "1001")))
    assert kinds == ["note"]

    # A plain form post (no JavaScript) is answered by a redirect to the article page.
    plain = alice.post(note_url(seeded.alice), data={"note": "kept", "csrf_token": token})
    assert plain.status_code == 302
    assert plain.headers["Location"].endswith(f"/assignments/{seeded.alice}/articles/1001")
    assert stored(seeded) == [(seeded.alice, "1001", False, "kept")]
    # No flag and no note: nothing is kept.
    alice.post(note_url(seeded.alice), data={"note": "  ", "csrf_token": token}, headers=HTMX)
    assert stored(seeded) == []


def test_a_post_without_the_csrf_token_is_refused(seeded: Seeded, log_in: Any) -> None:
    alice, _token = client_of(seeded, log_in, "alice")
    response = alice.post(note_url(seeded.alice), data={"flag": "1", "note": "x"}, headers=HTMX)
    assert response.status_code == 400
    assert "CSRF" in response.get_data(as_text=True)
    wrong = alice.post(
        note_url(seeded.alice), data={"flag": "1", "note": "x", "csrf_token": "forged"}
    )
    assert wrong.status_code == 400
    assert stored(seeded) == []


def test_another_assessor_and_the_organiser_cannot_write(seeded: Seeded, log_in: Any) -> None:
    bob, bob_token = client_of(seeded, log_in, "bob")
    refused = bob.post(
        note_url(seeded.alice), data={"flag": "1", "csrf_token": bob_token}, headers=HTMX
    )
    assert refused.status_code == 404  # bob cannot even see alice's assignment
    olga, olga_token = client_of(seeded, log_in, "olga")
    forbidden = olga.post(
        note_url(seeded.alice), data={"flag": "1", "csrf_token": olga_token}, headers=HTMX
    )
    assert forbidden.status_code == 403
    alice, token = client_of(seeded, log_in, "alice")
    outside = alice.post(
        note_url(seeded.alice, "9999"), data={"flag": "1", "csrf_token": token}, headers=HTMX
    )
    assert outside.status_code == 404  # not in the pool
    assert stored(seeded) == []


def test_the_organiser_reads_notes_on_the_article_page_and_the_notes_page(
    seeded: Seeded, log_in: Any
) -> None:
    alice, token = client_of(seeded, log_in, "alice")
    alice.post(note_url(seeded.alice), data={"flag": "1", "note": "unsure", "csrf_token": token})
    alice.post(note_url(seeded.alice, "1002"), data={"note": "typo", "csrf_token": token})
    bob, bob_token = client_of(seeded, log_in, "bob")
    bob.post(note_url(seeded.bob, "1003"), data={"flag": "1", "csrf_token": bob_token})

    olga, _ = client_of(seeded, log_in, "olga")
    page = olga.get(f"/assignments/{seeded.alice}/articles/1001").get_data(as_text=True)
    assert 'id="note-text">unsure</p>' in page and "note-form" not in page
    listing = olga.get("/organiser/notes").get_data(as_text=True)
    assert listing.count('data-article="') == 3
    assert "Topic 1: topic 1" in listing and "(2 flagged)" in listing
    assert '<td class="note-text">typo</td>' in listing
    flagged = olga.get("/organiser/notes?flagged=1").get_data(as_text=True)
    assert flagged.count('data-article="') == 2 and "typo" not in flagged
    other_topic = olga.get("/organiser/notes?topic=2").get_data(as_text=True)
    assert 'data-article="' not in other_topic and "No flag or note in topic 2 yet." in other_topic
    assert alice.get("/organiser/notes").status_code == 403
    assert alice.get("/organiser/export.notes").status_code == 403


def test_a_refused_note_comes_back_with_its_text_and_the_error(seeded: Seeded, log_in: Any) -> None:
    alice, token = client_of(seeded, log_in, "alice")
    long_note = "word " * (NOTE_LENGTH // 5) + "and more"
    response = alice.post(
        note_url(seeded.alice),
        data={"flag": "1", "note": long_note, "csrf_token": token},
        headers=HTMX,
    )
    assert response.status_code == 422
    fragment = response.get_data(as_text=True)
    assert f"Not saved: a note has at most {NOTE_LENGTH} characters" in fragment
    assert f">{long_note}</textarea>" in fragment and 'id="note-flag" checked' in fragment
    assert 'data-state="error"' in fragment
    plain = alice.post(note_url(seeded.alice), data={"note": "bad \x07 bell", "csrf_token": token})
    assert plain.status_code == 422
    page = plain.get_data(as_text=True)
    assert page.startswith("<!doctype html>") and "U+0007" in page
    assert "bad \x07 bell</textarea>" in page
    assert stored(seeded) == []
