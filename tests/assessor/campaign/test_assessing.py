"""The assessor's use cases below the web: the article screen's value and the pool navigation.

On the seeded database (tests/assessor/conftest.py): topic 1 pools 1001, 1002, 1003 in that
order, alice and bob assess it, olga is an organiser. 1001's text is "AlphaThe quick brown
fox.Jumps over the lazy dog." (49 characters). The renderer is a stand-in that records what it
was asked and answers with the parsed document, so these tests see the use case alone; the
page's HTML is tested in tests/assessor/web.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markupsafe import Markup, escape
from sqlalchemy.orm import Session

from focal.assessor.campaign.assessing import navigation
from focal.assessor.campaign.assessing.article_screen import ArticleScreen, article_screen
from focal.assessor.campaign.people.users import find_user
from focal.assessor.campaign.pools.ordering import set_order
from focal.assessor.judging import judgements
from focal.assessor.store import db
from focal.assessor.store.models import Assignment, Document, Run, RunResult, TopicMode
from focal.assessor.store.settings import CampaignSettings, save_settings
from focal.evaluation.text.document import Document as ParsedDocument

from ..conftest import Seeded


class Renderer:
    """Records each (file, profile) and answers the escaped text and the parsed document."""

    def __init__(self) -> None:
        self.calls: list[tuple[Path, str | None]] = []

    def __call__(self, path: Path, profile: str | None) -> tuple[Markup, ParsedDocument]:
        self.calls.append((path, profile))
        document = ParsedDocument.from_file(path)
        return Markup(f"<div>{escape(document.text)}</div>"), document


def _screen(session: Session, seeded: Seeded, article: str, viewer: str = "alice") -> ArticleScreen:
    return article_screen(session, seeded.alice, article, find_user(session, viewer), Renderer())


def test_the_screen_of_an_article_in_the_middle_of_the_pool(seeded: Seeded) -> None:
    render = Renderer()
    with db.session_scope(seeded.app) as session:
        judgements.highlight(
            session, session.get_one(Assignment, seeded.alice), "1002", "h1", 4, 10, "Second"
        )
        screen = article_screen(session, seeded.alice, "1002", find_user(session, "alice"), render)
    assert render.calls == [(seeded.collection / "1002.xml", None)]  # profile NULL: detected
    assert (screen.article, screen.position, screen.pool) == ("1002", 2, ["1001", "1002", "1003"])
    assert (screen.previous, screen.following) == ("1001", "1003")
    assert screen.state.passages == ((4, 10),) and screen.state.status == "relevant"
    assert not (screen.read_only or screen.adaptive or screen.two_phase)
    # The defaults: highlights join across punctuation, the runs' outline is off, Done asks.
    assert not screen.runs_outline and screen.merge_across_punctuation
    assert screen.done_without_passage == "ask"
    assert screen.keywords == [] and screen.note.note == ""
    assert screen.text is not None
    assert screen.text.length == len(seeded.text("1002")) == 24
    assert screen.text.html == f"<div>{escape(seeded.text('1002'))}</div>"
    assert (screen.text.runs, screen.text.run_passages) == ([], [])


def test_the_ends_of_the_pool_have_one_neighbour(seeded: Seeded) -> None:
    with db.session_scope(seeded.app) as session:
        first, last = _screen(session, seeded, "1001"), _screen(session, seeded, "1003")
    assert (first.position, first.previous, first.following) == (1, None, "1002")
    assert (last.position, last.previous, last.following) == (3, "1002", None)


def test_what_the_runs_retrieved_unless_the_organiser_hides_it(seeded: Seeded) -> None:
    with db.session_scope(seeded.app) as session:
        for name, kind, start, length in (
            ("focused", "fol", 5, 20),
            ("whole", "article", None, None),
        ):
            run = Run(name=name, file=f"{name}.run", kind=kind)
            session.add(run)
            session.flush()
            result = RunResult(run_id=run.id, topic_id="1", article="1001", rank=1, score=1.0)
            session.add(result)
            result.start, result.length = start, length
        session.flush()
        hidden = _screen(session, seeded, "1001")  # off by default
        save_settings(session, CampaignSettings(runs_outline=True))
        shown = _screen(session, seeded, "1001")
    assert shown.text is not None and hidden.text is not None
    # The whole-article result names its run but outlines nothing.
    assert (shown.text.runs, shown.text.run_passages) == (["focused", "whole"], [(5, 25)])
    assert (hidden.text.runs, hidden.text.run_passages) == ([], [])
    assert not hidden.runs_outline


def test_the_topic_s_choices_show_on_the_screen(seeded: Seeded) -> None:
    with db.session_scope(seeded.app) as session:
        session.add(TopicMode(topic_id="1", mode="2005"))
        set_order(session, "rank", ["1"])
        screen = _screen(session, seeded, "1001")
    assert screen.two_phase and screen.adaptive


def test_who_may_see_which_article(seeded: Seeded) -> None:
    with db.session_scope(seeded.app) as session:
        assert _screen(session, seeded, "1001", viewer="olga").read_only  # an organiser looks on
        with pytest.raises(judgements.NotFound):
            _screen(session, seeded, "1001", viewer="bob")  # alice's assignment
        with pytest.raises(judgements.NotFound):
            _screen(session, seeded, "9999")  # not pooled


def test_a_changed_file_is_a_conflict_and_a_missing_text_no_render(seeded: Seeded) -> None:
    (seeded.collection / "1001.xml").write_text("<article><p>Other text.</p></article>")
    render = Renderer()
    with db.session_scope(seeded.app) as session:
        with pytest.raises(judgements.Conflict, match="the file of 1001 changed since"):
            _screen(session, seeded, "1001")
        row = session.get_one(Document, "1002")
        row.file, row.text_sha256 = None, None
        screen = article_screen(session, seeded.alice, "1002", find_user(session, "alice"), render)
    assert render.calls == [] and screen.text is None
    assert "article 1002 is known only by id and length" in screen.missing_text


def test_navigation_neighbours_resume_and_next(seeded: Seeded) -> None:
    assert navigation.neighbours(["a", "b", "c"], "a") == (None, "b")
    assert navigation.neighbours(["a", "b", "c"], "b") == ("a", "c")
    assert navigation.neighbours(["a"], "a") == (None, None)
    with db.session_scope(seeded.app) as session:
        alice = session.get_one(Assignment, seeded.alice)
        resume = navigation.resume(session, alice)
        assert (resume.article, resume.position, resume.pool_size) == ("1001", 1, 3)
        assert (resume.unjudged, resume.suggested) == (3, False)
        judgements.mark_nonrelevant(session, alice, "1001", "n1")
        judgements.finish(session, alice, "1001", "f1")
        resume = navigation.resume(session, alice)
        assert (resume.article, resume.position, resume.unjudged) == ("1002", 2, 2)
        # A fixed order goes on in display order; after the last article, nothing is left.
        assert navigation.next_article(session, alice, "1002", None) == ("1003", False)
        assert navigation.next_article(session, alice, "1003", None) == (None, False)
        # From an article outside the pool: the first unjudged one.
        assert navigation.next_article(session, alice, "elsewhere", None) == ("1002", False)
