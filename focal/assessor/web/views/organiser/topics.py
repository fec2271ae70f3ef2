"""The organiser's pages: topics, assignments (assign/unassign), progress, and qrels export.

Forms post with the CSRF token; htmx posts them too and swaps the returned block, while a plain
form post gets a redirect (post/redirect/get), so every page works without JavaScript.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people import roster
from focal.assessor.campaign.people.users import assign_topic
from focal.assessor.campaign.results import exporting
from focal.assessor.campaign.results.qrels_assessors import topic_assessors
from focal.assessor.campaign.results.qrels_export import ExportError, SeveralAssessors
from focal.assessor.store.db import get_session
from focal.assessor.web.auth import organiser_required
from focal.assessor.web.downloads import download
from focal.assessor.web.views.htmx import page_or_fragment, wants_fragment

blueprint = Blueprint("organiser", __name__, url_prefix="/organiser")


@blueprint.get("/topics")
@organiser_required
def topics() -> ResponseReturnValue:
    """Topics with pool sizes and who assesses them."""
    rows = roster.topic_rows(get_session())
    return page_or_fragment("organiser/topics/topics.html", "topics", rows=rows)


def _assignment_context(session: Session) -> dict[str, Any]:
    return {
        "rows": roster.assignments_progress(session),
        "topics": roster.topics(session),
        "assessors": roster.assessors(session),
    }


def _assignments_response(status: int = 200) -> ResponseReturnValue:
    if not wants_fragment():
        return redirect(url_for(".assignments"))
    return page_or_fragment(
        "organiser/topics/assignments.html",
        "assignments",
        status,
        **_assignment_context(get_session()),
    )


# The endpoint is `organiser.assignments` (the templates and redirects name it).
@blueprint.get("/assignments", endpoint="assignments")
@organiser_required
def assignments_page() -> ResponseReturnValue:
    """Every assignment with progress, and the form to assign a topic."""
    return page_or_fragment(
        "organiser/topics/assignments.html", "assignments", **_assignment_context(get_session())
    )


@blueprint.post("/assignments")
@organiser_required
def assign() -> ResponseReturnValue:
    """Assign `topic` to the assessor `assessor` (idempotent)."""
    session = get_session()
    topic, name = request.form.get("topic", ""), request.form.get("assessor", "")
    try:
        assign_topic(session, topic, name)
    except (LookupError, CampaignError) as error:
        session.rollback()
        flash(str(error.args[0]), "error")
        return _assignments_response(422)
    session.commit()
    flash(f"Topic {topic} assigned to {name}.", "info")
    return _assignments_response()


@blueprint.post("/assignments/<int:assignment_id>/delete")
@organiser_required
def unassign(assignment_id: int) -> ResponseReturnValue:
    """Take a topic away from an assessor, but never silently delete judged work."""
    session = get_session()
    try:
        topic, name = roster.remove_unjudged_assignment(session, assignment_id)
    except LookupError:
        abort(404)
    except roster.JudgedAssignment as error:
        flash(str(error), "error")
        return _assignments_response(409)
    flash(f"Topic {topic} taken from {name}.", "info")
    session.commit()
    return _assignments_response()


@blueprint.get("/progress")
@organiser_required
def progress() -> ResponseReturnValue:
    """Progress per assessor and topic (block `progress` polls itself every 15 s)."""
    rows = roster.assignments_progress(get_session())
    return page_or_fragment("organiser/topics/progress.html", "progress", rows=rows)


@blueprint.get("/export")
@organiser_required
def export_page() -> ResponseReturnValue:
    """The export form: FOL qrels, an assessor chosen for each topic judged by two, or every
    assessor's judgements with an assessor column (docs/assessor.md, "Export")."""
    return _export_form()


def _export_form(status: int = 200) -> ResponseReturnValue:
    session = get_session()
    return page_or_fragment(
        "organiser/topics/export.html",
        "content",
        status,
        rows=topic_assessors(session),
        assessors=roster.assessors(session),
    )


@blueprint.get("/export.qrels")
@organiser_required
def export_qrels() -> ResponseReturnValue:
    """Download FOL qrels, as `focal export-qrels` writes them (`campaign.results.exporting`):
    `?topic=` and `?assessor=` narrow it, `?choose=TOPIC=NAME` (repeated; empty for the form's
    "choose an assessor") picks a topic's assessor, `?with_assessors=1` writes every assessor's
    lines with their name in column two, `?adjudicated=1` the adjudicated qrels (the gold where
    decided, `focal export-qrels --adjudicated`). An export that cannot be written is the form
    again with why, 422."""
    topic = request.args.get("topic") or None
    assessor = request.args.get("assessor") or None
    with_assessors = request.args.get("with_assessors") == "1"
    adjudicated = request.args.get("adjudicated") == "1"
    try:
        wanted = exporting.ExportRequest(
            topic=topic,
            assessor=assessor,
            choices=exporting.parse_choices(v for v in request.args.getlist("choose") if v),
            with_assessors=with_assessors,
            adjudicated=adjudicated,
        )
        text = exporting.export_qrels(get_session(), wanted)
    except SeveralAssessors as error:
        flash(
            f"Topic {error.topic} was judged by {' and '.join(error.names)}: choose whose "
            "judgements to export for it below, or download every assessor's judgements "
            "with an assessor column.",
            "error",
        )
        return _export_form(422)
    except ExportError as error:
        flash(str(error), "error")
        return _export_form(422)
    kind = "assessors" if with_assessors else "adjudicated" if adjudicated else ""
    parts = ["focal", topic or "", assessor or "", kind]
    name = "-".join(part for part in parts if part)
    return download(text, "text/plain", f"{name}.qrels")
