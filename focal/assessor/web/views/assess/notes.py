"""Flags and notes: the assessor saves them on the article page; organisers list and export them.

The article page's panel (`templates/assess/_notes.html`) is a form that htmx posts and swaps;
without JavaScript it is a plain form post answered by a redirect. A note that cannot be saved
is never lost: the answer (422) shows the error beside the text as it was sent, and a request
refused before it reaches this view (a stale CSRF token, the network) is not swapped at all, so
`static/notes.js` says why and the text stays in the box. Only the assignment's assessor may
write (another assessor: 404, an organiser: 403); organisers read every note.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people import notes, roster
from focal.assessor.campaign.results.notes_export import notes_text
from focal.assessor.campaign.results.qrels_export import ExportError
from focal.assessor.judging import judgements
from focal.assessor.store.db import get_session
from focal.assessor.web.auth import login_required, organiser_required, signed_in_user
from focal.assessor.web.downloads import download, raw_cells
from focal.assessor.web.views.htmx import wants_fragment

blueprint = Blueprint("notes", __name__)


@blueprint.post("/assignments/<int:assignment_id>/articles/<article>/note")
@login_required
def save(assignment_id: int, article: str) -> ResponseReturnValue:
    """Store the flag (`flag=1`) and note (`note`) of an article; htmx gets the panel back."""
    session = get_session()
    user = signed_in_user()
    try:
        assignment = judgements.visible_assignment(session, assignment_id, user)
        judgements.pooled_document(session, assignment, article)
    except judgements.NotFound:
        abort(404)
    if assignment.user_id != user.id:
        abort(403, description="only the assessor of this topic writes its notes")
    flag = request.form.get("flag") == "1"
    text = request.form.get("note", "")
    context = {"assignment": assignment, "article": article, "read_only": False}
    try:
        state = notes.save_note(session, assignment, article, flag, text)
    except CampaignError as error:
        session.rollback()
        kept = notes.NoteState(flag, text)
        template = "assess/_notes.html" if wants_fragment() else "assess/note_failed.html"
        return render_template(template, note=kept, error=str(error), **context), 422
    if not wants_fragment():
        return redirect(
            url_for("assess.article_screen", assignment_id=assignment.id, article=article)
        )
    return render_template("assess/_notes.html", note=state, saved=True, **context)


@blueprint.get("/organiser/notes")
@organiser_required
def overview() -> ResponseReturnValue:
    """Every flag and note, by topic (`?topic=` shows one topic, `?flagged=1` flags only)."""
    session = get_session()
    topic = request.args.get("topic") or None
    only_flagged = request.args.get("flagged") == "1"
    rows = [row for row in notes.note_rows(session, topic) if row.flag or not only_flagged]
    by_topic: dict[str, list[notes.NoteRow]] = {}
    for row in rows:
        by_topic.setdefault(row.topic, []).append(row)
    return render_template(
        "organiser/notes.html",
        by_topic=by_topic,
        topic=topic,
        only_flagged=only_flagged,
        topics=roster.topic_ids_in_natural_order(session),
    )


@blueprint.get("/organiser/export.notes")
@organiser_required
def export() -> ResponseReturnValue:
    """Download the flags and notes as tab-separated text (docs/formats.md, "Notes"); cells
    spreadsheet-safe unless `?raw=1`."""
    session = get_session()
    topic = request.args.get("topic") or None
    assessor = request.args.get("assessor") or None
    try:
        text = notes_text(session, topic, assessor, raw=raw_cells())
    except ExportError as error:
        abort(400, description=str(error))
    name = "-".join(part for part in ("focal", topic, assessor, "notes") if part)
    return download(text, "text/tab-separated-values", f"{name}.tsv")
