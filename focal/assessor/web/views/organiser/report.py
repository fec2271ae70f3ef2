"""The organiser's Report page: the assessment analytics of spec section 10 (seed 003 §5).

`?topic=` and `?assessor=` narrow the judgements (as `focal report --topic --assessor`); every
table is also a CSV download, its ratios at full precision. A topic nobody judged gives empty
tables that say why, not an error. Columns show under readable headers with definitions and
times as minutes and seconds (`campaign.results.report.columns`); the CSV keeps code names.
"""

from __future__ import annotations

from flask import Blueprint, abort, request
from flask.typing import ResponseReturnValue

from focal.assessor.campaign.people import roster
from focal.assessor.campaign.results.report.assessment_report import Report, build_report
from focal.assessor.campaign.results.report.columns import column, in_seconds, minutes_seconds
from focal.assessor.store.db import get_session
from focal.assessor.web.auth import organiser_required
from focal.assessor.web.downloads import csv_download, file_name
from focal.assessor.web.views.htmx import page_or_fragment

blueprint = Blueprint("report", __name__, url_prefix="/organiser")


def _filters() -> tuple[str | None, str | None]:
    """The chosen topic and assessor (404 for one that does not exist)."""
    session = get_session()
    topic = request.args.get("topic") or None
    assessor = request.args.get("assessor") or None
    if topic is not None and not roster.has_topic(session, topic):
        abort(404, description=f"no topic {topic}")
    if assessor is not None and not roster.has_user(session, assessor):
        abort(404, description=f"no assessor {assessor}")
    return topic, assessor


def _report() -> tuple[Report, str | None, str | None]:
    topic, assessor = _filters()
    return build_report(get_session(), topic, assessor), topic, assessor


@blueprint.get("/report")
@organiser_required
def page() -> ResponseReturnValue:
    """Every table of the report with its charts."""
    session = get_session()
    result, topic, assessor = _report()
    return page_or_fragment(
        "organiser/report/report.html",
        "content",
        report=result,
        topic=topic,
        assessor=assessor,
        topics=roster.topic_ids(session),
        assessors=roster.assessor_names(session),
        column=column,
        in_seconds=in_seconds,
        minutes_seconds=minutes_seconds,
    )


@blueprint.get("/report/<name>.csv")
@organiser_required
def table_csv(name: str) -> ResponseReturnValue:
    """One table of the report as CSV."""
    result, topic, assessor = _report()
    try:
        table = result.table(name)
    except KeyError:
        abort(404)
    suffix = (f"-{topic}" if topic else "") + (f"-{assessor}" if assessor else "")
    return csv_download(table.columns, table.rows, file_name(f"{name}{suffix}"))
