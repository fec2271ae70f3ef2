"""The organiser's Pools page: build the pools of the database and see their statistics.

Building calls `focal.assessor.campaign.pools.build.build_pools`, as `focal pool build` without RUN
files does (method topn with n = size, or depth with k = depth; display order and seed; every topic
or the ticked ones). The statistics are `focal.assessor.campaign.pools.statistics` (what `focal pool
stats` reports for a pool file: pool size and run depths per topic, contributed and unique
articles per run; docs/pooling.md). The judging order of every topic or one topic is set here
too (`focal.assessor.campaign.pools.ordering`, as `focal pool policy`), with each assessor's
judgements, relevant articles found and the forecast of those still unjudged, and the campaign's
forecast (`focal.assessor.campaign.pools.forecasting`, docs/forecast.md).
"""

from __future__ import annotations

from typing import cast

from flask import Blueprint, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people import roster
from focal.assessor.campaign.pools import ordering
from focal.assessor.campaign.pools.build import Method, Order, PoolSummary, build_pools
from focal.assessor.campaign.pools.forecasting import campaign_forecast
from focal.assessor.campaign.pools.preview import (
    BuildSettings,
    PoolChange,
    pooled_topics,
    preview_rebuild,
    stored_settings,
)
from focal.assessor.campaign.pools.statistics import database_pool_report
from focal.assessor.store.db import get_session
from focal.assessor.web.auth import organiser_required, signed_in_user
from focal.assessor.web.views.htmx import page_or_fragment, wants_fragment
from focal.pooling.forecast.ranking import summary_sentence
from focal.pooling.forecast.topics import MIN_JUDGED

blueprint = Blueprint("pools_admin", __name__, url_prefix="/organiser/pools")

METHODS = ("topn", "depth")
ORDERS = ("article", "rank", "random")


def _page(
    summaries: list[PoolSummary] | None = None,
    error: str | None = None,
    status: int = 200,
    notice: str | None = None,
    preview: tuple[BuildSettings, list[str] | None, list[PoolChange]] | None = None,
) -> ResponseReturnValue:
    session = get_session()
    topics = roster.topics_in_natural_order(session)
    forecast = campaign_forecast(session)
    return page_or_fragment(
        "organiser/pools.html",
        "pools",
        status,
        topics=topics,
        report=database_pool_report(session),
        orders=ordering.order_progress(session),
        order_form=ordering.order_form(session),
        forecast=forecast,
        forecast_summary=summary_sentence(forecast) if forecast else None,
        min_judged=MIN_JUDGED,
        policies=ordering.ORDERS,
        summaries=summaries,
        error=error,
        notice=notice,
        # A preview keeps what was asked in the form; otherwise the stored pools' settings.
        defaults=preview[0] if preview else stored_settings(session),
        preview=preview,
    )


@blueprint.get("")
@organiser_required
def page() -> ResponseReturnValue:
    """The build form, the stored pools and their statistics."""
    return _page()


def _number(field: str, default: int | None, low: int) -> int | None:
    text = request.form.get(field, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise CampaignError(f"{field}: expected a whole number, found {text!r}") from None
    if value < low:
        raise CampaignError(f"{field}: expected at least {low}, found {value}")
    return value


def _options() -> tuple[Method, int, Order, int, list[str] | None]:
    """The form as `build_pools` arguments (CampaignError naming a bad field)."""
    method = request.form.get("method", "topn")
    order = request.form.get("order", "article")
    if method not in METHODS:
        raise CampaignError(f"method: expected topn or depth, found {method!r}")
    if order not in ORDERS:
        raise CampaignError(f"order: expected article, rank or random, found {order!r}")
    if method == "depth":
        size = _number("depth", None, 1)
        if size is None:
            raise CampaignError("the depth method needs its depth K")
    else:
        size = _number("size", 500, 1)
    seed = _number("seed", 0, 0)
    topics = request.form.getlist("topic") or None
    return cast(Method, method), cast(int, size), cast(Order, order), cast(int, seed), topics


@blueprint.post("")
@organiser_required
def build() -> ResponseReturnValue:
    """Build (or rebuild) the pools; judgements stay, as with `focal pool build`.

    Replacing pools that exist (assessors may be judging them) needs `confirm=1`: without it the
    page shows what the rebuild would change and asks.
    """
    session = get_session()
    try:
        method, size, order, seed, topics = _options()
        if request.form.get("confirm") != "1" and pooled_topics(session, topics):
            settings = BuildSettings(method, size, order, seed)
            changes = preview_rebuild(session, settings, topics)
            return _page(preview=(settings, topics, changes))
        summaries = build_pools(session, method, size, order, seed, topics)
        if not summaries:
            raise CampaignError("no topic to pool: import topics first (or tick known ones)")
    except CampaignError as error:
        return _refused(error)
    session.commit()
    if wants_fragment():
        return _page(summaries)
    pooled = sum(summary.size for summary in summaries)
    flash(f"Pooled {len(summaries)} topic(s): {pooled} articles to judge.", "info")
    return redirect(url_for(".page"), 303)


@blueprint.post("/order")
@organiser_required
def judging_order() -> ResponseReturnValue:
    """Set the judging order of every pooled topic, or of the one chosen."""
    session = get_session()
    topic = request.form.get("topic", "").strip()
    try:
        seed = _number("policy_seed", 0, 0)
        budget = _number("budget", None, 1)
        changed = ordering.set_order(
            session,
            request.form.get("policy", ""),
            [topic] if topic else None,
            seed or 0,
            budget,
            signed_in_user().id,
        )
    except (CampaignError, ValueError) as error:
        return _refused(error)
    session.commit()
    message = f"Judging order of {len(changed)} topic(s): {request.form.get('policy')}."
    if wants_fragment():
        return _page(notice=message)
    flash(message, "info")
    return redirect(url_for(".page"), 303)


def _refused(error: Exception) -> ResponseReturnValue:
    """A form the data cannot satisfy: nothing kept, the reason beside the form (422) or
    flashed above the page."""
    get_session().rollback()
    if wants_fragment():
        return _page(error=str(error), status=422)
    flash(str(error), "error")
    return redirect(url_for(".page"), 303)
