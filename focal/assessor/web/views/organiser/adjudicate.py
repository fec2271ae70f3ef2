"""The organiser's adjudication pages: a double-judged topic's disagreements, decided one by one.

Organisers, and users given a topic to adjudicate (`people.adjudicators`: never its assessors)
for that topic; 403 for anyone else, so an assessor never sees the other assessor's passages
nor the gold.

The queue (`campaign.results.adjudication.queue`) lists the articles the two assessors judged
differently, most disagreed first, with progress; an article's page overlays both judgements
(`overlay.render_overlay`), describes each best entry point in words, shows the gold decided so
far, and takes the decision: side a's or b's judgement, their union or their intersection, or
edits of the gold by hand (`static/adjudicate/edit.js`, the assessment screen's gestures).
A decision is previewed first (`?preview=KEY`: the gold it would make, and a warning when an
article an assessor found relevant would become not relevant), then saved with the gold's
version the page showed: a stale one is refused (409, the current gold shown again). After a
decision the page moves on to the next undecided article. The page lists the article's
adjudication history (`judging.gold_edits.history`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeGuard

from flask import Blueprint, abort, flash, g, redirect, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people import roster
from focal.assessor.campaign.people.adjudicators import adjudicated_topics, may_adjudicate
from focal.assessor.campaign.results import adjudication, gold_steps
from focal.assessor.campaign.results.highlights import Highlights
from focal.assessor.judging.gold_edits import Gold, gold_version, history
from focal.assessor.judging.operations import JudgingError
from focal.assessor.store import texts
from focal.assessor.store.db import get_session
from focal.assessor.store.gold import DECISIONS, EDITED, GoldEvent, GoldJudgement
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
EDIT_WORDS = {
    "highlight": "highlighted characters {start}–{end}",
    "unhighlight": "took out characters {start}–{end}",
    "bep": "moved the best entry point to character {start}",
}
"""Each hand edit in words, for the history."""


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
    queues = adjudication.progress(session, allowed)
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
        decided_as={**_decision_words(found.names), EDITED: "edited by hand"},
    )


def _decision_words(names: tuple[str, str]) -> dict[str, str]:
    return {key: words.format(a=names[0], b=names[1]) for key, words in DECISION_WORDS.items()}


def _article_page(
    topic: str, article: str, status: int = 200, preview: str | None = None
) -> ResponseReturnValue:
    session = get_session()
    found = _queue(topic)
    document = roster.document_row(session, article)
    if document is None:
        abort(404, description=f"no article {article}")
    a, b = adjudication.sides(session, topic, article)
    gold = adjudication.gold_of(session, topic, article)
    text, path = None, None
    if document.file is not None and document.has_text:
        text, path = texts.load(document).text, Path(document.file)
    overlay = path and render_overlay(path, (a.passages, b.passages), (a.bep, b.bep), found.names)
    previewed = _preview(topic, article, preview)
    words = _decision_words(found.names)
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
        gold_overlay=path and _gold_overlay(path, Gold.of(gold) if gold else None),
        preview=previewed and (preview, *previewed, describe_bep(text, previewed[0].bep)),
        preview_overlay=path and previewed and _gold_overlay(path, previewed[0]),
        version=gold_version(session, topic, article),
        op_id=gold_steps.new_op_id(),
        history=[(event, _step_words(event, words)) for event in history(session, topic, article)],
        decisions=words,
        decided_as={**words, EDITED: "edited by hand"},
        in_queue=any(item.article == article for item in found.items),
        next_open=found.next_open(article),
    )


def _gold_overlay(path: Path, gold: Gold | None) -> Markup:
    spans = list(gold.passages) if gold is not None else []
    bep = gold.bep if gold is not None else None
    return render_overlay(path, (spans, []), (bep, None), ("gold", ""))


def _preview(topic: str, article: str, key: str | None) -> tuple[Gold, str | None] | None:
    """The gold decision `key` would make, and its warning (None: no preview asked, or it
    cannot be made, as for an article only one assessor has judged)."""
    if key not in DECISIONS:
        return None
    try:
        return gold_steps.preview(get_session(), topic, article, key)
    except CampaignError:
        return None


def _step_words(event: GoldEvent, words: dict[str, str]) -> str:
    """One adjudication step in words."""
    if event.action in words:
        return f"decided: {words[event.action]}"
    return EDIT_WORDS[event.action].format(**event.payload)


def _decider(gold: GoldJudgement | None) -> str:
    if gold is None or gold.decided_by is None:
        return "someone no longer registered"
    user = roster.user(get_session(), gold.decided_by)
    return user.name if user is not None else "someone no longer registered"


@blueprint.get("/<topic>/<article>")
@login_required
def article_page(topic: str, article: str) -> ResponseReturnValue:
    """Both judgements overlaid, the gold so far and its history, the decision buttons, and
    with `?preview=KEY` the gold that decision would make."""
    return _article_page(topic, article, preview=request.args.get("preview"))


@blueprint.post("/<topic>/<article>")
@login_required
def decide(topic: str, article: str) -> ResponseReturnValue:
    """Store the decision (form: `decision`, `version` the page showed, `op_id`); then the next
    undecided article (or the queue when none is left). A stale version: 409, the page again."""
    found = _queue(topic)  # 404 for a topic that is not double-judged
    session = get_session()
    if roster.document_row(session, article) is None:
        abort(404, description=f"no article {article}")
    decision = request.form.get("decision", "")
    version, op_id = request.form.get("version", ""), request.form.get("op_id") or None
    if not version.isdigit() or len(version) > 9:
        flash("expected the version of the gold the page showed (a whole number)", "error")
        return _article_page(topic, article, 422)
    try:
        gold_steps.decide(
            session, topic, article, decision, g.user.id, version=int(version), op_id=op_id
        )
    except JudgingError as error:  # a stale version (`StaleGold`), an op_id reused, contention
        flash(f"{str(error)[0].upper()}{str(error)[1:]}.", "error")
        return _article_page(topic, article, error.status)
    except CampaignError as error:
        flash(str(error), "error")
        return _article_page(topic, article, 422)
    words = _decision_words(found.names)[decision]
    flash(Markup("Article {} decided: {}.").format(article, words), "info")
    following = adjudication.queue(session, topic).next_open(article)
    if following is None:
        return redirect(url_for(".queue_page", topic=topic))
    return redirect(url_for(".article_page", topic=topic, article=following))


@blueprint.post("/<topic>/<article>/gold")
@login_required
def edit(topic: str, article: str) -> ResponseReturnValue:
    """Edit the gold by hand (JSON `{"edit": "highlight"|"unhighlight"|"bep", "start", "end",
    "op_id"?, "version"?}`, offsets in code points; an op_id sent again is applied once, a
    version is checked when given); answers the gold as JSON, or 4xx `{"error": ...}`."""
    _queue(topic)
    session = get_session()
    if roster.document_row(session, article) is None:
        abort(404, description=f"no article {article}")
    body = request.get_json(silent=True)
    fields = body if isinstance(body, dict) else {}
    what, start = fields.get("edit"), fields.get("start")
    end, op_id, version = fields.get("end", start), fields.get("op_id"), fields.get("version")
    if not (isinstance(what, str) and _offset(start) and _offset(end)):
        return {"error": "expected JSON {edit, start, end} with integer offsets"}, 422
    bad_op_id = op_id is not None and not isinstance(op_id, str)
    if bad_op_id or (version is not None and not (_offset(version) and version >= 0)):
        return {"error": "op_id must be a string and version a whole number"}, 422
    try:
        row = gold_steps.edit_gold(
            session, topic, article, (what, start, end), g.user.id, op_id=op_id, version=version
        )
    except JudgingError as error:  # a stale version, an op_id reused, contention
        return {"error": str(error), "code": error.code}, error.status
    except CampaignError as error:
        return {"error": str(error)}, 422
    return {
        "status": row.status,
        "passages": row.passages,
        "bep": row.bep,
        "decision": row.decision,
        "version": row.version,
    }


def _offset(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**31


def side_summary(side: Highlights) -> str:
    """One assessor's verdict in words, for the page's legend."""
    if side.status != "relevant":
        return "not relevant" if side.status == "nonrelevant" else "not judged"
    count = len(side.passages)
    return f"relevant, {count} passage{'s' if count != 1 else ''}"


def gold_words(gold: dict[str, Any]) -> str:
    """A gold judgement (`GoldEvent.gold`'s form) in words: its verdict, passages, characters."""
    if gold["status"] != "relevant":
        return "not relevant"
    count = len(gold["passages"])
    chars = sum(end - start for start, end in gold["passages"])
    return f"relevant, {count} passage{'s' if count != 1 else ''} ({chars} characters)"


blueprint.add_app_template_filter(side_summary, "side_summary")
blueprint.add_app_template_filter(gold_words, "gold_words")
