"""The operations API (JSON), used by the assessment page and by scripts; see docs/api.md.

Errors are JSON `{"error": message}` with 400/401/403/404/409/422. Bearer-authenticated requests
need no CSRF token; session-authenticated ones send `X-CSRF-Token`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people import assignments
from focal.assessor.judging import judgements
from focal.assessor.store.db import get_session
from focal.assessor.store.models import User
from focal.assessor.web.auth import current_user, login_required

blueprint = Blueprint("api", __name__, url_prefix="/api")


def _user() -> User:
    user = current_user()
    if user is None:  # login_required ran first; this only narrows the type
        raise judgements.NotFound("no user")
    return user


@blueprint.errorhandler(judgements.JudgingError)
def _judging_error(error: judgements.JudgingError) -> ResponseReturnValue:
    return jsonify(error=str(error), code=error.code), error.status


@blueprint.errorhandler(CampaignError)
def _campaign_error(error: CampaignError) -> ResponseReturnValue:
    return jsonify(error=str(error), code="invalid"), 422


@blueprint.errorhandler(HTTPException)
def _http_error(error: HTTPException) -> ResponseReturnValue:
    return jsonify(error=error.description), error.code or 500


def _json_body() -> Any:
    """The request's JSON (None when absent); a body that is not JSON is a 400."""
    data = request.get_json(silent=True)
    if data is None and request.get_data(cache=True):
        abort(400, description="the body is not JSON (or is nested too deeply)")
    return data


@blueprint.get("/assignments")
@login_required
def list_assignments() -> ResponseReturnValue:
    """The user's assignments with progress (an organiser gets all)."""
    session = get_session()
    rows = assignments.assignments_for(session, _user())
    return jsonify(assignments=[assignments.assignment_json(session, row) for row in rows])


@blueprint.get("/assignments/<int:assignment_id>")
@login_required
def show_assignment(assignment_id: int) -> ResponseReturnValue:
    """One assignment: its topic, progress, keywords and pooled articles with their states."""
    session = get_session()
    assignment = judgements.visible_assignment(session, assignment_id, _user())
    judged = assignments.judgements_by_article(session, assignment)
    articles: list[dict[str, Any]] = []
    for article in assignments.pool_articles(session, assignment.topic_id):
        row = judged.get(article)
        articles.append(
            {
                "article": article,
                "status": "unjudged" if row is None else row.status,
                "finished": False if row is None else row.finished,
                "version": 0 if row is None else row.version,
            }
        )
    topic = assignment.topic
    return jsonify(
        **assignments.assignment_json(session, assignment),
        topic_text={
            "title": topic.title,
            "description": topic.description,
            "narrative": topic.narrative,
        },
        keywords=assignments.keywords(session, assignment),
        articles=articles,
    )


@blueprint.get("/assignments/<int:assignment_id>/documents/<article>")
@login_required
def document_state(assignment_id: int, article: str) -> ResponseReturnValue:
    """The judgement state of one pooled article."""
    session = get_session()
    assignment = judgements.visible_assignment(session, assignment_id, _user())
    return jsonify(judgements.get_state(session, assignment, article).to_json())


@blueprint.post("/assignments/<int:assignment_id>/documents/<article>/ops")
@login_required
def apply_operation(assignment_id: int, article: str) -> ResponseReturnValue:
    """Apply one operation (idempotent by op_id) and return the new state."""
    session, user = get_session(), _user()
    data = _json_body()
    try:
        if not isinstance(data, dict):
            raise judgements.InvalidOperation("send a JSON object")
        operation = judgements.Operation.from_json(data)
    except judgements.InvalidOperation:
        judgements.own_assignment(session, assignment_id, user)  # someone else's: 404 comes first
        raise
    # Ownership is checked in the operation's one read (the hot path of every mouse-up).
    return jsonify(judgements.apply_as(session, assignment_id, user, article, operation).to_json())


@blueprint.get("/assignments/<int:assignment_id>/keywords")
@login_required
def list_keywords(assignment_id: int) -> ResponseReturnValue:
    session = get_session()
    assignment = judgements.visible_assignment(session, assignment_id, _user())
    return jsonify(keywords=assignments.keywords(session, assignment))


@blueprint.post("/assignments/<int:assignment_id>/keywords")
@login_required
def change_keywords(assignment_id: int) -> ResponseReturnValue:
    """`{"add": "word"}` or `{"remove": "word"}`; returns the keywords."""
    session = get_session()
    assignment = judgements.own_assignment(session, assignment_id, _user())
    data = _json_body()
    if not isinstance(data, dict):
        raise judgements.InvalidOperation("send a JSON object")
    if isinstance(data.get("add"), str):
        words = assignments.add_keyword(session, assignment, data["add"])
    elif isinstance(data.get("remove"), str):
        words = assignments.remove_keyword(session, assignment, data["remove"])
    else:
        raise judgements.InvalidOperation('send {"add": "word"} or {"remove": "word"}')
    return jsonify(keywords=words)
