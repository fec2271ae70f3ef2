"""The assessor's pages: my topics, a topic's pool, and the article screen.

Pages are server-rendered; htmx swaps named blocks of the same templates (`views.htmx`). The
article screen's scripts (`static/assess/`) talks to the JSON operations API (`views.api`).
An assessor sees only their own assignments (anything else is a 404); an organiser may look at
any assignment, read-only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, abort, redirect, request, url_for
from flask.typing import ResponseReturnValue
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people import assignments, notes
from focal.assessor.campaign.pools import listing as pool_list
from focal.assessor.campaign.pools import ordering
from focal.assessor.campaign.pools.retrieved import retrieved_spans
from focal.assessor.judging import judgements
from focal.assessor.judging.elements import topic_mode
from focal.assessor.store import texts
from focal.assessor.store.db import get_session
from focal.assessor.store.models import Assignment
from focal.assessor.store.settings import read_settings
from focal.assessor.web.auth import (
    CSRF_HEADER,
    login_required,
    safe_redirect,
    signed_in_user,
)
from focal.assessor.web.rendering import render_file
from focal.assessor.web.views.assess import navigation
from focal.assessor.web.views.htmx import page_or_fragment

blueprint = Blueprint("assess", __name__)


def _assignment(session: Session, assignment_id: int) -> Assignment:
    try:
        return judgements.visible_assignment(session, assignment_id, signed_in_user())
    except judgements.NotFound:
        abort(404)


@blueprint.get("/")
@login_required
def index() -> ResponseReturnValue:
    """Organisers start on their overview, assessors on their topics."""
    if signed_in_user().is_organiser:
        return redirect(url_for("organiser.progress"))
    return redirect(url_for("assess.my_topics"))


@blueprint.get("/topics")
@login_required
def my_topics() -> ResponseReturnValue:
    """The user's assignments with progress (block `assignments` for htmx refreshes)."""
    session = get_session()
    user = signed_in_user()
    rows = [
        (
            assignment,
            assignments.progress(session, assignment),
            navigation.resume(session, assignment),
        )
        for assignment in assignments.assignments_for(session, user)
        if assignment.user_id == user.id
    ]
    return _always_fresh(page_or_fragment("assess/topics.html", "assignments", rows=rows))


def _always_fresh(response: Response) -> Response:
    """Progress pages are never kept: the back button after judging must show the new counts
    (browsers otherwise show a history entry from their cache, without asking)."""
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.get("/assignments/<int:assignment_id>")
@login_required
def pool(assignment_id: int) -> ResponseReturnValue:
    """A topic's pool with each article's title, state and flag (block `pool` for htmx).

    `?status=` filters (`pool_list.FILTERS`), `?sort=` orders (`pool_list.SORTS`), `?q=`
    searches titles and ids; unknown values fall back to the defaults.
    """
    session = get_session()
    assignment = _assignment(session, assignment_id)
    wanted = _choice("status", pool_list.FILTERS)
    sort = _choice("sort", pool_list.SORTS)
    search = request.args.get("q", "")[: pool_list.SEARCH_LENGTH]
    listed = pool_list.pool_list(session, assignment)
    suggested = ordering.suggestion(session, assignment)
    page = page_or_fragment(
        "assess/pool.html",
        "pool",
        assignment=assignment,
        rows=pool_list.shown_rows(listed.rows, wanted, sort, search),
        listed=listed,
        total=len(listed.rows),
        progress=assignments.progress(session, assignment),
        two_phase=topic_mode(session, assignment.topic_id).mode == "2005",
        summary=request.args.get("finished") == "1",
        resume=pool_list.resume_point(listed.rows),
        first_unjudged=next((r.article for r in listed.rows if r.status == "unjudged"), None),
        suggested=suggested,
        judging_order=ordering.topic_order(ordering.topic_pool(session, assignment.topic_id)),
        status_filter=wanted,
        filters=pool_list.FILTERS,
        sort=sort,
        sorts=pool_list.SORTS,
        search=search,
    )
    return _always_fresh(page)


def _choice(name: str, allowed: tuple[str, ...]) -> str:
    """The query-string value `name` if it is one of `allowed`, else the first of them."""
    value = request.args.get(name, allowed[0])
    return value if value in allowed else allowed[0]


@blueprint.get("/assignments/<int:assignment_id>/articles/<article>")
@login_required
def article_screen(assignment_id: int, article: str) -> ResponseReturnValue:
    """The article screen: topic beside the rendered article, state panel and shortcuts."""
    session = get_session()
    assignment = _assignment(session, assignment_id)
    try:
        row = judgements.pooled_document(session, assignment, article)
    except judgements.NotFound:
        abort(404)
    state = judgements.get_state(session, assignment, article)
    articles = assignments.pool_articles(session, assignment.topic_id)
    previous, following = navigation.neighbours(articles, article)
    adaptive = ordering.topic_order(ordering.topic_pool(session, assignment.topic_id)) is not None
    if row.file is None or row.text_sha256 is None:
        return _without_text(assignment, article, state, articles, previous, following)
    html, document = render_file(Path(row.file), row.collection.display_profile)
    if texts.text_sha256(document.text) != row.text_sha256:
        abort(409, description=f"the file of {article} changed since it was imported")
    read_only = assignment.user_id != signed_in_user().id
    settings = read_settings(session)
    # The organiser may switch the runs' outline off so that the runs cannot steer assessors.
    spans = retrieved_spans(session, assignment.topic_id, document) if settings.runs_outline else []
    whole_text = (0, len(document.text))

    def article_url(name: str | None) -> str | None:
        return (
            None
            if name is None
            else url_for(".article_screen", assignment_id=assignment.id, article=name)
        )

    # An adaptive judging order chooses the next article when the assessor goes on, from the
    # judgements made until then (this article's included): "next" asks the server then.
    next_url = (
        url_for(".next_article", assignment_id=assignment.id, after=article)
        if adaptive
        else article_url(following)
    )

    keywords = assignments.keywords(session, assignment)
    # In the 2005 mode the assessor goes on to the two-phase screen after highlighting.
    two_phase_url = (
        url_for("twophase.article", assignment_id=assignment.id, article=article)
        if topic_mode(session, assignment.topic_id).mode == "2005"
        else None
    )
    config: dict[str, Any] = {
        "opsUrl": None
        if read_only
        else url_for("api.apply_operation", assignment_id=assignment.id, article=article),
        "stateUrl": url_for("api.document_state", assignment_id=assignment.id, article=article),
        "viewsUrl": None
        if read_only
        else url_for("viewing.report_view", assignment_id=assignment.id, article=article),
        "csrfHeader": CSRF_HEADER,
        "nextUrl": next_url,
        "prefetchNext": not adaptive,
        "prevUrl": article_url(previous),
        "poolUrl": url_for(".pool", assignment_id=assignment.id),
        "summaryUrl": url_for(".pool", assignment_id=assignment.id, finished=1),
        "state": state.to_json(),
        "keywords": keywords,
        # A whole-article result would outline everything and say nothing: list it only.
        "runPassages": [
            [span.start, span.end] for span in spans if (span.start, span.end) != whole_text
        ],
        "textLength": len(document.text),
        "twoPhaseUrl": two_phase_url,
        "mergeAcrossPunctuation": settings.merge_across_punctuation,
    }
    return page_or_fragment(
        "assess/article.html",
        "content",
        assignment=assignment,
        topic=assignment.topic,
        article=article,
        document_html=html,
        state=state,
        position=articles.index(article) + 1,
        pool_size=len(articles),
        previous_url=config["prevUrl"],
        next_url=config["nextUrl"],
        prefetch_next=not adaptive,
        keywords=keywords,
        note=notes.note_of(session, assignment, article),
        runs=sorted({span.run for span in spans}),
        runs_outline=settings.runs_outline,
        read_only=read_only,
        two_phase_url=two_phase_url,
        focal_config=config,
    )


def _without_text(
    assignment: Assignment,
    article: str,
    state: judgements.JudgementState,
    articles: list[str],
    previous: str | None,
    following: str | None,
) -> ResponseReturnValue:
    """An article known only by id and length: its stored judgement and why it cannot be shown.

    409 like a changed file: the article exists, but its text is not there to assess.
    """

    def article_url(name: str | None) -> str | None:
        if name is None:
            return None
        return url_for(".article_screen", assignment_id=assignment.id, article=name)

    return page_or_fragment(
        "assess/no_text.html",
        "content",
        status=409,
        assignment=assignment,
        topic=assignment.topic,
        article=article,
        message=str(texts.MissingTextError(article)),
        state=state,
        position=articles.index(article) + 1,
        pool_size=len(articles),
        previous_url=article_url(previous),
        next_url=article_url(following),
    )


@blueprint.post("/assignments/<int:assignment_id>/keywords")
@login_required
def keywords(assignment_id: int) -> ResponseReturnValue:
    """Add (`add`) or remove (`remove`) a keyword; htmx gets the keyword block back."""
    session = get_session()
    try:
        assignment = judgements.own_assignment(session, assignment_id, signed_in_user())
    except judgements.NotFound:
        abort(404)
    try:
        if request.form.get("remove"):
            words = assignments.remove_keyword(session, assignment, request.form["remove"])
        else:
            words = assignments.add_keyword(session, assignment, request.form.get("add", ""))
    except CampaignError as error:
        abort(400, description=str(error))
    back = safe_redirect(request.form.get("back"), url_for(".pool", assignment_id=assignment.id))
    if request.headers.get("HX-Request") != "true":
        return redirect(back)
    return page_or_fragment(
        "assess/article.html", "keywords", assignment=assignment, keywords=words, back=back
    )


@blueprint.get("/assignments/<int:assignment_id>/next")
@login_required
def next_article(assignment_id: int) -> ResponseReturnValue:
    """Go on to the article `navigation.next_article` offers after `?after=` (`?relevant=1|0` is
    the page's judgement of `after`, which may not be saved yet); the pool page, when nothing is
    left to offer (pool judged or budget spent)."""
    session = get_session()
    assignment = _assignment(session, assignment_id)
    after = request.args.get("after", "")
    verdict = request.args.get("relevant")
    by_assessor = assignment.user_id == signed_in_user().id
    target = navigation.next_article(session, assignment, after, verdict, by_assessor)
    if target is None:
        return redirect(url_for(".pool", assignment_id=assignment.id), 303)
    return redirect(url_for(".article_screen", assignment_id=assignment.id, article=target), 303)
