"""An organiser switches the demo campaign to Thompson sampling in Chromium; the assessor's
"next" then opens the article the policy offers, as judgements arrive (focal.pooling.ordering)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from focal.assessor.campaign.pools.ordering import suggestion
from focal.assessor.store import db
from focal.assessor.store.models import Assignment

from ..conftest import Browse, LiveSite

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def log_in(browser: Browser, site: LiveSite, name: str, landing: str) -> Page:
    page = browser.new_context().new_page()
    page.goto(f"{site.url}/login")
    page.fill('input[name="name"]', name)
    page.fill('input[name="password"]', name)  # the demo's passwords are the names
    page.click('button[type="submit"]')
    page.wait_for_url(f"{site.url}{landing}")
    return page


def offered(site: LiveSite) -> str | None:
    """The article the topic's order offers the assessor now, from the database."""
    with db.session_scope(site.app) as session:
        assignment = session.get(Assignment, site.assignments["assessor"])
        assert assignment is not None
        choice = suggestion(session, assignment)
        assert choice is not None, "the topic has no adaptive order"
        return choice.article


def test_organiser_switches_to_thompson_and_next_follows_it(
    browser: Browser, demo_site: LiveSite
) -> None:
    organiser = log_in(browser, demo_site, "organiser", "/organiser/progress")
    organiser.goto(f"{demo_site.url}/organiser/pools")
    organiser.select_option("#order-policy", "thompson")
    organiser.fill("#order-seed", "7")
    organiser.click("text=Set the judging order")
    expect(organiser.locator("#pools .outcome.info")).to_contain_text("thompson")
    expect(organiser.locator("#judging-orders")).to_contain_text("thompson")

    page = log_in(browser, demo_site, "assessor", "/topics")
    assignment = demo_site.assignments["assessor"]
    page.goto(f"{demo_site.url}/assignments/{assignment}")
    first = offered(demo_site)
    assert first is not None
    expect(page.locator("tr[data-suggested]")).to_have_attribute("data-article", first)
    page.click("#suggested-next")
    page.wait_for_url(demo_site.article_url("assessor", first))
    ui = Browse(browser, demo_site)
    ui.ready(page)
    # x: not relevant, and on to what the policy offers with that judgement known.
    page.keyboard.press("x")
    page.wait_for_url(lambda url: url != demo_site.article_url("assessor", first))
    ui.ready(page)
    ui.wait_saved(page)
    second = offered(demo_site)
    assert second is not None and second != first
    assert page.url == demo_site.article_url("assessor", second)
