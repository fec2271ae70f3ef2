"""The organiser's adjudication pages: a double-judged topic's disagreements, decided one by one.

Organisers, and users given a topic to adjudicate (`people.adjudicators`: never its assessors)
for that topic; 403 for anyone else, so an assessor never sees the other assessor's passages
nor the gold.

The queue (`campaign.results.adjudication.queue`) lists the articles the two assessors judged
differently, most disagreed first, with progress; an article's page overlays both judgements
(`overlay.render_overlay`), describes each best entry point in words, shows the gold decided so
far, and takes the decision: side a's or b's judgement, their union or their intersection, or
edits of the gold by hand (`static/adjudicate/edit.js`, the assessment screen's gestures).
After a decision the page moves on to the next undecided article.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeGuard

from flask import Blueprint, abort, flash, g, redirect, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people import roster
from focal.assessor.campaign.people.adjudicators import adjudicated_topics, may_adjudicate
from focal.assessor.campaign.results import adjudication
from focal.assessor.campaign.results.agreement import Highlights, double_judged
from focal.assessor.store import texts
from focal.assessor.store.db import get_session
from focal.assessor.store.gold import EDITED, GoldJudgement
from focal.assessor.web.auth import login_required, signed_in_user
from focal.assessor.web.overlay import describe_bep, render_overlay
from focal.assessor.web.views.htmx import page_or_fragment

blueprint = Blueprint("adjudicate", __name__, url_prefix="/organiser/adjudicate")

DECISION_WORDS = {
    "a": "{a}'s judgement",
    "b": "{b}'s judgement",
    "union": "every passage of either (union)",
    "intersection": "only what both highlighted (intersection)",
}
"""Each decision in words, with the assessors' names filled in."""


@blueprint.app_context_processor
def adjudicator_link() -> dict[str, bool]:
    """`adjudicates`: whether the signed-in non-organiser adjudicates a topic (the nav link)."""
    user = g.get("user")
    if user is None or user.role == "organiser":
        return {"adjudicates": False}
    return {"adjudicates": bool(adjudicated_topics(get_session(), user))}


@blueprint.get("")
@login_required
def topics() -> ResponseReturnValue:
    """Every double-judged topic the user may adjudicate, with its disagreements decided."""
    session = get_session()
    allowed = adjudicated_topics(session, signed_in_user())
    if allowed is not None and not allowed:
        abort(403)
    queues = [
        adjudication.queue(session, item.topic.id)
        for item in double_judged(session)
        if allowed is None or item.topic.id in allowed
    ]
    return page_or_fragment("organiser/adjudicate/topics.html", "content", queues=queues)


def _queue(topic: str) -> adjudication.Queue:
    """The topic's queue: 403 unless the user may adjudicate it, 404 for no such topic."""
    session = get_session()
    if not may_adjudicate(session, signed_in_user(), topic):
        abort(403)
    if not roster.has_topic(session, topic):
        abort(404, description=f"no topic {topic}")
    try:
        return adjudication.queue(session, topic)
    except CampaignError as error:
        abort(404, description=str(error))


@blueprint.get("/<topic>")
@login_required
def queue_page(topic: str) -> ResponseReturnValue:
    """The topic's disagreements, most disagreed first, with progress."""
    found = _queue(topic)
    return page_or_fragment(
        "organiser/adjudicate/queue.html",
        "content",
        topic=roster.topic(get_session(), topic),
        queue=found,
        decisions=_decision_words(found.names),
    )


def _decision_words(names: tuple[str, str]) -> dict[str, str]:
    return {key: words.format(a=names[0], b=names[1]) for key, words in DECISION_WORDS.items()}


def _article_page(topic: str, article: str, status: int = 200) -> ResponseReturnValue:
    session = get_session()
    found = _queue(topic)
    document = roster.document_row(session, article)
    if document is None:
        abort(404, description=f"no article {article}")
    a, b = adjudication.sides(session, topic, article)
    gold = adjudication.gold_of(session, topic, article)
    text, overlay, gold_overlay = None, None, None
    if document.file is not None and document.has_text:
        text = texts.load(document).text
        path = Path(document.file)
        overlay = render_overlay(path, (a.passages, b.passages), (a.bep, b.bep), found.names)
        spans = [(start, end) for start, end in gold.passages] if gold is not None else []
        bep = gold.bep if gold is not None else None
        gold_overlay = render_overlay(path, (spans, []), (bep, None), ("gold", ""))
    return page_or_fragment(
        "organiser/adjudicate/article.html",
        "content",
        status,
        topic=roster.topic(session, topic),
        article=article,
        queue=found,
        sides=(a, b),
        beps=[describe_bep(text, side.bep) for side in (a, b)],
        gold=gold,
        gold_bep=describe_bep(text, gold.bep) if gold is not None else None,
        decider=_decider(gold),
        overlay=overlay,
        gold_overlay=gold_overlay,
        decisions=_decision_words(found.names),
        decided_as={**_decision_words(found.names), EDITED: "edited by hand"},
        in_queue=any(item.article == article for item in found.items),
        next_open=found.next_open(article),
    )


def _decider(gold: GoldJudgement | None) -> str:
    if gold is None or gold.decided_by is None:
        return "someone no longer registered"
    user = roster.user(get_session(), gold.decided_by)
    return user.name if user is not None else "someone no longer registered"


@blueprint.get("/<topic>/<article>")
@login_required
def article_page(topic: str, article: str) -> ResponseReturnValue:
    """Both judgements overlaid, the gold so far, and the decision buttons."""
    return _article_page(topic, article)


@blueprint.post("/<topic>/<article>")
@login_required
def decide(topic: str, article: str) -> ResponseReturnValue:
    """Store the decision; then the next undecided article (or the queue when none is left)."""
    _queue(topic)  # 404 for a topic that is not double-judged
    session = get_session()
    if roster.document_row(session, article) is None:
        abort(404, description=f"no article {article}")
    decision = request.form.get("decision", "")
    try:
        adjudication.decide(session, topic, article, decision, g.user.id)
        session.commit()
    except CampaignError as error:
        session.rollback()
        flash(str(error), "error")
        return _article_page(topic, article, 422)
    flash(Markup("Article {} decided: {}.").format(article, decision), "info")
    following = adjudication.queue(session, topic).next_open(article)
    if following is None:
        return redirect(url_for(".queue_page", topic=topic))
    return redirect(url_for(".article_page", topic=topic, article=following))


@blueprint.post("/<topic>/<article>/gold")
@login_required
def edit(topic: str, article: str) -> ResponseReturnValue:
    """Edit the gold by hand (JSON `{"edit": "highlight"|"unhighlight"|"bep", "start", "end"}`,
    offsets in code points); answers the gold as JSON, or 422 `{"error": ...}`."""
    _queue(topic)
    session = get_session()
    if roster.document_row(session, article) is None:
        abort(404, description=f"no article {article}")
    body = request.get_json(silent=True)
    fields = body if isinstance(body, dict) else {}
    what, start = fields.get("edit"), fields.get("start")
    end = fields.get("end", start)
    if not (isinstance(what, str) and _offset(start) and _offset(end)):
        return {"error": "expected JSON {edit, start, end} with integer offsets"}, 422
    try:
        row = adjudication.edit_gold(session, topic, article, (what, start, end), g.user.id)
        session.commit()
    except CampaignError as error:
        session.rollback()
        return {"error": str(error)}, 422
    return {
        "status": row.status,
        "passages": row.passages,
        "bep": row.bep,
        "decision": row.decision,
    }


def _offset(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**31


def side_summary(side: Highlights) -> str:
    """One assessor's verdict in words, for the page's legend."""
    if side.status != "relevant":
        return "not relevant" if side.status == "nonrelevant" else "not judged"
    count = len(side.passages)
    return f"relevant, {count} passage{'s' if count != 1 else ''}"


blueprint.add_app_template_filter(side_summary, "side_summary")
