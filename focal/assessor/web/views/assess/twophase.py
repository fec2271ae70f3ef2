"""The 2005 two-phase screen, and the organiser's choice of assessment mode per topic.

- ``/twophase/modes`` (organiser): every topic's mode, 2006 (highlighting only, implicit
  exhaustivity) or 2005 (two-phase), and the automatic too-small threshold.
- ``/twophase/assignments/<id>``: the assignment's relevant articles, with how many elements
  still need a value and how many are flagged.
- ``/twophase/assignments/<id>/<article>``: the elements that intersect a highlight, their value,
  where it came from, the GAIN flags, and the state of every rule; the owner of the assignment
  gives ``2``/``1``/``0``/``?`` with one form per element (htmx swaps block ``twophase``; without
  JavaScript the form posts and the page comes back).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from sqlalchemy.orm import Session

from focal.assessor.campaign.people import roster
from focal.assessor.judging import judgements
from focal.assessor.judging.elements import (
    MODES,
    ArticleTwoPhase,
    article_summaries,
    article_two_phase,
    assess_element,
    set_topic_mode,
    topic_mode,
    topic_modes,
)
from focal.assessor.store.db import get_session
from focal.assessor.store.models import Assignment
from focal.assessor.web.auth import login_required, organiser_required, signed_in_user
from focal.assessor.web.views.htmx import page_or_fragment, wants_fragment
from focal.evaluation.relevance.twophase import DEFAULT_TOO_SMALL, VALUES, TwoPhaseError
from focal.evaluation.relevance.twophase_status import rule_status

blueprint = Blueprint("twophase", __name__, url_prefix="/twophase")
SNIPPET = 90


def _visible(session: Session, assignment_id: int) -> Assignment:
    try:
        return judgements.visible_assignment(session, assignment_id, signed_in_user())
    except judgements.NotFound:
        abort(404)


@blueprint.get("/modes")
@organiser_required
def modes() -> ResponseReturnValue:
    """Every topic with its assessment mode."""
    rows = topic_modes(get_session())
    return page_or_fragment(
        "organiser/twophase_modes.html", "modes", rows=rows, modes=MODES, default=DEFAULT_TOO_SMALL
    )


@blueprint.post("/modes/<topic_id>")
@organiser_required
def set_mode(topic_id: str) -> ResponseReturnValue:
    """Choose a topic's mode (form fields `mode`, `too_small_below` (empty: off))."""
    session = get_session()
    if not roster.has_topic(session, topic_id):
        abort(404)
    threshold_text = request.form.get("too_small_below", "").strip()
    try:
        threshold = int(threshold_text) if threshold_text else None
        set_topic_mode(session, topic_id, request.form.get("mode", ""), threshold)
    except ValueError as error:
        session.rollback()
        flash(f"topic {topic_id}: {error}", "error")
        return redirect(url_for("twophase.modes"), 303)
    session.commit()
    if wants_fragment():
        return modes()
    flash(f"topic {topic_id} is now assessed in the {request.form['mode']} mode", "info")
    return redirect(url_for("twophase.modes"), 303)


@blueprint.get("/assignments/<int:assignment_id>")
@login_required
def assignment(assignment_id: int) -> ResponseReturnValue:
    """The assignment's relevant articles and what each still needs."""
    session = get_session()
    visible = _visible(session, assignment_id)
    rows = article_summaries(session, visible)
    mode = topic_mode(session, visible.topic_id)
    return page_or_fragment(
        "assess/twophase_topic.html", "articles", assignment=visible, rows=rows, mode=mode
    )


def _context(view: ArticleTwoPhase, assignment: Assignment, editable: bool) -> dict[str, Any]:
    text = view.document.text
    elements = []
    for element in view.state.elements():
        start, _ = view.document.span(element.path)
        snippet = text[start : start + min(element.size, SNIPPET)]
        elements.append((element, snippet, element.rsize / element.size if element.size else 0.0))
    return {
        "assignment": assignment,
        "article": view.document.id,
        "view": view,
        "elements": elements,
        "rules": rule_status(view.state),
        "values": VALUES,
        "editable": editable and view.mode.mode == "2005",
    }


@blueprint.get("/assignments/<int:assignment_id>/<article>")
@login_required
def article(assignment_id: int, article: str) -> ResponseReturnValue:
    """The two-phase screen of one article."""
    session = get_session()
    visible = _visible(session, assignment_id)
    try:
        view = article_two_phase(session, visible, article)
    except judgements.NotFound as error:  # not pooled, or known only by id and length
        abort(404, description=str(error))
    editable = visible.user_id == signed_in_user().id
    return page_or_fragment("assess/twophase.html", "twophase", **_context(view, visible, editable))


@blueprint.post("/assignments/<int:assignment_id>/<article>")
@login_required
def assess(assignment_id: int, article: str) -> ResponseReturnValue:
    """Give a value (form fields `path`, `value`: 2, 1, 0, ? or clear) to one element."""
    session = get_session()
    user = signed_in_user()
    try:
        own = judgements.own_assignment(session, assignment_id, user)
        view = assess_element(
            session, own, user, article, request.form.get("path", ""), request.form.get("value", "")
        )
    except judgements.NotFound:
        abort(404)
    except TwoPhaseError as error:
        session.rollback()
        view = article_two_phase(session, own, article)
        context = _context(view, own, editable=True) | {"error": str(error)}
        return page_or_fragment("assess/twophase.html", "twophase", status=422, **context)
    if not wants_fragment():
        return redirect(url_for("twophase.article", assignment_id=own.id, article=article), 303)
    return page_or_fragment(
        "assess/twophase.html", "twophase", **_context(view, own, editable=True)
    )
