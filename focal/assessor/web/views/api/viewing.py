"""`POST /api/assignments/<id>/documents/<article>/views`: the page reports a view (JSON).

Body `{"kind": "shown" | "left", "event_id": "...", "client_time": ISO 8601 or ms}`; answers
201 when stored, 200 when that `event_id` was stored before, and `{"error": ...}` with 400 or
404 otherwise (docs/api.md). Only the assignment's own assessor reports views.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from focal.assessor.campaign.people.viewing import ViewError, record_view
from focal.assessor.store.db import get_session
from focal.assessor.web.auth import current_user, login_required

blueprint = Blueprint("viewing", __name__, url_prefix="/api")


@blueprint.post("/assignments/<int:assignment_id>/documents/<article>/views")
@login_required
def report_view(assignment_id: int, article: str) -> ResponseReturnValue:
    """Store when an article was shown or left (spec section 10)."""
    data = request.get_json(silent=True)
    user = current_user()
    if not isinstance(data, dict) or user is None:
        return jsonify(error="expected a JSON object"), 400
    try:
        stored = record_view(get_session(), assignment_id, user, article, data)
    except ViewError as error:
        get_session().rollback()
        return jsonify(error=str(error)), error.status
    return jsonify(stored=stored), 201 if stored else 200
