"""The organiser's double-judging pages: second assessors, agreement, one article overlaid.

Organisers only (an assessor gets 403, and never sees another assessor's work anywhere). The
numbers are `campaign.agreement`'s, the same that `focal agreement --assessors` prints; every
table is also a CSV download with the ratios at full precision (`focal.assessor.web.downloads`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from flask import Blueprint, abort, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people import roster
from focal.assessor.campaign.people.users import assign_topic
from focal.assessor.campaign.results import agreement, agreement_overview, timing
from focal.assessor.campaign.results.highlights import article_highlights
from focal.assessor.campaign.results.topic_cache import compared_pairs
from focal.assessor.store import texts
from focal.assessor.store.db import get_session
from focal.assessor.web.auth import organiser_required
from focal.assessor.web.downloads import csv_download
from focal.assessor.web.overlay import describe_bep, render_overlay
from focal.assessor.web.views.htmx import page_or_fragment, wants_fragment
from focal.evaluation.output.tables import cell_text
from focal.evaluation.statistics.agreement import gamma as gamma_measure
from focal.evaluation.statistics.agreement.assessors import COLUMNS, Cell, TopicAgreement
from focal.evaluation.statistics.agreement.table import HEADINGS

HEADLINE = ("char_f1", "alpha_u")
"""The agreement numbers an organiser reads first: shown right after the topic, in view at any
width (the CSV keeps `COLUMNS`' order)."""
PAGE_COLUMNS = (COLUMNS[0], *HEADLINE, *(c for c in COLUMNS[1:] if c not in HEADLINE))

blueprint = Blueprint("agreement", __name__, url_prefix="/organiser")


@blueprint.app_template_filter("minutes")
def minutes(seconds: float | None) -> str:
    """A duration as m:ss (h:mm:ss from an hour on), `-` when there is none.

    >>> minutes(75.4), minutes(3725), minutes(None)
    ('1:15', '1:02:05', '-')
    """
    if seconds is None:
        return "-"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    mins, secs = divmod(rest, 60)
    return f"{hours}:{mins:02d}:{secs:02d}" if hours else f"{mins}:{secs:02d}"


@blueprint.app_template_filter("cell")
def cell_html(value: object) -> str:
    """A table cell on a page: `-` when undefined, floats to four decimals."""
    return cell_text(value, 4)


def _records(rows: Sequence[TopicAgreement]) -> list[list[Cell]]:
    return [[row.cells()[column] for column in COLUMNS] for row in rows]


def _double_page(status: int = 200) -> ResponseReturnValue:
    session = get_session()
    return page_or_fragment(
        "organiser/agreement/double.html",
        "double",
        status,
        topics=agreement.double_judged(session),
        all_topics=roster.topics(session),
        assessors=roster.assessors(session),
    )


@blueprint.get("/double")
@organiser_required
def double() -> ResponseReturnValue:
    """Topics with two assessors and the progress of each; the form to add a second one."""
    return _double_page()


@blueprint.post("/double")
@organiser_required
def add_second_assessor() -> ResponseReturnValue:
    """Give `topic` to one more assessor; their work stays apart from the first one's."""
    session = get_session()
    topic, name = request.form.get("topic", ""), request.form.get("assessor", "")
    status = 200
    try:
        assign_topic(session, topic, name)
        session.commit()
        flash(f"Topic {topic} assigned to {name} as well.", "info")
    except (LookupError, CampaignError) as error:
        session.rollback()
        flash(str(error.args[0]), "error")
        status = 422
    if not wants_fragment():
        return redirect(url_for(".double"))
    return _double_page(status)


@blueprint.get("/agreement")
@organiser_required
def overview() -> ResponseReturnValue:
    """Agreement of every double-judged topic, the `all` row and a plot of ∩/∪ per topic."""
    result = agreement_overview.overview(get_session())
    bars = [(row.topic, row.both_over_union) for row in result.rows]
    return page_or_fragment(
        "organiser/agreement/topics.html",
        "content",
        overview=result,
        columns=PAGE_COLUMNS,
        bars=bars,
        headings=HEADINGS,
    )


@blueprint.get("/agreement.csv")
@organiser_required
def overview_csv() -> ResponseReturnValue:
    """The overview table as CSV."""
    result = agreement_overview.overview(get_session())
    return csv_download(COLUMNS, _records([*result.rows, result.total]), "agreement")


def _pair(topic: str) -> tuple[str, str]:
    """The two assessors to compare: `?a=&b=`, else the topic's first two by name."""
    session = get_session()
    if not roster.has_topic(session, topic):
        abort(404)
    a, b = request.args.get("a"), request.args.get("b")
    if a and b:
        return a, b
    found = compared_pairs(session, topic).get(topic)
    if found is None:
        abort(404, description=f"topic {topic} has fewer than two assessors")
    return found.names


@blueprint.get("/agreement/<topic>")
@organiser_required
def topic_page(topic: str) -> ResponseReturnValue:
    """One topic: its row (with the element level when the texts are there) and its articles."""
    session = get_session()
    name_a, name_b = _pair(topic)
    table, problem, articles = None, None, []
    gamma = request.args.get("gamma") == "1" and gamma_measure.available()
    try:
        found = agreement.compare_topic(session, name_a, name_b, topic, gamma=gamma)
        table, articles = found.table, found.articles
    except (CampaignError, LookupError) as error:
        problem = str(error.args[0])
    spent = {
        row.assessor: row
        for row in timing.topic_times(session, topic)
        if row.assessor in (name_a, name_b)
    }
    return page_or_fragment(
        "organiser/agreement/topic.html",
        "content",
        topic=roster.topic(session, topic),
        names=(name_a, name_b),
        table=table,
        problem=problem,
        articles=articles,
        disagrees=agreement.disagrees,
        times=[spent.get(name) for name in (name_a, name_b)],
        headings=HEADINGS,
        gamma_available=gamma_measure.available(),
    )


@blueprint.get("/agreement/<topic>/table.csv")
@organiser_required
def topic_csv(topic: str) -> ResponseReturnValue:
    """The topic's table as CSV (passage columns only)."""
    name_a, name_b = _pair(topic)
    try:
        table = agreement.assessors_table(get_session(), name_a, name_b, topic)
    except (CampaignError, LookupError) as error:
        abort(404, description=str(error.args[0]))
    return csv_download(COLUMNS, _records([*table.rows, table.total]), f"agreement-{topic}")


@blueprint.get("/agreement/<topic>/articles/<article>")
@organiser_required
def article_page(topic: str, article: str) -> ResponseReturnValue:
    """One article with both assessors' passages and best entry points, in two colours."""
    session = get_session()
    name_a, name_b = _pair(topic)
    document = roster.document_row(session, article)
    if document is None:
        abort(404)
    by_name = {h.assessor: h for h in article_highlights(session, topic, article)}
    if name_a not in by_name or name_b not in by_name:
        abort(404, description=f"{name_a} and {name_b} do not both assess topic {topic}")
    a, b = by_name[name_a], by_name[name_b]
    html, text = None, None
    if document.file is not None and document.has_text:
        text = texts.load(document).text  # the file must still hold the text that was judged
        html = render_overlay(
            Path(document.file), (a.passages, b.passages), (a.bep, b.bep), (name_a, name_b)
        )
    compared = agreement.compared_articles(session, topic, name_a, name_b)
    return page_or_fragment(
        "organiser/agreement/article.html",
        "content",
        topic=roster.topic(session, topic),
        article=article,
        sides=(a, b),
        beps=[describe_bep(text, side.bep) for side in (a, b)],
        next_article=agreement.next_disagreement(compared, article),
        document_html=html,
    )
