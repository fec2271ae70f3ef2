"""The organiser's Pools page shows the forecast (docs/forecast.md) and it follows the judgements:
an assessor judges an article in Chromium and the page, opened again, counts it in the
assessor's row and forecasts again from it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from focal.assessor.store import db
from focal.assessor.store.models import Assignment

from ..conftest import Browse, LiveSite
from .test_judging_order import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def assessor_row(page: Page, topic: str) -> Locator:
    """The judging-order table's row of the demo's assessor for `topic`."""
    rows = page.locator("#judging-orders tbody tr").filter(has_text=topic)
    return rows.filter(has=page.locator("td:nth-child(2)", has_text=re.compile(r"^assessor$")))


def test_the_pools_page_forecast_changes_after_a_judgement(
    browser: Browser, demo_site: LiveSite
) -> None:
    with db.session_scope(demo_site.app) as session:
        assignment = session.get(Assignment, demo_site.assignments["assessor"])
        assert assignment is not None
        topic = assignment.topic_id
    organiser = log_in(browser, demo_site, "organiser", "/organiser/progress")
    organiser.goto(f"{demo_site.url}/organiser/pools")
    expect(organiser.locator("#forecast-summary")).to_contain_text("The ranking is settled for")
    expect(organiser.locator("#forecast-topics")).to_contain_text(topic)
    row = assessor_row(organiser, topic)
    before = row.locator("td").nth(4).inner_text()

    page = log_in(browser, demo_site, "assessor", "/topics")
    page.goto(f"{demo_site.url}/assignments/{demo_site.assignments['assessor']}")
    article = page.locator("tr[data-article]").first.get_attribute("data-article")
    assert article is not None
    page.goto(demo_site.article_url("assessor", article))
    ui = Browse(browser, demo_site)
    ui.ready(page)
    page.keyboard.press("x")  # not relevant, and on
    page.wait_for_url(lambda url: url != demo_site.article_url("assessor", article))
    ui.wait_saved(page)

    organiser.goto(f"{demo_site.url}/organiser/pools")
    row = assessor_row(organiser, topic)
    expect(row.locator("td").nth(4)).not_to_have_text(before)
    judged = int(row.locator("td").nth(4).inner_text().split()[0])
    assert judged == int(before.split()[0]) + 1
    # The forecast column is computed again: an interval once 5 articles are judged.
    left = row.locator("td").nth(6).inner_text()
    assert ("[" in left) == (judged >= 5), left
