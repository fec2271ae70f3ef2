"""What the article screen shows, as one value: the article rendered, its judgement, its place in
the pool, what the runs retrieved in it, the assessor's keywords and note, the campaign's choices.

The view (`web.views.assess.pages.article_screen`) parses the request, calls `article_screen`
once and turns the `ArticleScreen` into links and the template's context. The HTML comes from
the renderer the view hands in (`web.rendering.render_file`, which is presentation and lives in
the web layer): it parses the file once for both the page and the `Document` whose text is
checked here against the hash stored at import, so the page holds exactly the text the
judgements' offsets count (spec section 1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup
from sqlalchemy.orm import Session

from focal.assessor.campaign.assessing.navigation import neighbours
from focal.assessor.campaign.people import assignments, notes
from focal.assessor.campaign.people.notes import NoteState
from focal.assessor.campaign.pools import ordering
from focal.assessor.campaign.pools.retrieved import retrieved_spans
from focal.assessor.judging import judgements
from focal.assessor.judging.elements import topic_mode
from focal.assessor.store import texts
from focal.assessor.store.models import Assignment, Document, User
from focal.assessor.store.settings import read_settings
from focal.evaluation.text.document import Document as ParsedDocument

Renderer = Callable[[Path, str | None], tuple[Markup, ParsedDocument]]
"""The article's file and display profile (None: detected) -> its HTML and parsed document."""


@dataclass(frozen=True, slots=True)
class ArticleText:
    """The rendered article and what the runs retrieved in it."""

    html: Markup  # the content of `#document`: exactly the document's text, marked up
    length: int  # characters of text (code points, as offsets count them)
    runs: list[str]  # the runs that retrieved something in the article, by name
    # What they retrieved as [start, end) ranges; a whole-article result would outline
    # everything and say nothing, so it is only listed among `runs`.
    run_passages: list[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class ArticleScreen:
    """Everything the article screen of one assignment's article shows."""

    assignment: Assignment
    article: str
    state: judgements.JudgementState
    pool: list[str]  # the topic's pooled articles in display order
    previous: str | None  # the article before this one in display order
    following: str | None  # the article after it
    adaptive: bool  # the topic's judging order chooses the next article when asked
    read_only: bool  # an organiser looking at an assessor's work
    text: ArticleText | None  # None: the article is known only by id and length
    keywords: list[str]
    note: NoteState
    two_phase: bool  # a topic in the 2005 mode: highlighting leads on to the two-phase screen
    runs_outline: bool  # the organiser lets the screen outline what the runs retrieved
    merge_across_punctuation: bool  # the campaign's H-Rule ATOM setting (`store.settings`)
    done_without_passage: str  # what "Done" does with no passage: "ask" or "not_relevant"

    @property
    def position(self) -> int:
        """The article's position in the pool, from 1."""
        return self.pool.index(self.article) + 1

    @property
    def missing_text(self) -> str:
        """Why an article without text cannot be assessed here."""
        return str(texts.MissingTextError(self.article))


def article_screen(
    session: Session, assignment_id: int, article: str, viewer: User, render: Renderer
) -> ArticleScreen:
    """The article screen of `article` in assignment `assignment_id`, as `viewer` sees it.

    `judgements.NotFound` (404) when `viewer` may not see the assignment or the article is not
    in its topic's pool; `judgements.Conflict` (409) when the article's file no longer holds the
    text that was imported.
    """
    assignment = judgements.visible_assignment(session, assignment_id, viewer)
    row = judgements.pooled_document(session, assignment, article)
    pool = assignments.pool_articles(session, assignment.topic_id)
    previous, following = neighbours(pool, article)
    settings = read_settings(session)
    return ArticleScreen(
        assignment=assignment,
        article=article,
        state=judgements.pooled_state(session, assignment, article),
        pool=pool,
        previous=previous,
        following=following,
        adaptive=ordering.topic_order(ordering.topic_pool(session, assignment.topic_id))
        is not None,
        read_only=assignment.user_id != viewer.id,
        text=_text(session, assignment, row, render, settings.runs_outline),
        keywords=assignments.keywords(session, assignment),
        note=notes.note_of(session, assignment, article),
        two_phase=topic_mode(session, assignment.topic_id).mode == "2005",
        runs_outline=settings.runs_outline,
        merge_across_punctuation=settings.merge_across_punctuation,
        done_without_passage=settings.done_without_passage,
    )


def _text(
    session: Session, assignment: Assignment, row: Document, render: Renderer, runs_outline: bool
) -> ArticleText | None:
    """The rendered article, checked against its stored hash; None when it has no text."""
    if row.file is None or row.text_sha256 is None:
        return None
    html, document = render(Path(row.file), row.collection.display_profile)
    if texts.text_sha256(document.text) != row.text_sha256:
        raise judgements.Conflict(f"the file of {row.id} changed since it was imported")
    # The organiser may switch the runs' outline off so that the runs cannot steer assessors.
    spans = retrieved_spans(session, assignment.topic_id, document) if runs_outline else []
    whole = (0, len(document.text))
    return ArticleText(
        html=html,
        length=len(document.text),
        runs=sorted({span.run for span in spans}),
        run_passages=[(span.start, span.end) for span in spans if (span.start, span.end) != whole],
    )
