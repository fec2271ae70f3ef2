"""The organiser's assignment matrix: topics as rows, assessors as columns, a toggle per cell.

Each cell is a small form (works without JavaScript); with htmx a click posts it and the
answer replaces the whole matrix, so the progress of the row and the column follow at once.
Two ticks in a row make a double-judged topic. The use case is
`focal.assessor.campaign.people.assignment_matrix` (assigning as `focal assign` does; unticking a
topic with
judged work is refused). The list-and-form Assignments page stays beside it.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people.assignment_matrix import assignment_matrix, set_assignment
from focal.assessor.store.db import get_session
from focal.assessor.web.auth import organiser_required
from focal.assessor.web.views.htmx import page_or_fragment, wants_fragment

blueprint = Blueprint("matrix", __name__, url_prefix="/organiser/matrix")


def _page(error: str | None = None, status: int = 200) -> ResponseReturnValue:
    return page_or_fragment(
        "organiser/matrix.html",
        "matrix",
        status,
        matrix=assignment_matrix(get_session()),
        error=error,
    )


@blueprint.get("")
@organiser_required
def page() -> ResponseReturnValue:
    """The matrix with progress per cell, per topic and per assessor."""
    return _page()


@blueprint.post("")
@organiser_required
def toggle() -> ResponseReturnValue:
    """Set one cell: `topic`, `assessor`, and `assigned` (1 to tick, 0 to untick)."""
    session = get_session()
    topic = request.form.get("topic", "")
    name = request.form.get("assessor", "")
    assigned = request.form.get("assigned") == "1"
    try:
        set_assignment(session, topic, name, assigned)
    except (CampaignError, LookupError) as error:
        session.rollback()
        message = str(error.args[0]) if error.args else str(error)
        if wants_fragment():
            return _page(message, 422)
        flash(message, "error")
        return redirect(url_for(".page"), 303)
    session.commit()
    if wants_fragment():
        return _page()
    return redirect(url_for(".page"), 303)
