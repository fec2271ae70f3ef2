"""The assessor's pages: my topics, a topic's pool, and the article screen.

Pages are server-rendered; htmx swaps named blocks of the same templates (`views.htmx`). The
article screen's scripts (`static/assess/`) talks to the JSON operations API (`views.api`).
An assessor sees only their own assignments (anything else is a 404); an organiser may look at
any assignment, read-only.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, request, url_for
from flask.typing import ResponseReturnValue
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from focal.assessor.campaign.assessing import article_screen as screens
from focal.assessor.campaign.assessing import navigation
from focal.assessor.campaign.assessing.article_screen import ArticleScreen, ArticleText
from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people import assignments
from focal.assessor.campaign.pools import listing as pool_list
from focal.assessor.campaign.pools import ordering
from focal.assessor.judging import judgements
from focal.assessor.judging.elements import topic_mode
from focal.assessor.store.db import get_session
from focal.assessor.store.models import Assignment
from focal.assessor.web.auth import (
    CSRF_HEADER,
    login_required,
    safe_redirect,
    signed_in_user,
)
from focal.assessor.web.rendering import render_file
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
        resume=navigation.resume(session, assignment),
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
    """The article screen: topic beside the rendered article, state panel and shortcuts
    (`campaign.assessing.article_screen` says what it shows)."""
    try:
        screen = screens.article_screen(
            get_session(), assignment_id, article, signed_in_user(), render_file
        )
    except judgements.JudgingError as error:
        abort(error.status, description=str(error))
    if screen.text is None:
        return _without_text(screen)
    context = _article_context(screen, screen.text)
    return page_or_fragment("assess/article.html", "content", **context)


def _follow_url(screen: ArticleScreen) -> str | None:
    """Where the page reports that its assessor came from a suggestion of the judging order
    (`?suggested=1`, added by `next_article` and the topic pages' links): a POST, so that only a
    suggestion followed is logged, never one merely asked for."""
    if screen.read_only or not screen.adaptive or request.args.get("suggested") != "1":
        return None
    return url_for(
        ".follow_suggestion",
        assignment_id=screen.assignment.id,
        article=screen.article,
        after=request.args.get("after") or None,
        relevant=request.args.get("relevant") or None,
    )


def _article_url(screen: ArticleScreen, name: str | None) -> str | None:
    if name is None:
        return None
    return url_for(".article_screen", assignment_id=screen.assignment.id, article=name)


def _article_context(screen: ArticleScreen, text: ArticleText) -> dict[str, Any]:
    """The template's context: the screen's values, its links and the page script's settings."""
    assignment_id, article = screen.assignment.id, screen.article
    # An adaptive judging order chooses the next article when the assessor goes on, from the
    # judgements made until then (this article's included): "next" asks the server then.
    next_url = (
        url_for(".next_article", assignment_id=assignment_id, after=article)
        if screen.adaptive
        else _article_url(screen, screen.following)
    )
    # In the 2005 mode the assessor goes on to the two-phase screen after highlighting.
    two_phase_url = (
        url_for("twophase.article", assignment_id=assignment_id, article=article)
        if screen.two_phase
        else None
    )
    return {
        "assignment": screen.assignment,
        "topic": screen.assignment.topic,
        "article": article,
        "document_html": text.html,
        "state": screen.state,
        "position": screen.position,
        "pool_size": len(screen.pool),
        "previous_url": _article_url(screen, screen.previous),
        "next_url": next_url,
        "prefetch_next": not screen.adaptive,
        "keywords": screen.keywords,
        "note": screen.note,
        "runs": text.runs,
        "runs_outline": screen.runs_outline,
        "read_only": screen.read_only,
        "two_phase_url": two_phase_url,
        "focal_config": _page_settings(screen, text, next_url, two_phase_url),
    }


def _page_settings(
    screen: ArticleScreen, text: ArticleText, next_url: str | None, two_phase_url: str | None
) -> dict[str, Any]:
    """The page script's settings (`focal-config`, read once by `static/assess/page.js`):
    no URL that writes when an organiser looks on, read-only."""
    assignment_id, article = screen.assignment.id, screen.article
    writes = not screen.read_only
    return {
        "opsUrl": url_for("api.apply_operation", assignment_id=assignment_id, article=article)
        if writes
        else None,
        "stateUrl": url_for("api.document_state", assignment_id=assignment_id, article=article),
        "viewsUrl": url_for("viewing.report_view", assignment_id=assignment_id, article=article)
        if writes
        else None,
        "csrfHeader": CSRF_HEADER,
        "nextUrl": next_url,
        "prefetchNext": not screen.adaptive,
        "prevUrl": _article_url(screen, screen.previous),
        "poolUrl": url_for(".pool", assignment_id=assignment_id),
        "summaryUrl": url_for(".pool", assignment_id=assignment_id, finished=1),
        "state": screen.state.to_json(),
        "keywords": screen.keywords,
        "runPassages": [list(passage) for passage in text.run_passages],
        "textLength": text.length,
        "twoPhaseUrl": two_phase_url,
        "mergeAcrossPunctuation": screen.merge_across_punctuation,
        "doneWithoutPassage": screen.done_without_passage,
        "followUrl": _follow_url(screen),
    }


def _without_text(screen: ArticleScreen) -> ResponseReturnValue:
    """An article known only by id and length: its stored judgement and why it cannot be shown.

    409 like a changed file: the article exists, but its text is not there to assess.
    """
    return page_or_fragment(
        "assess/no_text.html",
        "content",
        status=409,
        assignment=screen.assignment,
        topic=screen.assignment.topic,
        article=screen.article,
        message=screen.missing_text,
        state=screen.state,
        position=screen.position,
        pool_size=len(screen.pool),
        previous_url=_article_url(screen, screen.previous),
        next_url=_article_url(screen, screen.following),
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
    left to offer (pool judged or budget spent). A GET writes nothing: an article the judging
    order chose opens with `?suggested=1`, and its page logs the suggestion as followed."""
    session = get_session()
    assignment = _assignment(session, assignment_id)
    after = request.args.get("after", "")
    verdict = request.args.get("relevant")
    target, suggested = navigation.next_article(session, assignment, after, verdict)
    if target is None:
        return redirect(url_for(".pool", assignment_id=assignment.id), 303)
    query: dict[str, Any] = (
        {"suggested": 1, "after": after or None, "relevant": verdict} if suggested else {}
    )
    return redirect(
        url_for(".article_screen", assignment_id=assignment.id, article=target, **query), 303
    )


@blueprint.post("/assignments/<int:assignment_id>/articles/<article>/followed")
@login_required
def follow_suggestion(assignment_id: int, article: str) -> ResponseReturnValue:
    """The assessor opened `article` from the judging order's suggestion: logged
    (`navigation.follow_suggestion`; `?after=` and `?relevant=` as the suggestion was asked).
    204 either way; 404 for anyone but the assignment's assessor."""
    session = get_session()
    try:
        assignment = judgements.own_assignment(session, assignment_id, signed_in_user())
    except judgements.NotFound:
        abort(404)
    after = request.args.get("after", "")
    if navigation.follow_suggestion(
        session, assignment, article, after, request.args.get("relevant")
    ):
        session.commit()
    return "", 204
